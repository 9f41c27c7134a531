#include "sim/neighbour_scan.hpp"

#include "sim/reach_cull.hpp"

namespace mirofish::scan {

void NearbyList::grow(std::size_t size) {
    list_.resize(size);
    close_.resize(size);
}

// Out of the kernel, for two reasons: its thread-local list brings
// std::vector's destructor, which the AVX2 kernel must not instantiate; and
// GCC recomputes an inlined thread-local address (a call to __tls_get_addr)
// wherever it needs it, instead of keeping it.
NearbyList& threadNearbyList() {
    thread_local NearbyList list;
    return list;
}

}  // namespace mirofish::scan
