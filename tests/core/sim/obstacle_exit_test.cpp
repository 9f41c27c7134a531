// The way out of overlapping obstacles and of obstacles across a wall
// (sim/obstacle_exit.hpp) against a slow reference: the nearest of many
// points sampled along every circle that lie outside all the others and
// within the walls.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "sim/obstacle_exit.hpp"

using namespace mirofish;

namespace {

StepConstants worldOf(float width, float height, BoundaryMode boundary) {
    StepConstants k;
    k.width = width, k.height = height, k.boundary = boundary;
    return k;
}

double depthIn(const StepConstants& k, const Obstacle& o, Vec2 p) {
    const Vec2 d = displacement(k, o.centre, p);
    return o.radius - std::hypot(static_cast<double>(d[0]), static_cast<double>(d[1]));
}

bool insideAny(const StepConstants& k, const std::vector<Obstacle>& obstacles, Vec2 p, double slack) {
    for (const Obstacle& o : obstacles)
        if (depthIn(k, o, p) > slack) return true;
    return false;
}

// The radius of the largest obstacle that holds p: the way out is looked for
// no farther than four times that, or 256 px.
double largestHolding(const StepConstants& k, const std::vector<Obstacle>& obstacles, Vec2 p) {
    double radius = 0;
    for (const Obstacle& o : obstacles)
        if (depthIn(k, o, p) > 0) radius = std::max(radius, double{o.radius});
    return radius;
}

bool withinWalls(const StepConstants& k, double x, double y, double slack) {
    if (k.boundary == BoundaryMode::Wrap) return true;
    const double m = k.boundary == BoundaryMode::Soft ? k.boundaryMargin : 0.0;
    return x >= -m - slack && x <= k.width + m + slack && y >= -m - slack && y <= k.height + m + slack;
}

// The reference: every circle sampled at 20 000 points, those outside all
// the others and within the walls kept, the nearest to p taken. Its answer
// can be longer than the true nearest by at most the sampling's step along
// a circle. (The nearest point is never on a wall alone, away from every
// circle: p is within the walls.)
double referenceExitDistance(const StepConstants& k, const std::vector<Obstacle>& obstacles, Vec2 p) {
    constexpr int kSamples = 20000;
    double best = INFINITY;
    for (const Obstacle& o : obstacles) {
        for (int s = 0; s < kSamples; ++s) {
            const double a = 2 * std::numbers::pi * s / kSamples;
            const double x = o.centre[0] + o.radius * std::cos(a), y = o.centre[1] + o.radius * std::sin(a);
            bool outside = withinWalls(k, x, y, 1e-6);
            for (const Obstacle& other : obstacles)
                if (other.radius - std::hypot(x - other.centre[0], y - other.centre[1]) > 1e-6) outside = false;
            if (outside) best = std::min(best, std::hypot(x - p[0], y - p[1]));
        }
    }
    return best;
}

}  // namespace

TEST_CASE("a fish inside overlapping obstacles leaves by the nearest way out of them all") {
    const StepConstants k = worldOf(2000, 2000, BoundaryMode::Bounce);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> place(700, 1300), size(40, 160);
    int checked = 0;
    // Groups of two to five, and a few fields of twenty, where the search
    // looks near the fish first and farther only if it must.
    for (int scene = 0; scene < 44; ++scene) {
        std::vector<Obstacle> obstacles;
        const bool field = scene >= 40;
        const int count = field ? 20 : 2 + scene % 4;
        for (int i = 0; i < count; ++i) obstacles.push_back({Vec2{{place(rng), place(rng)}}, size(rng)});
        for (int attempt = 0; attempt < (field ? 6 : 20); ++attempt) {
            const Vec2 start{{place(rng), place(rng)}};
            if (!insideAny(k, obstacles, start, obstacleSurfaceSlack(k))) continue;
            Vec2 p = start, v{{0, 0}};
            const bool left = leaveObstacles(k, obstacles, p, v, true);
            const double moved = std::hypot(double{p[0]} - start[0], double{p[1]} - start[1]);
            const double reference = referenceExitDistance(k, obstacles, start);
            INFO("scene " << scene << ", from (" << start[0] << ", " << start[1] << ") to (" << p[0] << ", " << p[1]
                          << "), reference distance " << reference);
            if (!left) {  // no way out as near as it looks: the kernel's pushes stand
                CHECK(reference > std::max(4 * largestHolding(k, obstacles, start), 256.0) - 0.06);
                CHECK(p == start);
                continue;
            }
            CHECK_FALSE(insideAny(k, obstacles, p, obstacleSurfaceSlack(k)));
            // Sampling 20 000 points on a circle of at most 160 px misses the
            // true nearest by at most 0.05 px; at a corner the fish goes on
            // past it by under a pixel, and less than it had gone in.
            CHECK(moved <= reference + std::min(reference, 1.0) + 1e-3);
            CHECK(moved >= reference - 0.06);
            ++checked;
        }
    }
    CHECK(checked > 100);
}

TEST_CASE("a fish inside an obstacle across a wall leaves by the nearest way out within the walls") {
    for (const BoundaryMode mode : {BoundaryMode::Bounce, BoundaryMode::Soft}) {
        StepConstants k = worldOf(1000, 800, mode);
        k.boundaryMargin = 50;
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> edge(-80, 120), along(0, 1), size(40, 160);
        int checked = 0;
        for (int scene = 0; scene < 30; ++scene) {
            // One to three obstacles, each near a wall or a corner of the world.
            std::vector<Obstacle> obstacles;
            for (int i = 0; i <= scene % 3; ++i) {
                const bool corner = (scene + i) % 4 == 0, vertical = (scene + i) % 2 == 0;
                const float x = vertical ? edge(rng) : along(rng) * k.width;
                const float y = vertical ? (corner ? edge(rng) : along(rng) * k.height) : k.height - edge(rng);
                obstacles.push_back({Vec2{{x, y}}, size(rng)});
            }
            for (int attempt = 0; attempt < 40; ++attempt) {
                const Obstacle& o = obstacles[static_cast<std::size_t>(attempt) % obstacles.size()];
                const Vec2 start{{std::clamp(o.centre[0] + (along(rng) - 0.5f) * o.radius, 0.0f, k.width),
                                  std::clamp(o.centre[1] + (along(rng) - 0.5f) * o.radius, 0.0f, k.height)}};
                if (!insideAny(k, obstacles, start, obstacleSurfaceSlack(k))) continue;
                Vec2 p = start, v{{0, 0}};
                const bool left = leaveObstacles(k, obstacles, p, v, true);
                const double reference = referenceExitDistance(k, obstacles, start);
                if (!left) {  // walled in, or no way out as near as it looks
                    CHECK(reference > std::max(4 * largestHolding(k, obstacles, start), 256.0) - 0.06);
                    CHECK(p == start);
                    continue;
                }
                const double moved = std::hypot(double{p[0]} - start[0], double{p[1]} - start[1]);
                INFO((mode == BoundaryMode::Bounce ? "bounce" : "soft") << " scene " << scene << ", from (" << start[0]
                     << ", " << start[1] << ") to (" << p[0] << ", " << p[1] << "), reference distance " << reference);
                CHECK_FALSE(insideAny(k, obstacles, p, obstacleSurfaceSlack(k)));
                CHECK(withinWalls(k, p[0], p[1], 1e-3));
                CHECK(moved <= reference + std::min(reference, 1.0) + 1e-3);
                CHECK(moved >= reference - 0.06);
                ++checked;
            }
        }
        CHECK(checked > 100);
    }
}

TEST_CASE("in the thin lens of two obstacles that barely overlap a fish leaves by a corner, not to and fro") {
    const StepConstants k = worldOf(1000, 1000, BoundaryMode::Bounce);
    // Centres 200 apart, radii 110: the lens spans x 490..510, corners at
    // y = 500 +- sqrt(110^2 - 100^2) = 500 +- 45.83.
    const std::vector<Obstacle> obstacles = {{Vec2{{400, 500}}, 110}, {Vec2{{600, 500}}, 110}};
    Vec2 p{{500, 501}}, v{{0, -30}};
    leaveObstacles(k, obstacles, p, v, true);
    // Past the upper corner, on the way from the fish to it, by d / (1 + d)
    // for the d = 44.83 px it had gone in.
    const double in = std::sqrt(110.0 * 110 - 100 * 100) - 1;
    CHECK(p[0] == Approx(500).margin(1e-3));
    CHECK(p[1] == Approx(501 + in + in / (1 + in)).margin(1e-3));
    // It was swimming back in (down, towards the lens): it bounces.
    CHECK(v[0] == Approx(0).margin(1e-4));
    CHECK(v[1] == Approx(30));
}

TEST_CASE("fish pressed into the corner between two obstacles stay apart, each where it had gone in") {
    // All sent to the one point where the circles cross, they piled up
    // there, where separation cannot tell them apart, and stopped.
    const StepConstants k = worldOf(1000, 1000, BoundaryMode::Bounce);
    const std::vector<Obstacle> obstacles = {{Vec2{{330, 300}}, 80}, {Vec2{{470, 300}}, 80}};
    std::vector<Vec2> landed;
    // Inside both, and inside one only (where straight out of it is inside the other).
    for (const Vec2 start : {Vec2{{400, 335}}, Vec2{{399, 336}}, Vec2{{401, 337}}, Vec2{{400, 330}}, Vec2{{395, 330}},
                             Vec2{{394, 331}}, Vec2{{405, 330}}}) {
        Vec2 p = start, v{{0, -100}};
        leaveObstacles(k, obstacles, p, v, true);
        CHECK_FALSE(insideAny(k, obstacles, p, obstacleSurfaceSlack(k)));
        CHECK(length(v) == Approx(100));  // bounced, not stopped
        for (const Vec2 other : landed) CHECK(length(p - other) > 0.01f);
        CHECK(length(p - Vec2{{400, 300 + std::sqrt(80.0f * 80 - 70 * 70)}}) > 0.01f);  // not on the corner itself
        landed.push_back(p);
    }
}

TEST_CASE("where obstacles cover the whole world there is no way out, and the fish stays where its move took it") {
    // In a wrapping world, corners of the outermost copies of a rock that
    // covers it were taken for ways out: the whole school thrown onto four
    // points, each inside the rock again once wrapped.
    for (const BoundaryMode mode : {BoundaryMode::Wrap, BoundaryMode::Bounce, BoundaryMode::Soft}) {
        const StepConstants k = worldOf(1280, 720, mode);
        std::vector<Obstacle> field;
        for (int x = 0; x < 16; ++x)
            for (int y = 0; y < 10; ++y) field.push_back({Vec2{{40.0f + 80 * x, 36.0f + 72 * y}}, 70});
        for (const std::vector<Obstacle>& obstacles : {std::vector<Obstacle>{{Vec2{{640, 360}}, 800}}, field}) {
            for (const Vec2 start : {Vec2{{640, 360}}, Vec2{{3, 700}}, Vec2{{1000, 100}}}) {
                Vec2 p = start, v{{10, -20}};
                CHECK_FALSE(leaveObstacles(k, obstacles, p, v, true));
                CHECK(p == start);
                CHECK(v == Vec2{{10, -20}});
            }
        }
    }
}

TEST_CASE("a fish outside every obstacle, or on a surface, is left where it is") {
    const StepConstants k = worldOf(1000, 1000, BoundaryMode::Bounce);
    const std::vector<Obstacle> obstacles = {{Vec2{{400, 500}}, 110}, {Vec2{{600, 500}}, 110}};
    for (const Vec2 start : {Vec2{{100, 100}}, Vec2{{290, 500}}, Vec2{{500, 700}}}) {
        Vec2 p = start, v{{5, 5}};
        leaveObstacles(k, obstacles, p, v, true);
        CHECK(p == start);
        CHECK(v == Vec2{{5, 5}});
    }
}

TEST_CASE("overlapping obstacles across a wrapping world's seam are left by the nearest way too") {
    const StepConstants k = worldOf(800, 600, BoundaryMode::Wrap);
    // One obstacle at the right edge, one at the left: they overlap across the seam.
    const std::vector<Obstacle> obstacles = {{Vec2{{780, 300}}, 60}, {Vec2{{40, 300}}, 60}};
    Vec2 p{{810.0f - 800.0f, 305}}, v{{0, 0}};  // in the lens, just right of the seam
    leaveObstacles(k, obstacles, p, v, true);
    Vec2 seen = p;
    seen[0] -= std::floor(seen[0] / k.width) * k.width;
    CHECK_FALSE(insideAny(k, obstacles, seen, obstacleSurfaceSlack(k)));
    // The lens's upper corner is at (10, 300 + sqrt(60^2 - 30^2)) = (10, 351.96),
    // and the fish goes on past it, by d / (1 + d) for the d px it had gone in.
    const double in = std::sqrt(60.0 * 60 - 30 * 30) - 5;
    CHECK(std::fmod(p[0] + 800.0f, 800.0f) == Approx(10).margin(1e-3));
    CHECK(p[1] == Approx(305 + in + in / (1 + in)).margin(1e-3));
}
