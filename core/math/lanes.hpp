#pragma once
// Eight (or sixteen) float lanes (GCC/Clang vector extensions) and the few
// operations the rules need, each also defined for plain float, so that every
// formula in sim/rules.hpp is written once and runs both for one fish
// (agents, tests, the reference) and for eight or sixteen fish at a time (the
// kernel).
//
// Masks: a comparison of floats gives bool, of lanes gives an int lane mask;
// combine them with & and |, and choose with select().
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#if defined(__AVX512DQ__) || defined(__FMA__)
#include <immintrin.h>
#endif

namespace mirofish {

using v8f = float __attribute__((vector_size(32)));
using v8i = std::int32_t __attribute__((vector_size(32)));
using v8u = std::uint32_t __attribute__((vector_size(32)));
// The kernel's group of fish: eight lanes.
inline constexpr int kLanes = 8;
// Sixteen lanes: two groups of eight fish at once, in the kernel's AVX-512
// build (sim/fish_kernel_body.hpp).
using v16f = float __attribute__((vector_size(64)));
using v16i = std::int32_t __attribute__((vector_size(64)));
using v16u = std::uint32_t __attribute__((vector_size(64)));
// Four lanes: half of eight, and what every x86-64 has (SSE2), so code built
// for any x86-64 keeps them in registers where its eight-lane types go
// through the stack (sim/metrics.cpp).
using v4f = float __attribute__((vector_size(16)));
using v4i = std::int32_t __attribute__((vector_size(16)));

// F: a float lane vector; MaskOf<F> its masks, UnsignedOf<F> its unsigned
// integers, FloatsOf<M> the floats of a mask type. (MaskOf and UnsignedOf
// also serve the pairs of math/lane_pairs.hpp.)
template <typename F>
concept FloatLanes = std::is_same_v<F, v8f> || std::is_same_v<F, v16f>;
template <typename M>
concept MaskLanes = std::is_same_v<M, v8i> || std::is_same_v<M, v16i>;
template <typename F>
using MaskOf = decltype(F{} < F{});
template <typename F>
struct UnsignedLanesOf;
template <>
struct UnsignedLanesOf<v8f> {
    using type = v8u;
};
template <>
struct UnsignedLanesOf<v16f> {
    using type = v16u;
};
template <typename F>
using UnsignedOf = typename UnsignedLanesOf<F>::type;
template <MaskLanes M>
using FloatsOf = std::conditional_t<std::is_same_v<M, v8i>, v8f, v16f>;
template <typename V>
inline constexpr int kLaneCount = static_cast<int>(sizeof(V) / 4);

// 0, 1, 2, ... in the lanes.
template <MaskLanes I>
[[gnu::always_inline]] inline I iotaLanes() {
    if constexpr (kLaneCount<I> == 8)
        return I{0, 1, 2, 3, 4, 5, 6, 7};
    else
        return I{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
}

template <FloatLanes F = v8f>
[[gnu::always_inline]] inline F loadLanes(const float* p) {
    F v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
// A mask's lanes as the bits of an integer, lane 0 lowest: their sign bits
// (a mask's lanes are 0 or -1), in one instruction where the target has AVX
// (eight lanes) or AVX-512 (sixteen).
#ifdef __AVX__
[[gnu::always_inline]] inline unsigned laneBits(v8i m) { return static_cast<unsigned>(_mm256_movemask_ps((__m256)m)); }
#endif
#ifdef __AVX512F__
[[gnu::always_inline]] inline __mmask16 laneBits(v16i m) {
    return _mm512_cmplt_epi32_mask((__m512i)m, _mm512_setzero_si512());
}
#endif

// The lanes of m (a prefix: the lanes below some count) from p, +0 in the
// others, reading nothing but those floats: one masked load where the target
// has AVX-512, else lane by lane.
template <FloatLanes F>
[[gnu::always_inline]] inline F loadLanesWhere(MaskOf<F> m, const float* p) {
#ifdef __AVX512F__
    if constexpr (std::is_same_v<F, v16f>) return (F)_mm512_maskz_loadu_ps(laneBits(m), p);
#endif
    F v{};
    for (int l = 0; l < kLaneCount<F> && m[l]; ++l) v[l] = p[l];
    return v;
}
template <FloatLanes F>
[[gnu::always_inline]] inline void storeLanes(float* p, F v) {
    std::memcpy(p, &v, sizeof v);
}
template <FloatLanes F = v8f>
[[gnu::always_inline]] inline F splat(float x) {
    return F{} + x;
}
// *p in every lane: one broadcast from memory where the target has it.
// x - 0 is x for every x (-0 and NaN included), so the subtraction folds
// away, where splat's 0 + x cannot (0 + -0 is +0).
template <FloatLanes F = v8f>
[[gnu::always_inline]] inline F broadcast(const float* p) {
    return *p - F{};
}

[[gnu::always_inline]] inline float select(bool m, float a, float b) { return m ? a : b; }
template <FloatLanes F>
[[gnu::always_inline]] inline F select(MaskOf<F> m, F a, F b) {
    return m ? a : b;
}
// A uniform (scalar) condition over lanes.
template <FloatLanes F>
[[gnu::always_inline]] inline F select(bool m, F a, F b) {
    return m ? a : b;
}
// Scalar branches of a lane expression (e.g. a float weight) broadcast.
template <FloatLanes F>
[[gnu::always_inline]] inline F select(MaskOf<F> m, F a, float b) {
    return m ? a : splat<F>(b);
}
template <FloatLanes F>
[[gnu::always_inline]] inline F select(MaskOf<F> m, float a, F b) {
    return m ? splat<F>(a) : b;
}
template <MaskLanes M>
[[gnu::always_inline]] inline FloatsOf<M> select(M m, float a, float b) {
    return m ? splat<FloatsOf<M>>(a) : splat<FloatsOf<M>>(b);
}

// a < b, for lanes a that are +0 or more and never NaN (squared
// distances). With AVX-512 as integers: the bits of such floats order them
// as their values do, and b's lanes below 0 (-0 too) or NaN, which no such a
// is below, compare as negative integers or are made 0; the scan's limits
// are the same for every candidate, so that is done once, outside its loop.
// Clang 14 rewrote the separation's own pass (sim/neighbour_scan.hpp Pass)
// while its comparisons were of floats: it inverted them, or-ed the masks,
// ran the multiply-adds unmasked and blended their sums after, about 28
// instructions a candidate instead of 17; comparisons of integers it leaves
// as written. mirofish_scan_bench on the AMD Zen 5, 2026-12-05: that pass
// 3.8-4.1 ns a step before, 2.5-2.6 after; both passes side by side 4.6-5.0
// before, 2.9-3.2 after; the single pass 3.0-3.3 either way. The generic
// build (SSE2) took 1.06 of the time with integers (lock-step, article 000)
// and keeps the float comparison, as does the AVX2 build (0.99 with
// integers, no difference).
template <FloatLanes F>
[[gnu::always_inline]] inline MaskOf<F> belowLimit(F a, F b) {
#ifdef __AVX512F__
    using M = MaskOf<F>;
    const M limit = (b >= 0.0f) & (M)b;
    return (M)a < limit;
#else
    return a < b;
#endif
}

// x where the mask is set, else +0. Masks from comparisons have lanes of all
// ones or all zeros, so one AND does it (select() first normalises its mask).
template <FloatLanes F>
[[gnu::always_inline]] inline F keepWhere(MaskOf<F> m, F x) {
    return (F)((MaskOf<F>)x & m);
}

// acc + x in the lanes of m, acc in the others, for sums that start at +0.
// Where the target has masked operations (AVX-512) that is one masked
// addition; elsewhere an AND and an addition of +0 in the other lanes, which
// leaves acc as it is unless acc is -0, and no sum that starts at +0 ever is
// (-0 + -0 is the only sum that gives -0). So both give the same bits.
template <FloatLanes F>
[[gnu::always_inline]] inline F addWhere(F acc, MaskOf<F> m, F x) {
#ifdef __AVX512F__
    return m ? acc + x : acc;
#else
    return acc + keepWhere(m, x);
#endif
}

// a * b + c. Where the target has FMA (the kernel's AVX2 and AVX-512
// builds) one fused multiply-add, rounded once; elsewhere (the generic build,
// for CPUs without AVX2 or FMA) a product and a sum, each rounded. The
// kernel's scan takes four of them a candidate: four instructions in place
// of eight, of about 25 (sim/neighbour_scan.hpp). Lock-step on 1 thread on
// the Zen 5 (AVX-512 build): 0.90 of the time for article 000's formed
// school, 0.87 with the app's defaults, 0.95 at the bench's constant
// density; the AVX2 build 0.93 for article 000. The price: the generic
// build's results differ from the other two's in the last bits (the AVX2 and
// AVX-512 builds agree bit for bit). An exact emulation of the fused
// rounding without FMA (in doubles, rounded to odd) takes about twenty
// instructions for one, and would have made the generic build's scan
// several times slower.
template <FloatLanes F>
[[gnu::always_inline]] inline F mulAdd(F a, F b, F c) {
#ifdef __FMA__
    if constexpr (kLaneCount<F> == 16)
        return (F)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);
    else
        return (F)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);
#else
    return a * b + c;
#endif
}
// Whether mulAdd on lanes is fused where this header is compiled.
#ifdef __FMA__
inline constexpr bool kFusedMulAdd = true;
#else
inline constexpr bool kFusedMulAdd = false;
#endif
// For one fish, fused or not as asked: to decide as a kernel build does
// (std::fma is exact on any CPU, in software where it has no FMA).
[[gnu::always_inline]] inline float mulAdd(float a, float b, float c, bool fused) {
    return fused ? std::fma(a, b, c) : a * b + c;
}

// acc + x * w (mulAdd) in the lanes of m, the same way; x must be finite
// (x * +0 is then a zero, and acc + a zero is acc), w may be anything
// outside m.
template <FloatLanes F>
[[gnu::always_inline]] inline F addProductWhere(F acc, MaskOf<F> m, F x, F w) {
#ifdef __AVX512F__
    return m ? mulAdd(x, w, acc) : acc;
#else
    return mulAdd(x, keepWhere(m, w), acc);
#endif
}

// count - 1 in the lanes of m (a mask's set lanes are -1): one masked
// subtraction with AVX-512, an addition of the mask elsewhere. The masked
// subtraction is written out: clang 14 turns `m ? count - 1 : count`, and
// _mm512_mask_sub_epi32 alike, into count plus the mask made a vector
// (vpmovm2d, vpaddd), one instruction more in a scan loop of about twenty
// (sim/neighbour_scan.hpp perceive). Lock-step on the AMD Zen 5, 1 thread,
// 2026-12-05: article 000 0.983 and 0.975 of the time, the bench's constant
// density 0.995.
template <MaskLanes M>
[[gnu::always_inline]] inline M countDownWhere(M count, M m) {
#if defined(__AVX512DQ__) && defined(__AVX512VL__)
    const M one = M{} + 1;
    const auto k = [&] {
        if constexpr (sizeof(M) == 64)
            return laneBits(m);
        else
            return _mm256_movepi32_mask(reinterpret_cast<__m256i>(m));
    }();
    asm("vpsubd %2, %0, %0 %{%1%}" : "+v"(count) : "Yk"(k), "v"(one));
    return count;
#else
    return count + m;
#endif
}

[[gnu::always_inline]] inline bool maskAnd(bool a, bool b) { return a && b; }
template <MaskLanes M>
[[gnu::always_inline]] inline M maskAnd(M a, M b) {
    return a & b;
}
[[gnu::always_inline]] inline bool maskOr(bool a, bool b) { return a || b; }
template <MaskLanes M>
[[gnu::always_inline]] inline M maskOr(M a, M b) {
    return a | b;
}

// Two groups of eight lanes side by side, and back.
template <typename H>
[[gnu::always_inline]] inline auto joined(H a, H b) {
    static_assert(kLaneCount<H> == 8);
    return __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}
template <typename W>
[[gnu::always_inline]] inline auto lowHalf(W x) {
    static_assert(kLaneCount<W> == 16);
    return __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7);
}
template <typename W>
[[gnu::always_inline]] inline auto highHalf(W x) {
    static_assert(kLaneCount<W> == 16);
    return __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15);
}
// Lanes [8h, 8h + 8): lowHalf for h = 0, highHalf for h = 1.
template <typename W>
[[gnu::always_inline]] inline auto halfOf(W x, int h) {
    return h == 0 ? lowHalf(x) : highHalf(x);
}

// Whether every lane of a mask is set: for a branch that skips work no lane
// needs (the lanes' results stay exactly as without it).
// From laneBits where the target has it; without AVX, the 64-bit quarters
// are and-ed. GCC 12 compiled that for AVX-512 too, as extractions of each
// quarter: 30-odd instructions for a speed limit's test of thirty-two fish
// (vec.hpp limitLength, rules.hpp applyAcceleration), where the sign bits
// take a few, and a tenth of the instructions of the kernel's steering went
// (lock-step, 2026-12-05: 0.984 of the time at the bench's constant density
// on 1 thread, 0.985 on 2).
[[gnu::always_inline]] inline bool allOf(bool m) { return m; }
[[gnu::always_inline]] inline bool allOf(v8i m) {
#ifdef __AVX__
    return laneBits(m) == 0xffu;
#else
    using v4u64 = std::uint64_t __attribute__((vector_size(32)));
    const v4u64 q = (v4u64)m;
    return (q[0] & q[1] & q[2] & q[3]) == ~std::uint64_t{0};
#endif
}
[[gnu::always_inline]] inline bool allOf(v16i m) {
#ifdef __AVX512F__
    return laneBits(m) == 0xffff;
#else
    return allOf(lowHalf(m)) && allOf(highHalf(m));
#endif
}
// Whether no lane is set (the same use).
[[gnu::always_inline]] inline bool noneOf(bool m) { return !m; }
[[gnu::always_inline]] inline bool noneOf(v8i m) {
#ifdef __AVX__
    return laneBits(m) == 0u;
#else
    return allOf(~m);
#endif
}
[[gnu::always_inline]] inline bool noneOf(v16i m) {
#ifdef __AVX512F__
    return laneBits(m) == 0;
#else
    return noneOf(lowHalf(m)) && noneOf(highHalf(m));
#endif
}

// Lane loops over <cmath> functions: with -fno-math-errno (set for the core)
// they compile to single vector instructions where the target has them.
[[gnu::always_inline]] inline float sqrtOf(float x) { return std::sqrt(x); }
template <FloatLanes F>
[[gnu::always_inline]] inline F sqrtOf(F x) {
    F r;
    for (int k = 0; k < kLaneCount<F>; ++k) r[k] = std::sqrt(x[k]);
    return r;
}
[[gnu::always_inline]] inline float floorOf(float x) { return std::floor(x); }
// std::floor lane by lane, without a call per lane where the target has no
// vector rounding: truncate through int, step down where that went up. Zeros,
// and magnitudes from 2^23 up (whole already), infinities and NaN stay as they
// are, as std::floor leaves them.
[[gnu::always_inline]] inline v8f floorOf(v8f x) {
#ifdef __AVX__
    // One rounding instruction (vroundps, towards minus infinity) where the
    // target has it, as in the kernel's AVX2 build; GCC turns a loop over the
    // lanes into eight scalar roundings. The same values as below. (Always
    // inlined, so each translation unit keeps the body it was compiled with:
    // the test "kernel: the AVX2 object defines nothing but its entry".)
    return __builtin_ia32_roundps256(x, 0x09);
#else
    const v8f truncated = __builtin_convertvector(__builtin_convertvector(x, v8i), v8f);
    const v8f down = truncated > x ? truncated - 1.0f : truncated;
    const v8f magnitude = (v8f)((v8i)x & 0x7fffffff);
    return ((magnitude < 8388608.0f) & (x != 0.0f)) ? down : x;
#endif
}
[[gnu::always_inline]] inline float roundOf(float x) { return std::nearbyint(x); }
template <FloatLanes F>
[[gnu::always_inline]] inline F roundOf(F x) {
    F r;
    for (int k = 0; k < kLaneCount<F>; ++k) r[k] = std::nearbyint(x[k]);
    return r;
}
[[gnu::always_inline]] inline float absOf(float x) { return std::fabs(x); }
// Clears the sign bit, as std::fabs does (so -0 gives +0 in both).
template <FloatLanes F>
[[gnu::always_inline]] inline F absOf(F x) {
    return (F)((MaskOf<F>)x & 0x7fffffff);
}
[[gnu::always_inline]] inline float maxOf(float a, float b) { return a > b ? a : b; }
template <FloatLanes F>
[[gnu::always_inline]] inline F maxOf(F a, F b) {
    return a > b ? a : b;
}
[[gnu::always_inline]] inline float minOf(float a, float b) { return a < b ? a : b; }
template <FloatLanes F>
[[gnu::always_inline]] inline F minOf(F a, F b) {
    return a < b ? a : b;
}

// 2^-e for the power of two 2^e <= x < 2^(e+1) of a finite x of at least
// FLT_MIN, but never below 2^-126 (FLT_MIN, for x from 2^127 up): x times it
// is then exact and lies in [1, 4). Made from x's exponent bits, without the
// division that 1 / x would cost (normalizedOrZero's scaling).
[[gnu::always_inline]] inline float inversePowerOfTwo(float x) {
    const std::int32_t inverse = 0x7f000000 - (std::bit_cast<std::int32_t>(x) & 0x7f800000);
    return std::bit_cast<float>(std::max(inverse, 0x00800000));
}
template <FloatLanes F>
[[gnu::always_inline]] inline F inversePowerOfTwo(F x) {
    using M = MaskOf<F>;
    const M inverse = 0x7f000000 - ((M)x & 0x7f800000);
    return (F)(inverse > 0x00800000 ? inverse : M{} + 0x00800000);
}

// std::floor in sixteen lanes: one rounding instruction (vrndscaleps,
// towards minus infinity) where the target has AVX-512, as the kernel's
// AVX-512 build; else two groups of eight. The same values either way.
[[gnu::always_inline]] inline v16f floorOf(v16f x) {
#ifdef __AVX512F__
    // The merging form: the plain one's unused merge operand made GCC 12
    // warn that it "may be used uninitialized".
    return (v16f)_mm512_mask_roundscale_ps((__m512)x, 0xffff, (__m512)x, 0x09);
#else
    return joined(floorOf(lowHalf(x)), floorOf(highHalf(x)));
#endif
}

// The smallest and the largest lane, of lanes that hold no NaN (the order of
// the comparisons then does not matter).
[[gnu::always_inline]] inline float minLanes(v8f v) {
    const v4f lo = {v[0], v[1], v[2], v[3]}, hi = {v[4], v[5], v[6], v[7]};
    const v4f q = lo < hi ? lo : hi;
    return minOf(minOf(q[0], q[2]), minOf(q[1], q[3]));
}
[[gnu::always_inline]] inline float maxLanes(v8f v) {
    const v4f lo = {v[0], v[1], v[2], v[3]}, hi = {v[4], v[5], v[6], v[7]};
    const v4f q = lo > hi ? lo : hi;
    return maxOf(maxOf(q[0], q[2]), maxOf(q[1], q[3]));
}
[[gnu::always_inline]] inline float minLanes(v16f v) { return minLanes(minOf(lowHalf(v), highHalf(v))); }
[[gnu::always_inline]] inline float maxLanes(v16f v) { return maxLanes(maxOf(lowHalf(v), highHalf(v))); }

#ifdef __AVX2__
namespace lanes_detail {
// For each 8-bit mask, the lanes whose bit is set, in order, three bits each
// (unset lanes' places hold lane 0): the permutation that packs them.
constexpr std::array<std::uint32_t, 256> setLanesTable() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t bits = 0; bits < 256; ++bits) {
        std::uint32_t packed = 0, at = 0;
        for (std::uint32_t lane = 0; lane < 8; ++lane)
            if (bits >> lane & 1) packed |= lane << (3 * at++);
        table[bits] = packed;
    }
    return table;
}
// Internal linkage: each kernel build keeps its own copy (the AVX2 and
// AVX-512 objects define nothing but their entries).
namespace {
constexpr std::array<std::uint32_t, 256> kSetLanes = setLanesTable();
}  // namespace
}  // namespace lanes_detail
#endif

// Writes first + l for every set lane l of m, in lane order, from out on,
// and returns how many: out needs room for as many entries as m has lanes,
// whatever m holds. With AVX2 (eight lanes) one permutation packs them (a
// table gives it), with AVX-512 (sixteen) one compress in a register and a
// plain store (compressing straight to memory is the slow form on AMD Zen 4
// and 5); elsewhere a lane at a time, each written and the end moved past it
// where its lane is set.
template <MaskLanes M>
[[gnu::always_inline]] inline std::size_t appendSetLanesOneByOne(std::uint32_t* out, std::uint32_t first, M m) {
    std::size_t n = 0;
    for (int l = 0; l < kLaneCount<M>; ++l) {
        out[n] = first + static_cast<std::uint32_t>(l);
        n += static_cast<std::size_t>(m[l] & 1);
    }
    return n;
}
[[gnu::always_inline]] inline std::size_t appendSetLanes(std::uint32_t* out, std::uint32_t first, v8i m) {
#ifdef __AVX2__
    const v8i index = iotaLanes<v8i>() + static_cast<std::int32_t>(first);
    const unsigned bits = laneBits(m);
    const v8i packedLanes = v8i{} + static_cast<std::int32_t>(lanes_detail::kSetLanes[bits]);
    const v8i lanes = packedLanes >> v8i{0, 3, 6, 9, 12, 15, 18, 21} & 7;
    const v8i packed = __builtin_ia32_permvarsi256(index, lanes);
    std::memcpy(out, &packed, sizeof packed);
    return static_cast<std::size_t>(__builtin_popcount(bits));
#else
    return appendSetLanesOneByOne(out, first, m);
#endif
}
[[gnu::always_inline]] inline std::size_t appendSetLanes(std::uint32_t* out, std::uint32_t first, v16i m) {
#ifdef __AVX512DQ__
    const __mmask16 set = laneBits(m);
    const v16i index = iotaLanes<v16i>() + static_cast<std::int32_t>(first);
    _mm512_storeu_si512(out, _mm512_maskz_compress_epi32(set, (__m512i)index));
    return static_cast<std::size_t>(__builtin_popcount(set));
#else
    return appendSetLanesOneByOne(out, first, m);
#endif
}

// Sum of the lanes as a fixed tree, ((0+4)+(2+6))+((1+5)+(3+7)): the same
// order on every target, so reductions stay deterministic.
[[gnu::always_inline]] inline float sumLanes(v8f v) {
    const v4f lo = {v[0], v[1], v[2], v[3]}, hi = {v[4], v[5], v[6], v[7]};
    const v4f q = lo + hi;
    const float a = q[0] + q[2], b = q[1] + q[3];
    return a + b;
}

}  // namespace mirofish
