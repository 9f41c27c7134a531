#include "sim/spawn.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "math/hash.hpp"
#include "sim/obstacle_cover.hpp"

namespace mirofish {

namespace {

// How many places a fish may draw before it keeps the last: where the
// obstacles leave a tenth of the world free, all but about one fish in
// 700 000 find a place (0.9^128 = 1.4e-6).
constexpr std::uint64_t kSpawnDraws = 128;

}  // namespace

void spawnFish(FishArrays& f, std::uint32_t firstId, std::uint32_t endId, std::uint64_t seed, float width,
               float height, const Params& params, std::span<const Obstacle> obstacles) {
    const ObstacleCover cover(obstacles, width, height, params.boundaryMode() == BoundaryMode::Wrap);
    for (std::uint32_t id = firstId; id < endId; ++id) {
        // A fish does not start inside a rock: it draws its place again, from
        // the next of its own draws, until the place is free. Its first draw
        // is where it always was, so where no obstacle is in the way nothing
        // moves. Where the obstacles (nearly) cover the world it keeps its
        // last draw, and the step pushes it about as it does any fish there.
        for (std::uint64_t draw = 0; draw < kSpawnDraws; ++draw) {
            const std::uint64_t hp = hashKey(seed, id, draw, RandomStream::SpawnPosition);
            f.px[id] = unitFloat(hp) * width;
            f.py[id] = unitFloat(mix64(hp)) * height;
            if (!cover.contains(f.px[id], f.py[id])) break;
        }

        const std::uint64_t hv = hashKey(seed, id, 0, RandomStream::SpawnVelocity);
        const float angle = unitFloat(hv) * 2.0f * std::numbers::pi_v<float>;
        // Half to full speed, never zero.
        const float speed = std::max(params.get(ParamId::MaxSpeed), 1.0f) * (0.5f + 0.5f * unitFloat(mix64(hv)));
        f.vx[id] = std::cos(angle) * speed;
        f.vy[id] = std::sin(angle) * speed;
        f.hx[id] = std::cos(angle);
        f.hy[id] = std::sin(angle);
        f.ax[id] = 0.0f;
        f.ay[id] = 0.0f;
        f.alarm[id] = 0.0f;
        f.id[id] = id;
    }
}

}  // namespace mirofish
