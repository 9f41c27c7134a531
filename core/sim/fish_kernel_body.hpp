#pragma once
// The kernel's body, compiled once per instruction set: included by
// sim/fish_kernel_generic.cpp (any x86-64) and sim/fish_kernel_avx2.cpp
// (built with -mavx2), each of which names its own entry point; see
// sim/fish_kernel.cpp for the choice between them. Everything here has
// internal linkage (the anonymous namespace) and the entries are flattened,
// so no function compiled for AVX2 is ever shared with the rest of the
// program: the linker keeps one copy of an inline function, and an AVX2 copy
// picked for the generic code would crash CPUs without AVX2. The test
// "kernel: the AVX2 object defines nothing but its entry" checks that.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "math/hash.hpp"
#include "sim/fish_kernel.hpp"
#include "sim/neighbour_scan.hpp"
#include "sim/rules.hpp"

namespace mirofish {

namespace {

using rules::kSteerRate;
using V = VecLanes<2>;  // eight fish at once

// Keep fish inside the world after they moved. Soft mode has a backstop one
// margin outside the walls, so even absurd settings cannot lose a fish.
[[gnu::always_inline]] inline void reflect(v8f& x, v8f& vel, float lo, float hi) {
    const v8i below = x < lo, above = x > hi;
    x = select(below, minOf(lo + (lo - x), splat(hi)), select(above, maxOf(hi - (x - hi), splat(lo)), x));
    vel = select(below, absOf(vel), select(above, -absOf(vel), vel));
}

[[gnu::always_inline]] inline void wrapInto(v8f& x, float size) {
    x -= floorOf(x / size) * size;
    // A hair below 0 rounds up to size; NaN goes to 0 too, and so does the
    // rounding of astronomically large positions (x / size near 2^24 and up).
    x = select(maskAnd(x >= 0.0f, x < size), x, 0.0f);
}

[[gnu::always_inline]] inline void applyBoundary(const StepConstants& k, V& p, V& v) {
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

// Fish never end a step inside an obstacle: project out to the surface and
// drop the inward part of the velocity.
[[gnu::always_inline]] inline void resolveObstacles(const StepConstants& k, std::span<const Obstacle> obstacles, V& p,
                                                    V& v) {
    for (const Obstacle& o : obstacles) {
        const V centre{{splat(o.centre[0]), splat(o.centre[1])}};
        const V out = displacement(k, centre, p);
        const v8f d2 = lengthSquared(out);
        const v8i inside = d2 < o.radius * o.radius;
        V n = normalizedOrZero(out);
        n = selectVec(lengthSquared(n) > 0.5f, n, V{{splat(1.0f), splat(0.0f)}});
        p = selectVec(inside, p + n * (o.radius - sqrtOf(d2)), p);
        const v8f inward = dot(v, n);
        v = selectVec(inside & (inward < 0.0f), v - n * inward, v);
    }
}

// Influences besides the rules, in units of maxSpeed per reference step.
[[gnu::always_inline]] inline V fieldsAndObstacles(const KernelInput& in, const V& p) {
    const StepConstants& k = *in.k;
    V extra{};
    for (const ForceField& field : in.fields) {
        const V toCentre = displacement(k, p, V{{splat(field.position[0]), splat(field.position[1])}});
        const v8f falloff = rules::linearFalloff(length(toCentre), field.radius);
        const V u = normalizedOrZero(toCentre);
        V dir = u;
        if (field.kind == FieldKind::Repel) dir = -u;
        if (field.kind == FieldKind::Vortex) dir = V{{-u[1], u[0]}};
        extra += dir * (falloff * field.strength);
    }
    for (const Obstacle& o : in.obstacles) {
        const V away = displacement(k, V{{splat(o.centre[0]), splat(o.centre[1])}}, p);
        const v8f push = rules::softWallPush(length(away) - o.radius, k.obstacleMargin);
        extra += normalizedOrZero(away) * (push * k.obstacleWeight);
    }
    return extra;
}

// What a fish perceived, one fish per lane.
struct Perceived {
    v8f count, velX, velY, offX, offY, sepX, sepY;
};

[[gnu::always_inline]] inline Perceived perceivedOf(const scan::Lanes& L) {
    return {__builtin_convertvector(-L.seen, v8f), L.velX, L.velY, L.offX, L.offY, L.sepX, L.sepY};
}

// `from` in the lanes of `take`, `into` elsewhere.
[[gnu::always_inline]] inline Perceived merge(v8i take, const Perceived& from, const Perceived& into) {
    return {select(take, from.count, into.count), select(take, from.velX, into.velX),
            select(take, from.velY, into.velY),   select(take, from.offX, into.offX),
            select(take, from.offY, into.offY),   select(take, from.sepX, into.sepX),
            select(take, from.sepY, into.sepY)};
}

// The fish-by-fish layout (lanes over candidates), with the block of the
// last cell it filled kept across a chunk: fish are sorted by cell, so
// consecutive fish mostly share their block.
class FishByFish {
public:
    explicit FishByFish(const scan::ScanShared& arrays) : block_(scan::threadBlock()), arrays_(arrays), shared_(arrays) {}

    // Lanes [l, e) of the eight fish, each against its own cell's block;
    // zeros in the other lanes. Adds the candidates examined.
    template <bool Wrap>
    [[gnu::always_inline]] Perceived scan(const UniformGrid& g, const scan::ScanFish& fish, v8i cellX, v8i cellY,
                                          int l, int e, std::uint64_t& candidates) {
        // Each fish's partial sums, one vector per fish and sum, added up for
        // all eight fish at once below.
        v8f countOf[kLanes], velXOf[kLanes], velYOf[kLanes], offXOf[kLanes], offYOf[kLanes];
        v8f sepXOf[kLanes], sepYOf[kLanes];
        for (int i = 0; i < kLanes; ++i) {
            if (i < l || i >= e) {
                countOf[i] = velXOf[i] = velYOf[i] = offXOf[i] = offYOf[i] = sepXOf[i] = sepYOf[i] = v8f{};
                continue;
            }
            const int cell = g.cellIndex(cellX[i], cellY[i]);
            if (cell != blockCell_) {
                const UniformGrid::Spans spans = g.neighbourSpans(cellX[i], cellY[i]);
                block_.fill(arrays_.px, arrays_.py, arrays_.vx, arrays_.vy, spans);
                shared_ = block_.shared(arrays_);
                blockTotal_ = spans.total;
                blockCell_ = cell;
            }
            const scan::ScanFish one{splat(fish.x[i]),     splat(fish.y[i]),         splat(fish.headX[i]),
                                     splat(fish.headY[i]), splat(fish.coneLimit[i]), splat(fish.radius2[i])};
            scan::Lanes lanes;
            scan::scanBlock<Wrap>(lanes, shared_, one, block_.length());
            candidates += blockTotal_;
            const Perceived seen = perceivedOf(lanes);
            countOf[i] = seen.count, velXOf[i] = seen.velX, velYOf[i] = seen.velY, offXOf[i] = seen.offX;
            offYOf[i] = seen.offY, sepXOf[i] = seen.sepX, sepYOf[i] = seen.sepY;
        }
        return {sumLanesOfEach(countOf), sumLanesOfEach(velXOf), sumLanesOfEach(velYOf), sumLanesOfEach(offXOf),
                sumLanesOfEach(offYOf),  sumLanesOfEach(sepXOf), sumLanesOfEach(sepYOf)};
    }

private:
    scan::Block& block_;
    const scan::ScanShared arrays_;  // the sorted fish arrays
    scan::ScanShared shared_;        // the block
    int blockCell_ = -1;
    std::uint32_t blockTotal_ = 0;
};

// One group of eight fish as read from the old state, with what the scan and
// the steering both need.
struct Group {
    std::size_t b;  // the first fish
    int count;      // fish in the group (eight but at the end)
    v8i live;       // lanes past the last fish compute on padding and are not counted
    V p, v;
    v8u ids;
    VariationDraws<v8f> draw;
    V interaction;
    v8i scaredNow, alarmed;
    v8f alarmLeft, maxSpeed, radius;
    V heading;
    v8f coneLimit;
    v8i cellX, cellY;
    // The fish's lanes form one run (see perceiveGroup).
    bool oneRun;

    scan::ScanFish scanned() const { return {p[0], p[1], heading[0], heading[1], coneLimit, radius * radius}; }
};

inline const v8i kIota = {0, 1, 2, 3, 4, 5, 6, 7};

[[gnu::always_inline]] inline v8f factorOf(const StepConstants& k, v8f draw) { return 1.0f + draw * k.variation; }

[[gnu::always_inline]] inline Group startGroup(const KernelInput& in, std::size_t b, std::size_t end) {
    const StepConstants& k = *in.k;
    const FishArrays& f = *in.cur;
    const UniformGrid& g = *in.grid;
    Group G;
    G.b = b;
    G.count = static_cast<int>(std::min<std::size_t>(kLanes, end - b));
    G.live = kIota < G.count;
    G.p = V{{loadLanes(&f.px[b]), loadLanes(&f.py[b])}};
    G.v = V{{loadLanes(&f.vx[b]), loadLanes(&f.vy[b])}};
    std::memcpy(&G.ids, &f.id[b], sizeof G.ids);
    // Per-fish variation: fixed draws in [-1, 1) scaled by the live amount.
    G.draw = variationDraws(G.ids, k.variationKey);

    // Predators scare (from the old state): repulsion and alarm.
    G.interaction = V{};
    G.scaredNow = v8i{};
    for (const Predator& pred : in.predators) {
        const V away = displacement(k, V{{splat(pred.position[0]), splat(pred.position[1])}}, G.p);
        const v8f falloff = rules::linearFalloff(length(away), k.predatorRadius);
        G.scaredNow |= falloff > 0.0f;
        G.interaction += normalizedOrZero(away) * (falloff * k.predatorRepulsion);
    }
    G.alarmLeft = loadLanes(&f.alarm[b]);
    G.alarmed = G.scaredNow | (G.alarmLeft > 0.0f);
    G.maxSpeed = k.maxSpeed * factorOf(k, G.draw.speed) * select(G.alarmed, 1.0f + k.alarmSpeedBoost, 1.0f);
    G.radius = k.perception * factorOf(k, G.draw.radius);

    const v8f speed2 = lengthSquared(G.v);
    // Below this speed the heading, and so the cone, is undefined.
    const v8i useCone = (speed2 > 1e-6f) & (k.fovEverywhere ? 0 : -1);
    G.heading = selectVec(useCone, G.v * (1.0f / sqrtOf(select(useCone, speed2, 1.0f))), V{});
    G.coneLimit = select(useCone, k.fovLimit, -1.0f);  // -1 with a zero heading: all around
    G.cellX = g.cellX(G.p[0]);
    G.cellY = g.cellY(G.p[1]);
    // The fish are in cell order (this step's grid sorted these very
    // positions, row by row), so a run's first and last lanes hold its first
    // and last column, and usually all eight lanes are one run: that takes
    // one test.
    G.oneRun = G.count == kLanes && G.cellY[kLanes - 1] == G.cellY[0] && G.cellX[kLanes - 1] - G.cellX[0] < kRunColumns;
    return G;
}

// Perceive (sim/neighbour_scan.hpp): runs of lanes that share a row and a few
// columns, each scanned once, lanes over fish, unless its cells hold many
// fish. Lanes past the last fish are in no run and sum nothing.
template <bool Wrap>
[[gnu::always_inline]] inline Perceived perceiveGroup(const Group& G, const UniformGrid& g, const scan::ScanShared& shared,
                                                      FishByFish& fishByFish, std::uint64_t& candidates) {
    const scan::ScanFish fish = G.scanned();
    Perceived sums{};
    for (int l = 0; l < G.count;) {
        int e = G.oneRun ? kLanes : l + 1;
        while (e < G.count && G.cellY[e] == G.cellY[l] && G.cellX[e] - G.cellX[l] < kRunColumns) ++e;
        const UniformGrid::Spans spans = g.neighbourSpans(G.cellX[l], G.cellX[e - 1], G.cellY[l]);
        Perceived run;
        if (spans.total <= kLanesOverFishLimit) {
            scan::Lanes lanes;
            scan::scanSpans<Wrap>(lanes, shared, fish, spans);
            candidates += std::uint64_t{spans.total} * static_cast<std::uint64_t>(e - l);
            run = perceivedOf(lanes);
        } else {
            run = fishByFish.scan<Wrap>(g, fish, G.cellX, G.cellY, l, e, candidates);
        }
        sums = (l == 0 && e == kLanes) ? run : merge((kIota >= l) & (kIota < e), run, sums);
        l = e;
    }
    return sums;
}

// The sixteen-lane scan of perceivePair, out of line: inlined into the
// kernel, GCC 12 kept its sums in memory, a load and a store per sum and
// candidate, which made the pair cost as much as two groups scanned apart.
template <bool Wrap>
[[gnu::noinline]] scan::LanesOf<v16f> scanPairSpans(const scan::ScanSharedOf<v16f>& shared,
                                                    const scan::ScanFishOf<v16f>& fish, const UniformGrid::Spans& spans) {
    scan::LanesOf<v16f> lanes;
    scan::scanSpans<Wrap>(lanes, shared, fish, spans);
    return lanes;
}

// Two consecutive groups that are one run each, in one row and within
// 2 * kRunColumns columns, scanned together in sixteen lanes over the union
// of both runs' unions, where each would be scanned lanes over fish on its
// own. Every fish then meets the candidates of its own block in the same
// order as alone, and the rest add +0 (sim/neighbour_scan.hpp): the sums are
// those of perceiveGroup, bit for bit. Returns false, and leaves the groups
// to perceiveGroup, where that is not the case.
template <bool Wrap>
[[gnu::always_inline]] inline bool perceivePair(const Group& A, const Group& B, const UniformGrid& g,
                                                const scan::ScanShared& shared, Perceived& a, Perceived& b,
                                                std::uint64_t& candidates) {
    if (!(A.oneRun && B.oneRun && B.cellY[0] == A.cellY[0] && B.cellX[kLanes - 1] - A.cellX[0] < 2 * kRunColumns))
        return false;
    const UniformGrid::Spans spans = g.neighbourSpans(A.cellX[0], B.cellX[kLanes - 1], A.cellY[0]);
    // The union holds each group's own: within the limit, so is each of those.
    if (spans.total > kLanesOverFishLimit) return false;
    const scan::ScanFish fa = A.scanned(), fb = B.scanned();
    const scan::ScanFishOf<v16f> fish{joined(fa.x, fb.x),         joined(fa.y, fb.y),
                                      joined(fa.headX, fb.headX), joined(fa.headY, fb.headY),
                                      joined(fa.coneLimit, fb.coneLimit), joined(fa.radius2, fb.radius2)};
    const auto wide = [](v8f x) { return joined(x, x); };
    const scan::ScanSharedOf<v16f> both{shared.px, shared.py, shared.vx, shared.vy,
                                        wide(shared.separationRadius2), wide(shared.minDistance2),
                                        wide(shared.width), wide(shared.height)};
    const scan::LanesOf<v16f> lanes = scanPairSpans<Wrap>(both, fish, spans);
    candidates += std::uint64_t{spans.total} * 2 * kLanes;
    const v16f count = __builtin_convertvector(-lanes.seen, v16f);
    a = {lowHalf(count),       lowHalf(lanes.velX), lowHalf(lanes.velY), lowHalf(lanes.offX),
         lowHalf(lanes.offY),  lowHalf(lanes.sepX), lowHalf(lanes.sepY)};
    b = {highHalf(count),      highHalf(lanes.velX), highHalf(lanes.velY), highHalf(lanes.offX),
         highHalf(lanes.offY), highHalf(lanes.sepX), highHalf(lanes.sepY)};
    return true;
}

// Everything after the perception: steering, integration, the fish's memory.
[[gnu::always_inline]] inline void finishGroup(const KernelInput& in, const Group& G, const Perceived& sums,
                                               ChunkStats& stats) {
    const StepConstants& k = *in.k;
    FishArrays& f = *in.cur;
    FishArrays& out = *in.next;
    const UniformGrid& g = *in.grid;
    const std::size_t b = G.b;
    const V& p = G.p;
    const V& v = G.v;
    const v8i live = G.live;
    const v8f maxSpeed = G.maxSpeed;
    const auto factor = [&](v8f d) { return factorOf(k, d); };
    // Each fish saw itself: at distance 0 it is inside its radius and its
    // cone (unless the radius is 0 or the position is not finite, exactly
    // as the scan decided) and added 1 and its own velocity; its offset
    // and push are zeros. Taken out here.
    const V selfOffset = p - p;
    const v8f selfD2 = lengthSquared(selfOffset);
    const v8i selfSeen =
        live & rules::inFieldOfView(G.heading, selfOffset, selfD2, G.coneLimit) & (selfD2 < G.radius * G.radius);
    const v8f nCount = sums.count - keepWhere(selfSeen, splat(1.0f));
    const v8f velX = sums.velX - keepWhere(selfSeen, v[0]);
    const v8f velY = sums.velY - keepWhere(selfSeen, v[1]);
    const v8f offX = sums.offX, offY = sums.offY;
    const v8f sepX = sums.sepX, sepY = sums.sepY;

    // Rule steering (velocity corrections, px/s), weighted.
    const v8i hasNeighbours = nCount > 0.0f;
    const V sep = rules::steerTowards(V{{sepX, sepY}}, v, maxSpeed) * (k.wSep * factor(G.draw.separation));
    const v8f invCount = 1.0f / select(hasNeighbours, nCount, 1.0f);
    const V ali = selectVec(hasNeighbours, rules::steerTowards(V{{velX, velY}} * invCount, v, maxSpeed), V{}) *
                  (k.wAli * factor(G.draw.alignment));
    // The direction of the summed offsets is that of the centroid.
    const V coh = selectVec(hasNeighbours, rules::steerTowards(V{{offX, offY}}, v, maxSpeed), V{}) *
                  (k.wCoh * factor(G.draw.cohesion) * select(G.alarmed, k.alarmCohesion, 1.0f));
    stats.neighbours += sumLanes(select(live, nCount, 0.0f));
    stats.separation += sumLanes(select(live, length(sep), 0.0f)) * kSteerRate;
    stats.alignment += sumLanes(select(live, length(ali), 0.0f)) * kSteerRate;
    stats.cohesion += sumLanes(select(live, length(coh), 0.0f)) * kSteerRate;

    V extra = G.interaction + fieldsAndObstacles(in, p);
    if (k.boundary == BoundaryMode::Soft) {
        const V wall{{rules::softWallPush(p[0], k.boundaryMargin) - rules::softWallPush(k.width - p[0], k.boundaryMargin),
                      rules::softWallPush(p[1], k.boundaryMargin) - rules::softWallPush(k.height - p[1], k.boundaryMargin)}};
        extra += wall * k.boundaryWeight;
    }
    const V wander{{loadLanes(&f.wx[b]), loadLanes(&f.wy[b])}};
    extra += wander * k.wanderAmp;
    V goal{};
    if (in.leader) {
        const V toLeader = displacement(k, p, V{{splat((*in.leader)[0]), splat((*in.leader)[1])}});
        const v8i follows = (k.goalRadius <= 0.0f ? -1 : 0) | (lengthSquared(toLeader) < k.goalRadius * k.goalRadius);
        goal = selectVec(follows, rules::steerTowards(toLeader, v, maxSpeed) * k.goalWeight, V{});
    }

    // Noise: coherent currents plus a tiny per-fish jitter, in px/s^2.
    // The id's stream keyed by the step; two chained mixes give both components.
    const v8u hx = idHash(G.ids, k.jitterKey), hy = mix32(hx);
    const V jitter{{signedUnitFloats(hx), signedUnitFloats(hy)}};
    const V noise = in.noise->sample(p[0], p[1]) * k.noiseAmp + jitter * k.jitterAmp;

    // Weight and sum, then limit the SUM (not each part) to maxForce.
    V accel = (sep + ali + coh + goal + extra * maxSpeed) * kSteerRate + noise;
    accel = limitLength(accel, k.maxForce);
    // Reaction lag: fish cannot turn within one step.
    accel = accel * (1.0f - k.lag) + V{{loadLanes(&f.ax[b]), loadLanes(&f.ay[b])}} * k.lag;
    storeLanes(&f.ax[b], accel[0]);
    storeLanes(&f.ay[b], accel[1]);

    // Integrate: velocity, speed limits, position.
    V nv = rules::applyAcceleration(v, accel, k.dt, maxSpeed * k.minSpeedShare, maxSpeed);
    V np = p + nv * k.dt;
    resolveObstacles(k, in.obstacles, np, nv);
    applyBoundary(k, np, nv);
    storeLanes(&out.px[b], np[0]);
    storeLanes(&out.py[b], np[1]);
    storeLanes(&out.vx[b], nv[0]);
    storeLanes(&out.vy[b], nv[1]);
    // Its cell there, for the next step's grid (KernelInput::cellsAfter).
    const v8i cellAfter = g.cellIndex(g.cellX(np[0]), g.cellY(np[1]));
    std::memcpy(in.cellsAfter + b, &cellAfter, sizeof cellAfter);

    // Drawn heading turns at a limited rate per step (never scaled up
    // when the display drops frames: the step is fixed).
    const V dir = normalizedOrZero(nv);
    const V h{{loadLanes(&f.hx[b]), loadLanes(&f.hy[b])}};
    const V turned = selectVec(lengthSquared(dir) > 0.5f, rules::turnTowards(h, dir, k.turnCos, k.turnSin), h);
    storeLanes(&f.hx[b], turned[0]);
    storeLanes(&f.hy[b], turned[1]);
    // Wander direction: rotate by wanderRate * dt; the factor (3 - |w|^2)/2
    // is one Newton step towards unit length, so rounding never drifts.
    const V w{{wander[0] * k.wanderCos - wander[1] * k.wanderSin, wander[0] * k.wanderSin + wander[1] * k.wanderCos}};
    const V wUnit = w * (0.5f * (3.0f - lengthSquared(w)));
    storeLanes(&f.wx[b], wUnit[0]);
    storeLanes(&f.wy[b], wUnit[1]);
    // A scared fish stays alarmed for alarmDuration after the predator left.
    storeLanes(&f.alarm[b], select(G.scaredNow, k.alarmDuration, maxOf(G.alarmLeft - k.dt, splat(0.0f))));
}

// Whether this build scans two groups at once where it can (perceivePair):
// where the target has 512-bit vectors, sixteen lanes cost little more per
// candidate than eight.
#ifdef __AVX512F__
inline constexpr bool kScanPairs = true;
#else
inline constexpr bool kScanPairs = false;
#endif

template <bool Wrap>
[[gnu::always_inline]] inline void runBlocks(const KernelInput& in, std::size_t begin, std::size_t end,
                                             ChunkStats& stats) {
    const StepConstants& k = *in.k;
    const FishArrays& f = *in.cur;
    const UniformGrid& g = *in.grid;
    std::uint64_t candidates = 0;  // exact, and converted once
    const scan::ScanShared shared{f.px.data(),
                                  f.py.data(),
                                  f.vx.data(),
                                  f.vy.data(),
                                  splat(k.separationRadius2),
                                  splat(k.minDistance2),
                                  splat(k.width),
                                  splat(k.height)};
    FishByFish fishByFish(shared);

    for (std::size_t b = begin; b < end; b += kLanes) {
        const Group A = startGroup(in, b, end);
        if constexpr (kScanPairs) {
            if (A.oneRun && b + kLanes < end) {
                const Group B = startGroup(in, b + kLanes, end);
                Perceived a, p;
                if (!perceivePair<Wrap>(A, B, g, shared, a, p, candidates)) {
                    a = perceiveGroup<Wrap>(A, g, shared, fishByFish, candidates);
                    p = perceiveGroup<Wrap>(B, g, shared, fishByFish, candidates);
                }
                finishGroup(in, A, a, stats);
                finishGroup(in, B, p, stats);
                b += kLanes;
                continue;
            }
        }
        finishGroup(in, A, perceiveGroup<Wrap>(A, g, shared, fishByFish, candidates), stats);
    }
    stats.candidates += static_cast<double>(candidates);
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
