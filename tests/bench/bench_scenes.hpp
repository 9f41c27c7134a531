#pragma once
// The benchmark scenes and their measurement.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/scene.hpp"
#include "sim/simulation.hpp"

namespace mirofish::bench {

// The scenes' names in the bench's output and on the command lines.
inline constexpr const char* kConstantDensityName = "constant-density";
inline constexpr const char* kArticle000Name = "article-000";
inline constexpr const char* kArticle000AppName = "article-000-app";
inline constexpr const char* kConstantDensityWrappingName = "constant-density-wrapping";

// Constant density: about 7 neighbours seen per fish (11 fish in a
// perception disc, 7 of them inside the field of view), whatever the count,
// and it stays so while the bench runs. All rules on: the default parameters
// (FOV cone, per-fish variation, noise, wander, soft boundary), except that
// separation reaches the perception radius and weighs 3, which keeps the fish
// from drawing together into ever denser schools.
Scene constantDensityScene(std::uint32_t fish);
// The same in a wrapping world, as the editor's default preset and three
// others are (scripts/compare-builds.sh; the bench's table keeps the three
// scenes above).
Scene constantDensityWrappingScene(std::uint32_t fish);

// Article 000's scene as the article runs it: 3000 fish on 1920x1080,
// perception 75 px and the rest of its table (the registry defaults are that
// table), with its rules only. Its update limits the speed from above alone,
// so its fish may slow down (no speed floor), and it has neither wander nor
// jitter (article 001's). Its noise, reaction lag, per-fish variation, field
// of view and soft boundary stay on.
Scene article000Scene();

// The same screen and table with the app's defaults for what the article
// does not have: a speed floor of 0.85 maxSpeed, wander and jitter. Fish that
// cannot brake turn instead, and the school packs into balls of a few
// hundred (about 460 neighbours per fish where the article's rules see 100).
Scene article000AppScene();

// Steps run before any timing: one simulated second, in which the spawned
// fish space out and the caches and pages settle.
inline constexpr std::uint64_t kWarmUpSteps = 60;

// Steps timed in article 000's scenes on every machine (after the warm-up),
// not as many as fit in some seconds: their school forms, packs and loosens
// over minutes, so the work of a step depends on which steps are timed. With
// a count fixed by the host's speed, three runs of one commit (2026-12-04)
// timed 7 752, 8 934 and 9 135 steps of article 000, and its fish saw 61.1,
// 77.1 and 79.6 neighbours. The counts are about what `--seconds 3` timed on
// the Intel Xeon host, as in the README's tables.
inline constexpr std::uint64_t kArticle000TimedSteps = 9000;
inline constexpr std::uint64_t kArticle000AppTimedSteps = 2400;

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
    // On more than one thread, the cores' round trip just before the run
    // (measureCoreRoundTrip); 0 where it was not measured.
    double coresRoundTripNs = 0;
};

// Runs kWarmUpSteps steps, then times whole steps: exactly `steps`, or, when steps
// is 0, as many as fit in minSeconds (at least 10). Runs are deterministic, so
// the same scene and step count is the same work for every thread count.
BenchResult measure(const std::string& name, const Scene& scene, int threads, double minSeconds,
                    std::uint64_t steps = 0);

double peakRssMegabytes();

// Wall-clock seconds the next `steps` steps of `sim` take.
double secondsFor(Simulation& sim, std::uint64_t steps);

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

// The speed-up of `threads` threads over 1 thread, timed on the same steps
// close together in time. One simulation first runs to step `startStep`;
// then, `pairs` times, the next `steps` steps are timed on 1 thread, the state
// is put back, and the same steps are timed on `threads` threads (which of the
// two goes first alternates). Each pair's ratio of times is one sample. This
// machine's slow and fast spells last seconds, far longer than a pair, so a
// pair's ratio mostly cancels them; separate runs of several seconds each
// do not pair up as well.
struct PairedSpeedUp {
    std::vector<double> ratios;  // 1-thread time / `threads` time, per pair
    double median = 0, lowest = 0, highest = 0;
    // Both runs of every pair ended in the same state (same state hash): the
    // timed work was the same.
    bool sameWork = true;
};
// progress(pair, oneThreadSeconds, manySeconds) after each pair, if given.
PairedSpeedUp measurePairedSpeedUp(const Scene& scene, int threads, std::uint64_t startStep, int pairs,
                                   std::uint64_t steps, const std::function<void(int, double, double)>& progress = {});

// How fast each core is, alone and beside the others: the same steps timed
// on 1 thread pinned to each CPU this process may run on, in turn, `rounds`
// times (the state put back before every run), then `rounds` times on the
// `together` fastest of them at once (all of them at most), each CPU on its
// own copy of the state. This project's two
// virtual cores are not always alike: on 2026-12-02 one took 1.5 times as
// long as the other on the same steps for minutes, which no sharing of the
// work between two threads can hide; and on 2026-12-03 they were for a while
// two hardware threads of one physical core, where each took about 1.8
// times as long beside the other as alone (a loop of independent multiply-
// adds), while alone each was as fast as ever. Empty where the CPUs cannot
// be pinned (not Linux). Running together holds a copy of the school per
// CPU used: at 1 000 000 fish on two CPUs, about 150 MB more.
struct CoreSpeeds {
    std::vector<int> cpus;
    std::vector<double> seconds;          // per CPU, the median of its runs alone
    std::vector<double> secondsTogether;  // per CPU, the median of its runs beside the others (NaN: idle then)
    // How much faster `threads` threads can be than 1 thread on the fastest
    // core at best: the speeds of the T fastest cores while they run
    // together, added up, over the fastest core's alone.
    double speedUpBound(int threads) const;
};
CoreSpeeds measureCoreSpeeds(const Scene& scene, std::uint64_t startStep, int rounds, std::uint64_t steps,
                             int together);

// The clock a CPU runs this process at: how fast a chain of dependent
// additions goes, one addition a cycle on any x86-64 or ARM core of this
// century, timed in slices of 100 000 additions for about `seconds` on a
// thread pinned to each CPU in turn (cpu -1: on the calling thread, where
// the CPUs cannot be pinned). The fastest slice shows the CPU's own clock;
// the mean, what the process got on the whole. A host that shares its cores
// with other work (hardware threads, time slices) gives a mean well below
// the fastest, and every figure timed on it is slower by about as much: the
// Intel Xeon host of 2026-12-03 ran 2.9-3.5 GHz at its fastest and 1.3-1.8
// GHz on average, where the AMD Zen 5 host of the sessions before ran
// 3.5-3.6 GHz steadily for most of the time.
struct CpuClock {
    int cpu = -1;
    double fastestGhz = 0, meanGhz = 0;
};
std::vector<CpuClock> measureCpuClocks(double seconds);

// The CPU's name as the system gives it (/proc/cpuinfo's "model name"), or empty.
std::string cpuModelName();

// How far apart two cores are: the nanoseconds an atomic takes to go from a
// thread pinned to the first CPU this process may run on to one pinned to
// the second and back (the median of a few tries of some thousand round
// trips, about 10 ms in all). This project's two virtual CPUs sat close at
// times (110-260 ns) and far apart at others (380-690 ns) on 2026-12-03,
// minutes at a time, and whatever two threads share costs more when they are
// far apart: article 000 took 0.083 ms a step on 2 threads close and 0.104
// far. 0 where fewer than two CPUs can be pinned (or not Linux).
double measureCoreRoundTrip();

}  // namespace mirofish::bench
