#include "sim/fish_kernel.hpp"

#include <cmath>

#include "math/hash.hpp"
#include "sim/rules.hpp"

namespace mirofish {

using rules::kSteerRate;

Vec2 displacement(const StepConstants& k, Vec2 a, Vec2 b) {
    Vec2 d = b - a;
    if (k.boundary == BoundaryMode::Wrap) {
        d[0] -= k.width * std::nearbyint(d[0] / k.width);
        d[1] -= k.height * std::nearbyint(d[1] / k.height);
    }
    return d;
}

namespace {

struct NeighbourSums {
    Vec2 separation{}, velocity{}, offset{};
    int count = 0;
    int candidates = 0;
};

// Scan the 3x3 cells around fish i. Wrap is a template parameter so the
// minimum-image arithmetic costs nothing in the bounded modes.
template <bool Wrap>
NeighbourSums perceive(const KernelInput& in, std::size_t i, float radius2, const Vec2& heading, bool useCone) {
    const StepConstants& k = *in.k;
    const UniformGrid& g = *in.grid;
    const FishArrays& f = *in.cur;
    const float* px = f.px.data();
    const float* py = f.py.data();
    const float* vx = f.vx.data();
    const float* vy = f.vy.data();
    const float xi = px[i], yi = py[i];
    int colFirst[3], colLast[3], rows[3];
    const int nc = g.neighbourColumns(g.cellX(xi), colFirst, colLast);
    const int nr = g.neighbourRows(g.cellY(yi), rows);

    NeighbourSums s;
    for (int r = 0; r < nr; ++r) {
        for (int c = 0; c < nc; ++c) {
            // Cells of one row are consecutive in the sorted arrays, so a run
            // of columns is one contiguous span.
            const std::size_t jb = g.cellStart(g.cellIndex(colFirst[c], rows[r]));
            const std::size_t je = g.cellStart(g.cellIndex(colLast[c], rows[r]) + 1);
            s.candidates += static_cast<int>(je - jb);
            for (std::size_t j = jb; j < je; ++j) {
                float dx = px[j] - xi;
                float dy = py[j] - yi;
                if constexpr (Wrap) {
                    dx -= k.width * std::nearbyint(dx / k.width);
                    dy -= k.height * std::nearbyint(dy / k.height);
                }
                const Vec2 offset{{dx, dy}};
                const float d2 = dx * dx + dy * dy;
                if (j == i || !(d2 < radius2)) continue;
                if (useCone && !rules::inFieldOfView(heading, offset, d2, k.cosHalfFov)) continue;
                ++s.count;
                s.velocity += Vec2{{vx[j], vy[j]}};
                s.offset += offset;
                if (d2 < k.separationRadius2) s.separation += rules::separationTerm(offset, d2, k.minDistance2);
            }
        }
    }
    return s;
}

Vec2 softBoundary(const StepConstants& k, const Vec2& p) {
    const float m = k.boundaryMargin;
    return Vec2{{rules::softWallPush(p[0], m) - rules::softWallPush(k.width - p[0], m),
                 rules::softWallPush(p[1], m) - rules::softWallPush(k.height - p[1], m)}};
}

Vec2 fieldForce(const StepConstants& k, const ForceField& field, const Vec2& p) {
    const Vec2 toCentre = displacement(k, p, field.position);
    const float falloff = rules::linearFalloff(length(toCentre), field.radius);
    if (falloff == 0.0f) return Vec2{};
    const Vec2 u = normalizedOrZero(toCentre);
    Vec2 dir = u;
    if (field.kind == FieldKind::Repel) dir = -u;
    if (field.kind == FieldKind::Vortex) dir = Vec2{{-u[1], u[0]}};
    return dir * (field.strength * falloff);
}

// Keep a fish inside the world after it moved. Soft mode has a backstop one
// margin outside the walls, so even absurd settings cannot lose a fish.
void applyBoundary(const StepConstants& k, Vec2& p, Vec2& v) {
    auto reflect = [](float& x, float& vel, float lo, float hi) {
        if (x < lo) {
            x = std::fmin(lo + (lo - x), hi);
            vel = std::fabs(vel);
        } else if (x > hi) {
            x = std::fmax(hi - (x - hi), lo);
            vel = -std::fabs(vel);
        }
    };
    auto wrap = [](float& x, float size) {
        x -= size * std::floor(x / size);
        if (!(x < size)) x = 0.0f;  // x was a hair below 0 and rounded up to size
    };
    switch (k.boundary) {
        case BoundaryMode::Wrap:
            wrap(p[0], k.width);
            wrap(p[1], k.height);
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
void resolveObstacles(const StepConstants& k, std::span<const Obstacle> obstacles, Vec2& p, Vec2& v) {
    for (const Obstacle& o : obstacles) {
        const Vec2 out = displacement(k, o.centre, p);
        const float d2 = lengthSquared(out);
        if (!(d2 < o.radius * o.radius)) continue;
        Vec2 n = normalizedOrZero(out);
        if (n == Vec2{}) n = Vec2{{1.0f, 0.0f}};
        p = p + n * (o.radius - std::sqrt(d2));
        const float inward = dot(v, n);
        if (inward < 0.0f) v = v - n * inward;
    }
}

template <bool Wrap>
void runRange(const KernelInput& in, std::size_t begin, std::size_t end, ChunkStats& stats) {
    const StepConstants& k = *in.k;
    FishArrays& f = *in.cur;
    FishArrays& out = *in.next;

    // Per-fish variation: a fixed draw in [-1, 1] scaled by the live amount.
    const auto factor = [&k](float draw) { return 1.0f + k.variation * draw; };

    for (std::size_t i = begin; i < end; ++i) {
        const Vec2 p{{f.px[i], f.py[i]}};
        const Vec2 v{{f.vx[i], f.vy[i]}};

        // Interaction that changes how the fish behaves this step: predators
        // alarm it (alarm state from the old step, or a predator in range now).
        Vec2 interaction{};
        bool scaredNow = false;
        for (const Predator& pred : in.predators) {
            const Vec2 away = displacement(k, pred.position, p);
            const float falloff = rules::linearFalloff(length(away), k.predatorRadius);
            if (falloff > 0.0f) {
                scaredNow = true;
                interaction += normalizedOrZero(away) * (k.predatorRepulsion * falloff);
            }
        }
        const bool alarmed = scaredNow || f.alarm[i] > 0.0f;
        const float maxSpeed = k.maxSpeed * factor(f.speedVar[i]) * (alarmed ? 1.0f + k.alarmSpeedBoost : 1.0f);
        const float radius = k.perception * factor(f.radiusVar[i]);
        const float speed2 = lengthSquared(v);
        // Below this speed the heading, and so the cone, is undefined.
        const bool useCone = !k.fovEverywhere && speed2 > 1e-6f;
        const Vec2 heading = useCone ? v * (1.0f / std::sqrt(speed2)) : Vec2{};

        const NeighbourSums s = perceive<Wrap>(in, i, radius * radius, heading, useCone);

        // Rule steering (velocity corrections, px/s), weighted.
        const Vec2 sep = rules::steerTowards(s.separation, v, maxSpeed) * (k.wSep * factor(f.sepVar[i]));
        Vec2 ali{}, coh{};
        if (s.count > 0) {
            ali = rules::steerTowards(s.velocity * (1.0f / static_cast<float>(s.count)), v, maxSpeed) *
                  (k.wAli * factor(f.aliVar[i]));
            // The direction of the summed offsets is that of the centroid.
            coh = rules::steerTowards(s.offset, v, maxSpeed) *
                  (k.wCoh * factor(f.cohVar[i]) * (alarmed ? k.alarmCohesion : 1.0f));
        }
        stats.neighbours += s.count;
        stats.candidates += s.candidates;
        stats.separation += static_cast<double>(length(sep)) * kSteerRate;
        stats.alignment += static_cast<double>(length(ali)) * kSteerRate;
        stats.cohesion += static_cast<double>(length(coh)) * kSteerRate;

        // Other influences, also in units of maxSpeed per reference step.
        Vec2 extra = interaction;
        if (k.boundary == BoundaryMode::Soft) extra += softBoundary(k, p) * k.boundaryWeight;
        extra += Vec2{{f.wx[i], f.wy[i]}} * k.wanderAmp;
        for (const ForceField& field : in.fields) extra += fieldForce(k, field, p);
        for (const Obstacle& o : in.obstacles) {
            const Vec2 away = displacement(k, o.centre, p);
            const float push = rules::softWallPush(length(away) - o.radius, k.obstacleMargin);
            if (push > 0.0f) extra += normalizedOrZero(away) * (k.obstacleWeight * push);
        }
        Vec2 goal{};
        if (in.leader) {
            const Vec2 toLeader = displacement(k, p, *in.leader);
            if (k.goalRadius <= 0.0f || lengthSquared(toLeader) < k.goalRadius * k.goalRadius)
                goal = rules::steerTowards(toLeader, v, maxSpeed) * k.goalWeight;
        }

        // Noise: coherent currents plus a tiny per-fish jitter, in px/s^2.
        const std::uint64_t h = hashKey(k.seed, f.id[i], k.step, RandomStream::Jitter);
        const Vec2 jitter{{signedUnitFloat(h), signedUnitFloat(mix64(h))}};
        const Vec2 noise = in.noise->sample(p[0], p[1]) * k.noiseAmp + jitter * k.jitterAmp;

        // Weight and sum, then limit the SUM (not each part) to maxForce.
        Vec2 accel = (sep + ali + coh + goal + extra * maxSpeed) * kSteerRate + noise;
        accel = limitLength(accel, k.maxForce);
        // Reaction lag: fish cannot turn within one step.
        accel = accel * (1.0f - k.lag) + Vec2{{f.ax[i], f.ay[i]}} * k.lag;
        f.ax[i] = accel[0];
        f.ay[i] = accel[1];

        // Integrate: velocity, speed limit, position.
        Vec2 nv = rules::limitSpeed(v + accel * k.dt, k.minSpeedShare * maxSpeed, maxSpeed);
        Vec2 np = p + nv * k.dt;
        resolveObstacles(k, in.obstacles, np, nv);
        applyBoundary(k, np, nv);
        out.px[i] = np[0];
        out.py[i] = np[1];
        out.vx[i] = nv[0];
        out.vy[i] = nv[1];

        // Drawn heading turns at a limited rate per step (never scaled up
        // when the display drops frames: the step is fixed).
        const Vec2 dir = normalizedOrZero(nv);
        if (dir != Vec2{}) {
            const Vec2 hnew = rules::turnTowards(Vec2{{f.hx[i], f.hy[i]}}, dir, k.turnCos, k.turnSin);
            f.hx[i] = hnew[0];
            f.hy[i] = hnew[1];
        }
        // Wander direction: rotate by wanderRate * dt; the factor (3 - |w|^2)/2
        // is one Newton step towards unit length, so rounding never drifts.
        const float wx = f.wx[i] * k.wanderCos - f.wy[i] * k.wanderSin;
        const float wy = f.wx[i] * k.wanderSin + f.wy[i] * k.wanderCos;
        const float renorm = 0.5f * (3.0f - (wx * wx + wy * wy));
        f.wx[i] = wx * renorm;
        f.wy[i] = wy * renorm;

        // A scared fish stays alarmed for alarmDuration after the predator left.
        f.alarm[i] = scaredNow ? k.alarmDuration : std::fmax(0.0f, f.alarm[i] - k.dt);
    }
}

}  // namespace

void runFishKernel(const KernelInput& in, std::size_t begin, std::size_t end, ChunkStats& stats) {
    if (in.k->boundary == BoundaryMode::Wrap)
        runRange<true>(in, begin, end, stats);
    else
        runRange<false>(in, begin, end, stats);
}

}  // namespace mirofish
