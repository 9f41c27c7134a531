#include "sim/obstacle_exit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace mirofish {

namespace {

// Worked in double, relative to the fish (which sits at the origin), so
// that the points where two circles cross lie on both to well under the
// slack.
using D2 = Vec<2, double>;

double norm(const D2& a) { return std::sqrt(lengthSquared(a)); }

struct Circle {
    D2 centre;  // seen from the fish
    double radius;
};

// Where a way out may lie, seen from the fish: within the walls, or in a
// wrapping world (`any` false: no walls to meet) within half the world each
// way, where every place of the world is once, at its nearest.
struct Walls {
    bool any = false;
    double left = 0, right = 0, top = 0, bottom = 0;
    bool within(const D2& q, double slack) const {
        return q[0] >= left - slack && q[0] <= right + slack && q[1] >= top - slack && q[1] <= bottom + slack;
    }
};

Walls wallsSeenFrom(const StepConstants& k, Vec2 p) {
    if (k.boundary == BoundaryMode::Wrap) return {false, -k.width / 2.0, k.width / 2.0, -k.height / 2.0, k.height / 2.0};
    // Soft walls hold the fish back by steering; only their backstop (the
    // kernel's reflect) is a wall a fish cannot pass.
    const double margin = k.boundary == BoundaryMode::Soft ? k.boundaryMargin : 0.0;
    return {true, -margin - p[0], k.width + margin - p[0], -margin - p[1], k.height + margin - p[1]};
}

Vec2 withinWalls(const StepConstants& k, Vec2 p) {
    if (k.boundary == BoundaryMode::Wrap) return p;
    const float margin = k.boundary == BoundaryMode::Soft ? k.boundaryMargin : 0.0f;
    return Vec2{{std::clamp(p[0], -margin, k.width + margin), std::clamp(p[1], -margin, k.height + margin)}};
}

// The most circles the search takes in around one fish, but when it is told
// to search far: its corners cost the square of their number, each checked
// against them all.
constexpr std::size_t kMostCircles = 48;
constexpr double kFarEnough = 256;  // px

// Each thread's list, kept from one fish to the next: the step allocates
// nothing once it has grown.
thread_local std::vector<Circle> tNear;

// The obstacles whose circles come within `reach` of the fish: only they can
// hold a point that near, or make a corner there. In a wrapping world each
// obstacle's copies across the seams count too: a rock more than half the
// world across overlaps its own copy. (The copies next to the nearest one
// cover every place within half the world of the fish, for rocks up to the
// world's size.)
const std::vector<Circle>& circlesWithin(const StepConstants& k, std::span<const Obstacle> obstacles, Vec2 p,
                                         double reach) {
    std::vector<Circle>& near = tNear;
    near.clear();
    const int copies = k.boundary == BoundaryMode::Wrap ? 1 : 0;
    for (const Obstacle& o : obstacles) {
        const Vec2 c = displacement(k, p, o.centre);
        for (int i = -copies; i <= copies; ++i) {
            for (int j = -copies; j <= copies; ++j) {
                const D2 centre{{double{c[0]} + i * double{k.width}, double{c[1]} + j * double{k.height}}};
                if (norm(centre) - o.radius < reach) near.push_back({centre, o.radius});
            }
        }
    }
    return near;
}

bool outsideAll(const std::vector<Circle>& circles, const D2& q, double slack) {
    for (const Circle& c : circles)
        if (norm(q - c.centre) < c.radius - slack) return false;
    return true;
}

// A way out, and which way a fish there may go on a little (at a corner;
// zero where it slides along one circle).
struct Exit {
    D2 at;
    D2 onward;  // on from the fish
    D2 aside;   // between two circles' outward normals: outside both, wherever the fish was
};

}  // namespace

bool leaveObstacles(const StepConstants& k, std::span<const Obstacle> obstacles, Vec2& movedTo, Vec2& v,
                    bool searchFar) {
    const Vec2 p = withinWalls(k, movedTo);
    const Walls walls = wallsSeenFrom(k, p);
    // Candidates are checked against the circles and the walls with half the
    // slack, so that a point a rounding inside one still counts as outside.
    const double slack = obstacleSurfaceSlack(k);

    // The nearest point outside a union of discs and within walls is either
    // straight out along the radius of a disc that holds the fish, or a
    // corner: where two circles cross, or a circle and a wall. (Along a wall
    // alone it never is: the fish is within them.) A way out no farther than
    // `reach` is made by circles that come within reach and can lie only in
    // them, so the search looks near first and farther only if it must: in a
    // field of rocks that overlap across the whole world, every rock and its
    // copies made each fish's search hundreds of times a step's work.
    // No way out lies farther than the far corner of the walls, or of the
    // half world each way around the fish. Nor is one looked for farther than
    // four times the radius of the largest obstacle that holds the fish
    // (straight out of it is at most its radius away, if not into another),
    // or kFarEnough for small rocks: in a field of them the way out can be
    // many radii away.
    double farthest = std::hypot(std::max(-walls.left, walls.right), std::max(-walls.top, walls.bottom));
    const std::size_t everyCircle = obstacles.size() * (k.boundary == BoundaryMode::Wrap ? 9 : 1);
    std::optional<Exit> best;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (double reach = 8.0;; reach *= 2) {
        const std::vector<Circle>& circles = circlesWithin(k, obstacles, p, reach);
        if (reach == 8.0) {
            double holding = 0;
            for (const Circle& c : circles)
                if (norm(c.centre) < c.radius) holding = std::max(holding, c.radius);
            farthest = std::min(farthest, std::max(4 * holding, kFarEnough));
        }
        // So many circles this near that the search would cost more than a
        // step of thousands of fish: deep in a field of rocks, or in one that
        // covers the world, where there is no way out and every fish searched
        // it all, every step.
        if (circles.size() > kMostCircles && !searchFar) return false;
        // With every circle in, this round finds a way out at any distance.
        if (reach > farthest || circles.size() == everyCircle) reach = farthest;
        const auto free = [&](const D2& q) { return walls.within(q, slack / 2) && outsideAll(circles, q, slack / 2); };
        if (free(D2{})) {
            movedTo = p;
            return true;
        }
        const auto consider = [&](const D2& q, const D2& onward, const D2& aside = D2{}) {
            const double d = norm(q);
            if (d <= reach && d < bestDistance && free(q)) best = Exit{q, onward, aside}, bestDistance = d;
        };
        for (const Circle& c : circles) {
            const double d = norm(c.centre);
            if (d >= c.radius) continue;
            // At the very centre any way out is as short: the kernel's choice, +x.
            const D2 out = d > 0 ? c.centre * (-1.0 / d) : D2{{1.0, 0.0}};
            consider(c.centre + out * c.radius, D2{});
        }
        for (std::size_t i = 0; i < circles.size(); ++i) {
            for (std::size_t j = i + 1; j < circles.size(); ++j) {
                const Circle& a = circles[i];
                const Circle& b = circles[j];
                const D2 ab = b.centre - a.centre;
                const double d = norm(ab);
                // Apart, or one inside the other: their circles do not cross.
                if (d >= a.radius + b.radius || d <= std::abs(a.radius - b.radius)) continue;
                // Along ab, the chord where they cross lies at x from a's centre.
                const double x = (d * d + a.radius * a.radius - b.radius * b.radius) / (2 * d);
                const double h = std::sqrt(std::max(a.radius * a.radius - x * x, 0.0));
                const D2 along = ab * (1.0 / d);
                const D2 across{{-along[1], along[0]}};
                const D2 chord = a.centre + along * x;
                // Beyond the corner, on from a fish inside both, lies outside
                // both; from a fish inside one, only between their normals.
                for (const D2& q : {chord + across * h, chord - across * h}) {
                    const D2 between = (q - a.centre) * (1.0 / a.radius) + (q - b.centre) * (1.0 / b.radius);
                    consider(q, q * (1.0 / std::max(norm(q), 1e-12)), between * (1.0 / std::max(norm(between), 1e-12)));
                }
            }
        }
        if (walls.any) {
            for (const Circle& c : circles) {
                // Where the circle meets each wall (x = wall, or y = wall); beyond
                // it, along the wall away from the circle lies outside.
                for (int axis = 0; axis < 2; ++axis) {
                    for (const double wall :
                         axis == 0 ? std::array{walls.left, walls.right} : std::array{walls.top, walls.bottom}) {
                        const double along = wall - c.centre[axis];
                        if (std::abs(along) >= c.radius) continue;
                        const double across = std::sqrt(c.radius * c.radius - along * along);
                        const int other = 1 - axis;
                        for (const double side : {across, -across}) {
                            D2 q, onward;
                            q[axis] = wall;
                            q[other] = c.centre[other] + side;
                            onward[other] = side > 0 ? 1.0 : -1.0;
                            consider(q, onward);
                        }
                    }
                }
            }
        }
        if (best) break;
        if (reach >= farthest) return false;  // no way out near
    }

    // At a corner every fish pressed into it would land on one point, where
    // no separation can tell them apart and the school piled up, stopped.
    // Each goes on past it the more the farther it had gone in (d / (1 + d)
    // px for d px, under a pixel), and bounces off: sliding along either
    // circle leads into the other.
    D2 at = best->at;
    const D2 n = at * (1.0 / std::max(bestDistance, 1e-12));  // out, from where the fish had got to
    if (lengthSquared(best->onward) > 0) {
        const std::vector<Circle>& circles = circlesWithin(k, obstacles, p, bestDistance + 1);
        const double past = bestDistance / (1 + bestDistance);
        // On from the fish, or halfway to between the normals (fish that went
        // in from either side land apart), or between them.
        const D2 halfway = best->onward + best->aside;
        for (const D2& way : {best->onward, halfway * (1.0 / std::max(norm(halfway), 1e-12)), best->aside}) {
            const D2 further = at + way * past;
            if (lengthSquared(way) > 0 && walls.within(further, slack / 2) && outsideAll(circles, further, slack / 2)) {
                at = further;
                break;
            }
        }
    }
    movedTo = Vec2{{static_cast<float>(p[0] + at[0]), static_cast<float>(p[1] + at[1])}};
    if (bestDistance > 0) {
        const Vec2 out{{static_cast<float>(n[0]), static_cast<float>(n[1])}};
        const float inward = dot(v, out);
        const float share = lengthSquared(best->onward) > 0 ? 2.0f : 1.0f;  // a bounce, or a slide
        if (inward < 0) v = v - out * (inward * share);
    }
    return true;
}

}  // namespace mirofish
