// The floor the neighbour scan sets on this machine: the kernel's own scan
// loop (sim/neighbour_scan.hpp scanList, the AVX-512 build's sixteen lanes)
// timed on warm lists in steady state, nothing else running, so that a
// step's time can be told apart into the scan's own work and everything
// around it (the fill, the steering, the grid, the reorder, and the scan's
// start and end). The last three columns time the passes the scan makes
// where the separation has a pass of its own (scan::Pass): without the
// separation, the separation alone, and both side by side
// (scan::scanListsApart, a candidate of each list a step). Prints a table;
// run: build/tests/bench/mirofish_scan_bench
#include <cstdio>

#include "scan_bench_avx512.hpp"
#include "sim/fish_kernel.hpp"

int main() {
    if (!mirofish::cpuRuns(mirofish::KernelBuild::Avx512)) {
        std::printf("mirofish_scan_bench times the AVX-512 build's scan, and this CPU has no AVX-512\n");
        return 0;
    }
    using mirofish::bench::ScanPass;
    std::printf("the kernel's scan loop, sixteen fish in the lanes, one candidate a step, warm lists (medians of 9)\n"
                "candidates  ns a step  ns a fish (the step / 16 x candidates)  ns a step of the passes apart:\n"
                "                                                                all but separation  separation only  both at once\n");
    // The bench's constant density (about 70 candidates a group of sixteen),
    // article 000 (about 240) and its app's defaults (about 1160).
    for (const int candidates : {16, 35, 70, 140, 240, 480, 1160}) {
        const double ns = mirofish::bench::nanosecondsPerScanStep(candidates);
        const double rest = mirofish::bench::nanosecondsPerScanStep(candidates, ScanPass::AllButSeparation);
        const double separation = mirofish::bench::nanosecondsPerScanStep(candidates, ScanPass::SeparationOnly);
        const double both = mirofish::bench::nanosecondsPerScanStep(candidates, ScanPass::BothApart);
        std::printf("%10d  %9.2f  %9.1f  %38.2f  %15.2f  %10.2f\n", candidates, ns, ns * candidates / 16.0, rest,
                    separation, both);
    }
    return 0;
}
