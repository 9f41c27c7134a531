#pragma once
// The kernel's body, compiled once per instruction set: included by
// sim/fish_kernel_generic.cpp (any x86-64), sim/fish_kernel_avx2.cpp (built
// with -mavx2) and sim/fish_kernel_avx512.cpp (with AVX-512, where it works
// on sixteen fish at a time, and steers thirty-two at once: kSixteenLanes,
// runBlocks), each of which names its own
// entry point; see sim/fish_kernel.cpp for the choice between them.
// Everything here has internal linkage (the anonymous namespace) and the
// entries are flattened, so no function compiled for AVX2 or AVX-512 is ever
// shared with the rest of the program: the linker keeps one copy of an inline
// function, and an AVX2 copy picked for the generic code would crash CPUs
// without AVX2. (The few functions kept out of line, [[gnu::noinline]], are
// local to their object, and what they call from other headers is marked
// always_inline: neither compiler is bound to inline it there otherwise, and
// clang 14 did not.) The tests "kernel: the AVX2 object defines nothing but
// its entry" and its AVX-512 twin check that.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "math/hash.hpp"
#include "math/lane_pairs.hpp"
#include "sim/fish_kernel.hpp"
#include "sim/neighbour_scan.hpp"
#include "sim/obstacle_exit.hpp"
#include "sim/reach_cull.hpp"
#include "sim/rules.hpp"

namespace mirofish {

namespace {

using rules::kSteerRate;
template <typename F>
using VOf = Vec<2, F>;  // eight or sixteen fish at once

// Keep fish inside the world after they moved. Soft mode has a backstop one
// margin outside the walls, so even absurd settings cannot lose a fish.
template <typename F>
[[gnu::always_inline]] inline void reflect(F& x, F& vel, float lo, float hi) {
    const MaskOf<F> below = x < lo, above = x > hi;
    x = select(below, minOf(lo + (lo - x), splat<F>(hi)), select(above, maxOf(hi - (x - hi), splat<F>(lo)), x));
    vel = select(below, absOf(vel), select(above, -absOf(vel), vel));
}

template <typename F>
[[gnu::always_inline]] inline void wrapInto(F& x, float size) {
    x -= floorOf(x / size) * size;
    // A hair below 0 rounds up to size; NaN goes to 0 too, and so does the
    // rounding of astronomically large positions (x / size near 2^24 and up).
    x = select(maskAnd(x >= 0.0f, x < size), x, 0.0f);
}

template <typename F>
[[gnu::always_inline]] inline void applyBoundary(const StepConstants& k, VOf<F>& p, VOf<F>& v) {
    switch (k.boundary) {
        case BoundaryMode::Wrap:
            wrapInto(p[0], k.width);
            wrapInto(p[1], k.height);
            break;
        case BoundaryMode::Bounce:
            reflect(p[0], v[0], 0.0f, k.width);
            reflect(p[1], v[1], 0.0f, k.height);
            break;
        case BoundaryMode::Soft:
            reflect(p[0], v[0], -k.boundaryMargin, k.width + k.boundaryMargin);
            reflect(p[1], v[1], -k.boundaryMargin, k.height + k.boundaryMargin);
            break;
    }
}

template <typename F>
[[gnu::always_inline]] inline VOf<F> splatVec(const Vec2& a) {
    return VOf<F>{{splat<F>(a[0]), splat<F>(a[1])}};
}

// The noise field's lane function takes eight or sixteen lanes; a pair of
// sixteen (math/lane_pairs.hpp) goes half by half.
template <typename F>
[[gnu::always_inline]] inline VOf<F> noiseAt(const NoiseField& noise, const F& x, const F& y) {
    if constexpr (std::is_same_v<F, v32f>) {
        const VOf<v16f> lo = noise.sample(x.lo, y.lo), hi = noise.sample(x.hi, y.hi);
        return VOf<F>{{F{lo[0], hi[0]}, F{lo[1], hi[1]}}};
    } else {
        return noise.sample(x, y);
    }
}

// The fish left deeply inside an obstacle take the exact way out, one by
// one, from where their move had taken them (sim/obstacle_exit.hpp; where
// there is none near, the pushes stand), and are kept within the walls
// again (a way out past a wrapping world's seam wraps). Only those fish: the
// rest of the group keep the kernel's pushes, as the builds group the fish
// differently. Out of line: reached only in the few groups where obstacles
// overlap or meet a wall.
template <typename F>
[[gnu::noinline]] void leaveObstaclesOneByOne(const StepConstants& k, std::span<const Obstacle> obstacles,
                                              const std::uint32_t* ids, const MaskOf<F>& deep, const VOf<F>& moved,
                                              const VOf<F>& movedVelocity, VOf<F>& p, VOf<F>& v) {
    constexpr int kCount = static_cast<int>(sizeof(F) / sizeof(float));
    std::int32_t isDeep[kCount];
    static_assert(sizeof isDeep == sizeof deep);
    std::memcpy(isDeep, &deep, sizeof isDeep);
    float px[kCount], py[kCount], vx[kCount], vy[kCount], mx[kCount], my[kCount], mvx[kCount], mvy[kCount];
    storeLanes(px, p[0]), storeLanes(py, p[1]), storeLanes(vx, v[0]), storeLanes(vy, v[1]);
    storeLanes(mx, moved[0]), storeLanes(my, moved[1]), storeLanes(mvx, movedVelocity[0]), storeLanes(mvy, movedVelocity[1]);
    for (int l = 0; l < kCount; ++l) {
        Vec2 pl{{mx[l], my[l]}}, vl{{mvx[l], mvy[l]}};
        if (isDeep[l] && leaveObstacles(k, obstacles, pl, vl, searchesFar(k, ids[l])))
            px[l] = pl[0], py[l] = pl[1], vx[l] = vl[0], vy[l] = vl[1];
    }
    p = VOf<F>{{loadLanes<F>(px), loadLanes<F>(py)}};
    v = VOf<F>{{loadLanes<F>(vx), loadLanes<F>(vy)}};
    applyBoundary(k, p, v);
}

// Fish never end a step inside an obstacle, nor past the walls: each
// obstacle pushes a fish inside it out to its surface, dropping the inward
// part of the velocity, and then the walls keep it in the world.
template <typename F>
[[gnu::always_inline]] inline void keepOutOfObstaclesAndWithinWalls(const StepConstants& k,
                                                                    std::span<const Obstacle> obstacles,
                                                                    const std::uint32_t* ids, VOf<F>& p, VOf<F>& v) {
    const VOf<F> moved = p, movedVelocity = v;
    for (const Obstacle& o : obstacles) {
        const VOf<F> out = displacement(k, splatVec<F>(o.centre), p);
        const F d2 = lengthSquared(out);
        const MaskOf<F> inside = d2 < o.radius * o.radius;
        VOf<F> n = normalizedOrZero(out);
        n = selectVec(lengthSquared(n) > 0.5f, n, VOf<F>{{splat<F>(1.0f), splat<F>(0.0f)}});
        p = selectVec(inside, p + n * (o.radius - sqrtOf(d2)), p);
        const F inward = dot(v, n);
        v = selectVec(inside & (inward < 0.0f), v - n * inward, v);
    }
    applyBoundary(k, p, v);
    // A push out of one obstacle may have landed the fish in another (or in
    // the obstacle's own copy across a wrapping world's seam), and a wall may
    // have bounced it back into the one it left.
    if (!obstacles.empty()) {
        MaskOf<F> deep{};
        for (const Obstacle& o : obstacles) deep = maskOr(deep, deeplyInside(k, o, p));
        if (!noneOf(deep)) leaveObstaclesOneByOne(k, obstacles, ids, deep, moved, movedVelocity, p, v);
    }
}

// Influences besides the rules, in units of maxSpeed per reference step.
template <typename F>
[[gnu::always_inline]] inline VOf<F> fieldsAndObstacles(const KernelInput& in, const VOf<F>& p) {
    const StepConstants& k = *in.k;
    VOf<F> extra{};
    for (const ForceField& field : in.fields) {
        const VOf<F> toCentre = displacement(k, p, splatVec<F>(field.position));
        const F falloff = rules::linearFalloff(length(toCentre), field.radius);
        const VOf<F> u = normalizedOrZero(toCentre);
        VOf<F> dir = u;
        if (field.kind == FieldKind::Repel) dir = -u;
        if (field.kind == FieldKind::Vortex) dir = VOf<F>{{-u[1], u[0]}};
        extra += dir * (falloff * field.strength);
    }
    for (const Obstacle& o : in.obstacles) {
        const VOf<F> away = displacement(k, splatVec<F>(o.centre), p);
        const F push = rules::softWallPush(length(away) - o.radius, k.obstacleMargin);
        extra += normalizedOrZero(away) * (push * k.obstacleWeight);
    }
    return extra;
}

// What a fish perceived, one fish per lane.
template <typename F>
struct PerceivedOf {
    F count, velX, velY, offX, offY, sepX, sepY;
};
using Perceived = PerceivedOf<v8f>;

template <typename F>
[[gnu::always_inline]] inline PerceivedOf<F> perceivedOf(const scan::LanesOf<F>& L) {
    return {__builtin_convertvector(-L.seen, F), L.velX, L.velY, L.offX, L.offY, L.sepX, L.sepY};
}

// `from` in the lanes of `take`, `into` elsewhere.
[[gnu::always_inline]] inline Perceived merge(v8i take, const Perceived& from, const Perceived& into) {
    return {select(take, from.count, into.count), select(take, from.velX, into.velX),
            select(take, from.velY, into.velY),   select(take, from.offX, into.offX),
            select(take, from.offY, into.offY),   select(take, from.sepX, into.sepX),
            select(take, from.sepY, into.sepY)};
}

// Two groups' sums side by side.
[[gnu::always_inline]] inline PerceivedOf<v16f> joinedSums(const Perceived& a, const Perceived& b) {
    return {joined(a.count, b.count), joined(a.velX, b.velX), joined(a.velY, b.velY), joined(a.offX, b.offX),
            joined(a.offY, b.offY),   joined(a.sepX, b.sepX), joined(a.sepY, b.sepY)};
}

// Whether this build works on sixteen fish at a time (two groups of eight):
// where the target has 512-bit vectors, which on the AMD Zen 5 this was
// built on cost about as much per instruction as 256-bit ones. On an Intel
// Xeon (Ice Lake, 2026-12-03) too the AVX2 build took 1.42-1.90 times as
// long as this one (lock-step, 1 thread).
#ifdef __AVX512F__
inline constexpr bool kSixteenLanes = true;
#else
inline constexpr bool kSixteenLanes = false;
#endif

// The same arrays and constants, for sixteen lanes.
[[gnu::always_inline]] inline scan::ScanSharedOf<v16f> widened(const scan::ScanShared& s) {
    const auto wide = [](v8f x) { return joined(x, x); };
    return {s.px, s.py, s.vx, s.vy, wide(s.separationRadius2), wide(s.minDistance2), wide(s.width), wide(s.height)};
}

// The sums an out-of-line scan returns, as a copy: returned by name, the
// sums were built in the caller's memory (the named return value), which GCC
// 12 cleared with a rep stos of 448 bytes before every scan (2.5 % of the
// sixteen-lane scan's time at the bench's constant density), where a local
// starts as zeroed registers.
[[gnu::always_inline]] inline scan::LanesOf<v16f> returnedSums(const scan::LanesOf<v16f>& lanes) { return lanes; }

// One group of fish (eight lanes, or sixteen: two groups of eight) as read
// from the old state, with what the scan and the steering both need.
template <typename F>
struct Group {
    using I = MaskOf<F>;
    std::size_t b;  // the first fish
    int count;      // fish in the group (all lanes but at the end)
    I live;         // lanes past the last fish compute on padding and are not counted
    VOf<F> p, v;
    UnsignedOf<F> ids;
    VariationDraws<F> draw;
    I scaredNow, alarmed;
    F alarmLeft, maxSpeed, radius;
    VOf<F> coneAxis;  // the velocity, or 0 without a cone (rules::hasConeAxis)
    F coneLimit;
    I cellX, cellY;
    // The influences that need no neighbours, computed before the scan, so
    // that their chains of operations run beside it instead of after it,
    // in finishGroup (lock-step on 1 thread: 0.97-1.00 of the time at
    // constant density, 0.98 for article 000; the same values):
    VOf<F> extra;   // predators, fields, obstacles, walls and wander, in units of maxSpeed per reference step
    VOf<F> noise;   // currents and jitter, px/s^2

    scan::ScanFishOf<F> scanned() const { return {p[0], p[1], coneAxis[0], coneAxis[1], coneLimit, radius * radius}; }
};

template <typename F>
[[gnu::always_inline]] inline F factorOf(const StepConstants& k, F draw) {
    return 1.0f + draw * k.variation;
}

template <typename F>
[[gnu::always_inline]] inline Group<F> startGroup(const KernelInput& in, std::size_t b, std::size_t end) {
    using I = MaskOf<F>;
    const StepConstants& k = *in.k;
    const FishArrays& f = *in.cur;
    const UniformGrid& g = *in.grid;
    Group<F> G;
    G.b = b;
    G.count = static_cast<int>(std::min<std::size_t>(kLaneCount<F>, end - b));
    G.live = iotaLanes<I>() < G.count;
    G.p = VOf<F>{{loadLanes<F>(&f.px[b]), loadLanes<F>(&f.py[b])}};
    G.v = VOf<F>{{loadLanes<F>(&f.vx[b]), loadLanes<F>(&f.vy[b])}};
    std::memcpy(&G.ids, &f.id[b], sizeof G.ids);
    // Per-fish variation: fixed draws in [-1, 1) scaled by the live amount.
    G.draw = variationDraws(G.ids, k.variationKey);

    // Predators scare (from the old state): repulsion and alarm.
    VOf<F> interaction{};
    G.scaredNow = I{};
    for (const Predator& pred : in.predators) {
        const VOf<F> away = displacement(k, splatVec<F>(pred.position), G.p);
        const F falloff = rules::linearFalloff(length(away), k.predatorRadius);
        G.scaredNow |= falloff > 0.0f;
        interaction += normalizedOrZero(away) * (falloff * k.predatorRepulsion);
    }
    G.alarmLeft = in.alarmsStayClear ? splat<F>(0.0f) : loadLanes<F>(&f.alarm[b]);
    G.alarmed = G.scaredNow | (G.alarmLeft > 0.0f);
    G.maxSpeed = k.maxSpeed * factorOf(k, G.draw.speed) * select(G.alarmed, 1.0f + k.alarmSpeedBoost, 1.0f);
    G.radius = k.perception * factorOf(k, G.draw.radius);

    // The cone around the velocity itself, its limit scaled by the squared
    // speed (rules::inFieldOfView): no unit heading to compute.
    const F speed2 = lengthSquared(G.v);
    const I useCone = rules::hasConeAxis(speed2) & (k.fovEverywhere ? 0 : -1);
    G.coneAxis = selectVec(useCone, G.v, VOf<F>{});
    G.coneLimit = select(useCone, k.fovLimit * speed2, -1.0f);  // -1 with a zero axis: all around
    G.cellX = halfByHalf([&](const auto& x) { return g.cellX(x); }, G.p[0]);
    G.cellY = halfByHalf([&](const auto& y) { return g.cellY(y); }, G.p[1]);

    const VOf<F>& p = G.p;
    G.extra = interaction + fieldsAndObstacles(in, p);
    if (k.boundary == BoundaryMode::Soft) {
        const VOf<F> wall{
            {rules::softWallPush(p[0], k.boundaryMargin) - rules::softWallPush(k.width - p[0], k.boundaryMargin),
             rules::softWallPush(p[1], k.boundaryMargin) - rules::softWallPush(k.height - p[1], k.boundaryMargin)}};
        G.extra += wall * k.boundaryWeight;
    }
    G.extra += rules::wanderDirection(G.draw.wanderPhase, k.wanderPhaseCos, k.wanderPhaseSin) * k.wanderAmp;
    // Noise: coherent currents plus a tiny per-fish jitter, in px/s^2.
    // The id's stream keyed by the step; one hash gives both components.
    const UnsignedOf<F> h = idHash(G.ids, k.jitterKey);
    const VOf<F> jitter{{highHalfDraw(h), lowHalfDraw(h)}};
    G.noise = noiseAt(*in.noise, p[0], p[1]) * k.noiseAmp + jitter * k.jitterAmp;
    return G;
}

// Eight lanes of a group, as the scan sees them.
struct Eight {
    scan::ScanFish fish;
    v8i cellX, cellY;
    int count;  // fish in these lanes
    // All eight lanes are one run (see perceiveEight). The fish are in cell
    // order (this step's grid sorted these very positions, row by row), so a
    // run's first and last lanes hold its first and last column, and usually
    // all eight lanes are one run: that takes one test.
    bool oneRun() const {
        return count == kLanes && cellY[kLanes - 1] == cellY[0] && cellX[kLanes - 1] - cellX[0] < kRunColumns;
    }
};

[[gnu::always_inline]] inline Eight eightOf(const Group<v8f>& G) { return {G.scanned(), G.cellX, G.cellY, G.count}; }

// Sixteen lanes of a group, as the scan sees them.
struct Sixteen {
    scan::ScanFishOf<v16f> fish;
    v16i cellX, cellY;
    int count;  // fish in these lanes
};

[[gnu::always_inline]] inline Sixteen sixteenOf(const Group<v16f>& G) { return {G.scanned(), G.cellX, G.cellY, G.count}; }

// The low (h = 0) or high (h = 1) sixteen lanes of a pair's thirty-two.
[[gnu::always_inline]] inline Sixteen sixteenOf(const Group<v32f>& G, int h) {
    const scan::ScanFishOf<v32f> f = G.scanned();
    const auto half = [h](const auto& pair) { return h == 0 ? pair.lo : pair.hi; };
    return {{half(f.x), half(f.y), half(f.axisX), half(f.axisY), half(f.coneLimit), half(f.radius2)},
            half(G.cellX),
            half(G.cellY),
            std::clamp(G.count - h * 2 * kLanes, 0, 2 * kLanes)};
}

// The low (h = 0) or high (h = 1) eight lanes of sixteen.
[[gnu::always_inline]] inline Eight eightOf(const Sixteen& S, int h) {
    const scan::ScanFishOf<v16f>& f = S.fish;
    return {{halfOf(f.x, h), halfOf(f.y, h), halfOf(f.axisX, h), halfOf(f.axisY, h), halfOf(f.coneLimit, h),
             halfOf(f.radius2, h)},
            halfOf(S.cellX, h),
            halfOf(S.cellY, h),
            std::clamp(S.count - h * kLanes, 0, kLanes)};
}

// Perceive (sim/neighbour_scan.hpp): runs of lanes that share a row and a few
// columns, each scanned once, lanes over fish. Lanes past the last fish are
// in no run and sum nothing.
template <bool Wrap>
[[gnu::always_inline]] inline Perceived perceiveEight(const Eight& E, const UniformGrid& g, const scan::ScanShared& shared,
                                                      scan::NearbyList& nearby, std::uint64_t& candidates) {
    const v8i iota = iotaLanes<v8i>();
    const bool oneRun = E.oneRun();
    Perceived sums{};
    for (int l = 0; l < E.count;) {
        int e = oneRun ? kLanes : l + 1;
        while (e < E.count && E.cellY[e] == E.cellY[l] && E.cellX[e] - E.cellX[l] < kRunColumns) ++e;
        const UniformGrid::Spans spans = g.neighbourSpans(E.cellX[l], E.cellX[e - 1], E.cellY[l]);
        const v8i inRun = (iota >= l) & (iota < e);
        scan::Lanes lanes;
        const bool images = Wrap && g.needsNearestImage(E.cellX[l], E.cellX[e - 1], E.cellY[l]);
        const std::size_t examined =
            images ? scan::scanWithinReach<Wrap, Wrap>(lanes, shared, E.fish, inRun, spans, nearby)
                   : scan::scanWithinReach<Wrap, false>(lanes, shared, E.fish, inRun, spans, nearby);
        candidates += std::uint64_t{examined} * static_cast<std::uint64_t>(e - l);
        const Perceived run = perceivedOf(lanes);
        sums = (l == 0 && e == kLanes) ? run : merge(inRun, run, sums);
        l = e;
    }
    return sums;
}

template <bool Wrap>
[[gnu::always_inline]] inline Perceived perceiveGroup(const KernelInput& in, const Group<v8f>& G,
                                                      const scan::ScanShared& shared, scan::NearbyList& nearby,
                                                      std::uint64_t& candidates) {
    return perceiveEight<Wrap>(eightOf(G), *in.grid, shared, nearby, candidates);
}

// The sixteen-lane scan of two groups of eight (all sixteen lanes hold a
// fish), out of line: inlined into the kernel, GCC 12 kept its sums in
// memory, a load and a store per sum and candidate, which made it cost as
// much as two groups scanned apart. Sets examined to the candidates it walked
// per fish. Images: as for scan::scanWithinReach. Apart: the separation in a
// pass of its own where the close list is short (scan::Pass,
// KernelInput::separationApart), a constant in each copy of this function,
// so that the scan of a step that never takes it apart (the bench's
// constant-density scene) is compiled as if the two passes did not exist.
// Only the sixteen lanes take it apart: there the 512-bit division keeps an
// Intel core's divider busy for most of a candidate's time; a 256-bit one,
// for half as long, does not, and eight lanes with the separation apart took
// the AVX2 build 1.03 of the time in article 000 (lock-step, 1 thread,
// 2026-12-05).
template <bool Wrap, bool Images, bool Apart>
[[gnu::noinline]] scan::LanesOf<v16f> scanSixteen(const scan::ScanSharedOf<v16f>& shared,
                                                  const scan::ScanFishOf<v16f>& fish, const UniformGrid::Spans& spans,
                                                  scan::NearbyList& nearby, std::size_t& examined) {
    scan::LanesOf<v16f> lanes;
    examined = scan::scanWithinReach<Wrap, Images, Apart>(lanes, shared, fish, v16i{} - 1, spans, nearby);
    return returnedSums(lanes);
}

// Sixteen lanes: where all sixteen fish lie in one row, within
// 2 * kRunColumns columns, one scan in sixteen lanes over the union of their
// blocks. Each run of each group of eight would be scanned on its own over
// part of that union (perceiveEight): every fish meets the candidates of its
// own block in the same order as there, and the rest add +0
// (sim/neighbour_scan.hpp), so the sums are those of perceiveEight, bit for
// bit. Otherwise each group of eight as alone.
template <bool Wrap>
[[gnu::always_inline]] inline PerceivedOf<v16f> perceiveSixteen(const KernelInput& in, const Sixteen& S,
                                                                const scan::ScanShared& shared,
                                                                scan::NearbyList& nearby, std::uint64_t& candidates) {
    const UniformGrid& g = *in.grid;
    const Eight a = eightOf(S, 0), b = eightOf(S, 1);
    // The fish are in cell order, row by row: the first and the last bound the rest.
    if (b.count == kLanes && b.cellY[kLanes - 1] == a.cellY[0] && b.cellX[kLanes - 1] - a.cellX[0] < 2 * kRunColumns) {
        const UniformGrid::Spans spans = g.neighbourSpans(a.cellX[0], b.cellX[kLanes - 1], a.cellY[0]);
        std::size_t examined = 0;
        const bool images = Wrap && g.needsNearestImage(a.cellX[0], b.cellX[kLanes - 1], a.cellY[0]);
        const scan::ScanSharedOf<v16f> wide = widened(shared);
        const auto scanned = [&]<bool Images>() {
            return in.separationApart ? scanSixteen<Wrap, Images, true>(wide, S.fish, spans, nearby, examined)
                                      : scanSixteen<Wrap, Images, false>(wide, S.fish, spans, nearby, examined);
        };
        const PerceivedOf<v16f> seen =
            perceivedOf(images ? scanned.template operator()<Wrap>() : scanned.template operator()<false>());
        candidates += std::uint64_t{examined} * 2 * kLanes;
        return seen;
    }
    const Perceived low = perceiveEight<Wrap>(a, g, shared, nearby, candidates);
    return joinedSums(low, perceiveEight<Wrap>(b, g, shared, nearby, candidates));
}

template <bool Wrap>
[[gnu::always_inline]] inline PerceivedOf<v16f> perceiveGroup(const KernelInput& in, const Group<v16f>& G,
                                                              const scan::ScanShared& shared, scan::NearbyList& nearby,
                                                              std::uint64_t& candidates) {
    return perceiveSixteen<Wrap>(in, sixteenOf(G), shared, nearby, candidates);
}

// A pair's two groups of sixteen are scanned one after the other, each as
// alone; only their steering runs side by side.
template <bool Wrap>
[[gnu::always_inline]] inline PerceivedOf<v32f> perceiveGroup(const KernelInput& in, const Group<v32f>& G,
                                                              const scan::ScanShared& shared, scan::NearbyList& nearby,
                                                              std::uint64_t& candidates) {
    const PerceivedOf<v16f> a = perceiveSixteen<Wrap>(in, sixteenOf(G, 0), shared, nearby, candidates);
    const PerceivedOf<v16f> b = perceiveSixteen<Wrap>(in, sixteenOf(G, 1), shared, nearby, candidates);
    return {{a.count, b.count}, {a.velX, b.velX}, {a.velY, b.velY}, {a.offX, b.offX},
            {a.offY, b.offY},   {a.sepX, b.sepX}, {a.sepY, b.sepY}};
}

// A chunk's statistics, summed lane by lane in eight lanes while it runs and
// across the lanes once at its end (ChunkStats): a group of sixteen adds its
// two halves in order, so every build makes the same additions.
struct LaneStats {
    v8f neighbours{}, separation{}, alignment{}, cohesion{};
    v8u alarmBits{};  // every bit of the live fish's new alarms, or-ed together
};
// Each eight lanes of x in order: x itself, the halves of sixteen, the four
// eights of a pair.
template <typename Fn>
[[gnu::always_inline]] inline void eachEight(v8f x, Fn fn) {
    fn(x);
}
template <typename Fn>
[[gnu::always_inline]] inline void eachEight(v16f x, Fn fn) {
    fn(halfOf(x, 0));
    fn(halfOf(x, 1));
}
template <typename Fn>
[[gnu::always_inline]] inline void eachEight(const v32f& x, Fn fn) {
    eachEight(x.lo, fn);
    eachEight(x.hi, fn);
}
template <typename F>
[[gnu::always_inline]] inline void addLanes(v8f& sum, const F& x) {
    eachEight(x, [&](v8f e) { sum += e; });
}
template <typename F>
[[gnu::always_inline]] inline void orLanes(v8u& bits, const F& x) {
    eachEight(x, [&](v8f e) { bits |= (v8u)e; });
}

// Everything after the perception: steering, integration, the fish's memory.
// Out of line, so that GCC allocates its registers for it alone: inlined into
// the chunk's loop, the sixteen-lane build kept more of its values on the
// stack and took 1.03 times as long (no difference in the AVX2 build).
// The AVX-512 build runs it on a pair of groups of sixteen (F = v32f,
// math/lane_pairs.hpp): its divisions and square roots form a few long
// chains, each operation waiting on the one before, and the chains of two
// independent groups run side by side.
template <typename F>
[[gnu::noinline]] void finishGroup(const KernelInput& in, const Group<F>& G, const PerceivedOf<F>& sums,
                                    LaneStats& stats) {
    using I = MaskOf<F>;
    using W = VOf<F>;
    const StepConstants& k = *in.k;
    FishArrays& f = *in.cur;
    FishArrays& out = *in.next;
    const UniformGrid& g = *in.grid;
    const std::size_t b = G.b;
    const W& p = G.p;
    const W& v = G.v;
    const I live = G.live;
    const F maxSpeed = G.maxSpeed;
    // Each fish saw itself: at distance 0 it is inside its radius and its
    // cone (unless the radius is 0 or the position is not finite, exactly
    // as the scan decided) and added 1 and its own velocity; its offset
    // and push are zeros. Taken out here.
    const W selfOffset = p - p;
    const F selfD2 = rules::scanDot(selfOffset[0], selfOffset[1], selfOffset[0], selfOffset[1]);
    const F selfProj = rules::scanDot(G.coneAxis[0], G.coneAxis[1], selfOffset[0], selfOffset[1]);
    const I selfSeen = live & rules::inFieldOfView(selfProj, selfD2, G.coneLimit) & (selfD2 < G.radius * G.radius);
    const F nCount = sums.count - keepWhere(selfSeen, splat<F>(1.0f));
    const F velX = sums.velX - keepWhere(selfSeen, v[0]);
    const F velY = sums.velY - keepWhere(selfSeen, v[1]);
    const F offX = sums.offX, offY = sums.offY;
    const F sepX = sums.sepX, sepY = sums.sepY;

    // Rule steering (velocity corrections, px/s), weighted.
    const I hasNeighbours = nCount > 0.0f;
    const W sep = rules::steerTowards(W{{sepX, sepY}}, v, maxSpeed) * (k.wSep * factorOf(k, G.draw.separation));
    // The direction of the summed velocities is that of their mean, and of
    // the summed offsets that of the centroid: no division by the count.
    const W ali = selectVec(hasNeighbours, rules::steerTowards(W{{velX, velY}}, v, maxSpeed), W{}) *
                  (k.wAli * factorOf(k, G.draw.alignment));
    const W coh = selectVec(hasNeighbours, rules::steerTowards(W{{offX, offY}}, v, maxSpeed), W{}) *
                  (k.wCoh * factorOf(k, G.draw.cohesion) * select(G.alarmed, k.alarmCohesion, 1.0f));
    addLanes(stats.neighbours, select(live, nCount, 0.0f));
    addLanes(stats.separation, select(live, length(sep), 0.0f));
    addLanes(stats.alignment, select(live, length(ali), 0.0f));
    addLanes(stats.cohesion, select(live, length(coh), 0.0f));

    W goal{};
    if (in.leader) {
        const W toLeader = displacement(k, p, splatVec<F>(*in.leader));
        const I follows = (k.goalRadius <= 0.0f ? -1 : 0) | (lengthSquared(toLeader) < k.goalRadius * k.goalRadius);
        goal = selectVec(follows, rules::steerTowards(toLeader, v, maxSpeed) * k.goalWeight, W{});
    }

    // Weight and sum, then limit the SUM (not each part) to maxForce.
    W accel = (sep + ali + coh + goal + G.extra * maxSpeed) * kSteerRate + G.noise;
    accel = limitLength(accel, k.maxForce);
    // Reaction lag: fish cannot turn within one step.
    accel = accel * (1.0f - k.lag) + W{{loadLanes<F>(&f.ax[b]), loadLanes<F>(&f.ay[b])}} * k.lag;
    storeLanes(&f.ax[b], accel[0]);
    storeLanes(&f.ay[b], accel[1]);

    // Integrate: velocity, speed limits, position.
    W nv = rules::applyAcceleration(v, accel, k.dt, maxSpeed * k.minSpeedShare, maxSpeed);
    W np = p + nv * k.dt;
    keepOutOfObstaclesAndWithinWalls(k, in.obstacles, &f.id[b], np, nv);
    storeLanes(&out.px[b], np[0]);
    storeLanes(&out.py[b], np[1]);
    storeLanes(&out.vx[b], nv[0]);
    storeLanes(&out.vy[b], nv[1]);
    // Its cell's key there, for the next step's grid (KernelInput::cellsAfter).
    const I cellAfter =
        halfByHalf([&](const auto& x, const auto& y) { return g.keyOf(x, y); }, np[0], np[1]);
    std::memcpy(in.cellsAfter + b, &cellAfter, sizeof cellAfter);

    // Drawn heading turns at a limited rate per step (never scaled up
    // when the display drops frames: the step is fixed).
    // The new velocity is within the speed limits, which are clamped far
    // below float's range: its squared length needs no scaling first (as
    // normalizedOrZero does for any vector), one division fewer on the step's
    // longest chain. A non-finite one (never seen) keeps the heading.
    const F speed2 = lengthSquared(nv);
    const I hasDirection = (speed2 > kTinyLength * kTinyLength) & (speed2 <= FLT_MAX);
    const W dir = nv * (1.0f / sqrtOf(select(hasDirection, speed2, 1.0f)));
    const W h{{loadLanes<F>(&f.hx[b]), loadLanes<F>(&f.hy[b])}};
    const W turned = selectVec(hasDirection, rules::turnTowards(h, dir, k.turnCos, k.turnSin), h);
    storeLanes(&f.hx[b], turned[0]);
    storeLanes(&f.hy[b], turned[1]);
    // A scared fish stays alarmed for alarmDuration after the predator left.
    if (!in.alarmsStayClear) {
        const F alarmLeft = select(G.scaredNow, k.alarmDuration, maxOf(G.alarmLeft - k.dt, splat<F>(0.0f)));
        storeLanes(&f.alarm[b], alarmLeft);
        orLanes(stats.alarmBits, select(live, alarmLeft, 0.0f));
    }
}

template <bool Wrap, typename F>
[[gnu::always_inline]] inline void runGroup(const KernelInput& in, std::size_t b, std::size_t end,
                                            const scan::ScanShared& shared, scan::NearbyList& nearby,
                                            std::uint64_t& candidates, LaneStats& stats) {
    const Group<F> G = startGroup<F>(in, b, end);
    const PerceivedOf<F> sums = perceiveGroup<Wrap>(in, G, shared, nearby, candidates);
    finishGroup(in, G, sums, stats);
}

template <bool Wrap>
[[gnu::always_inline]] inline void runBlocks(const KernelInput& in, std::size_t begin, std::size_t end,
                                             ChunkStats& stats) {
    const StepConstants& k = *in.k;
    const FishArrays& f = *in.cur;
    std::uint64_t candidates = 0;  // exact, and converted once
    const scan::ScanShared shared{f.px.data(),
                                  f.py.data(),
                                  f.vx.data(),
                                  f.vy.data(),
                                  splat(k.separationRadius2),
                                  splat(k.minDistance2),
                                  splat(k.width),
                                  splat(k.height)};
    scan::NearbyList& nearby = scan::threadNearbyList();
    nearby.keepClearOf(shared.px, shared.py);

    std::size_t b = begin;
    // Sixteen lanes while more than eight fish are left: they then end within
    // the eight entries of padding after the last fish (FishArrays::kPadding),
    // and a chunk that is not the last ends on a whole group of eight.
    LaneStats lanes;
    if constexpr (kSixteenLanes) {
        // Pairs of groups of sixteen while more than twenty-four fish are
        // left (the last ends within the padding), so the groups of sixteen
        // and eight are those of the loops below, and each fish's sums and
        // steering the same bits. Lock-step against groups of sixteen alone
        // (2026-12-03, 1 thread): 0.959 of the time at the bench's constant
        // density (50 000 fish), 0.988 for article 000 (step 7407), 0.971
        // with the app's defaults; 1.018 at 1 000 000 fish (memory-bound).
        for (; b + 3 * kLanes < end; b += 4 * kLanes) runGroup<Wrap, v32f>(in, b, end, shared, nearby, candidates, lanes);
        for (; b + kLanes < end; b += 2 * kLanes) runGroup<Wrap, v16f>(in, b, end, shared, nearby, candidates, lanes);
    }
    for (; b < end; b += kLanes) runGroup<Wrap, v8f>(in, b, end, shared, nearby, candidates, lanes);
    stats.candidates += static_cast<double>(candidates);
    stats.neighbours += sumLanes(lanes.neighbours);
    stats.separation += sumLanes(lanes.separation) * kSteerRate;
    stats.alignment += sumLanes(lanes.alignment) * kSteerRate;
    stats.cohesion += sumLanes(lanes.cohesion) * kSteerRate;
    stats.alarmsLeft = !noneOf(lanes.alarmBits != 0u);
}

// Fish [begin, end) (see runFishKernel).
[[gnu::always_inline]] inline ChunkStats kernelBody(const KernelInput& in, std::size_t begin, std::size_t end) {
    // Summed in a local, not in the shared array: a thread's stores per fish
    // would otherwise keep bouncing the line between the cores.
    ChunkStats stats;
    if (in.k->boundary == BoundaryMode::Wrap)
        runBlocks<true>(in, begin, end, stats);
    else
        runBlocks<false>(in, begin, end, stats);
    return stats;
}

}  // namespace

}  // namespace mirofish
