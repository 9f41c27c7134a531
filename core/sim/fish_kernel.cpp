#include "sim/fish_kernel.hpp"

#include <atomic>

namespace mirofish {

namespace {

KernelBuild bestOnThisCpu() {
#if defined(MIROFISH_X86_KERNELS) && (defined(__GNUC__) || defined(__clang__))
    // __builtin_cpu_supports also asks whether the operating system saves
    // the wider registers. Every CPU with AVX2 or AVX-512 known has FMA too;
    // asked all the same, since both builds use it.
    if (!__builtin_cpu_supports("fma")) return KernelBuild::Generic;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw"))
        return KernelBuild::Avx512;
    if (__builtin_cpu_supports("avx2")) return KernelBuild::Avx2;
#endif
    return KernelBuild::Generic;
}

// Each set once from the CPU, then only by useKernelBuild and
// useSeparationScan. Relaxed is enough: a change takes effect from a later
// step (a test or the bench changes them between steps, never during one;
// Simulation::step reads the separation's way once, into KernelInput).
std::atomic<KernelBuild>& chosenBuild() {
    static std::atomic<KernelBuild> build{bestKernelBuild()};
    return build;
}

std::atomic<SeparationScan>& chosenSeparationScan() {
    static std::atomic<SeparationScan> scan{bestSeparationScan()};
    return scan;
}

}  // namespace

SeparationScan bestSeparationScan() { return SeparationScan::Apart; }

SeparationScan useSeparationScan(SeparationScan scan) {
    chosenSeparationScan().store(scan, std::memory_order_relaxed);
    return scan;
}

SeparationScan separationScan() { return chosenSeparationScan().load(std::memory_order_relaxed); }

const char* separationScanName(SeparationScan scan) { return scan == SeparationScan::Apart ? "apart" : "together"; }

std::optional<SeparationScan> separationScanNamed(std::string_view name) {
    for (SeparationScan scan : {SeparationScan::Together, SeparationScan::Apart})
        if (name == separationScanName(scan)) return scan;
    return std::nullopt;
}

KernelBuild bestKernelBuild() {
    static const KernelBuild best = bestOnThisCpu();
    return best;
}

bool cpuRuns(KernelBuild build) { return build <= bestKernelBuild(); }

KernelBuild useKernelBuild(KernelBuild build) {
    const KernelBuild usable = cpuRuns(build) ? build : KernelBuild::Generic;
    chosenBuild().store(usable, std::memory_order_relaxed);
    return usable;
}

KernelBuild kernelBuild() { return chosenBuild().load(std::memory_order_relaxed); }

const char* kernelBuildName(KernelBuild build) {
    switch (build) {
        case KernelBuild::Avx512:
            return "avx512";
        case KernelBuild::Avx2:
            return "avx2";
        case KernelBuild::Generic:
            break;
    }
    return "generic";
}

std::optional<KernelBuild> kernelBuildNamed(std::string_view name) {
    for (KernelBuild build : kKernelBuilds)
        if (name == kernelBuildName(build)) return build;
    return std::nullopt;
}

ChunkStats runFishKernel(const KernelInput& in, std::size_t begin, std::size_t end) {
#ifdef MIROFISH_X86_KERNELS
    switch (kernelBuild()) {
        case KernelBuild::Avx512:
            return detail::runFishKernelAvx512(in, begin, end);
        case KernelBuild::Avx2:
            return detail::runFishKernelAvx2(in, begin, end);
        case KernelBuild::Generic:
            break;
    }
#endif
    return detail::runFishKernelGeneric(in, begin, end);
}

}  // namespace mirofish
