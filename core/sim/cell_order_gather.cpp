#include "sim/cell_order_gather.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#ifdef MIROFISH_X86_KERNELS
#include <immintrin.h>
#endif

namespace mirofish {

namespace {

// The arrays the copy moves: positions and velocities, the first four.
constexpr std::size_t kCopied = 4;
static_assert(FishArrays::kFloatFields[0] == &FishArrays::px && FishArrays::kFloatFields[3] == &FishArrays::vy);
using FieldPointers = std::array<const float*, kCopied>;

// Slots are this far ahead when their fish are asked for (prefetchFarFish),
// and a fish counts as far when its old slot lies more than kNear away.
constexpr std::size_t kAhead = 256, kNear = 256;

// Asks for the cache lines of fish q in every array copied.
void prefetchFish(const FieldPointers& fields, std::size_t q) {
    for (const float* f : fields) __builtin_prefetch(f + q, 0, 2);
}

// Asks for the cache lines of the fish that will fill slot i + kAhead, when
// its old slot lies more than kNear slots away. Most fish keep their cell or
// come from the next one in the row, a few dozen slots away, where the
// hardware's stream prefetch is already reading; a fish that changed rows
// comes from a row of cells away (thousands of slots at 1 000 000 fish), and
// each read of it would wait on memory. About 2 % of the fish at constant
// density. The whole step at 1 000 000 fish took 0.94 of the time on 1
// thread and 0.96 on 2 (lock-step), and 1.005 at 50 000 fish, whose arrays
// stay in cache.
void prefetchFarFish(const FieldPointers& fields, const std::uint32_t* order, std::size_t i, std::size_t e) {
    if (i + kAhead >= e) return;
    const std::size_t q = order[i + kAhead];
    if (q + kNear - (i + kAhead) <= 2 * kNear) return;  // within kNear either side (unsigned wrap)
    prefetchFish(fields, q);
}

// The arrays copied, from and to. The pointers in local arrays: GCC 12 left
// out every prefetch when they were members of an object passed by
// reference (checked in the assembly).
struct CopiedArrays {
    FieldPointers s;
    std::array<float*, kCopied> d;

    CopiedArrays(const FishArrays& from, FishArrays& to) {
        for (std::size_t k = 0; k < kCopied; ++k) {
            s[k] = (from.*FishArrays::kFloatFields[k]).data();
            d[k] = (to.*FishArrays::kFloatFields[k]).data();
        }
    }

    void copyFish(std::size_t i, std::uint32_t o) const {
        for (std::size_t k = 0; k < kCopied; ++k) d[k][i] = s[k][o];
    }
};

// Slots [b, e), fish by fish: each index read once for all the copies.
void gatherFishByFish(const FishArrays& from, FishArrays& to, const std::uint32_t* order, std::size_t b,
                      std::size_t e) {
    const CopiedArrays a(from, to);
    for (std::size_t i = b; i < e; ++i) {
        prefetchFarFish(a.s, order, i, e);
        a.copyFish(i, order[i]);
    }
}

#ifdef MIROFISH_X86_KERNELS
// Sixteen slots at a time (gatherWindowed), and the prefetch sixteen slots at
// a time: the far fish among those of slots [i, i + 16), i at kAhead from
// the slots being copied, as prefetchFarFish asks for them one by one.
[[gnu::target("avx512f")]] void prefetchFarBlock(const FieldPointers& fields, const std::uint32_t* order, std::size_t i,
                                                 std::size_t e) {
    if (i + 16 > e) return;
    const __m512i slots = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(i)),
                                           _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    // old slot + kNear - new slot, in 32 bits as prefetchFarFish's test is in
    // its own width (counts stay far below 2^31).
    const __m512i off = _mm512_sub_epi32(_mm512_add_epi32(_mm512_loadu_si512(order + i), _mm512_set1_epi32(kNear)), slots);
    for (unsigned far = _mm512_cmpgt_epu32_mask(off, _mm512_set1_epi32(2 * kNear)); far != 0; far &= far - 1) {
        prefetchFish(fields, order[i + static_cast<std::size_t>(__builtin_ctz(far))]);
    }
}

// Sixteen slots at a time. From one step to the next a fish mostly keeps its
// cell or moves to the next cell in its row, so sixteen consecutive slots
// take their fish from a few runs of consecutive old slots close together
// (the order's runs average 11.6 slots at constant density, 38 in article
// 000's school). Each array's window of 32 fish around the old slot of the
// ninth is two vector loads, and one two-source permute puts the sixteen
// into place; a fish from outside the window (it changed rows: about 2 % of
// the fish, in a quarter of the blocks at constant density) is gathered
// over its lane before the block is stored (so that a streamed block is
// written once, whole). Fish by fish, the copies were a load and a store a
// slot and array, and on 2 threads the lines the other core's kernel had
// written came one load at a time. Streamed: blocks on whole cache lines go
// straight to memory (CopyWrites). The kernel reads each fish's other arrays
// the same way (sim/last_slot_gather.hpp).
[[gnu::target("avx512f")]] void gatherWindowed(const FishArrays& from, FishArrays& to, const std::uint32_t* order,
                                               std::size_t b, std::size_t e, CopyWrites writes) {
    constexpr std::size_t kBlock = 16, kWindow = 32;
    const CopiedArrays a(from, to);
    // The window may reach into the padding after the last fish, never past it.
    const std::size_t readable = from.id.size();
    // Every array starts on a cache line, so slot b's place in its line is
    // the same in all of them, and so is every block's after it.
    const bool stream =
        writes == CopyWrites::Streamed && reinterpret_cast<std::uintptr_t>(a.d[0] + b) % kCacheLine == 0;
    std::size_t i = b;
    if (readable >= kWindow)
        for (; i + kBlock <= e; i += kBlock) {
            prefetchFarBlock(a.s, order, i + kAhead, e);
            const std::size_t middle = order[i + kBlock / 2];
            const std::size_t base = std::min(std::max(middle, kBlock) - kBlock, readable - kWindow);
            const __m512i old = _mm512_loadu_si512(order + i);
            // Each lane's place in the window; far outside it, any value.
            const __m512i at = _mm512_sub_epi32(old, _mm512_set1_epi32(static_cast<int>(base)));
            const __mmask16 far = _mm512_cmpge_epu32_mask(at, _mm512_set1_epi32(kWindow));
            for (std::size_t k = 0; k < kCopied; ++k) {
                const __m512 low = _mm512_loadu_ps(a.s[k] + base), high = _mm512_loadu_ps(a.s[k] + base + kBlock);
                __m512 block = _mm512_permutex2var_ps(low, at, high);
                if (far != 0) block = _mm512_mask_i32gather_ps(block, far, old, a.s[k], 4);
                if (stream)
                    _mm512_stream_ps(a.d[k] + i, block);
                else
                    _mm512_storeu_ps(a.d[k] + i, block);
            }
        }
    for (; i < e; ++i) a.copyFish(i, order[i]);
    // Non-temporal stores are not ordered with the later ones that tell the
    // other thread this part is done; the fence orders them.
    if (stream) _mm_sfence();
}
#endif

}  // namespace

void gatherInCellOrder(const FishArrays& from, FishArrays& to, const std::uint32_t* order, std::size_t b,
                       std::size_t e, KernelBuild build, CopyWrites writes) {
#ifdef MIROFISH_X86_KERNELS
    if (build == KernelBuild::Avx512) return gatherWindowed(from, to, order, b, e, writes);
#endif
    (void)build;
    (void)writes;
    gatherFishByFish(from, to, order, b, e);
}

bool streamsCellOrderCopy(std::size_t fish) {
    constexpr std::size_t kBytesAFish = 2 * FishArrays::kFloatFields.size() * sizeof(float) + 2 * sizeof(std::uint32_t);
    return fish > (std::size_t{64} << 20) / kBytesAFish;
}

}  // namespace mirofish
