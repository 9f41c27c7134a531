#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "bench_scenes.hpp"
#include "cli/args.hpp"
#include "cli/commands.hpp"

namespace mirofish::cli {

namespace {
const std::vector<OptionSpec> kOptions = {
    {"fish", "N[,N...]", "fish counts for the constant-density scene (default 10000,50000)"},
    {"threads", "T[,T...]", "thread counts to measure (default: 1 and all cores)"},
    {"seconds", "S", "minimum timed seconds of the first measurement of each scene (default 1); the\n"
                     "                          other thread counts then time the same steps, so they do the same work"},
    {"steps", "N", "time exactly N steps of every scene instead (after the same warm-up)"},
    {"repeat", "N", "measure everything N times, in rounds (every thread count once per round), and print\n"
                    "                          per row the median, the fastest and the slowest run, and the speed-up over\n"
                    "                          1 thread as the median of each round's own ratio (default 1)"},
    {"json", "", "one JSON object per line instead of a table"},
    {"profile", "", "also print the time per step of each phase: grid build, reorder, forces and\n"
                    "                          integration (one fused pass), agents, and one metrics computation"},
};
}  // namespace

int runBench(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const CommandSpec spec{"bench", "mirofish bench [options]",
                           "Measures simulation speed on a constant-density scene (about 7 neighbours per\n"
                           "perception disc, all rules on) and on article 000's scene (3000 fish, 1920x1080).",
                           kOptions};
    return runCommand(spec, argv, out, err, [&](const Args& args) {
        const auto fishCounts = args.integerList("fish", {10'000, 50'000}, 1, 2'000'000);
        const long long cores = std::max(1u, std::thread::hardware_concurrency());
        const auto threadCounts = args.integerList("threads", cores > 1 ? std::vector<long long>{1, cores}
                                                                          : std::vector<long long>{1}, 1, 256);
        const double seconds = static_cast<double>(args.integer("seconds", 1, 1, 3600));
        const auto fixedSteps = static_cast<std::uint64_t>(args.integer("steps", 0, 1, 1'000'000));
        const auto repeat = static_cast<int>(args.integer("repeat", 1, 1, 100));
        const bool json = args.has("json");
        const bool profile = args.has("profile");
        const bool repeated = repeat > 1;

        if (!json) {
            out << "scene              fish  threads  steps   steps/s   ns/fish-step"
                << (repeated ? "  fastest-slowest  vs 1 thread" : "") << "  candidates  neighbours  peak RSS MB\n";
        }
        // One row of the table: a single run, or the summary of repeated runs
        // (speedUp 0: no 1-thread row to compare with).
        auto report = [&](const bench::RepeatedResult& s, double speedUp) {
            const bench::BenchResult& r = s.median;
            if (json) {
                nlohmann::ordered_json j;
                j["scene"] = r.scene;
                j["fish"] = r.fish;
                j["threads"] = r.threads;
                j["steps"] = r.steps;
                j["steps_per_second"] = r.stepsPerSecond;
                j["ns_per_fish_step"] = r.nsPerFishStep;
                if (repeated) {
                    j["runs"] = s.runs;
                    j["ns_per_fish_step_fastest"] = s.minNsPerFishStep;
                    j["ns_per_fish_step_slowest"] = s.maxNsPerFishStep;
                    if (speedUp > 0) j["speed_up_vs_1_thread"] = speedUp;
                }
                j["mean_candidates"] = r.meanCandidates;
                j["mean_neighbours"] = r.meanNeighbours;
                j["peak_rss_mb"] = r.peakRssMb;
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
                char spread[40], ratio[16] = "-";
                std::snprintf(spread, sizeof spread, "%.1f-%.1f", s.minNsPerFishStep, s.maxNsPerFishStep);
                if (speedUp > 0) std::snprintf(ratio, sizeof ratio, "%.2fx", speedUp);
                std::snprintf(line, sizeof line, " %16s %12s", spread, ratio);
                out << line;
            }
            std::snprintf(line, sizeof line, " %11.1f %11.2f %12.1f\n", r.meanCandidates, r.meanNeighbours, r.peakRssMb);
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
        struct Row {
            std::string name, key;
            Scene scene;
            int threads;
            std::vector<bench::BenchResult> runs;
        };
        std::vector<Row> rows;
        for (const long long threads : threadCounts) {
            for (const long long fish : fishCounts)
                rows.push_back({"constant-density", std::to_string(fish),
                                bench::constantDensityScene(static_cast<std::uint32_t>(fish)),
                                static_cast<int>(threads), {}});
            rows.push_back({"article-000", "article-000", bench::article000Scene(), static_cast<int>(threads), {}});
        }
        // Repeated, a round measures each scene at every thread count in a
        // row, so the runs that medianSpeedUp pairs are close in time.
        std::vector<std::size_t> order(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) order[i] = i;
        if (repeated) {
            const std::size_t scenes = rows.size() / threadCounts.size();
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return a % scenes < b % scenes; });
        }
        // Steps timed per scene, fixed by its first measurement.
        std::map<std::string, std::uint64_t> stepsOf;
        for (int round = 1; round <= repeat; ++round) {
            for (const std::size_t i : order) {
                Row& row = rows[i];
                const std::uint64_t steps = fixedSteps > 0 ? fixedSteps : stepsOf[row.key];
                const bench::BenchResult r = bench::measure(row.name, row.scene, row.threads, seconds, steps);
                stepsOf[row.key] = r.steps;
                row.runs.push_back(r);
                if (!repeated) {
                    report(bench::summarize(row.runs), 0);
                    continue;
                }
                char line[160];
                std::snprintf(line, sizeof line, "round %d of %d: %s, %u fish, %d thread%s: %.1f ns/fish-step\n",
                              round, repeat, row.name.c_str(), r.fish, row.threads, row.threads == 1 ? "" : "s",
                              r.nsPerFishStep);
                err << line << std::flush;
            }
        }
        if (repeated) {
            for (const Row& row : rows) {
                const auto single = std::find_if(rows.begin(), rows.end(), [&](const Row& other) {
                    return other.key == row.key && other.threads == 1;
                });
                const double speedUp =
                    row.threads > 1 && single != rows.end() ? bench::medianSpeedUp(single->runs, row.runs) : 0;
                report(bench::summarize(row.runs), speedUp);
            }
        }
        return kExitOk;
    });
}

}  // namespace mirofish::cli
