#pragma once
// A small fixed-size float vector shared by the 2D and 3D simulations. The
// steering rules are written once against this template (see sim/rules.hpp),
// so the 3D mode reuses them with Vec<3>.
#include <array>
#include <cmath>
#include <cstddef>

namespace mirofish {

template <std::size_t D>
struct Vec {
    std::array<float, D> c{};

    constexpr float& operator[](std::size_t i) { return c[i]; }
    constexpr float operator[](std::size_t i) const { return c[i]; }

    constexpr Vec& operator+=(const Vec& o) { for (std::size_t i = 0; i < D; ++i) c[i] += o.c[i]; return *this; }
    constexpr Vec& operator-=(const Vec& o) { for (std::size_t i = 0; i < D; ++i) c[i] -= o.c[i]; return *this; }
    constexpr Vec& operator*=(float s) { for (std::size_t i = 0; i < D; ++i) c[i] *= s; return *this; }
    friend constexpr Vec operator+(Vec a, const Vec& b) { return a += b; }
    friend constexpr Vec operator-(Vec a, const Vec& b) { return a -= b; }
    friend constexpr Vec operator*(Vec a, float s) { return a *= s; }
    friend constexpr Vec operator*(float s, Vec a) { return a *= s; }
    friend constexpr Vec operator-(Vec a) { return a *= -1.0f; }
    friend constexpr bool operator==(const Vec&, const Vec&) = default;
};

using Vec2 = Vec<2>;
using Vec3 = Vec<3>;

template <std::size_t D>
constexpr float dot(const Vec<D>& a, const Vec<D>& b) {
    float s = 0.0f;
    for (std::size_t i = 0; i < D; ++i) s += a[i] * b[i];
    return s;
}

template <std::size_t D>
constexpr float lengthSquared(const Vec<D>& a) { return dot(a, a); }

template <std::size_t D>
inline float length(const Vec<D>& a) { return std::sqrt(lengthSquared(a)); }

// Below this squared length a vector has no usable direction. Every
// normalisation goes through here: one unguarded division by zero makes a
// NaN that spreads to the whole school within a few frames.
inline constexpr float kTinyLengthSquared = 1e-12f;

template <std::size_t D>
inline Vec<D> normalizedOrZero(const Vec<D>& a) {
    const float l2 = lengthSquared(a);
    if (!(l2 > kTinyLengthSquared) || !std::isfinite(l2)) {
        if (!std::isfinite(l2)) {
            // Too large to square in float: normalise by the largest component first.
            float m = 0.0f;
            for (std::size_t i = 0; i < D; ++i) m = std::fmax(m, std::fabs(a[i]));
            if (!std::isfinite(m) || m == 0.0f) return Vec<D>{};
            return normalizedOrZero(a * (1.0f / m));
        }
        return Vec<D>{};
    }
    return a * (1.0f / std::sqrt(l2));
}

// Clamp the length to maxLength, keeping the direction. Robust to huge
// inputs (which would overflow when squared) and to maxLength <= 0.
template <std::size_t D>
inline Vec<D> limitLength(const Vec<D>& a, float maxLength) {
    if (!(maxLength > 0.0f)) return Vec<D>{};
    const float l2 = lengthSquared(a);
    if (l2 <= maxLength * maxLength) return a;
    return normalizedOrZero(a) * maxLength;
}

}  // namespace mirofish
