// The kernel compiled for AVX-512 (core/CMakeLists.txt): see
// sim/fish_kernel_body.hpp. With 512-bit vectors it works on sixteen fish at
// a time, two groups of eight, and scans both groups together where they lie
// side by side; the results are those of the other builds, bit for bit.
#include "sim/fish_kernel_body.hpp"

namespace mirofish::detail {

[[gnu::flatten]] ChunkStats runFishKernelAvx512(const KernelInput& in, std::size_t begin, std::size_t end) {
    return kernelBody(in, begin, end);
}

}  // namespace mirofish::detail
