#pragma once
// The way out of overlapping obstacles. The kernel pushes a fish out of each
// obstacle in turn, along that obstacle's radius; where two overlap, the push
// out of one can land the fish in the other, and in the thin lens where two
// barely overlap the pushes only swap it from one side to the other. A fish
// left inside after the kernel's pass (rare: a few fish a step, and only
// where obstacles overlap) takes this exact, slower way: the nearest point
// outside every obstacle.
#include <span>

#include "sim/fish_kernel.hpp"

namespace mirofish {

// How deep a fish may sit inside an obstacle and count as on its surface:
// the rounding of a position projected onto the surface in float, which
// grows with the world's size. Always inlined: the kernel's builds for
// AVX2 and AVX-512 use it (sim/fish_kernel_body.hpp).
[[gnu::always_inline]] inline float obstacleSurfaceSlack(const StepConstants& k) {
    return 1e-3f + 4e-7f * std::max(k.width, k.height);
}

// If p lies inside an obstacle by more than obstacleSurfaceSlack, moves it to
// the nearest point outside all of them (on one obstacle's circle, or where
// two circles cross) and drops the part of v that points back in. Only the
// obstacles joined to the fish's own through overlaps matter; an obstacle
// that covers the whole of a wrapping world's width leaves no way out, and
// the fish is left where it is.
void exitOverlappingObstacles(const StepConstants& k, std::span<const Obstacle> obstacles, Vec2& p, Vec2& v);

}  // namespace mirofish
