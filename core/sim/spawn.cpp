#include "sim/spawn.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "math/hash.hpp"

namespace mirofish {

namespace {

// How many places a fish may draw before it keeps the last: where the
// obstacles leave a tenth of the world free, all but about one fish in
// 700 000 find a place (0.9^128 = 1.4e-6).
constexpr std::uint64_t kSpawnDraws = 128;

// Inside an obstacle, or, in a wrapping world, inside any of its copies
// across the seams: a point inside any copy is inside the nearest one.
bool insideAnObstacle(float x, float y, float width, float height, bool wrap, std::span<const Obstacle> obstacles) {
    for (const Obstacle& o : obstacles) {
        float dx = x - o.centre[0];
        float dy = y - o.centre[1];
        if (wrap) {
            dx -= std::round(dx / width) * width;
            dy -= std::round(dy / height) * height;
        }
        if (dx * dx + dy * dy < o.radius * o.radius) return true;
    }
    return false;
}

}  // namespace

void spawnFish(FishArrays& f, std::size_t slot, std::uint32_t id, std::uint64_t seed, float width, float height,
               const Params& params, std::span<const Obstacle> obstacles) {
    // A fish does not start inside a rock: it draws its place again, from the
    // next of its own draws, until the place is free. Its first draw is
    // where it always was, so where no obstacle is in the way nothing moves.
    // Where the obstacles (nearly) cover the world it keeps its last draw,
    // and the step pushes it about as it does any fish there.
    const bool wrap = params.boundaryMode() == BoundaryMode::Wrap;
    for (std::uint64_t draw = 0; draw < kSpawnDraws; ++draw) {
        const std::uint64_t hp = hashKey(seed, id, draw, RandomStream::SpawnPosition);
        f.px[slot] = unitFloat(hp) * width;
        f.py[slot] = unitFloat(mix64(hp)) * height;
        if (!insideAnObstacle(f.px[slot], f.py[slot], width, height, wrap, obstacles)) break;
    }

    const std::uint64_t hv = hashKey(seed, id, 0, RandomStream::SpawnVelocity);
    const float angle = unitFloat(hv) * 2.0f * std::numbers::pi_v<float>;
    // Half to full speed, never zero.
    const float speed = std::max(params.get(ParamId::MaxSpeed), 1.0f) * (0.5f + 0.5f * unitFloat(mix64(hv)));
    f.vx[slot] = std::cos(angle) * speed;
    f.vy[slot] = std::sin(angle) * speed;
    f.hx[slot] = std::cos(angle);
    f.hy[slot] = std::sin(angle);
    f.ax[slot] = 0.0f;
    f.ay[slot] = 0.0f;
    f.alarm[slot] = 0.0f;
    f.id[slot] = id;
}

}  // namespace mirofish
