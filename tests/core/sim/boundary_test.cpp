// Boundary modes keep every fish in the world over long runs: wrap and
// bounce exactly inside [0, W] x [0, H]; soft within one boundary margin
// outside the walls (its backstop), whatever the weights.
#include <catch2/catch.hpp>

#include <cmath>

#include "sched/scheduler.hpp"
#include "sim/metrics.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

struct Extent {
    float minX = 1e30f, maxX = -1e30f, minY = 1e30f, maxY = -1e30f;
};

// Runs `steps` steps and returns how far the fish ever went.
Extent runAndTrack(Simulation& sim, int steps) {
    Extent e;
    for (int s = 0; s < steps; ++s) {
        sim.step();
        const FishArrays& f = sim.fish();
        for (std::size_t i = 0; i < sim.fishCount(); ++i) {
            e.minX = std::fmin(e.minX, f.px[i]);
            e.maxX = std::fmax(e.maxX, f.px[i]);
            e.minY = std::fmin(e.minY, f.py[i]);
            e.maxY = std::fmax(e.maxY, f.py[i]);
        }
    }
    return e;
}

Params boundaryParams(BoundaryMode mode, bool fast) {
    Params p;
    p.set(ParamId::BoundaryMode, static_cast<float>(mode));
    p.set(ParamId::BoundaryMargin, 60.0f);
    if (fast) {
        // Fast fish that barely turn and a weak wall: the wall alone cannot
        // hold them, only the mode's guarantee can.
        p.set(ParamId::MaxSpeed, 5000.0f);
        p.set(ParamId::MaxForce, 50.0f);
        p.set(ParamId::BoundaryWeight, 0.01f);
        p.set(ParamId::MinSpeed, 1.0f);
    }
    return p;
}

}  // namespace

TEST_CASE("wrap and bounce keep every fish exactly inside the world over 10 000 steps") {
    const BoundaryMode mode = GENERATE(BoundaryMode::Wrap, BoundaryMode::Bounce);
    const bool fast = GENERATE(false, true);
    INFO((mode == BoundaryMode::Wrap ? "wrap" : "bounce") << (fast ? ", fast fish" : ", default fish"));
    const float w = 500, h = 320;
    SerialScheduler serial;
    Simulation sim(sceneWith(boundaryParams(mode, fast), 60, w, h, 4), serial);
    const Extent e = runAndTrack(sim, 10000);
    CHECK(e.minX >= 0.0f);
    CHECK(e.minY >= 0.0f);
    if (mode == BoundaryMode::Wrap) {
        // The torus is [0, W): W itself is the same place as 0.
        CHECK(e.maxX < w);
        CHECK(e.maxY < h);
    } else {
        CHECK(e.maxX <= w);
        CHECK(e.maxY <= h);
    }
    // The fish did roam the world (not a trivially still school).
    CHECK(e.maxX - e.minX > w / 2);
    CHECK(computeMetrics(sim).nonFinite == 0);
}

TEST_CASE("a world scaled to a smaller one, as a morph does, keeps every fish's place relative to it, none on a wall") {
    // Resized the plain way, 209 of 400 fish lay on the new walls.
    const BoundaryMode mode = GENERATE(BoundaryMode::Soft, BoundaryMode::Wrap, BoundaryMode::Bounce);
    INFO("boundary mode " << static_cast<int>(mode));
    SerialScheduler serial;
    Simulation sim(sceneWith(boundaryParams(mode, false), 400, 1280, 720, 4), serial);
    for (int s = 0; s < 60; ++s) sim.step();
    const FishArrays& f = sim.fish();
    const std::vector<float> x(f.px.begin(), f.px.begin() + static_cast<std::ptrdiff_t>(sim.fishCount()));
    const std::vector<float> y(f.py.begin(), f.py.begin() + static_cast<std::ptrdiff_t>(sim.fishCount()));
    sim.scaleWorldTo(1120, 630);
    int onWall = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) {
        if (x[i] < 0 || x[i] > 1280 || y[i] < 0 || y[i] > 720) continue;  // a soft wall's margin, outside
        CHECK(f.px[i] == Approx(x[i] * 1120 / 1280).margin(1e-3));
        CHECK(f.py[i] == Approx(y[i] * 630 / 720).margin(1e-3));
        onWall += f.px[i] == 1120.0f || f.py[i] == 630.0f;
    }
    CHECK(onWall == 0);
    CHECK(sim.scene().width == 1120.0f);
    for (int s = 0; s < 60; ++s) sim.step();
    CHECK(computeMetrics(sim).nonFinite == 0);
}

TEST_CASE("the soft boundary keeps every fish within one margin outside the walls over 10 000 steps") {
    // Stated tolerance: the margin. With sensible weights the fish turn well
    // before the wall; with a uselessly weak wall the backstop one margin out
    // still holds them.
    const bool fast = GENERATE(false, true);
    INFO((fast ? "fast fish, weak wall" : "default fish"));
    const float w = 500, h = 320, margin = 60;
    SerialScheduler serial;
    Simulation sim(sceneWith(boundaryParams(BoundaryMode::Soft, fast), 60, w, h, 4), serial);
    const Extent e = runAndTrack(sim, 10000);
    CHECK(e.minX >= -margin);
    CHECK(e.minY >= -margin);
    CHECK(e.maxX <= w + margin);
    CHECK(e.maxY <= h + margin);
    CHECK(e.maxX - e.minX > w / 2);
}

TEST_CASE("a fish swimming straight at a soft wall turns back before it crosses the wall") {
    // The push of the wall is exactly opposite to the velocity and the
    // minSpeed floor forbids braking, so the fish must turn instead
    // (rules::applyAcceleration); before that rule it ran on to the backstop.
    Params p;
    p.set(ParamId::Noise, 0), p.set(ParamId::Jitter, 0), p.set(ParamId::WanderWeight, 0);
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 1, 1920, 1080), serial);
    placeFish(sim, {{Vec2{{960, 540}}, Vec2{{160, 0}}}});
    float maxX = 0;
    for (int s = 0; s < 600; ++s) sim.step(), maxX = std::fmax(maxX, positionOf(sim, 0)[0]);
    INFO("furthest x " << maxX << " (wall at 1920, backstop at 2040)");
    CHECK(maxX < 1920.0f);
}

TEST_CASE("with soft walls a predator follows a fish into the margin beyond the wall, and no further than its edge") {
    // It stopped at the wall line and slid along it, the fish it chased
    // swimming a few tens of px beyond.
    Params p;
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 1, 1920, 1080), serial);
    const float margin = sim.params().get(ParamId::BoundaryMargin);
    REQUIRE(margin > 40.0f);
    placeFish(sim, {{Vec2{{960, 1080 + margin - 20}}, Vec2{{160, 0}}}});
    sim.setPredators({Predator{Vec2{{960, 1040}}, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0}});
    float deepest = 0;
    for (int s = 0; s < 120; ++s) {
        sim.step();
        deepest = std::max(deepest, sim.scene().predators.front().position[1]);
    }
    INFO("deepest predator y " << deepest << " (wall at 1080, margin's edge at " << 1080 + margin << ")");
    CHECK(deepest > 1080.0f + 10.0f);
    CHECK(deepest <= 1080.0f + margin);
}

TEST_CASE("wrapping fish see their neighbours across the seam") {
    // Two fish 4 px apart across the left/right seam, moving up: in a wrapping
    // world they are neighbours (cohesion pulls them together across the
    // seam); with walls they are 492 px apart and ignore each other.
    Params p = quietParams();
    p.set(ParamId::SeparationWeight, 0), p.set(ParamId::AlignmentWeight, 0), p.set(ParamId::CohesionWeight, 1);
    for (BoundaryMode mode : {BoundaryMode::Wrap, BoundaryMode::Bounce}) {
        p.set(ParamId::BoundaryMode, static_cast<float>(mode));
        SerialScheduler serial;
        Simulation sim(sceneWith(p, 2, 496, 300), serial);
        placeFish(sim, {{Vec2{{2, 150}}, Vec2{{0, -50}}}, {Vec2{{494, 150}}, Vec2{{0, -50}}}});
        sim.step();
        const Vec2 a0 = accelerationOf(sim, 0);
        if (mode == BoundaryMode::Wrap) {
            CHECK(a0[0] < 0.0f);  // pulled left, across the seam
        } else {
            CHECK(a0 == Vec2{});
        }
    }
}
