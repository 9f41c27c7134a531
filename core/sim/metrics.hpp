#pragma once
// Numbers that tell whether a school looks alive, computed on demand.
#include <cstddef>

#include "sim/simulation.hpp"

namespace mirofish {

struct Metrics {
    std::size_t fish = 0;
    double meanNeighbours = 0;   // perceived neighbours per fish, last step (5-8 is healthy)
    double meanCandidates = 0;   // fish examined per fish by the grid, last step
    double meanSpeed = 0;        // px/s
    double polarisation = 0;     // |mean unit heading|: 0 disordered, 1 all parallel
    double milling = 0;          // |mean of (r x v)/(|r||v|)| about the centroid: 1 a perfect mill
                                 // (wrapping: the centroid each axis's circular mean, r the shortest way)
    double meanNearestNeighbour = 0;  // px
    // Weighted rule accelerations, mean over fish and over the last 300 steps, px/s^2.
    double forceSeparation = 0, forceAlignment = 0, forceCohesion = 0;
    std::size_t nonFinite = 0;  // non-finite position or velocity components; must stay 0
};

Metrics computeMetrics(const Simulation& sim);

}  // namespace mirofish
