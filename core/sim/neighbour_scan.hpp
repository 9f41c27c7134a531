#pragma once
// The innermost loop of the simulation: fish against the candidates of the
// cells around them (UniformGrid::neighbourSpans), in one of two layouts.
//
// - Lanes over fish (scanList): eight consecutive fish in cell order mostly
//   share a row and lie within a few cells, so one pass over the union of
//   their 3x3 blocks, one candidate at a time, serves all eight, straight from
//   the sorted arrays: no copy, no padding, no per-fish setup, and each lane
//   ends holding its own fish's sums. A candidate outside a fish's own block
//   is beyond its radius and adds nothing. The union holds more candidates
//   than one block (about 66 against 46 at 7 neighbours per fish), which
//   costs less than the per-fish work it saves while blocks are small.
//   The pass walks only the union's fish that lie within reach of the box
//   around the lanes' fish (sim/reach_cull.hpp scanWithinReach): all that
//   could add anything.
//   Where the CPU has 512-bit vectors (the kernel's AVX-512 build), two such
//   groups side by side share one pass in sixteen lanes: on this project's
//   machine (AMD Zen 5) a candidate then costs about 2.4 ns for sixteen fish,
//   as much as for eight (a micro-benchmark of this loop).
// - Lanes over candidates (scanBlock): one fish at a time against its block,
//   copied once per cell into a run padded to whole groups of eight (Block),
//   the fish's eight partial sums added up by the caller. Each candidate is
//   one vector load instead of a broadcast, which wins in dense schools,
//   where a block holds hundreds of fish and the per-fish work is small
//   beside the scan. (Sixteen fish of one cell share their block as a union,
//   lanes over fish, whatever it holds: sim/fish_kernel_body.hpp.)
//
// Both are branch-free: every test (distance, field of view, separation
// radius) becomes a lane mask and the sums add only in the masked lanes (an
// AND, or a masked addition with AVX-512: math/lanes.hpp addWhere), so an unpredictable neighbour pattern costs no
// mispredictions, and an infinite or NaN value computed in a masked-out lane
// (a squared distance that overflows, a cone product) cannot leak into the
// sums. The offsets themselves are always finite, because positions are.
// Each fish is summed like any other candidate, and taken out by the caller.
//
// Determinism: which layout a fish gets depends on the eight fish of its
// lanes and on the group of sixteen they belong to (sim/fish_kernel_body.hpp
// perceiveGroup), and those on the fish order alone (the kernel's chunks
// are whole groups of sixteen). In either layout a fish's sums run in an
// order fixed by the spans (rows in a fixed order, each row in increasing
// column order), not by the thread count; candidates outside its block add
// +0, which leaves a sum's bits as they are (a sum that starts at +0 never
// becomes -0), so a wider union, as two groups scanned together have,
// changes nothing, and neither does leaving out candidates beyond reach. The
// core is compiled with -ffp-contract=off: no fused multiply-add in the AVX2
// and AVX-512 builds of the kernel and not in the generic one, so all give
// identical results.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "math/lanes.hpp"
#include "sim/grid.hpp"
#include "sim/rules.hpp"

namespace mirofish::scan {

// The lane mask type of a float lane type F (v8f: v8i, v16f: v16i).
template <typename F>
using MaskOf = decltype(F{} < F{});

// Sums over the perceived neighbours: one fish per lane (scanList), or one
// fish's partial sums (scanBlock). F is v8f, or v16f for two groups of eight
// fish scanned together (the kernel's AVX-512 build).
template <typename F>
struct LanesOf {
    MaskOf<F> seen{};  // minus the count: a set mask lane is -1
    F velX{}, velY{}, offX{}, offY{}, sepX{}, sepY{};
};
using Lanes = LanesOf<v8f>;

// The fish, one per lane (scanList), or one in every lane (scanBlock).
template <typename F>
struct ScanFishOf {
    F x, y;          // position
    F headX, headY;  // unit heading, or 0 when the cone is not used
    F coneLimit;     // rules::coneLimit of the half angle; -1 with a zero heading = all around
    F radius2;       // perception radius squared (per fish)
};
using ScanFish = ScanFishOf<v8f>;

template <typename F>
struct ScanSharedOf {
    const float* px;  // the fish arrays, sorted by cell, or a Block
    const float* py;
    const float* vx;
    const float* vy;
    F separationRadius2;
    F minDistance2;
    F width, height;  // for the minimum image when wrapping
};
using ScanShared = ScanSharedOf<v8f>;

// Candidates at (cx, cy) with velocities (cvx, cvy), lane for lane against
// the fish.
template <bool Wrap, typename F>
[[gnu::always_inline]] inline void perceive(LanesOf<F>& L, const ScanSharedOf<F>& s, const ScanFishOf<F>& f, F cx, F cy,
                                            F cvx, F cvy) {
    F dx = cx - f.x;
    F dy = cy - f.y;
    if constexpr (Wrap) {
        // Positions lie in [0, size): one conditional shift is the minimum
        // image. Only scans near a seam or in a small world take it
        // (UniformGrid::needsNearestImage); elsewhere it shifts nothing.
        dx = select(dx > 0.5f * s.width, dx - s.width, dx);
        dx = select(dx < -0.5f * s.width, dx + s.width, dx);
        dy = select(dy > 0.5f * s.height, dy - s.height, dy);
        dy = select(dy < -0.5f * s.height, dy + s.height, dy);
    }
    const Vec<2, F> offset{{dx, dy}};
    const F d2 = dx * dx + dy * dy;
    const Vec<2, F> heading{{f.headX, f.headY}};
    const MaskOf<F> seen = rules::inFieldOfView(heading, offset, d2, f.coneLimit) & (d2 < f.radius2);
    L.seen = countDownWhere(L.seen, seen);
    L.velX = addWhere(L.velX, seen, cvx);
    L.velY = addWhere(L.velY, seen, cvy);
    L.offX = addWhere(L.offX, seen, dx);
    L.offY = addWhere(L.offY, seen, dy);
    // rules::separationTerm; the offsets are finite (positions always are).
    const MaskOf<F> close = seen & (d2 < s.separationRadius2);
    const F weight = rules::separationWeight(d2, s.minDistance2);
    L.sepX = addProductWhere(L.sepX, close, dx, weight);
    L.sepY = addProductWhere(L.sepY, close, dy, weight);
}

// Lanes over fish: every candidate of a list of indices into the arrays (the
// spans' fish within reach, sim/reach_cull.hpp), in its order, against the
// fish of the lanes.
template <bool Wrap, typename F>
[[gnu::always_inline]] inline void scanList(LanesOf<F>& L, const ScanSharedOf<F>& s, const ScanFishOf<F>& f,
                                            std::span<const std::uint32_t> list) {
    for (const std::uint32_t j : list)
        perceive<Wrap>(L, s, f, broadcast<F>(s.px + j), broadcast<F>(s.py + j), broadcast<F>(s.vx + j),
                       broadcast<F>(s.vy + j));
}

// The candidates of one cell's 3x3 block (the spans of
// UniformGrid::neighbourSpans) copied into one run, padded to whole groups of
// eight with still fish far beyond any perception radius, for scanBlock.
// Filled once per cell (the fish are sorted by cell, so consecutive fish
// share it).
class Block {
public:
    // Copies the spans' fish from the sorted arrays; grows only when a block
    // is larger than any before (no allocation once the school has settled).
    [[gnu::always_inline]] void fill(const float* px, const float* py, const float* vx, const float* vy,
                                     const UniformGrid::Spans& spans) {
        const std::size_t padded = (spans.total + kLanes - 1) / kLanes * kLanes;
        if (px_.size() < padded + kLanes) grow(2 * padded + kLanes);
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
    // Out of line (sim/neighbour_scan.cpp), in the generic build: the AVX2
    // kernel must not instantiate std::vector's growth (sim/fish_kernel_body.hpp).
    void grow(std::size_t size);

    std::vector<float> px_, py_, vx_, vy_;
    std::size_t length_ = 0;
};

// Each thread's Block (one per thread, not per call: a chunk must not
// allocate, and the buffer keeps the size of the largest block seen).
Block& threadBlock();

// Eight consecutive candidates, in every group of eight lanes of F.
template <typename F>
[[gnu::always_inline]] inline F eightCandidates(const float* p) {
    if constexpr (kLaneCount<F> == kLanes)
        return loadLanes(p);
    else
        return loadTwice(p);
}

// Lanes over candidates: one fish (in every lane of f) against a whole Block,
// eight candidates at a time; lane k sums candidates k, k + 8, ... With
// sixteen lanes, two fish, one in each group of eight lanes, each summed
// exactly as alone.
template <bool Wrap, typename F>
[[gnu::always_inline]] inline void scanBlock(LanesOf<F>& L, const ScanSharedOf<F>& s, const ScanFishOf<F>& f,
                                             std::size_t length) {
    for (std::size_t b = 0; b < length; b += kLanes)
        perceive<Wrap>(L, s, f, eightCandidates<F>(s.px + b), eightCandidates<F>(s.py + b),
                       eightCandidates<F>(s.vx + b), eightCandidates<F>(s.vy + b));
}

}  // namespace mirofish::scan
