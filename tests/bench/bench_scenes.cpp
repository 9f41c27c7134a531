#include "bench_scenes.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <numbers>
#include <numeric>
#include <thread>

#include <sys/resource.h>
#ifdef __linux__
#include <sched.h>
#endif

#include "io/state_hash.hpp"
#include "sched/thread_pool.hpp"
#include "sim/metrics.hpp"
#include "sim/simulation.hpp"

namespace mirofish::bench {

Scene constantDensityScene(std::uint32_t fish) {
    Scene s;
    s.fishCount = fish;
    s.seed = 2024;
    const float r = s.params.get(ParamId::PerceptionRadius);
    // With the default weights the fish keep drawing together (measured at
    // 50 000 fish: 4 neighbours seen per fish at the start, 29 after 300 steps,
    // 145 after 1200), so the work per fish grew with the number of steps the
    // bench timed. Separation over the whole perception disc, weighted 3
    // against cohesion's 0.9, holds the spacing instead: 6.6 to 7.5 neighbours
    // seen from step 60 to step 2400, at 5 000 and 20 000 fish alike.
    s.params.set(ParamId::SeparationRadius, r);
    s.params.set(ParamId::SeparationWeight, 3.0f);
    // N fish on area A put N * pi r^2 / A fish in a perception disc. 11 in the
    // disc are about 7 inside the 220-degree field of view (11 * 220 / 360).
    const double side = std::sqrt(static_cast<double>(fish) * std::numbers::pi * r * r / 11.0);
    s.width = s.height = static_cast<float>(side);
    return s;
}

Scene constantDensityWrappingScene(std::uint32_t fish) {
    Scene s = constantDensityScene(fish);
    s.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    return s;
}

Scene article000AppScene() {
    Scene s;
    s.fishCount = 3000;
    s.seed = 2024;
    s.width = 1920;
    s.height = 1080;
    return s;
}

Scene article000Scene() {
    Scene s = article000AppScene();
    s.params.set(ParamId::MinSpeed, 0.0f);
    s.params.set(ParamId::WanderWeight, 0.0f);
    s.params.set(ParamId::Jitter, 0.0f);
    return s;
}

double peakRssMegabytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    // ru_maxrss is in KiB on Linux; a megabyte, as the target counts it, is
    // 10^6 bytes (up to 2026-12-06 this divided by 1024: MiB, 4.6 % less).
    return static_cast<double>(u.ru_maxrss) * 1024.0 / 1e6;
}

double secondsFor(Simulation& sim, std::uint64_t steps) {
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < steps; ++i) sim.step();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

BenchResult measure(const std::string& name, const Scene& scene, int threads, double minSeconds,
                    std::uint64_t steps) {
    using Clock = std::chrono::steady_clock;
    const double roundTrip = threads > 1 ? measureCoreRoundTrip() : 0.0;
    ThreadPool pool(threads);
    Simulation sim(scene, pool);
    while (sim.stepIndex() < kWarmUpSteps) sim.step();

    BenchResult r;
    r.scene = name;
    r.fish = scene.fishCount;
    r.threads = threads;
    r.coresRoundTripNs = roundTrip;
    double candidates = 0, neighbours = 0;
    sim.resetPhaseTimes();
    const auto start = Clock::now();
    double elapsed = 0;
    const auto more = [&] { return steps > 0 ? r.steps < steps : elapsed < minSeconds || r.steps < 10; };
    while (more()) {
        sim.step();
        ++r.steps;
        candidates += sim.lastMeanCandidates();
        neighbours += sim.lastMeanNeighbours();
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    }
    const double timed = static_cast<double>(r.steps);
    r.stepsPerSecond = timed / elapsed;
    r.nsPerFishStep = elapsed * 1e9 / (timed * scene.fishCount);
    r.meanCandidates = candidates / timed;
    r.meanNeighbours = neighbours / timed;
    const PhaseTimes& ph = sim.phaseTimes();
    const double msPerStep = 1e3 / static_cast<double>(ph.steps);
    r.gridMs = ph.grid * msPerStep, r.reorderMs = ph.reorder * msPerStep;
    r.kernelMs = ph.kernel * msPerStep, r.agentsMs = ph.agents * msPerStep;
    const auto m0 = Clock::now();
    computeMetrics(sim);
    r.metricsMs = std::chrono::duration<double, std::milli>(Clock::now() - m0).count();
    r.peakRssMb = peakRssMegabytes();
    return r;
}

namespace {
// The median (the mean of the middle two for an even count) and the extremes of some samples.
struct Spread {
    double median = 0, lowest = 0, highest = 0;
};
Spread spreadOf(std::vector<double> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return {v.size() % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2, v.front(), v.back()};
}

#ifdef __linux__
// The CPUs of a mask, in order.
std::vector<int> cpusIn(const cpu_set_t& mask) {
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &mask)) cpus.push_back(c);
    return cpus;
}

// Pins the calling thread to one CPU; false where it cannot be.
bool pinCallingThread(int cpu) {
    cpu_set_t only;
    CPU_ZERO(&only);
    CPU_SET(cpu, &only);
    return sched_setaffinity(0, sizeof only, &only) == 0;
}

// Gives the calling thread back the CPUs it had, however the scope ends.
struct RestoreAffinity {
    const cpu_set_t& mask;
    ~RestoreAffinity() { sched_setaffinity(0, sizeof mask, &mask); }
};
#endif

// Seconds that n dependent additions take on the calling thread.
double secondsForAdditions(std::uint64_t n) {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t x = 0, one = 1;
    // one comes from a register the compiler cannot see into.
    __asm__ volatile("" : "+r"(one));
    for (std::uint64_t i = 0; i < n; ++i) {
        // An addition of one register to another, written out: x is unknown
        // after every one, so the compiler can neither fold the chain nor
        // split it into independent ones. An addition of an immediate (++x,
        // as before 2026-12-05) can be taken care of before execution on
        // newer cores: on the Intel Xeon host of 2026-12-05 such a chain
        // read 8.18 GHz in one build of this very code and 4.09 in another.
#if defined(__x86_64__)
        __asm__ volatile("add %1, %0" : "+r"(x) : "r"(one));
#elif defined(__aarch64__)
        __asm__ volatile("add %0, %0, %1" : "+r"(x) : "r"(one));
#else
        x += one;
        __asm__ volatile("" : "+r"(x));
#endif
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The clock the calling thread runs at, in slices of kClockSlice additions for about `seconds`.
CpuClock clockHere(int cpu, double seconds) {
    constexpr std::uint64_t kClockSlice = 100'000;
    double fastest = 0, total = 0;
    std::uint64_t slices = 0;
    while (total < seconds || slices < 10) {
        const double t = secondsForAdditions(kClockSlice);
        fastest = slices == 0 ? t : std::min(fastest, t);
        total += t;
        ++slices;
    }
    const double additions = static_cast<double>(kClockSlice);
    return {cpu, additions / fastest * 1e-9, additions * static_cast<double>(slices) / total * 1e-9};
}

std::vector<double> valuesOf(const std::vector<BenchResult>& runs, double BenchResult::*field) {
    std::vector<double> v;
    for (const BenchResult& r : runs) v.push_back(r.*field);
    return v;
}
}  // namespace

RepeatedResult summarize(const std::vector<BenchResult>& runs) {
    RepeatedResult s;
    s.runs = static_cast<int>(runs.size());
    if (runs.empty()) return s;
    BenchResult& m = s.median;
    m = runs.front();
    for (double BenchResult::*field : {&BenchResult::nsPerFishStep, &BenchResult::gridMs, &BenchResult::reorderMs,
                                       &BenchResult::kernelMs, &BenchResult::agentsMs, &BenchResult::metricsMs,
                                       &BenchResult::coresRoundTripNs})
        m.*field = spreadOf(valuesOf(runs, field)).median;
    // From the median time, not a median of its own: with an even number of
    // runs each is the mean of the middle two, and the two disagreed (the
    // mean of two rates is not the rate of the mean time).
    if (m.fish > 0 && m.nsPerFishStep > 0) m.stepsPerSecond = 1e9 / (m.nsPerFishStep * m.fish);
    const Spread ns = spreadOf(valuesOf(runs, &BenchResult::nsPerFishStep));
    s.minNsPerFishStep = ns.lowest;
    s.maxNsPerFishStep = ns.highest;
    return s;
}

PairedSpeedUp measurePairedSpeedUp(const Scene& scene, int threads, std::uint64_t startStep, int pairs,
                                   std::uint64_t steps, const std::function<void(int, double, double)>& progress) {
    ThreadPool one(1), many(threads);
    Simulation sim(scene, many);
    while (sim.stepIndex() < startStep) sim.step();
    // Seconds for the next `steps` steps on `pool`, and the state they end in.
    const auto timeSteps = [&](Scheduler& pool) {
        sim.setScheduler(pool);
        const double seconds = secondsFor(sim, steps);
        return std::pair{seconds, stateHash(sim)};
    };
    PairedSpeedUp r;
    for (int p = 0; p < pairs; ++p) {
        const Simulation::SavedState before = sim.save();
        const bool oneFirst = p % 2 == 0;
        const auto [firstSeconds, firstState] = timeSteps(oneFirst ? static_cast<Scheduler&>(one) : many);
        sim.restore(before);
        const auto [secondSeconds, secondState] = timeSteps(oneFirst ? static_cast<Scheduler&>(many) : one);
        r.sameWork = r.sameWork && firstState == secondState;
        const double oneSeconds = oneFirst ? firstSeconds : secondSeconds;
        const double manySeconds = oneFirst ? secondSeconds : firstSeconds;
        r.ratios.push_back(oneSeconds / manySeconds);
        if (progress) progress(p + 1, oneSeconds, manySeconds);
    }
    const Spread spread = spreadOf(r.ratios);
    r.median = spread.median, r.lowest = spread.lowest, r.highest = spread.highest;
    return r;
}

double CoreSpeeds::speedUpBound(int threads) const {
    if (seconds.empty() || secondsTogether.empty()) return 0.0;
    const double fastestAlone = *std::min_element(seconds.begin(), seconds.end());
    std::vector<double> t;
    for (const double seconds : secondsTogether)
        if (std::isfinite(seconds)) t.push_back(seconds);  // a CPU left idle together has none
    std::sort(t.begin(), t.end());
    double sum = 0;
    for (std::size_t i = 0; i < t.size() && i < static_cast<std::size_t>(threads); ++i) sum += fastestAlone / t[i];
    return sum;
}

CoreSpeeds measureCoreSpeeds(const Scene& scene, std::uint64_t startStep, int rounds, std::uint64_t steps,
                             int together) {
    CoreSpeeds r;
#ifdef __linux__
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return r;
    const RestoreAffinity restore{allowed};
    r.cpus = cpusIn(allowed);
    const std::size_t n = r.cpus.size();
    SerialScheduler here;  // the steps run on this (pinned) thread
    Simulation sim(scene, here);
    while (sim.stepIndex() < startStep) sim.step();
    const Simulation::SavedState start = sim.save();
    std::vector<std::vector<double>> alone(n), beside(n);
    for (int round = 0; round < rounds; ++round)
        for (std::size_t i = 0; i < n; ++i) {
            if (!pinCallingThread(r.cpus[i])) return {};
            sim.restore(start);
            alone[i].push_back(secondsFor(sim, steps));
        }
    for (const std::vector<double>& v : alone) r.seconds.push_back(spreadOf(v).median);
    // Together: as many CPUs as there are threads to bound, the fastest
    // alone; the others idle, as they would beside that many threads (on a
    // machine of 16 CPUs, 16 copies at once would share the memory and the
    // caches far more than 2 threads do).
    std::vector<std::size_t> used(n);
    std::iota(used.begin(), used.end(), std::size_t{0});
    std::stable_sort(used.begin(), used.end(), [&](std::size_t a, std::size_t b) { return r.seconds[a] < r.seconds[b]; });
    used.resize(std::clamp<std::size_t>(static_cast<std::size_t>(std::max(together, 1)), 1, n));
    const std::size_t m = used.size();
    // One copy of the school per CPU used (the first's is `sim`), each run by
    // a thread pinned there; the threads start their clocks together once
    // every copy is in place. A serial scheduler keeps no state, so the
    // copies share `here`: each runs its steps on the thread that calls it.
    std::vector<std::unique_ptr<Simulation>> more;
    std::vector<Simulation*> copies{&sim};
    for (std::size_t k = 1; k < m; ++k) {
        more.push_back(std::make_unique<Simulation>(start.scene, here));
        copies.push_back(more.back().get());
    }
    for (int round = 0; round < rounds; ++round) {
        std::atomic<std::size_t> ready{0};
        std::atomic<bool> pinned{true};
        std::vector<std::thread> threads;
        for (std::size_t k = 0; k < m; ++k)
            threads.emplace_back([&, k] {
                if (!pinCallingThread(r.cpus[used[k]])) pinned = false;
                copies[k]->restore(start);
                ready.fetch_add(1);
                while (ready.load() < m) {
                }
                beside[used[k]].push_back(secondsFor(*copies[k], steps));
            });
        for (std::thread& t : threads) t.join();
        if (!pinned) return {};
    }
    for (const std::vector<double>& v : beside)
        r.secondsTogether.push_back(v.empty() ? std::numeric_limits<double>::quiet_NaN() : spreadOf(v).median);
#else
    (void)scene, (void)startStep, (void)rounds, (void)steps, (void)together;
#endif
    return r;
}

std::vector<CpuClock> measureCpuClocks(double seconds) {
#ifdef __linux__
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
        const RestoreAffinity restore{allowed};
        const std::vector<int> cpus = cpusIn(allowed);
        std::vector<CpuClock> clocks;
        for (const int cpu : cpus) {
            if (!pinCallingThread(cpu)) break;
            clocks.push_back(clockHere(cpu, seconds));
        }
        if (clocks.size() == cpus.size()) return clocks;  // every CPU pinned
    }
#endif
    return {clockHere(-1, seconds)};
}

std::string cpuModelName() {
    std::ifstream info("/proc/cpuinfo");
    std::string line;
    const std::string key = "model name";
    while (std::getline(info, line)) {
        if (line.rfind(key, 0) != 0) continue;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) break;
        const std::size_t start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? std::string{} : line.substr(start);
    }
    return {};
}

double measureCoreRoundTrip() {
#ifdef __linux__
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0.0;
    const std::vector<int> cpus = cpusIn(allowed);
    if (cpus.size() < 2) return 0.0;
    constexpr int kTries = 5, kTrips = 4000;
    std::vector<double> tries;
    for (int t = 0; t < kTries; ++t) {
        // The first thread sends odd numbers, the second answers with the next
        // even one. The waits spin without a pause, which would add its own
        // delay to every trip.
        std::atomic<int> ball{0};
        std::atomic<bool> pinned{true};
        const auto pinTo = [&](int cpu) {
            if (!pinCallingThread(cpu)) pinned = false;
        };
        double seconds = 0;
        std::thread answer([&] {
            pinTo(cpus[1]);
            for (int i = 0; i < kTrips; ++i) {
                while (ball.load(std::memory_order_acquire) != 2 * i + 1) {
                }
                ball.store(2 * i + 2, std::memory_order_release);
            }
        });
        std::thread send([&] {
            pinTo(cpus[0]);
            const auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < kTrips; ++i) {
                ball.store(2 * i + 1, std::memory_order_release);
                while (ball.load(std::memory_order_acquire) != 2 * i + 2) {
                }
            }
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        });
        send.join();
        answer.join();
        if (!pinned) return 0.0;
        tries.push_back(seconds * 1e9 / kTrips);
    }
    return spreadOf(tries).median;
#else
    return 0.0;
#endif
}

}  // namespace mirofish::bench
