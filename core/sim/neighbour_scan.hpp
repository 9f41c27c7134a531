#pragma once
// The innermost loop of the simulation: one fish against a contiguous span of
// candidate fish, eight candidates at a time (math/lanes.hpp). Branch-free:
// every test (distance, field of view, separation radius) becomes a lane mask
// and the sums keep only the masked lanes (an AND, not a select), so an
// unpredictable neighbour pattern costs no mispredictions, and a NaN in a
// masked-out lane cannot leak into the sums. The tests that hold for few
// groups of eight only ("inside the span", "not myself") are paid only there:
// the last, partial group of a span, and the span that holds the fish itself.
//
// Determinism: lane k of the accumulators always sums the same candidates in
// the same order and the lanes are reduced in a fixed order, so the result is
// the same for every thread count and for the SSE and AVX2 builds of the
// kernel (the core is compiled with -ffp-contract=off: no fused multiply-add
// in one build and not in the other).
//
// Reads up to 7 floats past the end of a span; the fish arrays carry that
// much padding (FishArrays::kPadding).
#include <cstddef>
#include <cstdint>

#include "math/lanes.hpp"
#include "sim/rules.hpp"

namespace mirofish::scan {

// Per-lane partial sums over the perceived neighbours.
struct Lanes {
    v8i seen{};  // minus the count: a set mask lane is -1
    v8f velX{}, velY{}, offX{}, offY{}, sepX{}, sepY{};
};

// Broadcast to every lane once per fish (and ScanShared once per call), not
// in each span's loop.
struct ScanFish {
    v8f x, y;          // position
    v8f headX, headY;  // unit heading, or 0 when the cone is not used
    v8f coneLimit;     // rules::coneLimit of the half angle; -1 with a zero heading = all around
    v8f radius2;       // perception radius squared (per fish)
    std::int32_t self;  // own index in the arrays
};

struct ScanShared {
    const float* px;
    const float* py;
    const float* vx;
    const float* vy;
    v8f separationRadius2;
    v8f minDistance2;
    v8f width, height;  // for the minimum image when wrapping
};

// Candidates b .. b+7, those in `valid` only.
template <bool Wrap>
[[gnu::always_inline]] inline void scanGroup(Lanes& L, const ScanShared& s, const ScanFish& f, std::size_t b,
                                             v8i valid) {
    v8f dx = loadLanes(s.px + b) - f.x;
    v8f dy = loadLanes(s.py + b) - f.y;
    if constexpr (Wrap) {
        // Positions lie in [0, size): one conditional shift is the minimum image.
        dx = select(dx > 0.5f * s.width, dx - s.width, dx);
        dx = select(dx < -0.5f * s.width, dx + s.width, dx);
        dy = select(dy > 0.5f * s.height, dy - s.height, dy);
        dy = select(dy < -0.5f * s.height, dy + s.height, dy);
    }
    const VecLanes<2> offset{{dx, dy}};
    const v8f d2 = dx * dx + dy * dy;
    const VecLanes<2> heading{{f.headX, f.headY}};
    const v8i seen = valid & rules::inFieldOfView(heading, offset, d2, f.coneLimit) & (d2 < f.radius2);
    L.seen += seen;
    L.velX += keepWhere(seen, loadLanes(s.vx + b));
    L.velY += keepWhere(seen, loadLanes(s.vy + b));
    L.offX += keepWhere(seen, dx);
    L.offY += keepWhere(seen, dy);
    const v8i close = seen & (d2 < s.separationRadius2);
    const VecLanes<2> push = rules::separationTerm(offset, d2, s.minDistance2);
    L.sepX += keepWhere(close, push[0]);
    L.sepY += keepWhere(close, push[1]);
}

// Candidates [begin, end): whole groups of eight, then the rest masked.
// HoldsSelf: the span may contain the fish itself, which must not count.
template <bool Wrap, bool HoldsSelf>
[[gnu::always_inline]] inline void scanSpan(Lanes& L, const ScanShared& s, const ScanFish& f, std::size_t begin,
                                            std::size_t end) {
    const v8i iota = {0, 1, 2, 3, 4, 5, 6, 7};
    const auto notSelf = [&](std::size_t b) {
        if constexpr (HoldsSelf) return (iota + static_cast<std::int32_t>(b)) != f.self;
        return iota == iota;
    };
    std::size_t b = begin;
    for (; b + kLanes <= end; b += kLanes) scanGroup<Wrap>(L, s, f, b, notSelf(b));
    if (b < end) scanGroup<Wrap>(L, s, f, b, (iota < static_cast<std::int32_t>(end - b)) & notSelf(b));
}

}  // namespace mirofish::scan
