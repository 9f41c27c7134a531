#pragma once
// Thirty-two lanes as a pair of sixteen-lane vectors, for the kernel's
// AVX-512 build (sim/fish_kernel_body.hpp): the steering and integration of
// a group of fish is a few long chains of dependent divisions and square
// roots, and one group of sixteen leaves most of the CPU's pipes idle while
// they run. Written for a pair, every operation below is two independent
// vector instructions, one per half, which the CPU runs side by side. Each
// lane computes exactly what it computes in a vector of sixteen, so the
// results are the same bits.
//
// GCC's own 128-byte vectors (vector_size(128)) would be the natural type,
// but GCC 12 takes them partly through the stack. A micro-benchmark of such
// chains, each group waiting on the one before as in the kernel: 162 cycles
// per sixteen lanes in sixteen-lane vectors, 103 in GCC's 128-byte vectors,
// 84 in this pair (and where the groups do not wait on each other, GCC's
// took 1.5 times as long as sixteen-lane vectors).
#include <concepts>
#include <type_traits>

#include "math/hash.hpp"
#include "math/lanes.hpp"

namespace mirofish {

template <typename V>
struct LanePair {
    V lo, hi;
};
using v32f = LanePair<v16f>;
using v32i = LanePair<v16i>;
using v32u = LanePair<v16u>;

template <>
struct UnsignedLanesOf<v32f> {
    using type = v32u;
};

// The pair of f applied to each half of its arguments.
template <typename Fn, typename V, typename... W>
[[gnu::always_inline]] inline auto eachHalf(Fn f, const LanePair<V>& a, const LanePair<W>&... b) {
    return LanePair<decltype(f(a.lo, b.lo...))>{f(a.lo, b.lo...), f(a.hi, b.hi...)};
}
// f of eight or sixteen lanes, or of each half of pairs: for the functions
// that take no pairs (the grid's cells of positions, for one).
template <typename Fn, typename X, typename... Y>
[[gnu::always_inline]] inline auto halfByHalf(Fn f, const X& x, const Y&... y) {
    if constexpr (std::is_same_v<X, v32f> || std::is_same_v<X, v32i> || std::is_same_v<X, v32u>)
        return eachHalf(f, x, y...);
    else
        return f(x, y...);
}

// Operators lane for lane, between pairs or with a scalar, as for the
// vectors themselves; comparisons give a pair of masks. The comparisons take
// a pair on the left; the arithmetic also a scalar on the left, and assigns.
#define MIROFISH_PAIR_COMPARISON(op)                                                                      \
    template <typename V>                                                                                 \
    [[gnu::always_inline]] inline auto operator op(const LanePair<V>& a, const LanePair<V>& b) {          \
        return eachHalf([](V x, V y) { return x op y; }, a, b);                                          \
    }                                                                                                     \
    template <typename V, typename S>                                                                     \
        requires std::is_arithmetic_v<S>                                                                  \
    [[gnu::always_inline]] inline auto operator op(const LanePair<V>& a, S s) {                           \
        return eachHalf([s](V x) { return x op s; }, a);                                                 \
    }
#define MIROFISH_PAIR_OPERATOR(op)                                                                        \
    MIROFISH_PAIR_COMPARISON(op)                                                                          \
    template <typename V, typename S>                                                                     \
        requires std::is_arithmetic_v<S>                                                                  \
    [[gnu::always_inline]] inline auto operator op(S s, const LanePair<V>& a) {                           \
        return eachHalf([s](V x) { return s op x; }, a);                                                 \
    }                                                                                                     \
    template <typename V, typename X>                                                                     \
    [[gnu::always_inline]] inline LanePair<V>& operator op##=(LanePair<V>& a, const X& b) {                \
        return a = a op b;                                                                                \
    }
MIROFISH_PAIR_OPERATOR(+)
MIROFISH_PAIR_OPERATOR(-)
MIROFISH_PAIR_OPERATOR(*)
MIROFISH_PAIR_OPERATOR(/)
MIROFISH_PAIR_OPERATOR(&)
MIROFISH_PAIR_OPERATOR(|)
MIROFISH_PAIR_OPERATOR(^)
MIROFISH_PAIR_OPERATOR(>>)
MIROFISH_PAIR_OPERATOR(<<)
#undef MIROFISH_PAIR_OPERATOR
MIROFISH_PAIR_COMPARISON(<)
MIROFISH_PAIR_COMPARISON(<=)
MIROFISH_PAIR_COMPARISON(>)
MIROFISH_PAIR_COMPARISON(>=)
MIROFISH_PAIR_COMPARISON(==)
MIROFISH_PAIR_COMPARISON(!=)
#undef MIROFISH_PAIR_COMPARISON

template <typename V>
[[gnu::always_inline]] inline LanePair<V> operator-(const LanePair<V>& a) {
    return eachHalf([](V x) { return -x; }, a);
}
template <typename V>
[[gnu::always_inline]] inline LanePair<V> operator~(const LanePair<V>& a) {
    return eachHalf([](V x) { return ~x; }, a);
}
template <typename V>
[[gnu::always_inline]] inline auto operator!(const LanePair<V>& a) {
    return eachHalf([](V x) { return !x; }, a);
}

template <std::same_as<v32f> F>
[[gnu::always_inline]] inline F splat(float x) {
    return {splat<v16f>(x), splat<v16f>(x)};
}
template <std::same_as<v32f> F>
[[gnu::always_inline]] inline F loadLanes(const float* p) {
    return {loadLanes<v16f>(p), loadLanes<v16f>(p + 16)};
}
[[gnu::always_inline]] inline void storeLanes(float* p, const v32f& v) {
    storeLanes(p, v.lo);
    storeLanes(p + 16, v.hi);
}
template <std::same_as<v32i> I>
[[gnu::always_inline]] inline I iotaLanes() {
    const v16i low = iotaLanes<v16i>();
    return {low, low + 16};
}

[[gnu::always_inline]] inline v32f select(const v32i& m, const v32f& a, const v32f& b) {
    return {select(m.lo, a.lo, b.lo), select(m.hi, a.hi, b.hi)};
}
[[gnu::always_inline]] inline v32f select(bool m, const v32f& a, const v32f& b) { return m ? a : b; }
[[gnu::always_inline]] inline v32f select(const v32i& m, const v32f& a, float b) {
    return {select(m.lo, a.lo, b), select(m.hi, a.hi, b)};
}
[[gnu::always_inline]] inline v32f select(const v32i& m, float a, const v32f& b) {
    return {select(m.lo, a, b.lo), select(m.hi, a, b.hi)};
}
[[gnu::always_inline]] inline v32f select(const v32i& m, float a, float b) {
    return {select(m.lo, a, b), select(m.hi, a, b)};
}
[[gnu::always_inline]] inline v32f keepWhere(const v32i& m, const v32f& x) {
    return {keepWhere(m.lo, x.lo), keepWhere(m.hi, x.hi)};
}
[[gnu::always_inline]] inline v32f mulAdd(const v32f& a, const v32f& b, const v32f& c) {
    return {mulAdd(a.lo, b.lo, c.lo), mulAdd(a.hi, b.hi, c.hi)};
}
[[gnu::always_inline]] inline v32i maskAnd(const v32i& a, const v32i& b) { return a & b; }
[[gnu::always_inline]] inline v32i maskOr(const v32i& a, const v32i& b) { return a | b; }
[[gnu::always_inline]] inline bool allOf(const v32i& m) { return allOf(m.lo) && allOf(m.hi); }
[[gnu::always_inline]] inline bool noneOf(const v32i& m) { return noneOf(m.lo) && noneOf(m.hi); }

[[gnu::always_inline]] inline v32f signedUnitFloats(const v32u& h) {
    return {signedUnitFloats(h.lo), signedUnitFloats(h.hi)};
}

[[gnu::always_inline]] inline v32f sqrtOf(const v32f& x) { return {sqrtOf(x.lo), sqrtOf(x.hi)}; }
[[gnu::always_inline]] inline v32f floorOf(const v32f& x) { return {floorOf(x.lo), floorOf(x.hi)}; }
[[gnu::always_inline]] inline v32f roundOf(const v32f& x) { return {roundOf(x.lo), roundOf(x.hi)}; }
[[gnu::always_inline]] inline v32f absOf(const v32f& x) { return {absOf(x.lo), absOf(x.hi)}; }
[[gnu::always_inline]] inline v32f inversePowerOfTwo(const v32f& x) {
    return {inversePowerOfTwo(x.lo), inversePowerOfTwo(x.hi)};
}
[[gnu::always_inline]] inline v32f maxOf(const v32f& a, const v32f& b) { return {maxOf(a.lo, b.lo), maxOf(a.hi, b.hi)}; }
[[gnu::always_inline]] inline v32f minOf(const v32f& a, const v32f& b) { return {minOf(a.lo, b.lo), minOf(a.hi, b.hi)}; }

}  // namespace mirofish
