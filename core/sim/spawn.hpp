#pragma once
#include <cstdint>
#include <span>

#include "params/params.hpp"
#include "sim/fish_arrays.hpp"
#include "sim/scene.hpp"

namespace mirofish {

// Writes fish firstId..endId-1 into the slots of the same numbers: each a
// pure function of (seed, id, the obstacles), so a fish added later lands
// exactly where it would have in a fresh run. Positions are spread over the
// world outside the obstacles, headings fully random, speeds non-zero (a
// school that starts still has no heading and no field of view).
void spawnFish(FishArrays& fish, std::uint32_t firstId, std::uint32_t endId, std::uint64_t seed, float width,
               float height, const Params& params, std::span<const Obstacle> obstacles);

}  // namespace mirofish
