#pragma once
// The kernel reads each fish's memory (its lagged acceleration, drawn
// heading, wander direction, alarm and id) where the previous step left it,
// through the grid's order (KernelInput::lastSlots), and writes the new
// memory in this step's cell order. The step's reorder, before the kernel,
// copies only the positions and velocities, which the neighbour scan needs
// sorted (Simulation::reorderByCell), and each memory array is read once and
// written once a step, where the reorder's copy read and wrote it once more.
// The AVX-512 build's pairs of groups ask early for the memory of fish from
// far away (prefetchFarMemory); the other builds' groups read slot by slot.
// A copy is a copy whatever the instructions: every build gathers the same
// bits.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "math/lane_pairs.hpp"
#include "math/lanes.hpp"
#include "sim/fish_arrays.hpp"

#ifdef __AVX512F__
#include <immintrin.h>
#endif

namespace mirofish::slots {

// Where the fish of a group's lanes were in the previous step's arrays, and
// their entries of an array from there: slot by slot (every build's groups
// of eight, and any group of a build without AVX-512).
template <typename F>
struct LastSlots {
    static constexpr int kCount = kLaneCount<F>;
    std::uint32_t old[kCount];

    // Lanes b, b + 1, ... of lastSlots, which holds an entry for every lane
    // from b on, each a slot of the arrays (readable: their size).
    [[gnu::always_inline]] static LastSlots of(const std::uint32_t* lastSlots, std::size_t b, std::size_t) {
        LastSlots s;
        std::memcpy(s.old, lastSlots + b, sizeof s.old);
        return s;
    }
    template <typename V, typename T>
    [[gnu::always_inline]] V entries(const T* array) const {
        T picked[kCount];
        for (int l = 0; l < kCount; ++l) picked[l] = array[old[l]];
        V v;
        std::memcpy(&v, picked, sizeof v);
        return v;
    }
    [[gnu::always_inline]] F floats(const float* array) const { return entries<F>(array); }
    [[gnu::always_inline]] UnsignedOf<F> ids(const std::uint32_t* array) const { return entries<UnsignedOf<F>>(array); }
};

#ifdef __AVX512F__
// Sixteen lanes, as the reorder once copied them: from one step to the next
// a fish mostly keeps its cell or moves to the next one in its row, so
// sixteen consecutive slots take their fish from a few runs of consecutive
// old slots close together. Each array's window of 32 around the old slot of
// the ninth lane is two vector loads, and one two-source permute puts the
// sixteen into place; the lanes whose fish came from outside the window (it
// changed rows: about 2 % of the fish at the bench's constant density) are
// gathered one by one over them. Arrays shorter than the window: every lane
// gathered.
template <>
struct LastSlots<v16f> {
    __m512i old, place;
    __mmask16 far;
    std::size_t base;
    bool windowed;

    [[gnu::always_inline]] static LastSlots of(const std::uint32_t* lastSlots, std::size_t b, std::size_t readable) {
        constexpr std::size_t kBlock = 16, kWindow = 32;
        LastSlots s;
        s.old = _mm512_loadu_si512(lastSlots + b);
        s.windowed = readable >= kWindow;
        const std::size_t middle = lastSlots[b + kBlock / 2];
        s.base = s.windowed ? std::min(std::max(middle, kBlock) - kBlock, readable - kWindow) : 0;
        // Each lane's place in the window; far outside it, any value.
        s.place = _mm512_sub_epi32(s.old, _mm512_set1_epi32(static_cast<int>(s.base)));
        s.far = s.windowed ? _mm512_cmpge_epu32_mask(s.place, _mm512_set1_epi32(kWindow)) : __mmask16{0xffff};
        return s;
    }
    // The lanes' 32-bit entries of an array of floats or of ids, bit for bit.
    [[gnu::always_inline]] __m512i bits(const void* array) const {
        const auto* words = static_cast<const std::uint32_t*>(array);
        __m512i block = windowed ? _mm512_permutex2var_epi32(_mm512_loadu_si512(words + base), place,
                                                             _mm512_loadu_si512(words + base + 16))
                                 : _mm512_setzero_si512();
        if (far != 0) block = _mm512_mask_i32gather_epi32(block, far, old, array, 4);
        return block;
    }
    [[gnu::always_inline]] v16f floats(const float* array) const { return (v16f)bits(array); }
    [[gnu::always_inline]] v16u ids(const std::uint32_t* array) const { return (v16u)bits(array); }
};

// Thirty-two lanes: two groups of sixteen.
template <>
struct LastSlots<v32f> {
    LastSlots<v16f> lo, hi;

    [[gnu::always_inline]] static LastSlots of(const std::uint32_t* lastSlots, std::size_t b, std::size_t readable) {
        return {LastSlots<v16f>::of(lastSlots, b, readable), LastSlots<v16f>::of(lastSlots, b + 16, readable)};
    }
    [[gnu::always_inline]] v32f floats(const float* array) const { return {lo.floats(array), hi.floats(array)}; }
    [[gnu::always_inline]] v32u ids(const std::uint32_t* array) const { return {lo.ids(array), hi.ids(array)}; }
};
#endif

// How far ahead of the group being stepped the memory of fish from far away
// is asked for (prefetchFarMemory), in slots; a fish is far when its last
// slot lies more than kNear slots from its new one.
inline constexpr std::size_t kAhead = 64, kNear = 256;

// Asks for the cache lines of the memory of the fish that slots [b, b + n)
// take (those in the arrays: readable, their size), where it lies far from
// them: a fish that changed rows comes from a row of cells away (thousands
// of slots at 1 000 000 fish), where the hardware's prefetch of the runs of
// slots nearby is not reading, and each of its eight arrays' reads would
// wait on memory. About 2 % of the fish at the bench's constant density.
[[gnu::always_inline]] inline void prefetchFarMemory(const FishArrays& f, const std::uint32_t* lastSlots,
                                                     std::size_t b, std::size_t n, std::size_t readable,
                                                     bool alarms) {
    for (std::size_t i = b; i < std::min(b + n, readable); ++i) {
        const std::size_t q = lastSlots[i];
        if (q + kNear - i <= 2 * kNear) continue;  // within kNear either side (unsigned wrap)
        for (const auto field : {&FishArrays::ax, &FishArrays::ay, &FishArrays::hx, &FishArrays::hy, &FishArrays::wx,
                                 &FishArrays::wy})
            __builtin_prefetch((f.*field).data() + q, 0, 2);
        __builtin_prefetch(f.id.data() + q, 0, 2);
        if (alarms) __builtin_prefetch(f.alarm.data() + q, 0, 2);
    }
}

}  // namespace mirofish::slots
