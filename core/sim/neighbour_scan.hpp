#pragma once
// The innermost loop of the simulation: fish against the candidates of the
// cells around them (UniformGrid::neighbourSpans), lanes over fish
// (scanList). Eight consecutive fish in cell order mostly share a row and
// lie within a few cells, so one pass over the union of their 3x3 blocks, one
// candidate at a time, serves all eight, straight from the sorted arrays: no
// copy, no padding, no per-fish setup, and each lane ends holding its own
// fish's sums. A candidate outside a fish's own block is beyond its radius
// and adds nothing. The pass walks only the union's fish that lie within
// reach of the box around the lanes' fish (sim/reach_cull.hpp
// scanWithinReach): all that could add anything.
// Where the CPU has 512-bit vectors (the kernel's AVX-512 build), two such
// groups side by side share one pass in sixteen lanes: on the AMD Zen 5 this
// was built on, a candidate then costs about 2.4 ns for sixteen fish, as
// much as for eight (a micro-benchmark of this loop).
//
// Dense schools, whose blocks hold hundreds of fish, were once scanned fish
// by fish, lanes over candidates, each fish against a copy of its own block
// (whole, not culled). With the cull, and sixteen lanes, lanes over fish
// took less time there too, on the Zen 5 on 2026-12-02 (lock-step, 1
// thread): 0.90-0.92 in article 000's formed school (step 7407), 0.95-0.98
// with the app's defaults (about 430 neighbours a fish), 0.96-0.99 at 30 and
// 100 fish a perception disc, 1.00-1.01 at 300 and 1000; 0.96 in both of
// article 000's scenes with the AVX2 build.
//
// The scan is branch-free: every test (distance, field of view, separation
// radius) becomes a lane mask and the sums add only in the masked lanes (an
// AND, or a masked addition with AVX-512: math/lanes.hpp addWhere), so an
// unpredictable neighbour pattern costs no mispredictions, and an infinite or
// NaN value computed in a masked-out lane (a squared distance that overflows,
// a cone product) cannot leak into the sums. The offsets themselves are
// always finite, because positions are. Each fish is summed like any other
// candidate, and taken out by the caller.
//
// Determinism: a fish's sums run in an order fixed by the spans (rows in a
// fixed order, each row in increasing column order), not by the thread
// count; candidates outside its block add +0, which leaves a sum's bits as
// they are (a sum that starts at +0 never becomes -0), so a wider union, as
// two groups scanned together have, changes nothing, and neither does
// leaving out candidates beyond reach. The core is compiled with
// -ffp-contract=off, so the compiler fuses no multiply-add of its own
// accord: the scan's four are written out (mulAdd, through rules::scanDot
// and addProductWhere), fused in the AVX2 and AVX-512 builds of the kernel,
// which therefore give identical results, and not in the generic build,
// whose results differ from theirs in the last bits (math/lanes.hpp mulAdd).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "math/lanes.hpp"
#include "sim/grid.hpp"
#include "sim/rules.hpp"

namespace mirofish::scan {

// The lane mask type of a float lane type F (v8f: v8i, v16f: v16i).
template <typename F>
using MaskOf = decltype(F{} < F{});

// Sums over the perceived neighbours, one fish per lane. F is v8f, or v16f
// for two groups of eight fish scanned together (the kernel's AVX-512 build).
template <typename F>
struct LanesOf {
    MaskOf<F> seen{};  // minus the count: a set mask lane is -1
    F velX{}, velY{}, offX{}, offY{}, sepX{}, sepY{};
};
using Lanes = LanesOf<v8f>;

// The fish, one per lane.
template <typename F>
struct ScanFishOf {
    F x, y;          // position
    F axisX, axisY;  // the cone's axis: the velocity, or 0 when the cone is not used
    F coneLimit;     // rules::coneLimit of the half angle times the axis's squared length; -1 with a zero axis = all around
    F radius2;       // perception radius squared (per fish)
};
using ScanFish = ScanFishOf<v8f>;

template <typename F>
struct ScanSharedOf {
    const float* px;  // the fish arrays, sorted by cell
    const float* py;
    const float* vx;
    const float* vy;
    F separationRadius2;
    F minDistance2;
    F width, height;  // for the minimum image when wrapping
};
using ScanShared = ScanSharedOf<v8f>;

// Which sums a pass over candidates adds: all of them, or, where the
// separation radius is well inside the perception radius, all but the
// separation over the candidates within reach, then the separation alone
// over those within its radius of the lanes' box (sim/reach_cull.hpp
// NearbyList::fillWithClose, scanWithinReach), the two side by side
// (scanListsApart), on CPUs where that pays (sim/fish_kernel.hpp
// SeparationScan). The separation's weight is a division, which keeps an
// Intel core's divider busy for most of a candidate's time, and in article
// 000's school the close list holds about a third of the candidates (0.365
// of them from step 0 to 7407; 0.312 with the app's defaults). Each sum
// meets its candidates in the same order either way, and those left out of
// the separation's list would have added +0, so the sums are the same, bit
// for bit.
enum class Pass { Everything, AllButSeparation, SeparationOnly };

// Candidates at (cx, cy) with velocities (cvx, cvy), lane for lane against
// the fish.
template <bool Wrap, Pass P = Pass::Everything, typename F>
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
    const F d2 = rules::scanDot(dx, dy, dx, dy);
    const F proj = rules::scanDot(f.axisX, f.axisY, dx, dy);
    const MaskOf<F> seen = rules::inFieldOfView(proj, d2, f.coneLimit) & belowLimit(d2, f.radius2);
    if constexpr (P != Pass::SeparationOnly) {
        L.seen = countDownWhere(L.seen, seen);
        L.velX = addWhere(L.velX, seen, cvx);
        L.velY = addWhere(L.velY, seen, cvy);
        L.offX = addWhere(L.offX, seen, dx);
        L.offY = addWhere(L.offY, seen, dy);
    }
    if constexpr (P != Pass::AllButSeparation) {
        // rules::separationWeight; the offsets are finite (positions always are).
        const MaskOf<F> close = seen & belowLimit(d2, s.separationRadius2);
        const F weight = rules::separationWeight(d2, s.minDistance2);
        L.sepX = addProductWhere(L.sepX, close, dx, weight);
        L.sepY = addProductWhere(L.sepY, close, dy, weight);
    }
}

// The candidate of index j into the arrays, against the fish of the lanes.
template <bool Wrap, Pass P = Pass::Everything, typename F>
[[gnu::always_inline]] inline void perceiveCandidate(LanesOf<F>& L, const ScanSharedOf<F>& s, const ScanFishOf<F>& f,
                                                     std::uint32_t j) {
    const F cvx = P == Pass::SeparationOnly ? F{} : broadcast<F>(s.vx + j);
    const F cvy = P == Pass::SeparationOnly ? F{} : broadcast<F>(s.vy + j);
    perceive<Wrap, P>(L, s, f, broadcast<F>(s.px + j), broadcast<F>(s.py + j), cvx, cvy);
}

// Lanes over fish: every candidate of a list of indices into the arrays (the
// spans' fish within reach, sim/reach_cull.hpp), in its order, against the
// fish of the lanes.
template <bool Wrap, Pass P = Pass::Everything, typename F>
[[gnu::always_inline]] inline void scanList(LanesOf<F>& L, const ScanSharedOf<F>& s, const ScanFishOf<F>& f,
                                            std::span<const std::uint32_t> list) {
    for (const std::uint32_t j : list) perceiveCandidate<Wrap, P>(L, s, f, j);
}

// Both passes of the separation apart at once: a candidate of the list
// within reach without the separation, and one of the close list with the
// separation alone, side by side while both lists last, so that the
// separation's division runs beside the other pass's work instead of after
// it. Each sum still meets its own list's candidates in order, so the sums
// are those of the two passes one after the other, bit for bit.
template <bool Wrap, typename F>
[[gnu::always_inline]] inline void scanListsApart(LanesOf<F>& L, const ScanSharedOf<F>& s, const ScanFishOf<F>& f,
                                                  std::span<const std::uint32_t> all,
                                                  std::span<const std::uint32_t> close) {
    const std::size_t both = std::min(all.size(), close.size());
    for (std::size_t i = 0; i < both; ++i) {
        perceiveCandidate<Wrap, Pass::AllButSeparation>(L, s, f, all[i]);
        perceiveCandidate<Wrap, Pass::SeparationOnly>(L, s, f, close[i]);
    }
    scanList<Wrap, Pass::AllButSeparation>(L, s, f, all.subspan(both));
    scanList<Wrap, Pass::SeparationOnly>(L, s, f, close.subspan(both));
}

}  // namespace mirofish::scan
