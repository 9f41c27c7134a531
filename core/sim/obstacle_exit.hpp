#pragma once
// The way out of obstacles where one push is not enough. The kernel pushes a
// fish out of each obstacle in turn, along that obstacle's radius, and then
// keeps it inside the walls. Where two obstacles overlap, the push out of
// one can land the fish in the other (in the thin lens where two barely
// overlap, the pushes only swap it from side to side); where an obstacle
// crosses a wall, the push can take the fish past the wall, which bounces
// it straight back in. A fish left inside (rare: a few fish a step, only
// there, or many on the first step into a field of rocks) takes this exact,
// slower way: the nearest point outside every obstacle and within the walls.
#include <cstdint>
#include <span>

#include "sim/fish_kernel.hpp"

namespace mirofish {

// How deep a fish may sit inside an obstacle and count as on its surface:
// the rounding of a position projected onto the surface in float, which
// grows with the world's size. Always inlined, as are deeplyInside and
// searchesFar: the kernel's builds for AVX2 and AVX-512 use them
// (sim/fish_kernel_body.hpp).
[[gnu::always_inline]] inline float obstacleSurfaceSlack(const StepConstants& k) {
    return 1e-3f + 4e-7f * std::max(k.width, k.height);
}

// Whether each of a group of fish lies inside the obstacle by more than the
// slack: each lane's answer depends on that lane alone, so that every build
// of the kernel, however it groups the fish, sends the same fish the exact
// way (leaveObstacles).
template <typename F>
[[gnu::always_inline]] inline auto deeplyInside(const StepConstants& k, const Obstacle& o, const Vec<2, F>& p) {
    const float reach = std::max(o.radius - obstacleSurfaceSlack(k), 0.0f);
    const Vec<2, F> centre{{F{} + o.centre[0], F{} + o.centre[1]}};
    return lengthSquared(displacement(k, centre, p)) < reach * reach;
}

// A fish whose step ended deeply inside an obstacle (deeplyInside), after
// the kernel's pushes and walls, goes instead from where its move took it
// (movedTo and v before any obstacle or wall) to the nearest point outside
// all of them and, in a world with walls (bounce, or soft's backstop a
// margin outside), within the walls: on one obstacle's circle, or at a
// corner where two circles cross or a circle meets a wall. On a circle it
// slides, with the part of v that points back in dropped, as the kernel's
// push does; at a corner, where every fish pressed in would land on one
// point, it goes on past the corner the more the farther it had gone in
// (under a pixel) and bounces. In a wrapping world the obstacles' copies
// across the seams count too, and the point found may lie past the seam,
// for the caller to wrap. The search looks near the fish first, and no
// farther than four times the radius of the largest obstacle that holds it
// (or 256 px, for small ones), nor past 48 circles unless `searchFar`: returns false, leaving movedTo and
// v as they were, where it finds no way out (deep in a field of rocks, or an
// obstacle over the whole world), for the kernel's pushes to stand.
bool leaveObstacles(const StepConstants& k, std::span<const Obstacle> obstacles, Vec2& movedTo, Vec2& v,
                    bool searchFar);

// Whether the fish of this id searches far this step: one step in 32, so
// that a fish deep in a field of rocks gets out within about half a second,
// while in a world that rocks cover, where there is no way out, the search
// costs every fish's step only now and then.
[[gnu::always_inline]] inline bool searchesFar(const StepConstants& k, std::uint32_t id) {
    return (k.step + id) % 32 == 0;
}

}  // namespace mirofish
