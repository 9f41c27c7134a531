// Times the same steps of a benchmark scene again and again, one run per
// line on stdin, so that two builds can be timed in alternation
// (scripts/compare-builds.sh). This machine's slow and fast spells last
// seconds: two builds timed one after the other in separate minutes differ by
// more than most changes do, while runs a fraction of a second apart on the
// very same steps pair up well.
//
// usage: mirofish_lockstep SCENE FISH THREADS STEPS FROM [save|load FILE]
//   SCENE  constant-density, constant-density-wrapping, article-000 or
//          article-000-app (FISH is ignored for the last two)
//   FROM   the step the timed runs start from; the scene runs up to it once
//   save FILE / load FILE: write the state at FROM to FILE, or start from
//          the state in FILE instead of running up to FROM, so that two
//          builds whose schools drift apart still time the very same state
// MIROFISH_KERNEL=generic|avx2|avx512 in the environment times that build of
// the kernel instead of the best one this CPU runs, and
// MIROFISH_SEPARATION=together|apart that way of summing the separation
// (sim/fish_kernel.hpp SeparationScan) instead of this CPU's.
// MIROFISH_WARMUP=N: N more steps after FROM (or the loaded state), and the
// timed runs start from where they end. A build that lays the fish out
// otherwise (such as the grid's rows, sim/row_stretch.hpp) re-sorts another
// build's state in its first step; after N steps each times its own order.
// Prints "ready", then per input line: the seconds STEPS steps took (the state
// put back to FROM before each run) and the mean neighbours and candidates
// examined per fish of the last step.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>

#include "bench_scenes.hpp"
#include "io/snapshot.hpp"
#include "sched/thread_pool.hpp"
#include "sim/fish_kernel.hpp"
#include "sim/simulation.hpp"

using namespace mirofish;

namespace {

long positive(const char* text, const char* what) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (*end != '\0' || v < 1)
        throw std::runtime_error(std::string(what) + " must be a positive whole number, not '" + text + "'");
    return v;
}

Scene sceneNamed(const std::string& name, long fish) {
    if (name == bench::kConstantDensityName) return bench::constantDensityScene(static_cast<std::uint32_t>(fish));
    if (name == bench::kArticle000Name) return bench::article000Scene();
    if (name == bench::kArticle000AppName) return bench::article000AppScene();
    if (name == bench::kConstantDensityWrappingName)
        return bench::constantDensityWrappingScene(static_cast<std::uint32_t>(fish));
    throw std::runtime_error("unknown scene '" + name + "' (" + bench::kConstantDensityName + ", " +
                             bench::kConstantDensityWrappingName + ", " + bench::kArticle000Name + " or " +
                             bench::kArticle000AppName + ")");
}

}  // namespace

int main(int argc, char** argv) try {
    if (argc != 6 && argc != 8) {
        std::cerr << "usage: mirofish_lockstep SCENE FISH THREADS STEPS FROM [save|load FILE]\n";
        return 2;
    }
    const long fish = positive(argv[2], "FISH"), threads = positive(argv[3], "THREADS");
    const long steps = positive(argv[4], "STEPS"), from = positive(argv[5], "FROM");
    const std::string stateMode = argc == 8 ? argv[6] : "";
    if (argc == 8 && stateMode != "save" && stateMode != "load")
        throw std::runtime_error("the sixth argument must be save or load, not '" + stateMode + "'");

    if (const char* name = std::getenv("MIROFISH_KERNEL")) {
        const auto build = kernelBuildNamed(name);
        if (!build || !cpuRuns(*build))
            throw std::runtime_error(std::string("MIROFISH_KERNEL: no build '") + name + "' that this CPU runs");
        useKernelBuild(*build);
    }
    if (const char* name = std::getenv("MIROFISH_SEPARATION")) {
        const auto scan = separationScanNamed(name);
        if (!scan)
            throw std::runtime_error(std::string("MIROFISH_SEPARATION: '") + name + "' is neither together nor apart");
        useSeparationScan(*scan);
    }

    ThreadPool pool(static_cast<int>(threads));
    Simulation sim(sceneNamed(argv[1], fish), pool);
    if (stateMode == "load")
        loadSnapshot(sim, argv[7]);
    else
        while (sim.stepIndex() < static_cast<std::uint64_t>(from)) sim.step();
    if (stateMode == "save") saveSnapshot(sim, argv[7]);
    if (const char* warmup = std::getenv("MIROFISH_WARMUP"))
        for (long i = positive(warmup, "MIROFISH_WARMUP"); i > 0; --i) sim.step();
    const Simulation::SavedState start = sim.save();
    std::cout << "ready" << std::endl;

    std::string line;
    while (std::getline(std::cin, line)) {
        sim.restore(start);
        const double seconds = bench::secondsFor(sim, static_cast<std::uint64_t>(steps));
        std::printf("%.6f %.2f %.2f\n", seconds, sim.lastMeanNeighbours(), sim.lastMeanCandidates());
        std::fflush(stdout);
    }
    return 0;
} catch (const std::exception& e) {
    std::cerr << "mirofish_lockstep: " << e.what() << "\n";
    return 1;
}
