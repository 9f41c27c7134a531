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
        const bool json = args.has("json");
        const bool profile = args.has("profile");

        if (!json) {
            out << "scene              fish  threads  steps   steps/s   ns/fish-step  candidates  neighbours  peak RSS MB\n";
        }
        auto report = [&](const bench::BenchResult& r) {
            if (json) {
                nlohmann::ordered_json j;
                j["scene"] = r.scene;
                j["fish"] = r.fish;
                j["threads"] = r.threads;
                j["steps"] = r.steps;
                j["steps_per_second"] = r.stepsPerSecond;
                j["ns_per_fish_step"] = r.nsPerFishStep;
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
            std::snprintf(line, sizeof line, "%-16s %7u %8d %6llu %9.1f %14.1f %11.1f %11.2f %12.1f\n",
                          r.scene.c_str(), r.fish, r.threads, static_cast<unsigned long long>(r.steps),
                          r.stepsPerSecond, r.nsPerFishStep, r.meanCandidates, r.meanNeighbours, r.peakRssMb);
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
        // Steps timed per scene, fixed by its first measurement.
        std::map<std::string, std::uint64_t> stepsOf;
        const auto stepsFor = [&](const std::string& key) { return fixedSteps > 0 ? fixedSteps : stepsOf[key]; };
        const auto run = [&](const std::string& name, const std::string& key, const Scene& scene, int threads) {
            const bench::BenchResult r = bench::measure(name, scene, threads, seconds, stepsFor(key));
            stepsOf[key] = r.steps;
            report(r);
        };
        for (const long long threads : threadCounts) {
            for (const long long fish : fishCounts)
                run("constant-density", std::to_string(fish),
                    bench::constantDensityScene(static_cast<std::uint32_t>(fish)), static_cast<int>(threads));
            run("article-000", "article-000", bench::article000Scene(), static_cast<int>(threads));
        }
        return kExitOk;
    });
}

}  // namespace mirofish::cli
