#include "sim/neighbour_scan.hpp"

namespace mirofish::scan {

void Block::grow(std::size_t size) {
    for (std::vector<float>* a : {&px_, &py_, &vx_, &vy_}) a->resize(size);
}

// Out of the kernel, for two reasons: its thread-local Block brings
// std::vector's destructor, which the AVX2 kernel must not instantiate; and
// GCC recomputes an inlined thread-local address (a call to __tls_get_addr)
// wherever it needs it, inside the block copy loop too, instead of keeping it.
Block& threadBlock() {
    thread_local Block block;
    return block;
}

}  // namespace mirofish::scan
