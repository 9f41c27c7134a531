// The summary of repeated benchmark runs: what `mirofish bench --repeat`
// prints must be the median and the extremes of the runs, and the speed-up
// must pair each round's runs, not two medians taken apart.
#include <catch2/catch.hpp>

#include <vector>

#include "bench_scenes.hpp"

using namespace mirofish::bench;

namespace {
std::vector<BenchResult> runsTaking(const std::vector<double>& nsPerFishStep) {
    std::vector<BenchResult> runs;
    for (double ns : nsPerFishStep) {
        BenchResult r;
        r.nsPerFishStep = ns;
        r.kernelMs = ns / 10;
        r.peakRssMb = ns / 2;
        runs.push_back(r);
    }
    return runs;
}
}  // namespace

TEST_CASE("repeated runs report the median time and the fastest and slowest run") {
    const RepeatedResult odd = summarize(runsTaking({150, 90, 120, 300, 100}));
    CHECK(odd.runs == 5);
    CHECK(odd.median.nsPerFishStep == 120);
    CHECK(odd.median.kernelMs == 12);
    CHECK(odd.minNsPerFishStep == 90);
    CHECK(odd.maxNsPerFishStep == 300);
    CHECK(odd.median.peakRssMb == 75);  // the first run's, not the median

    const RepeatedResult even = summarize(runsTaking({100, 140, 80, 120}));
    CHECK(even.median.nsPerFishStep == 110);  // mean of the middle two
    CHECK(summarize({}).runs == 0);
}

TEST_CASE("the speed-up over 1 thread is the median of each round's own ratio") {
    // Round 2 ran in a slow spell for both thread counts: its ratio is still 2.
    const auto one = runsTaking({100, 300, 110});
    const auto two = runsTaking({50, 150, 100});
    // (The ratio of the two medians taken apart would say 110 / 100 = 1.1.)
    CHECK(medianSpeedUp(one, two) == Approx(2.0));
    CHECK(medianSpeedUp(one, runsTaking({50, 150})) == 0);  // rounds do not pair up
}
