#include "sim/neighbour_scan.hpp"

#include "sim/reach_cull.hpp"

namespace mirofish::scan {

void Block::grow(std::size_t size) {
    for (std::vector<float>* a : {&px_, &py_, &vx_, &vy_}) a->resize(size);
}

void NearbyList::grow(std::size_t size) { list_.resize(size); }

// Out of the kernel, for two reasons: its thread-local Block brings
// std::vector's destructor, which the AVX2 kernel must not instantiate; and
// GCC recomputes an inlined thread-local address (a call to __tls_get_addr)
// wherever it needs it, inside the block copy loop too, instead of keeping it.
Block& threadBlock() {
    thread_local Block block;
    return block;
}

// The same, for the same reasons.
NearbyList& threadNearbyList() {
    thread_local NearbyList list;
    return list;
}

}  // namespace mirofish::scan
