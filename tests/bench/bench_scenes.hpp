#pragma once
// The benchmark scenes and their measurement.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/scene.hpp"

namespace mirofish::bench {

// Constant density: the world is scaled so that about 7 fish fall inside a
// perception disc, whatever the count; all rules on (default parameters:
// FOV cone, per-fish variation, noise, wander, soft boundary).
Scene constantDensityScene(std::uint32_t fish);

// Article 000's scene: 3000 fish on 1920x1080, perception 75 px and the rest
// of its table (the registry defaults are that table).
Scene article000Scene();

struct BenchResult {
    std::string scene;
    std::uint32_t fish = 0;
    int threads = 0;
    double stepsPerSecond = 0;
    double nsPerFishStep = 0;
    double meanCandidates = 0;
    double meanNeighbours = 0;
    double peakRssMb = 0;
    std::uint64_t steps = 0;
    // Mean milliseconds per step in each phase, and for one metrics computation.
    double gridMs = 0, reorderMs = 0, kernelMs = 0, agentsMs = 0, metricsMs = 0;
};

// Warms up, then times whole steps: exactly `steps` of them, or, when steps
// is 0, as many as fit in minSeconds (at least 10). Runs are deterministic, so
// the same scene and step count is the same work for every thread count.
BenchResult measure(const std::string& name, const Scene& scene, int threads, double minSeconds,
                    std::uint64_t steps = 0);

double peakRssMegabytes();

// Several runs of one measurement (same scene, fish count and thread count,
// same steps): each figure is the median over the runs (the mean of the
// middle two for an even count), the time per fish-step also with its
// extremes. Candidates and neighbours are the same in every run (the runs are
// deterministic). The peak RSS is the first run's: the process's peak when
// the row was first measured, as in a single run (later rounds come after
// every other row's runs, the largest included).
struct RepeatedResult {
    BenchResult median;
    double minNsPerFishStep = 0, maxNsPerFishStep = 0;
    int runs = 0;
};
RepeatedResult summarize(const std::vector<BenchResult>& runs);

// How many times faster `many` ran than `oneThread`: the median over rounds
// of the ratio of round k's two times. Runs of one round are close in time,
// so they share the machine's slow or fast spell, which a ratio of two
// separate medians would not cancel. 0 when the rounds do not pair up.
double medianSpeedUp(const std::vector<BenchResult>& oneThread, const std::vector<BenchResult>& many);

}  // namespace mirofish::bench
