#include "sim/neighbour_scan.hpp"

#include <algorithm>

#include "sim/reach_cull.hpp"

namespace mirofish::scan {

void NearbyList::grow(std::size_t size) {
    room_ = size;
    list_.resize(size + kSpareEntries);
    close_.resize(size + kSpareEntries);
    place();
}

void NearbyList::placeClearOf(const float* px, const float* py) {
    for (const std::uint32_t at : {pageOffset(px), pageOffset(py)}) {
        if (std::find(remembered_, remembered_ + rememberedCount_, at) != remembered_ + rememberedCount_) continue;
        remembered_[nextRemembered_] = at;
        nextRemembered_ = (nextRemembered_ + 1) % kRemembered;
        rememberedCount_ = std::min(rememberedCount_ + 1, kRemembered);
    }
    place();
}

void NearbyList::place() {
    // Offsets a line apart, from the middle of the page on. The remembered
    // offsets and the other list rule out less than the page around them,
    // so both searches end.
    static_assert((kRemembered + 1) * 2 * kClearance < kPageBytes);
    const auto clear = [&](std::uint32_t at) {
        return std::all_of(remembered_, remembered_ + rememberedCount_, [&](std::uint32_t r) { return apart(at, r); });
    };
    constexpr std::uint32_t kLine = 64;
    std::uint32_t listAt = kPageBytes / 2;
    while (!clear(listAt)) listAt = (listAt + kLine) % kPageBytes;
    std::uint32_t closeAt = (listAt + kPageBytes / 4) % kPageBytes;
    while (!clear(closeAt) || !apart(closeAt, listAt)) closeAt = (closeAt + kLine) % kPageBytes;
    // The vectors' storage is aligned to at least 16 bytes, so the distance is a whole number of entries.
    listShift_ = (listAt - pageOffset(list_.data())) % kPageBytes / sizeof(std::uint32_t);
    closeShift_ = (closeAt - pageOffset(close_.data())) % kPageBytes / sizeof(std::uint32_t);
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
