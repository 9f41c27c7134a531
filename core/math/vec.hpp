#pragma once
// A small fixed-size vector shared by the 2D and 3D simulations, over float
// (one fish) or over eight lanes (eight fish at once, math/lanes.hpp). The
// steering rules are written once against this template (sim/rules.hpp).
#include <array>
#include <cfloat>
#include <cmath>
#include <cstddef>

#include "math/lanes.hpp"

namespace mirofish {

template <std::size_t D, typename T = float>
struct Vec {
    std::array<T, D> c{};

    constexpr T& operator[](std::size_t i) { return c[i]; }
    constexpr const T& operator[](std::size_t i) const { return c[i]; }

    constexpr Vec& operator+=(const Vec& o) { for (std::size_t i = 0; i < D; ++i) c[i] += o.c[i]; return *this; }
    constexpr Vec& operator-=(const Vec& o) { for (std::size_t i = 0; i < D; ++i) c[i] -= o.c[i]; return *this; }
    template <typename S>
    constexpr Vec& operator*=(S s) { for (std::size_t i = 0; i < D; ++i) c[i] = c[i] * s; return *this; }
    // The binary operators build a new result from const references: taking
    // the left operand by value made GCC 12 copy eight-lane vectors through
    // the stack in 16-byte pieces (and general registers) inside the kernel:
    // an eighth of its code.
    friend constexpr Vec operator+(const Vec& a, const Vec& b) { return zipped(a, b, [](T x, T y) { return x + y; }); }
    friend constexpr Vec operator-(const Vec& a, const Vec& b) { return zipped(a, b, [](T x, T y) { return x - y; }); }
    template <typename S>
    friend constexpr Vec operator*(const Vec& a, S s) { return zipped(a, a, [s](T x, T) { return x * s; }); }
    friend constexpr Vec operator-(const Vec& a) { return zipped(a, a, [](T x, T) { return -x; }); }
    friend constexpr bool operator==(const Vec&, const Vec&) = default;

private:
    template <typename F>
    static constexpr Vec zipped(const Vec& a, const Vec& b, F f) {
        Vec r;
        for (std::size_t i = 0; i < D; ++i) r.c[i] = f(a.c[i], b.c[i]);
        return r;
    }
};

using Vec2 = Vec<2>;
using Vec3 = Vec<3>;
template <std::size_t D>
using VecLanes = Vec<D, v8f>;

template <std::size_t D, typename T>
constexpr T dot(const Vec<D, T>& a, const Vec<D, T>& b) {
    T s = a[0] * b[0];
    for (std::size_t i = 1; i < D; ++i) s += a[i] * b[i];
    return s;
}

template <std::size_t D, typename T>
constexpr T lengthSquared(const Vec<D, T>& a) { return dot(a, a); }

template <std::size_t D, typename T>
[[gnu::always_inline]] inline T length(const Vec<D, T>& a) { return sqrtOf(lengthSquared(a)); }

template <std::size_t D, typename T, typename M>
[[gnu::always_inline]] inline Vec<D, T> selectVec(M mask, const Vec<D, T>& a, const Vec<D, T>& b) {
    Vec<D, T> r;
    for (std::size_t i = 0; i < D; ++i) r[i] = select(mask, a[i], b[i]);
    return r;
}

// Below this length a vector has no usable direction. Every normalisation
// goes through here: one unguarded division by zero makes a NaN that spreads
// to the whole school within a few frames.
inline constexpr float kTinyLength = 1e-6f;

// The unit vector, or zero. Scaled first by the power of two at or below the
// largest component (exactly, and without a division), so huge inputs
// (enormous weights) cannot overflow when squared; NaN or infinite
// components give zero.
template <std::size_t D, typename T>
[[gnu::always_inline]] inline Vec<D, T> normalizedOrZero(const Vec<D, T>& a) {
    T m = absOf(a[0]);
    for (std::size_t i = 1; i < D; ++i) m = maxOf(m, absOf(a[i]));
    const auto usable = maskAnd(m > kTinyLength, m <= FLT_MAX);
    const T scale = select(usable, inversePowerOfTwo(m), 0.0f);
    const Vec<D, T> scaled = selectVec(usable, a * scale, Vec<D, T>{});  // inf * 0 would be NaN
    const T l2 = lengthSquared(scaled);  // in [1, 16 D) when usable: each component under 4
    // NaN in one component slips past the max above; it fails this test.
    const auto unit = maskAnd(usable, l2 < 16.0f * static_cast<float>(D));
    return selectVec(unit, scaled * (1.0f / sqrtOf(select(unit, l2, 1.0f))), Vec<D, T>{});
}

// Clamp the length to maxLength, keeping the direction. Robust to huge
// inputs and to maxLength <= 0.
template <std::size_t D, typename T, typename L>
[[gnu::always_inline]] inline Vec<D, T> limitLength(const Vec<D, T>& a, L maxLength) {
    // A squared length that overflows (or a non-finite vector) is never
    // "within": inf <= inf would let an infinite vector through.
    const T l2 = lengthSquared(a);
    const auto finite = l2 <= FLT_MAX;
    const auto within = maskAnd(l2 <= maxLength * maxLength, finite);
    // Usually every lane is within: then the normalisation is not needed.
    // A lane beyond the limit with a finite squared length (a positive one)
    // is scaled by maxLength / length, one division; normalizedOrZero (two
    // and a square root) only in a lane whose square overflowed. Each lane's
    // formula depends on that lane alone, so that limiting eight or sixteen
    // fish at once gives every build the same bits.
    Vec<D, T> limited = a;
    if (!allOf(within)) {
        const auto scalable = maskAnd(!within, finite);
        Vec<D, T> scaled = a * (maxLength / sqrtOf(select(scalable, l2, T{} + 1.0f)));
        if (!allOf(finite)) scaled = selectVec(finite, scaled, normalizedOrZero(a) * maxLength);
        limited = selectVec(within, a, scaled);
    }
    return selectVec(maxLength > 0.0f, limited, Vec<D, T>{});
}

}  // namespace mirofish
