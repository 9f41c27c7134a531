#pragma once
// The steering rules, written once for any dimension (Vec<2>, Vec<3>). The
// 2D kernel (sim/fish_kernel.cpp) accumulates the neighbour sums and calls
// these; so will the 3D one. The slow all-pairs reference in the tests calls
// them too, so both paths share the formulas and differ only in how
// neighbours are found.
#include <cmath>
#include <cstddef>

#include "math/vec.hpp"

namespace mirofish::rules {

// Rules yield a velocity correction (px/s); it is applied as an acceleration
// over one reference step, i.e. multiplied by this rate (1/s). That is how
// the articles' per-frame formulas (steer px/frame used as px/frame^2) read
// in seconds.
inline constexpr float kSteerRate = 60.0f;

// Reynolds steering: the correction that turns v into `direction` at full
// speed. No direction (no neighbours, or a balanced sum) means no steering.
template <std::size_t D>
inline Vec<D> steerTowards(const Vec<D>& direction, const Vec<D>& v, float maxSpeed) {
    const Vec<D> u = normalizedOrZero(direction);
    if (u == Vec<D>{}) return Vec<D>{};
    return u * maxSpeed - v;
}

// One neighbour's contribution to separation: (self - other) / d^2, i.e. the
// unit vector away from it weighted by 1/d (articles 000 and 001), with d
// clamped from below so coincident fish do not produce infinities.
// `offset` is other - self.
template <std::size_t D>
inline Vec<D> separationTerm(const Vec<D>& offset, float d2, float minDistance2) {
    return offset * (-1.0f / std::fmax(d2, minDistance2));
}

// Is a neighbour at `offset` (other - self, squared length d2) inside the
// cone of half angle acos(cosHalf) around the unit heading? Compared by dot
// products only, against the precomputed cosine: no acos, no sqrt.
template <std::size_t D>
inline bool inFieldOfView(const Vec<D>& heading, const Vec<D>& offset, float d2, float cosHalf) {
    const float proj = dot(heading, offset);
    const float rhs = cosHalf * cosHalf * d2;
    if (cosHalf >= 0.0f) return proj >= 0.0f && proj * proj >= rhs;
    return proj >= 0.0f || proj * proj <= rhs;
}

// Soft wall, article 000: k ((m - d) / m)^2 inside the margin, d the distance
// to the wall; keeps growing past the wall. Returns the push along the inward
// normal in units of k.
inline float softWallPush(float distanceToWall, float margin) {
    if (!(margin > 0.0f) || distanceToWall >= margin) return 0.0f;
    const float depth = (margin - distanceToWall) / margin;
    return depth * depth;
}

// Speed into [minSpeed, maxSpeed], keeping the direction. A fish with no
// direction at all stays still rather than picking one.
template <std::size_t D>
inline Vec<D> limitSpeed(const Vec<D>& v, float minSpeed, float maxSpeed) {
    const Vec<D> limited = limitLength(v, maxSpeed);
    const float s2 = lengthSquared(limited);
    if (s2 >= minSpeed * minSpeed || !(s2 > kTinyLengthSquared)) return limited;
    return limited * (minSpeed / std::sqrt(s2));
}

// Linear falloff from 1 at the centre to 0 at the radius (force fields, predators).
inline float linearFalloff(float distance, float radius) {
    if (!(radius > 0.0f) || distance >= radius) return 0.0f;
    return 1.0f - distance / radius;
}

// Rotate unit vector `from` towards unit vector `to` by at most the angle
// whose cosine and sine are given (the per-step turn limit).
inline Vec2 turnTowards(const Vec2& from, const Vec2& to, float cosMax, float sinMax) {
    const float c = dot(from, to);
    if (c >= cosMax) return to;
    const float cross = from[0] * to[1] - from[1] * to[0];
    const float s = cross >= 0.0f ? sinMax : -sinMax;
    return Vec2{{from[0] * cosMax - from[1] * s, from[0] * s + from[1] * cosMax}};
}

}  // namespace mirofish::rules
