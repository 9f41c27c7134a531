#include "sim/spawn.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "math/hash.hpp"

namespace mirofish {

void spawnFish(FishArrays& f, std::size_t slot, std::uint32_t id, std::uint64_t seed, float width, float height,
               const Params& params) {
    const std::uint64_t hp = hashKey(seed, id, 0, RandomStream::SpawnPosition);
    f.px[slot] = unitFloat(hp) * width;
    f.py[slot] = unitFloat(mix64(hp)) * height;

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
