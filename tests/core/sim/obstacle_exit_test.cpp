// The way out of overlapping obstacles (sim/obstacle_exit.hpp) against a
// slow reference: the nearest of many points sampled along every circle
// that lie outside all the others.
#include <catch2/catch.hpp>

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

// The reference: every circle sampled at 20 000 points, those outside all
// the others kept, the nearest to p taken. Its answer can be longer than the
// true nearest by at most the sampling's step along a circle.
double referenceExitDistance(const StepConstants& k, const std::vector<Obstacle>& obstacles, Vec2 p) {
    constexpr int kSamples = 20000;
    double best = INFINITY;
    for (const Obstacle& o : obstacles) {
        for (int s = 0; s < kSamples; ++s) {
            const double a = 2 * std::numbers::pi * s / kSamples;
            const double x = o.centre[0] + o.radius * std::cos(a), y = o.centre[1] + o.radius * std::sin(a);
            bool outside = true;
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
    for (int scene = 0; scene < 40; ++scene) {
        std::vector<Obstacle> obstacles;
        const int count = 2 + scene % 4;
        for (int i = 0; i < count; ++i) obstacles.push_back({Vec2{{place(rng), place(rng)}}, size(rng)});
        for (int attempt = 0; attempt < 20; ++attempt) {
            const Vec2 start{{place(rng), place(rng)}};
            if (!insideAny(k, obstacles, start, obstacleSurfaceSlack(k))) continue;
            Vec2 p = start, v{{0, 0}};
            exitOverlappingObstacles(k, obstacles, p, v);
            const double moved = std::hypot(double{p[0]} - start[0], double{p[1]} - start[1]);
            const double reference = referenceExitDistance(k, obstacles, start);
            INFO("scene " << scene << ", from (" << start[0] << ", " << start[1] << ") to (" << p[0] << ", " << p[1]
                          << "), reference distance " << reference);
            CHECK_FALSE(insideAny(k, obstacles, p, obstacleSurfaceSlack(k)));
            // Sampling 20 000 points on a circle of at most 160 px misses the
            // true nearest by at most 0.05 px.
            CHECK(moved <= reference + 1e-3);
            CHECK(moved >= reference - 0.06);
            ++checked;
        }
    }
    CHECK(checked > 100);
}

TEST_CASE("in the thin lens of two obstacles that barely overlap a fish leaves by a corner, not to and fro") {
    const StepConstants k = worldOf(1000, 1000, BoundaryMode::Bounce);
    // Centres 200 apart, radii 110: the lens spans x 490..510, corners at
    // y = 500 +- sqrt(110^2 - 100^2) = 500 +- 45.83.
    const std::vector<Obstacle> obstacles = {{Vec2{{400, 500}}, 110}, {Vec2{{600, 500}}, 110}};
    Vec2 p{{500, 501}}, v{{0, -30}};
    exitOverlappingObstacles(k, obstacles, p, v);
    CHECK(p[0] == Approx(500).margin(1e-3));
    CHECK(p[1] == Approx(500 + std::sqrt(110.0 * 110 - 100 * 100)).margin(1e-3));
    // It was swimming back in (down, towards the lens): that part is gone.
    CHECK(v[1] >= 0.0f);
}

TEST_CASE("a fish outside every obstacle, or on a surface, is left where it is") {
    const StepConstants k = worldOf(1000, 1000, BoundaryMode::Bounce);
    const std::vector<Obstacle> obstacles = {{Vec2{{400, 500}}, 110}, {Vec2{{600, 500}}, 110}};
    for (const Vec2 start : {Vec2{{100, 100}}, Vec2{{290, 500}}, Vec2{{500, 700}}}) {
        Vec2 p = start, v{{5, 5}};
        exitOverlappingObstacles(k, obstacles, p, v);
        CHECK(p == start);
        CHECK(v == Vec2{{5, 5}});
    }
}

TEST_CASE("overlapping obstacles across a wrapping world's seam are left by the nearest way too") {
    const StepConstants k = worldOf(800, 600, BoundaryMode::Wrap);
    // One obstacle at the right edge, one at the left: they overlap across the seam.
    const std::vector<Obstacle> obstacles = {{Vec2{{780, 300}}, 60}, {Vec2{{40, 300}}, 60}};
    Vec2 p{{810.0f - 800.0f, 305}}, v{{0, 0}};  // in the lens, just right of the seam
    exitOverlappingObstacles(k, obstacles, p, v);
    Vec2 seen = p;
    seen[0] -= std::floor(seen[0] / k.width) * k.width;
    CHECK_FALSE(insideAny(k, obstacles, seen, obstacleSurfaceSlack(k)));
    // The lens's upper corner is at (10, 300 + sqrt(60^2 - 30^2)) = (10, 351.96).
    CHECK(std::fmod(p[0] + 800.0f, 800.0f) == Approx(10).margin(1e-3));
    CHECK(p[1] == Approx(300 + std::sqrt(60.0 * 60 - 30 * 30)).margin(1e-3));
}
