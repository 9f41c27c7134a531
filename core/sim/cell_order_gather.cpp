#include "sim/cell_order_gather.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#ifdef MIROFISH_X86_KERNELS
#include <immintrin.h>
#endif

namespace mirofish {

namespace {

using FieldPointers = std::array<const float*, FishArrays::kFloatFields.size()>;

// Slots are this far ahead when their fish are asked for (prefetchFarFish),
// and a fish counts as far when its old slot lies more than kNear away.
constexpr std::size_t kAhead = 256, kNear = 256;

// Asks for the cache lines of every array of fish q.
void prefetchFish(const FieldPointers& fields, const std::uint32_t* ids, std::size_t q) {
    for (const float* f : fields) __builtin_prefetch(f + q, 0, 2);
    __builtin_prefetch(ids + q, 0, 2);
}

// Asks for the cache lines of every array of the fish that will fill slot
// i + kAhead, when its old slot lies more than kNear slots away. Most fish
// keep their cell or come from the next one in the row, a few dozen slots
// away, where the hardware's stream prefetch is already reading; a fish that
// changed rows comes from a row of cells away (thousands of slots at
// 1 000 000 fish), and each read of it would wait on memory. The lines go to
// the second-level cache, where the later passes over the other arrays still
// find them. About 2 % of the fish at constant density. The whole step at
// 1 000 000 fish took 0.94 of the time on 1 thread and 0.96 on 2 (lock-step),
// and 1.005 at 50 000 fish, whose arrays stay in cache.
void prefetchFarFish(const FieldPointers& fields, const std::uint32_t* ids, const std::uint32_t* order, std::size_t i,
                     std::size_t e) {
    if (i + kAhead >= e) return;
    const std::size_t q = order[i + kAhead];
    if (q + kNear - (i + kAhead) <= 2 * kNear) return;  // within kNear either side (unsigned wrap)
    prefetchFish(fields, ids, q);
}

// The arrays of one pass: N float arrays from the first-th on, and the ids
// when WithIds.
template <std::size_t N>
struct PassArrays {
    std::array<const float*, N> s;
    std::array<float*, N> d;
    const std::uint32_t* sid;
    std::uint32_t* did;
    // Every float array of `from`, for the prefetch. The pointers in a local
    // array: GCC 12 left out every prefetch when they were members of an
    // object passed by reference (checked in the assembly).
    FieldPointers every;

    PassArrays(const FishArrays& from, FishArrays& to, std::size_t first)
        : sid(from.id.data()), did(to.id.data()) {
        for (std::size_t k = 0; k < N; ++k) {
            s[k] = (from.*FishArrays::kFloatFields[first + k]).data();
            d[k] = (to.*FishArrays::kFloatFields[first + k]).data();
        }
        for (std::size_t k = 0; k < every.size(); ++k) every[k] = (from.*FishArrays::kFloatFields[k]).data();
    }

    template <bool WithIds>
    void copyFish(std::size_t i, std::uint32_t o) const {
        for (std::size_t k = 0; k < N; ++k) d[k][i] = s[k][o];
        if constexpr (WithIds) did[i] = sid[o];
    }
};

// Slots [b, e) of one pass, fish by fish: each index read once for all the
// copies. The first pass (Prefetch) also asks early for the fish that come
// from far (prefetchFarFish).
template <std::size_t N, bool WithIds, bool Prefetch>
void gatherFishByFish(const FishArrays& from, FishArrays& to, std::size_t first, const std::uint32_t* order,
                      std::size_t b, std::size_t e) {
    const PassArrays<N> a(from, to, first);
    for (std::size_t i = b; i < e; ++i) {
        if constexpr (Prefetch) prefetchFarFish(a.every, a.sid, order, i, e);
        a.template copyFish<WithIds>(i, order[i]);
    }
}

#ifdef MIROFISH_X86_KERNELS
// Sixteen slots at a time (gatherWindowed), and the prefetch sixteen slots at
// a time: the far fish among those of slots [i, i + 16), i at kAhead from
// the slots being copied, as prefetchFarFish asks for them one by one.
[[gnu::target("avx512f")]] void prefetchFarBlock(const FieldPointers& fields, const std::uint32_t* ids,
                                                 const std::uint32_t* order, std::size_t i, std::size_t e) {
    if (i + 16 > e) return;
    const __m512i slots = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(i)),
                                           _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    // old slot + kNear - new slot, in 32 bits as prefetchFarFish's test is in
    // its own width (counts stay far below 2^31).
    const __m512i off = _mm512_sub_epi32(_mm512_add_epi32(_mm512_loadu_si512(order + i), _mm512_set1_epi32(kNear)), slots);
    for (unsigned far = _mm512_cmpgt_epu32_mask(off, _mm512_set1_epi32(2 * kNear)); far != 0; far &= far - 1) {
        prefetchFish(fields, ids, order[i + static_cast<std::size_t>(__builtin_ctz(far))]);
    }
}

// One pass, sixteen slots at a time. From one step to the next a fish mostly
// keeps its cell or moves to the next cell in its row, so sixteen
// consecutive slots take their fish from a few runs of consecutive old
// slots close together (the order's runs average 11.6 slots at constant
// density, 38 in article 000's school). Each array's window of 32 fish
// around the old slot of the ninth is two vector loads, and one two-source
// permute puts the sixteen into place; a fish from outside the window (it
// changed rows: about 2 % of the fish, in a quarter of the blocks at
// constant density) is gathered over its lane before the block is stored
// (so that a streamed block is written once, whole). Fish by fish, the
// copies were 12 loads and 12 stores a slot, and on 2 threads the lines the
// other core's kernel had written came one load at a time. Streamed: blocks
// on whole cache lines go straight to memory (CopyWrites).
template <std::size_t N, bool WithIds, bool Prefetch>
[[gnu::target("avx512f")]] void gatherWindowed(const FishArrays& from, FishArrays& to, std::size_t first,
                                               const std::uint32_t* order, std::size_t b, std::size_t e,
                                               CopyWrites writes) {
    constexpr std::size_t kBlock = 16, kWindow = 32;
    const PassArrays<N> a(from, to, first);
    // The window may reach into the padding after the last fish, never past it.
    const std::size_t readable = from.id.size();
    // Every array starts on a cache line, so slot b's place in its line is
    // the same in all of them, and so is every block's after it.
    const bool stream =
        writes == CopyWrites::Streamed && reinterpret_cast<std::uintptr_t>(a.did + b) % kCacheLine == 0;
    std::size_t i = b;
    if (readable >= kWindow)
        for (; i + kBlock <= e; i += kBlock) {
            if constexpr (Prefetch) prefetchFarBlock(a.every, a.sid, order, i + kAhead, e);
            const std::size_t middle = order[i + kBlock / 2];
            const std::size_t base = std::min(std::max(middle, kBlock) - kBlock, readable - kWindow);
            const __m512i old = _mm512_loadu_si512(order + i);
            // Each lane's place in the window; far outside it, any value.
            const __m512i at = _mm512_sub_epi32(old, _mm512_set1_epi32(static_cast<int>(base)));
            const __mmask16 far = _mm512_cmpge_epu32_mask(at, _mm512_set1_epi32(kWindow));
            for (std::size_t k = 0; k < N; ++k) {
                const __m512 low = _mm512_loadu_ps(a.s[k] + base), high = _mm512_loadu_ps(a.s[k] + base + kBlock);
                __m512 block = _mm512_permutex2var_ps(low, at, high);
                if (far != 0) block = _mm512_mask_i32gather_ps(block, far, old, a.s[k], 4);
                if (stream)
                    _mm512_stream_ps(a.d[k] + i, block);
                else
                    _mm512_storeu_ps(a.d[k] + i, block);
            }
            if constexpr (WithIds) {
                const __m512i low = _mm512_loadu_si512(a.sid + base), high = _mm512_loadu_si512(a.sid + base + kBlock);
                __m512i block = _mm512_permutex2var_epi32(low, at, high);
                if (far != 0) block = _mm512_mask_i32gather_epi32(block, far, old, a.sid, 4);
                if (stream)
                    _mm512_stream_si512(reinterpret_cast<__m512i*>(a.did + i), block);
                else
                    _mm512_storeu_si512(a.did + i, block);
            }
        }
    for (; i < e; ++i) a.template copyFish<WithIds>(i, order[i]);
    // Non-temporal stores are not ordered with the later ones that tell the
    // other thread this part is done; the fence orders them.
    if (stream) _mm_sfence();
}
#endif

// Every array in passes of four: each index read serves four copies. One
// array per pass re-read the index for every array; eight per pass (16
// memory streams at once) took four times as long on the 2-core Zen 3. On
// the Zen 5 the sixteen-slot copy of all twelve arrays in one pass took 1.044
// times as long as the fish-by-fish passes, in passes of four 0.989
// (lock-step, whole steps, 50 000 fish, 1 thread). The ids ride along with
// the alarms, the last float array (alone where the alarms are left out).
template <bool Windowed>
void gatherPasses(const FishArrays& from, FishArrays& to, const std::uint32_t* order, std::size_t b, std::size_t e,
                  [[maybe_unused]] CopyWrites writes, Alarms alarms) {
    constexpr std::size_t kFields = FishArrays::kFloatFields.size(), kWhole = kFields / 4 * 4;
    static_assert(kFields - kWhole == 1, "the last pass copies the alarms and the ids");
    static_assert(FishArrays::kFloatFields.back() == &FishArrays::alarm, "the alarms are the last array");
    const auto pass = [&]<std::size_t N, bool WithIds, bool Prefetch>(std::size_t first) {
#ifdef MIROFISH_X86_KERNELS
        if constexpr (Windowed) return gatherWindowed<N, WithIds, Prefetch>(from, to, first, order, b, e, writes);
#endif
        gatherFishByFish<N, WithIds, Prefetch>(from, to, first, order, b, e);
    };
    pass.template operator()<4, false, true>(0);
    for (std::size_t m = 4; m < kWhole; m += 4) pass.template operator()<4, false, false>(m);
    if (alarms == Alarms::Copied)
        pass.template operator()<kFields - kWhole, true, false>(kWhole);
    else
        pass.template operator()<kFields - kWhole - 1, true, false>(kWhole);
}

}  // namespace

void gatherInCellOrder(const FishArrays& from, FishArrays& to, const std::uint32_t* order, std::size_t b,
                       std::size_t e, KernelBuild build, CopyWrites writes, Alarms alarms) {
#ifdef MIROFISH_X86_KERNELS
    if (build == KernelBuild::Avx512) return gatherPasses<true>(from, to, order, b, e, writes, alarms);
#endif
    (void)build;
    gatherPasses<false>(from, to, order, b, e, writes, alarms);
}

bool streamsCellOrderCopy(std::size_t fish) {
    constexpr std::size_t kBytesAFish = 2 * FishArrays::kFloatFields.size() * sizeof(float) + 2 * sizeof(std::uint32_t);
    return fish > (std::size_t{64} << 20) / kBytesAFish;
}

}  // namespace mirofish
