#pragma once
// Everything that defines a simulation besides the fish themselves: the
// world, the parameters and the interaction layer's objects (force fields,
// predators, obstacles, an optional leader). This is what a preset holds.
#include <cstdint>
#include <optional>
#include <vector>

#include "math/vec.hpp"
#include "params/params.hpp"

namespace mirofish {

enum class FieldKind : std::uint8_t { Attract = 0, Repel = 1, Vortex = 2 };

// The interaction layer's one entry point: anything that can produce a
// position, a strength and a radius (mouse, touch, a sensor, audio) becomes
// a force field.
struct ForceField {
    std::uint32_t id = 0;  // assigned by Simulation::addForceField
    Vec2 position{};
    float radius = 100.0f;
    // Acceleration at the centre, in units of the fish's maxSpeed per
    // reference step (like a rule weight); it falls off linearly to 0 at the radius.
    float strength = 1.0f;
    FieldKind kind = FieldKind::Attract;
};

enum class PredatorBehaviour : std::uint8_t { ChaseNearest = 0, FollowPath = 1 };

// A predator does not flock; it chases the nearest fish (the middle of the
// twelve nearest) or travels a closed path.
struct Predator {
    Vec2 position{};
    Vec2 velocity{};
    PredatorBehaviour behaviour = PredatorBehaviour::ChaseNearest;
    std::vector<Vec2> path;
    std::uint32_t nextWaypoint = 0;
};

struct Obstacle {
    Vec2 centre{};
    float radius = 50.0f;
};

// A leader travels its path (closed) at leaderSpeed; fish steer towards it
// with goalWeight. A path of one point is a fixed goal.
struct Leader {
    std::vector<Vec2> path;
    Vec2 position{};
    std::uint32_t nextWaypoint = 0;
};

struct Scene {
    float width = 1920.0f;
    float height = 1080.0f;
    std::uint32_t fishCount = 500;
    std::uint64_t seed = 1;
    Params params;
    std::vector<ForceField> fields;
    std::vector<Predator> predators;
    std::vector<Obstacle> obstacles;
    std::optional<Leader> leader;
};

}  // namespace mirofish
