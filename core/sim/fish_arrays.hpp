#pragma once
// Structure of arrays: one float array per field, allocated once for the
// largest fish count (capacity) and never resized inside a step. The
// simulation keeps the arrays sorted by grid cell (see Simulation::step), so a
// fish's neighbours lie in a few contiguous spans.
#include <algorithm>
#include <array>
#include <cstdint>

#include "sim/cache_line_vector.hpp"

namespace mirofish {

struct FishArrays {
    // Kinematics.
    CacheLineVector<float> px, py;  // position, px
    CacheLineVector<float> vx, vy;  // velocity, px/s
    // Previous step's (lagged) acceleration, px/s^2: the reaction-lag filter's memory.
    CacheLineVector<float> ax, ay;
    // Drawn heading (unit vector), turned at most turnRate per step.
    CacheLineVector<float> hx, hy;
    // Seconds of alarm left after a predator came close.
    CacheLineVector<float> alarm;
    // Stable identity: ids are always exactly 0..count-1. The arrays get
    // reordered; the id keys the per-fish random numbers, the per-fish
    // variation's fixed draws included (variationDraws in math/hash.hpp).
    CacheLineVector<std::uint32_t> id;

    using FloatField = CacheLineVector<float> FishArrays::*;
    // (A fish's wander direction is no array: rules::wanderDirection.)
    static constexpr std::array<FloatField, 9> kFloatFields = {&FishArrays::px, &FishArrays::py, &FishArrays::vx,
                                                               &FishArrays::vy, &FishArrays::ax, &FishArrays::ay,
                                                               &FishArrays::hx, &FishArrays::hy, &FishArrays::alarm};

    // Zeroed entries after the last fish: the kernel reads every array eight
    // fish at a time (sixteen while more than eight are left), and the
    // neighbour scan's block copies read whole groups of eight
    // (sim/neighbour_scan.hpp).
    static constexpr std::size_t kPadding = 8;

    void allocate(std::size_t capacity) {
        for (FloatField m : kFloatFields) (this->*m).assign(capacity + kPadding, 0.0f);
        id.assign(capacity + kPadding, 0);
    }
    std::size_t capacity() const { return id.size() - kPadding; }

    // Copies fish [0, n) of every array from `from` (capacities must allow it).
    void copyPrefix(const FishArrays& from, std::size_t n) {
        for (FloatField m : kFloatFields) std::copy_n((from.*m).begin(), n, (this->*m).begin());
        std::copy_n(from.id.begin(), n, id.begin());
    }

    // Moves fish `from` into slot `to` (same arrays).
    void moveFish(std::size_t from, std::size_t to) {
        for (FloatField m : kFloatFields) (this->*m)[to] = (this->*m)[from];
        id[to] = id[from];
    }
};

}  // namespace mirofish
