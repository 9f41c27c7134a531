#pragma once
// Coherent noise that reads as water currents: a 2D vector field, smooth in
// space and in time (value noise with smoothstep interpolation on a periodic
// lattice). The lattice for the current time is refreshed once per step, so
// sampling it per fish is four table reads and a blend, not a hash per fish.
#include <cstdint>
#include <vector>

#include "math/vec.hpp"

namespace mirofish {

class NoiseField {
public:
    // Allocates the lattice for a world up to this size and spacing. The
    // lattice never holds more than kMaxPoints points: larger worlds get a
    // proportionally coarser lattice.
    void configure(float worldWidth, float worldHeight, float spacing);

    // Sets the lattice to the field at time t (seconds), with currents that
    // change over timeScale seconds.
    void update(std::uint64_t seed, double t, float timeScale);

    // Field value at a point: each component in about [-1, 1].
    Vec2 sample(float x, float y) const;

    static constexpr std::size_t kMaxPoints = 1u << 18;

private:
    int cols_ = 1;
    int rows_ = 1;
    float invCellW_ = 1.0f;
    float invCellH_ = 1.0f;
    std::vector<Vec2> lattice_;
};

}  // namespace mirofish
