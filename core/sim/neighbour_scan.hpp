#pragma once
// The innermost loop of the simulation: one fish against the candidates of
// its cell's 3x3 block, eight candidates at a time (math/lanes.hpp).
// Branch-free: every test (distance, field of view, separation radius)
// becomes a lane mask and the sums keep only the masked lanes (an AND, not a
// select), so an unpredictable neighbour pattern costs no mispredictions, and
// a NaN in a masked-out lane cannot leak into the sums.
//
// The block's candidates are copied once per cell into one run padded with
// far-away fish to whole groups of eight (Block), so a fish's scan is one
// loop of whole groups with no per-group test of "inside the span" or "not
// myself" (scanned in place, each of the block's three row spans would end in
// a partial group that needs a mask). The fish itself is summed with the rest
// and taken out by the caller.
//
// Determinism: lane k of the accumulators always sums the same candidates in
// the same order (the block's content and order depend only on the cell) and
// the lanes are reduced in a fixed order, so the result is the same for every
// thread count and for the SSE and AVX2 builds of the kernel (the core is
// compiled with -ffp-contract=off: no fused multiply-add in one build and not
// in the other).
//
// Block::fill reads up to 7 floats past the end of a span; the fish arrays
// carry that much padding (FishArrays::kPadding).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "math/lanes.hpp"
#include "sim/grid.hpp"
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

// Candidates b .. b+7.
template <bool Wrap>
[[gnu::always_inline]] inline void scanGroup(Lanes& L, const ScanShared& s, const ScanFish& f, std::size_t b) {
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
    const v8i seen = rules::inFieldOfView(heading, offset, d2, f.coneLimit) & (d2 < f.radius2);
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

// The candidates of one cell's 3x3 block (the spans of
// UniformGrid::neighbourSpans) copied into one run, padded to whole groups of
// eight with still fish far beyond any perception radius. Filled once per
// cell (the fish are sorted by cell, so consecutive fish share it; about 5 do
// at 7 neighbours per fish), and small enough to stay in L1.
class Block {
public:
    // Copies the spans' fish from the sorted arrays; grows only when a block
    // is larger than any before (no allocation once the school has settled).
    [[gnu::always_inline]] void fill(const float* px, const float* py, const float* vx, const float* vy,
                                     const UniformGrid::Spans& spans) {
        const std::size_t padded = (spans.total + kLanes - 1) / kLanes * kLanes;
        if (px_.size() < padded + kLanes) {
            for (std::vector<float>* a : {&px_, &py_, &vx_, &vy_}) a->resize(2 * padded + kLanes);
        }
        // The destinations in locals: the stores (memcpy) could alias the
        // vectors' own pointers, which would then be reloaded at every store.
        float *const dpx = px_.data(), *const dpy = py_.data(), *const dvx = vx_.data(), *const dvy = vy_.data();
        std::size_t at = 0;
        for (int s = 0; s < spans.count; ++s) {
            const std::size_t n = spans.end[s] - spans.begin[s];
            const float *const spx = px + spans.begin[s], *const spy = py + spans.begin[s];
            const float *const svx = vx + spans.begin[s], *const svy = vy + spans.begin[s];
            // Whole groups: up to 7 past the span are read (the arrays are
            // padded) and written (the next span or the padding overwrites them).
            for (std::size_t j = 0; j < n; j += kLanes) {
                storeLanes(dpx + at + j, loadLanes(spx + j));
                storeLanes(dpy + at + j, loadLanes(spy + j));
                storeLanes(dvx + at + j, loadLanes(svx + j));
                storeLanes(dvy + at + j, loadLanes(svy + j));
            }
            at += n;
        }
        // Far enough that no radius reaches it, near enough that its squared
        // distance (and the cone's products) stay finite.
        constexpr float kFar = 1e18f;
        storeLanes(dpx + at, splat(kFar));
        storeLanes(dpy + at, splat(kFar));
        storeLanes(dvx + at, splat(0.0f));
        storeLanes(dvy + at, splat(0.0f));
        length_ = padded;
    }
    // The block as the scan reads it, with the step's constants.
    ScanShared shared(const ScanShared& constants) const {
        ScanShared s = constants;
        s.px = px_.data(), s.py = py_.data(), s.vx = vx_.data(), s.vy = vy_.data();
        return s;
    }
    std::size_t length() const { return length_; }

private:
    std::vector<float> px_, py_, vx_, vy_;
    std::size_t length_ = 0;
};

// One fish against the whole block. The block holds the fish itself, and it
// is summed like any other candidate: the caller takes it out again
// (sim/fish_kernel.cpp), which costs less once per fish than a mask per group.
template <bool Wrap>
[[gnu::always_inline]] inline void scanBlock(Lanes& L, const ScanShared& s, const ScanFish& f, std::size_t length) {
    for (std::size_t b = 0; b < length; b += kLanes) scanGroup<Wrap>(L, s, f, b);
}

}  // namespace mirofish::scan
