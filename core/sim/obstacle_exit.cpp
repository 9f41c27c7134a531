#include "sim/obstacle_exit.hpp"

#include <cmath>
#include <limits>
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

// The obstacles joined to those that hold the fish, through any chain of
// overlaps: the boundary of the region the fish is in is made of theirs.
std::vector<Circle> joinedCircles(const StepConstants& k, std::span<const Obstacle> obstacles, Vec2 p, double slack) {
    std::vector<Circle> all;
    all.reserve(obstacles.size());
    for (const Obstacle& o : obstacles) {
        const Vec2 c = displacement(k, p, o.centre);
        all.push_back({D2{{c[0], c[1]}}, o.radius});
    }
    std::vector<bool> joined(all.size());
    std::vector<Circle> out;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (norm(all[i].centre) < all[i].radius - slack) joined[i] = true, out.push_back(all[i]);
    }
    for (std::size_t n = 0; n < out.size(); ++n) {
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (!joined[i] && norm(all[i].centre - out[n].centre) < all[i].radius + out[n].radius)
                joined[i] = true, out.push_back(all[i]);
        }
    }
    return out;
}

bool outsideAll(const std::vector<Circle>& circles, const D2& q, double slack) {
    for (const Circle& c : circles)
        if (norm(q - c.centre) < c.radius - slack) return false;
    return true;
}

}  // namespace

void exitOverlappingObstacles(const StepConstants& k, std::span<const Obstacle> obstacles, Vec2& p, Vec2& v) {
    const double slack = obstacleSurfaceSlack(k);
    const std::vector<Circle> circles = joinedCircles(k, obstacles, p, slack);
    if (circles.empty()) return;

    // The nearest point outside a union of discs is either straight out
    // along the radius of a disc that holds the fish, or a corner where two
    // circles cross. Candidates are checked against every circle of the
    // group with half the slack, so that a point a rounding inside one
    // still counts as outside.
    D2 best{};
    double bestDistance = std::numeric_limits<double>::infinity();
    const auto consider = [&](const D2& q) {
        const double d = norm(q);
        if (d < bestDistance && outsideAll(circles, q, slack / 2)) best = q, bestDistance = d;
    };
    for (const Circle& c : circles) {
        const double d = norm(c.centre);
        if (d >= c.radius) continue;
        // At the very centre any way out is as short: the kernel's choice, +x.
        const D2 out = d > 0 ? c.centre * (-1.0 / d) : D2{{1.0, 0.0}};
        consider(c.centre + out * c.radius);
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
            consider(chord + across * h);
            consider(chord - across * h);
        }
    }
    if (!std::isfinite(bestDistance)) return;

    p = Vec2{{static_cast<float>(p[0] + best[0]), static_cast<float>(p[1] + best[1])}};
    if (bestDistance > 0) {
        const Vec2 n{{static_cast<float>(best[0] / bestDistance), static_cast<float>(best[1] / bestDistance)}};
        const float inward = dot(v, n);
        if (inward < 0) v = v - n * inward;
    }
}

}  // namespace mirofish
