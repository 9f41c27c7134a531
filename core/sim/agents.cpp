#include "sim/agents.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/rules.hpp"

namespace mirofish {

namespace {

// Waypoints count as reached within this distance (px), or within two steps
// of travel for fast agents.
float arrivalDistance(float speed, float dt) { return std::max(8.0f, 2.0f * speed * dt); }

void advanceWaypoint(const std::vector<Vec2>& path, std::uint32_t& next, const StepConstants& k, Vec2 position,
                     float speed) {
    if (path.size() < 2) return;
    if (length(displacement(k, position, path[next % path.size()])) < arrivalDistance(speed, k.dt))
        next = static_cast<std::uint32_t>((next + 1) % path.size());
}

void keepInWorld(const StepConstants& k, Vec2& p, Vec2& v) {
    for (int a = 0; a < 2; ++a) {
        const float size = a == 0 ? k.width : k.height;
        if (k.boundary == BoundaryMode::Wrap) {
            p[a] -= size * std::floor(p[a] / size);
            if (!(p[a] >= 0.0f && p[a] < size)) p[a] = 0.0f;
        } else if (p[a] < 0.0f || p[a] > size) {
            p[a] = std::clamp(p[a], 0.0f, size);
            v[a] = -v[a];
        }
    }
}

}  // namespace

void updatePredators(std::span<Predator> predators, const FishArrays& fish, std::size_t count,
                     const StepConstants& k, float predatorSpeed, float predatorForce) {
    for (Predator& pred : predators) {
        Vec2 target = pred.position;
        if (pred.behaviour == PredatorBehaviour::FollowPath && !pred.path.empty()) {
            advanceWaypoint(pred.path, pred.nextWaypoint, k, pred.position, predatorSpeed);
            target = pred.path[pred.nextWaypoint % pred.path.size()];
        } else if (pred.behaviour == PredatorBehaviour::ChaseNearest && count > 0) {
            float best = std::numeric_limits<float>::infinity();
            for (std::size_t i = 0; i < count; ++i) {
                const float d2 = lengthSquared(displacement(k, pred.position, Vec2{{fish.px[i], fish.py[i]}}));
                if (d2 < best) {
                    best = d2;
                    target = Vec2{{fish.px[i], fish.py[i]}};
                }
            }
        }
        const Vec2 steer = rules::steerTowards(displacement(k, pred.position, target), pred.velocity, predatorSpeed);
        const Vec2 accel = limitLength(steer * rules::kSteerRate, predatorForce);
        pred.velocity = limitLength(pred.velocity + accel * k.dt, predatorSpeed);
        pred.position += pred.velocity * k.dt;
        keepInWorld(k, pred.position, pred.velocity);
    }
}

void updateLeader(Leader& leader, const StepConstants& k, float leaderSpeed) {
    if (leader.path.empty()) return;
    advanceWaypoint(leader.path, leader.nextWaypoint, k, leader.position, leaderSpeed);
    const Vec2 toTarget = displacement(k, leader.position, leader.path[leader.nextWaypoint % leader.path.size()]);
    const float dist = length(toTarget);
    leader.position += normalizedOrZero(toTarget) * std::min(leaderSpeed * k.dt, dist);
    Vec2 unused{};
    keepInWorld(k, leader.position, unused);
}

}  // namespace mirofish
