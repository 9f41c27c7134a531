// The kernel for any x86-64 (and any other target): see sim/fish_kernel_body.hpp.
#include "sim/fish_kernel_body.hpp"

namespace mirofish::detail {

[[gnu::flatten]] ChunkStats runFishKernelGeneric(const KernelInput& in, std::size_t begin, std::size_t end) {
    return kernelBody(in, begin, end);
}

}  // namespace mirofish::detail
