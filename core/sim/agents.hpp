#pragma once
// Agents that do not flock: predators and the leader. They move after the
// fish, from the same old state the fish saw.
#include <cstddef>
#include <span>

#include "sim/fish_arrays.hpp"
#include "sim/fish_kernel.hpp"
#include "sim/scene.hpp"

namespace mirofish {

// Predators chase the middle of the twelve fish nearest to them (of the old
// state) or travel their path, steering with at most predatorForce at
// predatorSpeed.
void updatePredators(std::span<Predator> predators, const FishArrays& fish, std::size_t count,
                     const StepConstants& k, float predatorSpeed, float predatorForce);

// The leader travels its closed path at leaderSpeed.
void updateLeader(Leader& leader, const StepConstants& k, float leaderSpeed);

}  // namespace mirofish
