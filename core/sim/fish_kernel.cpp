#include "sim/fish_kernel.hpp"

#include <atomic>

namespace mirofish {

namespace {

bool cpuHasAvx2() {
#if defined(MIROFISH_AVX2_KERNEL) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

// Set once from the CPU, then only by useKernelBuild. Relaxed is enough: the
// builds give the same results, so a chunk that still runs the other one
// after a change changes nothing.
std::atomic<KernelBuild>& chosenBuild() {
    static std::atomic<KernelBuild> build{bestKernelBuild()};
    return build;
}

}  // namespace

KernelBuild bestKernelBuild() {
    static const KernelBuild best = cpuHasAvx2() ? KernelBuild::Avx2 : KernelBuild::Generic;
    return best;
}

KernelBuild useKernelBuild(KernelBuild build) {
    const KernelBuild usable = build == KernelBuild::Avx2 ? bestKernelBuild() : KernelBuild::Generic;
    chosenBuild().store(usable, std::memory_order_relaxed);
    return usable;
}

KernelBuild kernelBuild() { return chosenBuild().load(std::memory_order_relaxed); }

const char* kernelBuildName(KernelBuild build) { return build == KernelBuild::Avx2 ? "avx2" : "generic"; }

ChunkStats runFishKernel(const KernelInput& in, std::size_t begin, std::size_t end) {
#ifdef MIROFISH_AVX2_KERNEL
    if (kernelBuild() == KernelBuild::Avx2) return detail::runFishKernelAvx2(in, begin, end);
#endif
    return detail::runFishKernelGeneric(in, begin, end);
}

}  // namespace mirofish
