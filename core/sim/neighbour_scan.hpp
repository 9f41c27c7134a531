#pragma once
// The innermost loop of the simulation: one fish against a contiguous span of
// candidate fish, eight candidates at a time (math/lanes.hpp). Branch-free:
// every test (distance, field of view, separation radius, "not myself",
// "inside the span") becomes a lane mask and the sums take selects, so an
// unpredictable neighbour pattern costs no mispredictions, and a NaN in a
// masked-out lane cannot leak into the sums.
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
    v8f count{}, velX{}, velY{}, offX{}, offY{}, sepX{}, sepY{};
};

struct ScanFish {
    float x, y;          // position
    float headX, headY;  // unit heading, or 0 when the cone is not used
    float cosHalf;       // cone half-angle cosine; negative with a zero heading = all around
    float radius2;       // perception radius squared (per fish)
    std::int32_t self;   // own index in the arrays
};

struct ScanShared {
    const float* px;
    const float* py;
    const float* vx;
    const float* vy;
    float separationRadius2;
    float minDistance2;
    float width, height;  // for the minimum image when wrapping
};

template <bool Wrap>
[[gnu::always_inline]] inline void scanSpan(Lanes& L, const ScanShared& s, const ScanFish& f, std::size_t begin,
                                            std::size_t end) {
    const v8i iota = {0, 1, 2, 3, 4, 5, 6, 7};
    const VecLanes<2> heading{{splat(f.headX), splat(f.headY)}};
    const v8f zero{};
    for (std::size_t b = begin; b < end; b += kLanes) {
        v8f dx = loadLanes(s.px + b) - f.x;
        v8f dy = loadLanes(s.py + b) - f.y;
        if constexpr (Wrap) {
            // Positions lie in [0, size): one conditional shift is the minimum image.
            dx = select(dx > 0.5f * s.width, dx - s.width, dx);
            dx = select(dx < -0.5f * s.width, dx + s.width, dx);
            dy = select(dy > 0.5f * s.height, dy - s.height, dy);
            dy = select(dy < -0.5f * s.height, dy + s.height, dy);
        }
        const v8f d2 = dx * dx + dy * dy;
        const v8i cone = rules::inFieldOfView(heading, VecLanes<2>{{dx, dy}}, d2, f.cosHalf);
        const v8i index = iota + static_cast<std::int32_t>(b);
        const v8i valid = (index < static_cast<std::int32_t>(end)) & (index != f.self);
        const v8i seen = valid & cone & (d2 < f.radius2);
        L.count += select(seen, 1.0f, zero);
        L.velX += select(seen, loadLanes(s.vx + b), zero);
        L.velY += select(seen, loadLanes(s.vy + b), zero);
        L.offX += select(seen, dx, zero);
        L.offY += select(seen, dy, zero);
        const v8i close = seen & (d2 < s.separationRadius2);
        const VecLanes<2> push = rules::separationTerm(VecLanes<2>{{dx, dy}}, d2, s.minDistance2);
        L.sepX += select(close, push[0], zero);
        L.sepY += select(close, push[1], zero);
    }
}

}  // namespace mirofish::scan
