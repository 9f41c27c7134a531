#pragma once
// The steering rules, written once for any dimension (Vec<2>, Vec<3>) and
// for one fish (T = float) or eight at a time (T = v8f, math/lanes.hpp). The
// kernel (sim/fish_kernel_body.hpp), the agents and the tests' slow all-pairs
// reference all call these, so they share the formulas and differ only in
// how neighbours are found.
#include <cfloat>
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
template <std::size_t D, typename T, typename S>
[[gnu::always_inline]] inline Vec<D, T> steerTowards(const Vec<D, T>& direction, const Vec<D, T>& v, S maxSpeed) {
    const Vec<D, T> u = normalizedOrZero(direction);
    return selectVec(lengthSquared(u) > 0.5f, u * maxSpeed - v, Vec<D, T>{});
}

// One neighbour's contribution to separation is offset * this weight, with
// offset = other - self: (self - other) / d^2, i.e. the unit vector away from
// it weighted by 1/d (articles 000 and 001), with d clamped from below so
// coincident fish do not produce infinities. The scan adds it with mulAdd.
// minDistance2 is already of the lanes' type (the same in every lane): a
// float broadcast here, as 0 + x, would be an addition in the scan's loop
// for every candidate, which GCC 12 does not hoist.
template <typename T>
[[gnu::always_inline]] inline T separationWeight(T d2, T minDistance2) {
    return -1.0f / maxOf(d2, minDistance2);
}

// The field of view's limit for inFieldOfView: cos(half angle) * |cos(half angle)|.
inline float coneLimit(float cosHalf) { return cosHalf * (cosHalf < 0.0f ? -cosHalf : cosHalf); }

// The scan's arithmetic for an offset (dx, dy) (sim/neighbour_scan.hpp
// perceive): a dot product with the second product added by mulAdd, fused
// where the kernel build has FMA (math/lanes.hpp). The squared distance is
// scanDot(dx, dy, dx, dy), the projection on a heading scanDot(hx, hy, dx,
// dy). The reach cull and the inspector compute them alike, and so decide
// every neighbour exactly as the scan does.
template <typename F>
[[gnu::always_inline]] inline F scanDot(F ax, F ay, F bx, F by) {
    return mulAdd(ay, by, ax * bx);
}
// For one fish, fused or not as the kernel build that runs (sim/fish_kernel.hpp kernelBuildFuses).
[[gnu::always_inline]] inline float scanDot(float ax, float ay, float bx, float by, bool fused) {
    return mulAdd(ay, by, ax * bx, fused);
}

// Is a neighbour at an offset of squared length d2, whose projection on the
// unit heading is proj, inside the cone of half angle h around the heading?
// That is proj >= cos(h) |offset|; both sides squared with their signs kept,
// it is proj |proj| >= cos(h) |cos(h)| d2 = limit * d2 (see coneLimit): one
// dot product, no acos, no sqrt, no branch on the cone being wider than 180
// degrees. A zero heading with limit -1 sees all around (0 >= -d2).
// The axis need not be a unit vector: the kernel and the inspector take the
// velocity v itself, whose proj is |v| times the unit heading's, with limit
// times |v|^2, which decides the same up to rounding and spares each fish a
// square root and a division (lock-step, 2026-12-05: 0.989 of the time at
// the bench's constant density on 1 thread, 0.994 on 2, 0.987 in article 000).
// (limit is a float, or lanes.)
template <typename T, typename S>
[[gnu::always_inline]] inline auto inFieldOfView(T proj, T d2, S limit) {
    return proj * absOf(proj) >= d2 * limit;
}

// Whether a fish whose velocity has the squared length speed2 has a cone:
// below 1e-6 its heading is undefined; from 1e12 (a speed of 10^6 px/s,
// which only a state written by hand can hold for one step, speeds being
// clamped far below it) the cone's products with the velocity as its axis
// could overflow, and the fish sees all around. NaN has no cone either.
template <typename T>
[[gnu::always_inline]] inline auto hasConeAxis(T speed2) {
    return maskAnd(speed2 > 1e-6f, speed2 < 1e12f);
}

// Soft wall, article 000: k ((m - d) / m)^2 inside the margin, d the distance
// to the wall; keeps growing past the wall. The push along the inward normal
// in units of k.
template <typename T>
[[gnu::always_inline]] inline T softWallPush(T distanceToWall, float margin) {
    if (!(margin > 0.0f)) return T{};
    const T depth = (margin - distanceToWall) * (1.0f / margin);
    return select(distanceToWall < margin, depth * depth, T{});
}

// The new velocity: v + accel dt, limited to maxSpeed. A fish may not slow
// below minSpeed; when the acceleration would brake it below that floor it
// turns instead, spending the whole acceleration sideways (towards the side
// of accel's perpendicular part, or its left when accel is exactly head-on).
// Rescaling the braked velocity back up would keep its direction, and a fish
// swimming straight at a wall or a predator would never turn away.
// A fish with no direction at all stays still rather than picking one.
// The floor is tested on v + accel dt before the limit: where minSpeed equals
// maxSpeed, the limited length rounds a little short of maxSpeed about every
// other time, and tested after the limit that rounding would spend a forward
// push as a turn (to the left when the push is straight ahead).
template <std::size_t D, typename T, typename S>
[[gnu::always_inline]] inline Vec<D, T> applyAcceleration(const Vec<D, T>& v, const Vec<D, T>& accel, float dt,
                                                          S minSpeed, S maxSpeed) {
    static_assert(D == 2, "the turn side is defined in the plane");
    const Vec<D, T> pushed = v + accel * dt;
    const Vec<D, T> tried = limitLength(pushed, maxSpeed);
    const auto tooSlow = maskAnd(lengthSquared(pushed) < minSpeed * minSpeed, minSpeed > 0.0f);
    // Where no fish of the lanes is below the floor, the turn below is not
    // needed (a scene without a floor never needs it; the bench's
    // constant-density school has a fish below it in every group of sixteen).
    if (noneOf(tooSlow)) return tried;
    // The turn: v plus its perpendicular on the side of accel (the sign of
    // the cross product v x accel, which accel's perpendicular part sets; the
    // left head-on), that perpendicular |accel| dt / |v| times as long as v,
    // so that the two stand for v and accel dt at right angles, and their
    // sum, sqrt(|v|^2 + (|accel| dt)^2) long, is scaled to minSpeed. From
    // the squared lengths: two square roots and two divisions, side by side,
    // where the unit vector of v, the two lengths and the length of their sum
    // took four square roots and two divisions, the last ones waiting on the
    // others (lock-step, 2026-12-05: 0.978-0.982 of the time on 1 thread and
    // 0.968 on 2 at the bench's constant density, which has a fish below the
    // floor in every group). Speeds and forces are clamped far below float's
    // range, so the squares stay finite.
    const T vv = lengthSquared(v);
    const T aa = lengthSquared(accel * dt);
    // No direction below kTinyLength long, nor where the square is not
    // finite (normalizedOrZero tests the largest component instead).
    const auto moving = maskAnd(vv > kTinyLength * kTinyLength, vv <= FLT_MAX);
    const T cross = v[0] * accel[1] - v[1] * accel[0];
    const Vec<D, T> side = selectVec(cross < 0.0f, Vec<D, T>{{v[1], -v[0]}}, Vec<D, T>{{-v[1], v[0]}});
    const T sideScale = sqrtOf(aa / select(moving, vv, T{} + 1.0f));
    const Vec<D, T> turned = (v + side * sideScale) * (minSpeed / sqrtOf(select(moving, vv + aa, T{} + 1.0f)));
    // Raised only where a fish has no direction at all, which is rare.
    const Vec<D, T> raised = allOf(moving) ? Vec<D, T>{} : normalizedOrZero(tried) * minSpeed;
    return selectVec(tooSlow, selectVec(moving, turned, raised), tried);
}

// A fish's wander direction (article 001's wander: a unit vector at a phase
// that turns wanderRate radians a second). Every fish's phase turns at the
// same rate, so it is the fish's fixed phase, pi * u for its draw u in
// [-1, 1) (VariationDraws::wanderPhase), plus the school's common phase,
// whose cosine and sine are given: computed each step, not stored and
// rotated, which saves moving two arrays into cell order every step
// (mirofish bench in alternation, 2026-12-05, 1 000 000 fish on 2 threads:
// 46.1-48.5 steps/s against 45.2-47.5 in four pairs, the copy 2.5-2.7 ms a
// step against 2.9-3.2, peak memory 138 MB against 153; lock-step at
// 50 000 fish on 1 thread 0.996).
// The unit vector at pi * u without a sine or cosine: t = tan(pi u / 4) by
// a quintic (exact at 0 and +-1; the angles it gives are spread within half
// a per cent of uniformly), then twice the double-angle formulas, each exact
// for a unit vector: (1 - t^2, 2t) / (1 + t^2) is at the angle 2 atan t,
// and squaring that as a complex number doubles it again.
template <typename T>
[[gnu::always_inline]] inline Vec<2, T> wanderDirection(T u, float phaseCos, float phaseSin) {
    const T uu = u * u;
    const T t = u * (0.789f + uu * (0.14f + uu * 0.071f));
    const T tt = t * t;
    const T inv = 1.0f / (1.0f + tt);
    const T c = (1.0f - tt) * inv, s = (t + t) * inv;
    const T c2 = c * c - s * s, s2 = (c + c) * s;
    return Vec<2, T>{{c2 * phaseCos - s2 * phaseSin, c2 * phaseSin + s2 * phaseCos}};
}

// Linear falloff from 1 at the centre to 0 at the radius (force fields, predators).
template <typename T>
[[gnu::always_inline]] inline T linearFalloff(T distance, float radius) {
    if (!(radius > 0.0f)) return T{};
    return select(distance < radius, 1.0f - distance * (1.0f / radius), T{});
}

// Rotate unit vector `from` towards unit vector `to` by at most the angle
// whose cosine and sine are given (the per-step turn limit).
template <typename T>
[[gnu::always_inline]] inline Vec<2, T> turnTowards(const Vec<2, T>& from, const Vec<2, T>& to, float cosMax, float sinMax) {
    const T cross = from[0] * to[1] - from[1] * to[0];
    const T s = select(cross >= 0.0f, sinMax, -sinMax);
    const Vec<2, T> rotated{{from[0] * cosMax - from[1] * s, from[0] * s + from[1] * cosMax}};
    return selectVec(dot(from, to) >= cosMax, to, rotated);
}

}  // namespace mirofish::rules
