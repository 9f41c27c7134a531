// The summary of repeated benchmark runs: what `mirofish bench --repeat`
// prints must be the median and the extremes of the runs. The speed-up over
// 1 thread must come from runs of the very same steps. The constant-density
// scene must do the work it names however long the bench runs.
#include <catch2/catch.hpp>
#include <limits>

#include <algorithm>
#include <vector>
#ifdef __linux__
#include <sched.h>
#endif

#include "bench_scenes.hpp"
#include "sched/thread_pool.hpp"
#include "sim/simulation.hpp"

using namespace mirofish::bench;

namespace {
std::vector<BenchResult> runsTaking(const std::vector<double>& nsPerFishStep) {
    std::vector<BenchResult> runs;
    for (double ns : nsPerFishStep) {
        BenchResult r;
        r.fish = 1000;
        r.nsPerFishStep = ns;
        r.stepsPerSecond = 1e9 / (ns * r.fish);
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
    // Its steps a second are those of that time, as every run's are of its own.
    CHECK(odd.median.stepsPerSecond == Approx(1e9 / (120.0 * 1000)));
    CHECK(even.median.stepsPerSecond == Approx(1e9 / (110.0 * 1000)));
    CHECK(summarize({}).runs == 0);
}

TEST_CASE("the speed-up over 1 thread times the same steps on 1 and on 2 threads, pair by pair") {
    std::vector<double> oneThread, twoThreads;
    const PairedSpeedUp s = measurePairedSpeedUp(constantDensityScene(2000), 2, kWarmUpSteps + 5, 3, 4,
                                                 [&](int pair, double one, double two) {
                                                     CHECK(pair == static_cast<int>(oneThread.size()) + 1);
                                                     oneThread.push_back(one);
                                                     twoThreads.push_back(two);
                                                 });
    // Both runs of each pair ended in the same state, so they did the same work.
    CHECK(s.sameWork);
    REQUIRE(s.ratios.size() == 3);
    REQUIRE(oneThread.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(oneThread[k] > 0);
        CHECK(s.ratios[k] == oneThread[k] / twoThreads[k]);  // times faster on 2 threads
    }
    std::vector<double> sorted = s.ratios;
    std::sort(sorted.begin(), sorted.end());
    CHECK(s.lowest == sorted[0]);
    CHECK(s.median == sorted[1]);
    CHECK(s.highest == sorted[2]);
}

TEST_CASE("each CPU is timed alone and beside the others, and their speeds together bound the speed-up") {
    CoreSpeeds apart;
    apart.cpus = {0, 1};
    apart.seconds = {0.2, 0.2};
    apart.secondsTogether = {0.2, 0.2};
    CHECK(apart.speedUpBound(2) == Approx(2.0));
    // Two hardware threads of one core: as fast as ever alone, slower together.
    CoreSpeeds oneCore = apart;
    oneCore.secondsTogether = {0.36, 0.4};
    CHECK(oneCore.speedUpBound(1) == Approx(0.2 / 0.36));
    CHECK(oneCore.speedUpBound(2) == Approx(0.2 / 0.36 + 0.2 / 0.4));
    CoreSpeeds unequal;
    unequal.cpus = {0, 1, 2};
    unequal.seconds = {0.4, 0.2, 0.25};  // the second CPU is the fastest alone
    unequal.secondsTogether = {0.4, 0.2, 0.25};
    CHECK(unequal.speedUpBound(1) == Approx(1.0));
    CHECK(unequal.speedUpBound(2) == Approx(1.8));  // the two fastest: 1 + 0.2 / 0.25
    CHECK(unequal.speedUpBound(8) == Approx(2.3));  // every CPU: 1 + 0.8 + 0.5
    CHECK(CoreSpeeds{}.speedUpBound(2) == 0.0);     // nothing measured, nothing bounded
    // Measured with 2 of 3 CPUs together, the third idle then: the bound is of those two.
    CoreSpeeds twoOfThree = unequal;
    twoOfThree.secondsTogether = {std::numeric_limits<double>::quiet_NaN(), 0.2, 0.25};
    CHECK(twoOfThree.speedUpBound(2) == Approx(1.8));
    CHECK(twoOfThree.speedUpBound(8) == Approx(1.8));

    const CoreSpeeds measured = measureCoreSpeeds(constantDensityScene(2000), kWarmUpSteps, 2, 3, 2);
#ifdef __linux__
    REQUIRE_FALSE(measured.cpus.empty());
    CHECK(measured.cpus.size() == measured.seconds.size());
    CHECK(measured.cpus.size() == measured.secondsTogether.size());
    for (double t : measured.seconds) CHECK(t > 0);
    // As many CPUs together as the threads bounded (2, or every CPU where there are fewer), the others idle.
    const auto busy = std::count_if(measured.secondsTogether.begin(), measured.secondsTogether.end(),
                                    [](double t) { return t > 0; });
    CHECK(busy == static_cast<long>(std::min<std::size_t>(2, measured.cpus.size())));
    CHECK(measured.speedUpBound(2) > 0);
    const CoreSpeeds alone = measureCoreSpeeds(constantDensityScene(2000), kWarmUpSteps, 1, 3, 1);
    CHECK(std::count_if(alone.secondsTogether.begin(), alone.secondsTogether.end(), [](double t) { return t > 0; }) == 1);
    // The thread may run on all its CPUs again afterwards.
    cpu_set_t after;
    REQUIRE(sched_getaffinity(0, sizeof after, &after) == 0);
    CHECK(CPU_COUNT(&after) == static_cast<int>(measured.cpus.size()));
#endif
}

TEST_CASE("the constant-density scene keeps about 7 neighbours per fish however many steps are timed") {
    mirofish::ThreadPool pool(2);
    mirofish::Simulation sim(constantDensityScene(3000), pool);
    std::vector<double> neighbours;
    while (sim.stepIndex() < 1200) {
        sim.step();
        const bool sampled = sim.stepIndex() == kWarmUpSteps || sim.stepIndex() % 300 == 0;
        if (sampled) neighbours.push_back(sim.lastMeanNeighbours());
    }
    for (double n : neighbours) {
        INFO("neighbours seen per fish: " << n);
        CHECK(n > 6.0);
        CHECK(n < 8.5);
    }
}
