// The kernel compiled with -mavx2 (core/CMakeLists.txt): see
// sim/fish_kernel_body.hpp. A whole translation unit rather than a
// target_clones function: GCC 12 builds a broadcast of one float from memory
// as a chain of eight inserts inside target_clones (one vbroadcastss with
// -mavx2), and the neighbour scan broadcasts four per candidate.
#include "sim/fish_kernel_body.hpp"

namespace mirofish::detail {

[[gnu::flatten]] ChunkStats runFishKernelAvx2(const KernelInput& in, std::size_t begin, std::size_t end) {
    return kernelBody(in, begin, end);
}

}  // namespace mirofish::detail
