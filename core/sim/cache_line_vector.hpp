#pragma once
// A std::vector whose storage starts on a cache line and fills whole lines.
// The per-fish arrays are split between the threads by ranges of fish: with
// plain vectors, the last line of one array could hold the first floats of
// the next (the allocator packs them 16 bytes apart), so the thread that
// writes the end of one array and the thread that writes the start of the
// next kept taking that line from each other. And the arrays started 16
// bytes past a line, so each group of sixteen fish straddled two lines.
#include <cstddef>
#include <new>
#include <vector>

namespace mirofish {

inline constexpr std::size_t kCacheLine = 64;

template <typename T>
struct CacheLineAllocator {
    using value_type = T;
    CacheLineAllocator() = default;
    template <typename U>
    CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}

    static std::size_t bytesFor(std::size_t n) { return (n * sizeof(T) + kCacheLine - 1) / kCacheLine * kCacheLine; }
    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new(bytesFor(n), std::align_val_t{kCacheLine}));
    }
    // The unsized delete: clang 14 declares the sized one only with
    // -fsized-deallocation.
    void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, std::align_val_t{kCacheLine}); }

    template <typename U>
    bool operator==(const CacheLineAllocator<U>&) const noexcept {
        return true;
    }
};

template <typename T>
using CacheLineVector = std::vector<T, CacheLineAllocator<T>>;

}  // namespace mirofish
