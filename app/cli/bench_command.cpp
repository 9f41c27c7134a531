#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "bench_scenes.hpp"
#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "sim/fish_kernel.hpp"

namespace mirofish::cli {

namespace {
const std::vector<OptionSpec> kOptions = {
    {"fish", "N[,N...]", "fish counts for the constant-density scene (default 10000,50000)"},
    {"threads", "T[,T...]", "thread counts to measure (default: 1 and all cores)"},
    {"seconds", "S", "minimum timed seconds of the first measurement of each constant-density scene\n"
                     "                          (default 1); the other thread counts then time the same steps, so they\n"
                     "                          do the same work. Article 000's scenes time the same steps on every\n"
                     "                          machine instead, since how dense their school is changes over minutes"},
    {"steps", "N", "time exactly N steps of every scene instead (after the same warm-up)"},
    {"repeat", "N", "measure everything N times, in rounds (a scene's thread counts back to back), and print\n"
                    "                          per row the median, the fastest and the slowest run (default 1)"},
    {"pairs", "N", "then time the speed-up over 1 thread of every scene in N pairs of runs of the same\n"
                   "                          steps, one on 1 thread and one on more, and print the median pair's ratio\n"
                   "                          (default 5; 0 skips it; needs 1 among the thread counts). Each run is as\n"
                   "                          many steps as the timed run made in a quarter of a second on 1 thread,\n"
                   "                          from its middle on (longer where the school packs after a short --steps)"},
    {"kernel", "NAME", "the kernel build to time: generic, avx2 or avx512 (default: the best this CPU runs;\n"
                       "                          avx2 and avx512 give the same results, bit for bit, and generic,\n"
                       "                          without fused multiply-adds, differs from them in the last bits)"},
    {"separation", "HOW", "how the avx512 build's scan sums the separation where its radius is at\n"
                          "                          most half the perception radius: apart (a pass of its own over the\n"
                          "                          candidates close enough) or together (one pass); the same results\n"
                          "                          either way (default: apart); refused with the other builds"},
    {"json", "", "one JSON object per line instead of a table"},
    {"profile", "", "also print the time per step of each phase: grid build, reorder, forces and\n"
                    "                          integration (one fused pass), agents, and one metrics computation"},
};

// One row of the table: a scene at one thread count, with its runs.
struct Row {
    std::string name, key;
    Scene scene;
    int threads;
    std::uint64_t timedSteps;  // on every machine (bench::kArticle000TimedSteps), or 0: as many as fit in --seconds
    std::vector<bench::BenchResult> runs;
};

// The CPU and the clock each CPU ran this process at (bench::measureCpuClocks):
// before the table and again at the end, since a shared host's speed drifts.
void reportClocks(const char* when, bool json, std::ostream& out) {
    const std::vector<bench::CpuClock> clocks = bench::measureCpuClocks(0.25);
    if (json) {
        nlohmann::ordered_json j;
        j["cpu_clock_at"] = when;
        j["cpu_model"] = bench::cpuModelName();
        for (const bench::CpuClock& c : clocks) {
            j["cpus"].push_back(c.cpu);
            j["fastest_ghz"].push_back(c.fastestGhz);
            j["mean_ghz"].push_back(c.meanGhz);
        }
        out << j.dump() << "\n" << std::flush;
        return;
    }
    out << "clock at the " << when << " (a chain of dependent additions, one a cycle; fastest slice / mean):";
    for (const bench::CpuClock& c : clocks) {
        char figure[96];
        if (c.cpu >= 0)
            std::snprintf(figure, sizeof figure, " CPU %d %.2f / %.2f GHz", c.cpu, c.fastestGhz, c.meanGhz);
        else
            std::snprintf(figure, sizeof figure, " %.2f / %.2f GHz", c.fastestGhz, c.meanGhz);
        out << figure << (&c == &clocks.back() ? "" : ",");
    }
    out << "\n" << std::flush;
}

// After the table: each scene's speed-up on every thread count above 1 over
// its 1-thread row, timed in pairs of runs of the same steps. The pairs start
// halfway through the steps the rows timed (article 000's school is still
// forming, so its work per step changes), and each run of a pair lasts at least a quarter
// of a second on 1 thread (judged by the 1-thread row's rate).
int reportSpeedUps(const std::vector<Row>& rows, int pairs, bool json, std::ostream& out, std::ostream& err) {
    if (pairs == 0) return kExitOk;
    const auto onThreads = [&](bool one) {
        return std::any_of(rows.begin(), rows.end(), [&](const Row& r) { return (r.threads == 1) == one; });
    };
    if (onThreads(false) && !onThreads(true)) {
        err << "mirofish bench: no speed-ups over 1 thread: --threads has no 1 (--pairs needs it)\n";
        return kExitOk;
    }
    bool header = false;
    for (const Row& row : rows) {
        const auto single = std::find_if(rows.begin(), rows.end(), [&](const Row& other) {
            return other.key == row.key && other.threads == 1;
        });
        if (row.threads == 1 || single == rows.end()) continue;
        const bench::BenchResult& oneThread = bench::summarize(single->runs).median;
        const auto steps = static_cast<std::uint64_t>(std::max(1.0, std::ceil(0.25 * oneThread.stepsPerSecond)));
        const std::uint64_t startStep = bench::kWarmUpSteps + oneThread.steps / 2;
        const std::uint32_t fish = row.scene.fishCount;
        const bench::PairedSpeedUp s = bench::measurePairedSpeedUp(
            row.scene, row.threads, startStep, pairs, steps, [&](int pair, double oneSeconds, double manySeconds) {
                char line[200];
                std::snprintf(line, sizeof line,
                              "pair %d of %d: %s, %u fish, %llu steps: 1 thread %.3f s, %d threads %.3f s\n", pair,
                              pairs, row.name.c_str(), fish, static_cast<unsigned long long>(steps), oneSeconds,
                              row.threads, manySeconds);
                err << line << std::flush;
            });
        if (!s.sameWork) {
            err << "mirofish bench: " << row.name << " with " << fish << " fish ended in different states on 1 and on "
                << row.threads << " threads after the same steps: the simulation is not deterministic\n";
            return kExitFailed;
        }
        // The same steps on each core alone and on as many at once as there
        // are threads: what the pairs could reach here.
        const bench::CoreSpeeds cores = bench::measureCoreSpeeds(row.scene, startStep, pairs, steps, row.threads);
        if (json) {
            nlohmann::ordered_json j;
            j["scene"] = row.name;
            j["fish"] = fish;
            j["threads"] = row.threads;
            j["pairs"] = pairs;
            j["steps_per_run"] = steps;
            j["speed_up_vs_1_thread"] = s.median;
            j["speed_up_lowest"] = s.lowest;
            j["speed_up_highest"] = s.highest;
            if (!cores.cpus.empty()) {
                j["cpus"] = cores.cpus;
                j["seconds_per_run_on_each_cpu"] = cores.seconds;
                j["seconds_per_run_on_each_cpu_together"] = cores.secondsTogether;
                j["speed_up_bound"] = cores.speedUpBound(row.threads);
            }
            out << j.dump() << "\n" << std::flush;
            continue;
        }
        if (!header) {
            out << "\nspeed-up over 1 thread, the same steps timed in pairs (median pair, lowest-highest); the\n"
                << "seconds of one run on 1 thread pinned to each CPU, alone and with as many CPUs as threads\n"
                << "(the fastest alone) each running its own copy at once, '-' for a CPU idle then (medians of as\n"
                << "many runs as pairs); and the speed-up over the fastest CPU alone that the CPUs' speeds together\n"
                << "allow at most (CPUs that share a core slow each other down):\n"
                << "scene              fish  threads  steps/run  pairs  vs 1 thread  lowest-highest  s on each CPU  "
                   "together       at most\n";
            header = true;
        }
        char line[240];
        std::snprintf(line, sizeof line, "%-16s %7u %8d %10llu %6d %11.2fx %9.2f-%.2fx", row.name.c_str(), fish,
                      row.threads, static_cast<unsigned long long>(steps), pairs, s.median, s.lowest, s.highest);
        out << line;
        if (cores.cpus.empty()) {
            out << "  (CPUs not pinnable)\n" << std::flush;
            continue;
        }
        const auto joinedTimes = [](const std::vector<double>& seconds) {
            std::string text;
            for (std::size_t i = 0; i < seconds.size(); ++i) {
                char time[48];
                if (std::isfinite(seconds[i])) std::snprintf(time, sizeof time, "%s%.3f", i == 0 ? "" : "/", seconds[i]);
                else std::snprintf(time, sizeof time, "%s-", i == 0 ? "" : "/");
                text += time;
            }
            return text;
        };
        std::snprintf(line, sizeof line, " %14s %13s %7.2fx\n", joinedTimes(cores.seconds).c_str(),
                      joinedTimes(cores.secondsTogether).c_str(), cores.speedUpBound(row.threads));
        out << line << std::flush;
    }
    return kExitOk;
}
}  // namespace

int runBench(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const CommandSpec spec{"bench", "mirofish bench [options]",
                           "Measures simulation speed on a constant-density scene (about 7 neighbours seen\n"
                           "per fish, held steady; all rules on), on article 000's scene (3000 fish,\n"
                           "1920x1080, its table and its rules) and on that scene with the app's default\n"
                           "rules (a speed floor, wander and jitter, which pack the school far denser).\n"
                           "The table's last column, round trip ns: for rows on more than one thread, how\n"
                           "long an atomic took to go from one CPU to another and back just before the run\n"
                           "(the median of the runs; with --repeat, each run's progress line gives its\n"
                           "own). Virtual CPUs may sit close together or far apart, and whatever the\n"
                           "threads share costs more when they are far apart.\n"
                           "Before the table and at the end, the clock each CPU ran at: where its mean is\n"
                           "well below its fastest, the host shares the CPU with other work, and every\n"
                           "figure is slower by about as much.",
                           kOptions};
    return runCommand(spec, argv, out, err, [&](const Args& args) {
        const auto fishCounts = args.integerList("fish", {10'000, 50'000}, 1, 2'000'000);
        const long long cores = std::max(1u, std::thread::hardware_concurrency());
        const auto threadCounts = args.integerList("threads", cores > 1 ? std::vector<long long>{1, cores}
                                                                          : std::vector<long long>{1}, 1, 256);
        if (args.has("seconds") && args.has("steps")) throw ArgError("give --seconds or --steps, not both");
        const double seconds = args.number("seconds", 1, 0.01, 3600);
        const auto fixedSteps = static_cast<std::uint64_t>(args.integer("steps", 0, 1, 1'000'000));
        const auto repeat = static_cast<int>(args.integer("repeat", 1, 1, 100));
        const auto pairs = static_cast<int>(args.integer("pairs", 5, 0, 100));
        const bool json = args.has("json");
        const bool profile = args.has("profile");
        const bool repeated = repeat > 1;

        // The build asked for, for this command only.
        struct RestoreBuild {
            KernelBuild before = kernelBuild();
            SeparationScan separationBefore = separationScan();
            ~RestoreBuild() {
                useKernelBuild(before);
                useSeparationScan(separationBefore);
            }
        } restoreBuild;
        if (const auto name = args.value("kernel")) {
            const auto wanted = kernelBuildNamed(*name);
            if (!wanted) throw ArgError("--kernel must be generic, avx2 or avx512, not '" + *name + "'");
            if (!cpuRuns(*wanted))
                throw ArgError("this CPU cannot run the " + *name + " kernel (the best it runs is " +
                               kernelBuildName(bestKernelBuild()) + ")");
            useKernelBuild(*wanted);
        }
        if (const auto name = args.value("separation")) {
            const auto wanted = separationScanNamed(*name);
            if (!wanted) throw ArgError("--separation must be apart or together, not '" + *name + "'");
            if (kernelBuild() != KernelBuild::Avx512)
                throw ArgError("--separation concerns the avx512 build's scan; this run times the " +
                               std::string(kernelBuildName(kernelBuild())) + " build");
            useSeparationScan(*wanted);
        }
        const char* build = kernelBuildName(kernelBuild());
        if (!json) {
            const std::string model = bench::cpuModelName();
            out << "CPU: " << (model.empty() ? "unknown" : model) << "; kernel build: " << build;
            if (kernelBuild() == KernelBuild::Avx512)
                out << ", separation " << separationScanName(separationScan());
            out << "\n";
        }
        reportClocks("start", json, out);
        if (!json) {
            out << "scene              fish  threads  steps   steps/s   ns/fish-step"
                << (repeated ? "  fastest-slowest" : "") << "  candidates  neighbours  peak RSS MB  round trip ns\n";
        }
        // One row of the table: a single run, or the summary of repeated runs.
        auto report = [&](const bench::RepeatedResult& s) {
            const bench::BenchResult& r = s.median;
            if (json) {
                nlohmann::ordered_json j;
                j["scene"] = r.scene;
                j["fish"] = r.fish;
                j["threads"] = r.threads;
                j["kernel_build"] = build;
                if (kernelBuild() == KernelBuild::Avx512) j["separation"] = separationScanName(separationScan());
                j["steps"] = r.steps;
                j["steps_per_second"] = r.stepsPerSecond;
                j["ns_per_fish_step"] = r.nsPerFishStep;
                if (repeated) {
                    j["runs"] = s.runs;
                    j["ns_per_fish_step_fastest"] = s.minNsPerFishStep;
                    j["ns_per_fish_step_slowest"] = s.maxNsPerFishStep;
                }
                j["mean_candidates"] = r.meanCandidates;
                j["mean_neighbours"] = r.meanNeighbours;
                j["peak_rss_mb"] = r.peakRssMb;
                if (r.coresRoundTripNs > 0) j["cores_round_trip_ns"] = r.coresRoundTripNs;
                if (profile) {
                    j["grid_ms"] = r.gridMs;
                    j["reorder_ms"] = r.reorderMs;
                    j["forces_and_integration_ms"] = r.kernelMs;
                    j["agents_ms"] = r.agentsMs;
                    j["metrics_ms"] = r.metricsMs;
                }
                out << j.dump() << "\n" << std::flush;
                return;
            }
            char line[160];
            std::snprintf(line, sizeof line, "%-16s %7u %8d %6llu %9.1f %14.1f", r.scene.c_str(), r.fish, r.threads,
                          static_cast<unsigned long long>(r.steps), r.stepsPerSecond, r.nsPerFishStep);
            out << line;
            if (repeated) {
                char spread[40];
                std::snprintf(spread, sizeof spread, "%.1f-%.1f", s.minNsPerFishStep, s.maxNsPerFishStep);
                std::snprintf(line, sizeof line, " %16s", spread);
                out << line;
            }
            std::snprintf(line, sizeof line, " %11.1f %11.2f %12.1f", r.meanCandidates, r.meanNeighbours, r.peakRssMb);
            out << line;
            if (r.coresRoundTripNs > 0)
                std::snprintf(line, sizeof line, " %14.0f\n", r.coresRoundTripNs);
            else
                std::snprintf(line, sizeof line, " %14s\n", "-");
            out << line;
            if (profile) {
                std::snprintf(line, sizeof line,
                              "    per step: grid %.3f ms, reorder %.3f ms, forces+integration %.3f ms, agents %.3f ms;"
                              " one metrics computation %.3f ms\n",
                              r.gridMs, r.reorderMs, r.kernelMs, r.agentsMs, r.metricsMs);
                out << line;
            }
            out << std::flush;
        };

        // The rows in table order (thread count, then scene), each with its runs.
        std::vector<Row> rows;
        for (const long long threads : threadCounts) {
            for (const long long fish : fishCounts)
                rows.push_back({bench::kConstantDensityName, std::to_string(fish),
                                bench::constantDensityScene(static_cast<std::uint32_t>(fish)),
                                static_cast<int>(threads), 0, {}});
            rows.push_back({bench::kArticle000Name, bench::kArticle000Name, bench::article000Scene(),
                            static_cast<int>(threads), bench::kArticle000TimedSteps, {}});
            rows.push_back({bench::kArticle000AppName, bench::kArticle000AppName, bench::article000AppScene(),
                            static_cast<int>(threads), bench::kArticle000AppTimedSteps, {}});
        }
        // Repeated, a round measures each scene at every thread count in a
        // row, so that a scene's rows share the machine's spells alike.
        std::vector<std::size_t> order(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) order[i] = i;
        if (repeated) {
            const std::size_t scenes = rows.size() / threadCounts.size();
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return a % scenes < b % scenes; });
        }
        // Steps timed per scene: --steps, the scene's own, or fixed by its first measurement.
        std::map<std::string, std::uint64_t> stepsOf;
        for (int round = 1; round <= repeat; ++round) {
            for (const std::size_t i : order) {
                Row& row = rows[i];
                const std::uint64_t steps = fixedSteps > 0      ? fixedSteps
                                            : row.timedSteps > 0 ? row.timedSteps
                                                                 : stepsOf[row.key];
                const bench::BenchResult r = bench::measure(row.name, row.scene, row.threads, seconds, steps);
                stepsOf[row.key] = r.steps;
                row.runs.push_back(r);
                if (!repeated) {
                    report(bench::summarize(row.runs));
                    continue;
                }
                // Each run's own distance between the CPUs: a row's rounds
                // can differ by a quarter as the CPUs move apart or together.
                char apart[48] = "";
                if (r.coresRoundTripNs > 0)
                    std::snprintf(apart, sizeof apart, ", the CPUs %.0f ns apart", r.coresRoundTripNs);
                char line[200];
                std::snprintf(line, sizeof line, "round %d of %d: %s, %u fish, %d thread%s: %.1f ns/fish-step%s\n",
                              round, repeat, row.name.c_str(), r.fish, row.threads, row.threads == 1 ? "" : "s",
                              r.nsPerFishStep, apart);
                err << line << std::flush;
            }
        }
        if (repeated)
            for (const Row& row : rows) report(bench::summarize(row.runs));
        const int code = reportSpeedUps(rows, pairs, json, out, err);
        if (code == kExitOk) reportClocks("end", json, out);
        return code;
    });
}

}  // namespace mirofish::cli
