#pragma once
// The AVX-512 half of mirofish_scan_bench, compiled for AVX-512 (call it only
// where cpuRuns(KernelBuild::Avx512)).

namespace mirofish::bench {

// Which pass of the scan (sim/neighbour_scan.hpp scan::Pass).
enum class ScanPass { Everything, AllButSeparation, SeparationOnly, BothApart };

// The kernel's sixteen-lane scan over a warm list of `candidates` fish: the
// median time of one candidate step, in nanoseconds.
double nanosecondsPerScanStep(int candidates, ScanPass pass = ScanPass::Everything);

}  // namespace mirofish::bench
