#include "sim/inspect.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "math/hash.hpp"
#include "sim/rules.hpp"

namespace mirofish {

bool scaredByPredators(const StepConstants& k, std::span<const Predator> predators, Vec2 p) {
    return std::any_of(predators.begin(), predators.end(), [&](const Predator& pred) {
        return rules::linearFalloff(length(displacement(k, pred.position, p)), k.predatorRadius) > 0.0f;
    });
}

// Mirrors runBlocks in sim/fish_kernel_body.hpp for one fish, with a loop over
// every fish in place of the grid's spans; keep the two in step.
FishInspection inspectFishAt(const FishArrays& f, std::size_t count, std::size_t i, const StepConstants& k,
                             std::span<const Predator> predators) {
    const VariationDraws<float> draw = variationDraws(f.id[i], k.variationKey);
    const auto factor = [&](float d) { return 1.0f + d * k.variation; };
    FishInspection r;
    r.id = f.id[i];
    r.position = Vec2{{f.px[i], f.py[i]}};
    r.velocity = Vec2{{f.vx[i], f.vy[i]}};
    r.heading = Vec2{{f.hx[i], f.hy[i]}};
    r.alarmSeconds = f.alarm[i];
    const Vec2 p = r.position, v = r.velocity;

    r.alarmed = scaredByPredators(k, predators, p) || r.alarmSeconds > 0.0f;
    const float maxSpeed = k.maxSpeed * factor(draw.speed) * (r.alarmed ? 1.0f + k.alarmSpeedBoost : 1.0f);
    r.perceptionRadius = k.perception * factor(draw.radius);
    r.separationRadius = std::sqrt(k.separationRadius2);

    const float speed2 = lengthSquared(v);
    r.speed = std::sqrt(speed2);
    // The cone around the velocity, its limit scaled by the squared speed, as in the kernel.
    const bool useCone = !k.fovEverywhere && rules::hasConeAxis(speed2);
    const Vec2 axis = useCone ? v : Vec2{};
    const float coneLimit = k.fovLimit * speed2;
    r.fovHalfAngleRadians = useCone ? std::acos(std::fmax(k.cosHalfFov, -1.0f)) : std::numbers::pi_v<float>;

    const float radius2 = r.perceptionRadius * r.perceptionRadius;
    // The running build's arithmetic, so that every neighbour is decided as there.
    const bool fused = kernelBuildFuses(kernelBuild());
    Vec2 velSum{}, offSum{}, sepSum{};
    for (std::size_t j = 0; j < count; ++j) {
        if (j == i) continue;
        const Vec2 off = displacement(k, p, Vec2{{f.px[j], f.py[j]}});
        const float d2 = rules::scanDot(off[0], off[1], off[0], off[1], fused);
        if (!(d2 < radius2)) continue;
        const float proj = rules::scanDot(axis[0], axis[1], off[0], off[1], fused);
        if (useCone && !rules::inFieldOfView(proj, d2, coneLimit)) continue;
        r.neighbours.push_back(p + off);
        velSum += Vec2{{f.vx[j], f.vy[j]}};
        offSum += off;
        if (d2 < k.separationRadius2) {
            const float w = rules::separationWeight(d2, k.minDistance2);
            for (int a = 0; a < 2; ++a) sepSum[a] = mulAdd(off[a], w, sepSum[a], fused);
        }
    }

    r.separation = rules::steerTowards(sepSum, v, maxSpeed) * (k.wSep * factor(draw.separation)) * rules::kSteerRate;
    if (!r.neighbours.empty()) {
        // Along the mean velocity and towards the plain centroid; the kernel
        // steers along the summed velocities and offsets, the same
        // directions found another way.
        const float inv = 1.0f / static_cast<float>(r.neighbours.size());
        r.alignment = rules::steerTowards(velSum * inv, v, maxSpeed) * (k.wAli * factor(draw.alignment)) * rules::kSteerRate;
        r.cohesion = rules::steerTowards(offSum * inv, v, maxSpeed) *
                     (k.wCoh * factor(draw.cohesion) * (r.alarmed ? k.alarmCohesion : 1.0f)) * rules::kSteerRate;
    }
    return r;
}

std::optional<FishInspection> inspectFish(const Simulation& sim, std::uint32_t fishId) {
    return inspectFish(sim, fishId, sim.params());
}

std::optional<FishInspection> inspectFish(const Simulation& sim, std::uint32_t fishId, const Params& params) {
    const StepConstants k = sim.stepConstants(params);
    const FishArrays& f = sim.fish();
    // The arrays are re-sorted by cell every step: an index is no identity.
    for (std::size_t i = 0; i < sim.fishCount(); ++i)
        if (f.id[i] == fishId) return inspectFishAt(f, sim.fishCount(), i, k, sim.scene().predators);
    return std::nullopt;
}

std::vector<FishInspection> inspectFirstFish(const Simulation& sim, std::uint32_t count) {
    return inspectFirstFish(sim, count, sim.params());
}

std::vector<FishInspection> inspectFirstFish(const Simulation& sim, std::uint32_t count, const Params& params) {
    const std::size_t n = std::min<std::size_t>(count, sim.fishCount());  // ids are exactly 0..fishCount-1
    const FishArrays& f = sim.fish();
    std::vector<std::size_t> indexOfId(n);
    for (std::size_t i = 0; i < sim.fishCount(); ++i)
        if (f.id[i] < n) indexOfId[f.id[i]] = i;
    const StepConstants k = sim.stepConstants(params);
    std::vector<FishInspection> out;
    out.reserve(n);
    for (std::size_t i : indexOfId) out.push_back(inspectFishAt(f, sim.fishCount(), i, k, sim.scene().predators));
    return out;
}

Vec2 displacementSeenFrom(const StepConstants& k, Vec2 point, Vec2 thing) {
    const bool inWorld = point[0] >= 0.0f && point[0] <= k.width && point[1] >= 0.0f && point[1] <= k.height;
    return inWorld ? displacement(k, point, thing) : thing - point;
}

std::optional<std::uint32_t> fishNearest(const Simulation& sim, Vec2 point, float maxDistance) {
    if (!(maxDistance >= 0.0f)) return std::nullopt;
    const FishArrays& f = sim.fish();
    const StepConstants k = sim.stepConstants();
    std::optional<std::uint32_t> best;
    float best2 = maxDistance * maxDistance;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) {
        const float d2 = lengthSquared(displacementSeenFrom(k, point, Vec2{{f.px[i], f.py[i]}}));
        if (d2 < best2 || (d2 == best2 && (!best || f.id[i] < *best))) {
            best2 = d2;
            best = f.id[i];
        }
    }
    return best;
}

}  // namespace mirofish
