#pragma once
// Debug-overlay data for chosen fish (the editor's inspector): what the next
// step() will see for a fish, from the simulation's current state, with the
// kernel's formulas (sim/rules.hpp). Neighbours are found by examining every
// fish, not through the grid: O(fish) per inspected fish, fine for a few
// dozen, and independent of the grid, which is why the kernel's all-pairs
// reference test builds on it too.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "math/vec.hpp"
#include "sim/fish_arrays.hpp"
#include "sim/fish_kernel.hpp"
#include "sim/scene.hpp"
#include "sim/simulation.hpp"

namespace mirofish {

struct FishInspection {
    std::uint32_t id = 0;
    Vec2 position{}, velocity{};
    float speed = 0;  // px/s
    // This fish's perception radius (with its variation factor) and the
    // separation radius (the same for every fish), px.
    float perceptionRadius = 0, separationRadius = 0;
    // Half angle of the cone it sees; pi when it sees all around (a full
    // field of view, or too slow to have a direction). The cone is centred
    // on the velocity's direction, not on the drawn heading.
    float fovHalfAngleRadians = 0;
    Vec2 heading{};  // drawn heading (unit), lags the velocity by the turn rate
    bool alarmed = false;  // a predator is within reach, or the alarm has time left
    float alarmSeconds = 0;
    // The perceived neighbours (inside the radius and the cone), as seen from
    // this fish: its position plus the shortest offset, so with a wrapping
    // world a neighbour across the seam may lie outside [0,W)x[0,H).
    std::vector<Vec2> neighbours;
    // Weighted rule accelerations, px/s^2, before the sum is limited to
    // maxForce (their lengths are what Metrics::force* average).
    Vec2 separation{}, alignment{}, cohesion{};
};

// Whether a fish at p is within reach of a predator: the kernel's test of a
// scare, with the step constants k. A fish is alarmed while scared and for
// alarmDuration after, so with an alarmDuration of 0 only this tells it.
bool scaredByPredators(const StepConstants& k, std::span<const Predator> predators, Vec2 p);

// The fish at array index `index` of `fish` (holding `count` fish), seen
// with the step constants k and these predators.
FishInspection inspectFishAt(const FishArrays& fish, std::size_t count, std::size_t index, const StepConstants& k,
                             std::span<const Predator> predators);

// The fish with this id, or nullopt when there is none, seen with the
// simulation's parameters, or with `params` (those the last step ran with,
// where audio routes changed them around it).
std::optional<FishInspection> inspectFish(const Simulation& sim, std::uint32_t fishId);
std::optional<FishInspection> inspectFish(const Simulation& sim, std::uint32_t fishId, const Params& params);
// Fish ids 0..count-1 in id order, those that exist.
std::vector<FishInspection> inspectFirstFish(const Simulation& sim, std::uint32_t count);
std::vector<FishInspection> inspectFirstFish(const Simulation& sim, std::uint32_t count, const Params& params);
// From a point of the view to a thing in the world, as the view shows it.
// A wrapping world draws a thing again across the seam, so from a point in
// the world the way is the short way round; from a point outside it (the
// empty water around the world, where nothing is drawn) it is straight.
Vec2 displacementSeenFrom(const StepConstants& k, Vec2 point, Vec2 thing);
// The id of the fish nearest to a point (displacementSeenFrom) if it is
// within maxDistance; the lower id on a tie.
std::optional<std::uint32_t> fishNearest(const Simulation& sim, Vec2 point, float maxDistance);

}  // namespace mirofish
