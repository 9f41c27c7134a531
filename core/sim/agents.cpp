#include "sim/agents.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <cmath>
#include <limits>

#include "sim/rules.hpp"

namespace mirofish {

namespace {

// Waypoints count as reached within this distance (px), or within two steps
// of travel for fast agents.
float arrivalDistance(float speed, float dt) { return std::max(8.0f, 2.0f * speed * dt); }

// Where an agent heads for a waypoint: a waypoint outside the world (a
// preset's path drawn for a larger world, or the world made smaller) is
// aimed at the world's edge, so that the agent reaches it and moves on
// instead of pressing against a wall, or circling a wrapping world, for good.
Vec2 reachable(const StepConstants& k, Vec2 waypoint) {
    return Vec2{{std::clamp(waypoint[0], 0.0f, k.width), std::clamp(waypoint[1], 0.0f, k.height)}};
}

// Where the agent is as seen from the leg it travels, from waypoint a to b:
// in a wrapping world, the copy of its place nearest to the leg. An agent
// that crossed the seam (a predator turning at a waypoint near an edge) is
// then just past that edge, not a world away, and one at the start of a leg
// longer than half the world is at its start, not nearer to b's copy
// across the seam.
Vec2 seenFromLeg(const StepConstants& k, Vec2 position, Vec2 a, Vec2 b) {
    if (k.boundary != BoundaryMode::Wrap) return position;
    const Vec2 leg = b - a;
    const float length2 = lengthSquared(leg);
    const auto distance2 = [&](Vec2 p) {
        const float t = length2 > 0.0f ? std::clamp(dot(p - a, leg) / length2, 0.0f, 1.0f) : 0.0f;
        return lengthSquared(p - (a + leg * t));
    };
    Vec2 best = position;
    float bestDistance2 = distance2(position);
    for (const float dx : {-k.width, 0.0f, k.width})
        for (const float dy : {-k.height, 0.0f, k.height}) {
            const Vec2 copy = position + Vec2{{dx, dy}};
            if (const float d2 = distance2(copy); d2 < bestDistance2) {
                bestDistance2 = d2;
                best = copy;
            }
        }
    return best;
}

// The way to the waypoint the agent heads for, the next one once it has
// arrived. Along the path as the editor draws it, in a wrapping world too:
// the short way round crossed the seam (a leg longer than half the world
// went off one edge and back from the other), and a path from (0, 0) to
// (W, H), one point on the torus, was never travelled at all.
Vec2 towardsNextWaypoint(const std::vector<Vec2>& path, std::uint32_t& next, const StepConstants& k, Vec2 position,
                         float speed) {
    const std::size_t n = path.size();
    const auto leg = [&] {
        const Vec2 to = reachable(k, path[next % n]);
        const Vec2 from = reachable(k, path[(next + n - 1) % n]);
        return seenFromLeg(k, position, from, to);
    };
    if (n >= 2 && length(reachable(k, path[next % n]) - leg()) < arrivalDistance(speed, k.dt))
        next = static_cast<std::uint32_t>((next + 1) % n);
    return reachable(k, path[next % n]) - leg();
}

// Soft walls let the fish into the margin beyond them (the kernel's
// backstop is its outer edge): a predator stops there too, not at the wall
// line, where it slid along the edge while the fish it chased swam beyond.
void keepInWorld(const StepConstants& k, Vec2& p, Vec2& v) {
    const float band = k.boundary == BoundaryMode::Soft ? k.boundaryMargin : 0.0f;
    for (int a = 0; a < 2; ++a) {
        const float size = a == 0 ? k.width : k.height;
        if (k.boundary == BoundaryMode::Wrap) {
            p[a] -= size * std::floor(p[a] / size);
            if (!(p[a] >= 0.0f && p[a] < size)) p[a] = 0.0f;
        } else if (p[a] < -band || p[a] > size + band) {
            p[a] = std::clamp(p[a], -band, size + band);
            v[a] = -v[a];
        }
    }
}

// A chasing predator goes for the middle of the fish nearest to it, this
// many. Going for the single nearest, it caught a straggler slower than
// itself and sat on it for good, with the second predator beside it (the
// shipped predator-attack's own seed: 8 % of the school alarmed, 4 of 12
// seeds so); going for the middle of twelve, a straggler near the school
// leaves it for the school, which it passes through, and every seed alarms
// 16-42 % of it.
constexpr std::size_t kChasedFish = 12;

// From a chasing predator to the middle of the kChasedFish fish nearest to
// it (of the old state), the short way round a wrapping world.
Vec2 towardsNearestFish(Vec2 from, const FishArrays& fish, std::size_t count, const StepConstants& k) {
    std::array<std::pair<float, Vec2>, kChasedFish> nearest;
    std::size_t held = 0;
    const auto fartherFirst = [](const auto& a, const auto& b) { return a.first < b.first; };
    for (std::size_t i = 0; i < count; ++i) {
        const Vec2 d = displacement(k, from, Vec2{{fish.px[i], fish.py[i]}});
        const float d2 = lengthSquared(d);
        if (!std::isfinite(d2)) continue;  // a broken fish would make the predator's place NaN for good
        if (held < kChasedFish) {
            nearest[held++] = {d2, d};
            std::push_heap(nearest.begin(), nearest.begin() + held, fartherFirst);
        } else if (d2 < nearest.front().first) {
            std::pop_heap(nearest.begin(), nearest.end(), fartherFirst);
            nearest.back() = {d2, d};
            std::push_heap(nearest.begin(), nearest.end(), fartherFirst);
        }
    }
    Vec2 sum{};
    for (std::size_t j = 0; j < held; ++j) sum += nearest[j].second;
    return held > 0 ? sum * (1.0f / static_cast<float>(held)) : Vec2{};
}

}  // namespace

void updatePredators(std::span<Predator> predators, const FishArrays& fish, std::size_t count,
                     const StepConstants& k, float predatorSpeed, float predatorForce) {
    for (Predator& pred : predators) {
        Vec2 toTarget{};
        if (pred.behaviour == PredatorBehaviour::FollowPath && !pred.path.empty()) {
            toTarget = towardsNextWaypoint(pred.path, pred.nextWaypoint, k, pred.position, predatorSpeed);
        } else if (pred.behaviour == PredatorBehaviour::ChaseNearest && count > 0) {
            toTarget = towardsNearestFish(pred.position, fish, count, k);
        }
        const Vec2 steer = rules::steerTowards(toTarget, pred.velocity, predatorSpeed);
        const Vec2 accel = limitLength(steer * rules::kSteerRate, predatorForce);
        pred.velocity = limitLength(pred.velocity + accel * k.dt, predatorSpeed);
        pred.position += pred.velocity * k.dt;
        keepInWorld(k, pred.position, pred.velocity);
    }
}

void updateLeader(Leader& leader, const StepConstants& k, float leaderSpeed) {
    if (leader.path.empty()) return;
    const Vec2 toTarget = towardsNextWaypoint(leader.path, leader.nextWaypoint, k, leader.position, leaderSpeed);
    const float dist = length(toTarget);
    leader.position += normalizedOrZero(toTarget) * std::min(leaderSpeed * k.dt, dist);
    Vec2 unused{};
    keepInWorld(k, leader.position, unused);
}

}  // namespace mirofish
