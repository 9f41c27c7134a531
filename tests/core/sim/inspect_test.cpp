// The inspector (the editor's debug overlay): neighbours and rule vectors of
// chosen fish, as the next step will see them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "sched/scheduler.hpp"
#include "sim/inspect.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

std::vector<Vec2> sortedPoints(std::vector<Vec2> points) {
    std::sort(points.begin(), points.end(), [](Vec2 a, Vec2 b) { return a.c < b.c; });
    return points;
}

}  // namespace

TEST_CASE("the inspector lists exactly the neighbours inside the perception radius and the field of view", "[inspect]") {
    Params p = quietParams();
    p.set(ParamId::PerceptionRadius, 100.0f);
    p.set(ParamId::FovHalfAngle, 60.0f);
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 6), serial);
    // Fish 0 swims along +x; the others sit around it.
    placeFish(sim, {{Vec2{{500, 500}}, Vec2{{50, 0}}},
                    {Vec2{{560, 500}}, Vec2{{0, 10}}},    // ahead, 60 px: seen
                    {Vec2{{530, 540}}, Vec2{{0, 10}}},    // 53 degrees off the heading, 50 px: seen
                    {Vec2{{440, 500}}, Vec2{{0, 10}}},    // behind, 60 px: outside the cone
                    {Vec2{{500, 560}}, Vec2{{0, 10}}},    // 90 degrees off, 60 px: outside the cone
                    {Vec2{{650, 500}}, Vec2{{0, 10}}}});  // ahead, 150 px: beyond the radius

    const auto fish = inspectFish(sim, 0);
    REQUIRE(fish);
    CHECK(sortedPoints(fish->neighbours) == sortedPoints({Vec2{{560, 500}}, Vec2{{530, 540}}}));
    CHECK(fish->perceptionRadius == 100.0f);
    CHECK(fish->fovHalfAngleRadians == Approx(std::numbers::pi / 3));
    CHECK(fish->speed == 50.0f);
    CHECK(fish->position == Vec2{{500, 500}});

    // With vision all around, the fish behind and beside are seen too.
    sim.setParam(ParamId::FovHalfAngle, 180.0f);
    CHECK(inspectFish(sim, 0)->neighbours.size() == 4);
    CHECK(inspectFish(sim, 0)->fovHalfAngleRadians == Approx(std::numbers::pi));
}

TEST_CASE("across a wrapping seam a neighbour is listed where the fish sees it, beyond the edge", "[inspect]") {
    Params p = quietParams();
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    p.set(ParamId::PerceptionRadius, 100.0f);
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 2, 1000, 800), serial);
    placeFish(sim, {{Vec2{{980, 400}}, Vec2{{50, 0}}}, {Vec2{{20, 410}}, Vec2{{50, 0}}}});
    CHECK(inspectFish(sim, 0)->neighbours == std::vector<Vec2>{Vec2{{1020, 410}}});
    CHECK(inspectFish(sim, 1)->neighbours == std::vector<Vec2>{Vec2{{-20, 400}}});
}

TEST_CASE("the separation, alignment and cohesion vectors equal hand-computed values", "[inspect]") {
    Params p = quietParams();
    p.set(ParamId::PerceptionRadius, 100.0f);
    p.set(ParamId::SeparationRadius, 30.0f);
    p.set(ParamId::SeparationWeight, 1.5f);
    p.set(ParamId::AlignmentWeight, 1.0f);
    p.set(ParamId::CohesionWeight, 0.8f);
    p.set(ParamId::MaxSpeed, 100.0f);
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 3), serial);
    placeFish(sim, {{Vec2{{500, 500}}, Vec2{{40, 0}}},
                    {Vec2{{520, 500}}, Vec2{{0, 60}}},    // 20 px: inside the separation radius
                    {Vec2{{500, 550}}, Vec2{{30, 30}}}});  // 50 px: perceived, no separation

    const auto fish = inspectFish(sim, 0);
    REQUIRE(fish);
    // Each rule steers towards a direction u at full speed: (u * maxSpeed - v)
    // * weight * 60/s.
    // Separation: only fish 1 is that close; it pushes along -x.
    CHECK(fish->separation[0] == Approx((-100.0 - 40.0) * 1.5 * 60.0));
    CHECK(fish->separation[1] == Approx(0.0).margin(1e-3));
    // Alignment: the mean neighbour velocity is (15, 45).
    const double ali = std::hypot(15.0, 45.0);
    CHECK(fish->alignment[0] == Approx((15.0 / ali * 100.0 - 40.0) * 1.0 * 60.0));
    CHECK(fish->alignment[1] == Approx((45.0 / ali * 100.0) * 1.0 * 60.0));
    // Cohesion: the centroid of the neighbours is (10, 25) away.
    const double coh = std::hypot(10.0, 25.0);
    CHECK(fish->cohesion[0] == Approx((10.0 / coh * 100.0 - 40.0) * 0.8 * 60.0));
    CHECK(fish->cohesion[1] == Approx((25.0 / coh * 100.0) * 0.8 * 60.0));
    CHECK_FALSE(fish->alarmed);
    CHECK(fish->separationRadius == Approx(30.0f));

    // Seen with the parameters an audio route gave the step (separation
    // doubled, a faster top speed), not the simulation's own.
    Params driven = p;
    driven.set(ParamId::SeparationWeight, 3.0f);
    driven.set(ParamId::MaxSpeed, 150.0f);
    const auto heard = inspectFish(sim, 0, driven);
    REQUIRE(heard);
    CHECK(heard->separation[0] == Approx((-150.0 - 40.0) * 3.0 * 60.0));
    CHECK(inspectFirstFish(sim, 1, driven).front().separation[0] == heard->separation[0]);
}

TEST_CASE("the three rule vectors add up to the acceleration the next step applies", "[inspect]") {
    // Quiet parameters and far walls: nothing but the rules acts, and neither
    // maxForce nor maxSpeed is reached.
    Params p = quietParams();
    p.set(ParamId::PerceptionRadius, 80.0f);
    p.set(ParamId::SeparationRadius, 30.0f);
    p.set(ParamId::MaxSpeed, 200.0f);
    p.set(ParamId::MaxForce, 100000.0f);
    for (ParamId w : {ParamId::SeparationWeight, ParamId::AlignmentWeight, ParamId::CohesionWeight}) p.set(w, 0.05f);
    const std::uint32_t n = 30;
    SerialScheduler serial;
    Simulation sim(sceneWith(p, n), serial);
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> pos(420.0f, 580.0f), vel(-40.0f, 40.0f);
    std::vector<FishInit> fish;
    for (std::uint32_t i = 0; i < n; ++i) fish.push_back({Vec2{{pos(rng), pos(rng)}}, Vec2{{vel(rng), vel(rng)}}});
    placeFish(sim, fish);
    // A few steps first, so that the arrays are no longer in id order.
    for (int s = 0; s < 3; ++s) sim.step();

    const std::vector<FishInspection> before = inspectFirstFish(sim, n);
    REQUIRE(before.size() == n);
    sim.step();
    int steered = 0;
    for (const FishInspection& f : before) {
        INFO("fish " << f.id);
        const Vec2 sum = f.separation + f.alignment + f.cohesion;
        const Vec2 dv = (velocityOf(sim, f.id) - f.velocity) * static_cast<float>(1.0 / Simulation::kStepSeconds);
        CHECK(dv[0] == Approx(sum[0]).margin(0.05));
        CHECK(dv[1] == Approx(sum[1]).margin(0.05));
        steered += !f.neighbours.empty() && lengthSquared(sum) > 1.0f;
    }
    CHECK(steered > static_cast<int>(n) / 2);  // not a trivially still scene
}

TEST_CASE("fishNearest picks the nearest fish and none beyond maxDistance", "[inspect]") {
    SerialScheduler serial;
    Simulation sim(sceneWith(quietParams(), 3), serial);
    placeFish(sim, {{Vec2{{100, 100}}, Vec2{{10, 0}}}, {Vec2{{130, 100}}, Vec2{{10, 0}}}, {Vec2{{500, 500}}, Vec2{{10, 0}}}});
    CHECK(fishNearest(sim, Vec2{{124, 100}}, 50.0f) == 1u);
    CHECK(fishNearest(sim, Vec2{{106, 100}}, 50.0f) == 0u);
    CHECK(fishNearest(sim, Vec2{{480, 480}}, 1000.0f) == 2u);
    CHECK(fishNearest(sim, Vec2{{124, 100}}, 6.0f) == 1u);  // exactly at maxDistance still counts
    CHECK_FALSE(fishNearest(sim, Vec2{{124, 100}}, 5.9f));
    CHECK_FALSE(fishNearest(sim, Vec2{{300, 300}}, 100.0f));
    CHECK(fishNearest(sim, Vec2{{115, 100}}, 50.0f) == 0u);  // a tie goes to the lower id
}

TEST_CASE("in a wrapping world fishNearest finds a fish across the seam, where it is drawn again", "[inspect]") {
    SerialScheduler serial;
    Params p = quietParams();
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    Simulation sim(sceneWith(p, 2, 1000, 1000), serial);
    placeFish(sim, {{Vec2{{997, 500}}, Vec2{{10, 0}}}, {Vec2{{40, 500}}, Vec2{{10, 0}}}});
    CHECK(fishNearest(sim, Vec2{{2, 500}}, 40.0f) == 0u);  // 5 px away across the seam, the other 38 px
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Bounce));
    sim.setParams(p);
    CHECK(fishNearest(sim, Vec2{{2, 500}}, 40.0f) == 1u);
}

TEST_CASE("a click in the empty water around a wrapping world finds no fish at the world's other edge", "[inspect]") {
    SerialScheduler serial;
    Params p = quietParams();
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    Simulation sim(sceneWith(p, 2, 1000, 1000), serial);
    placeFish(sim, {{Vec2{{500, 985}}, Vec2{{10, 0}}}, {Vec2{{500, 10}}, Vec2{{10, 0}}}});
    // Nothing is drawn across a seam outside the world: below it, the fish at the bottom is the near one.
    CHECK(fishNearest(sim, Vec2{{500, 1015}}, 40.0f) == 0u);  // 30 px straight up; the top fish 5 px round the seam
    CHECK_FALSE(fishNearest(sim, Vec2{{500, 1035}}, 40.0f));  // 50 px from the bottom fish; the top one 25 px round
    // Inside the world, the short way round still counts.
    CHECK(fishNearest(sim, Vec2{{500, 999}}, 40.0f) == 1u);  // 11 px round the seam, the bottom fish 14 px
}

TEST_CASE("an unknown fish id gives no inspection, and the first-fish overlay skips ids beyond the school", "[inspect]") {
    SerialScheduler serial;
    Simulation sim(sceneWith(Params{}, 5), serial);
    for (int s = 0; s < 5; ++s) sim.step();
    CHECK_FALSE(inspectFish(sim, 5));
    CHECK_FALSE(inspectFish(sim, 1000000));
    REQUIRE(inspectFish(sim, 4));
    CHECK(inspectFish(sim, 4)->position == positionOf(sim, 4));

    const std::vector<FishInspection> first = inspectFirstFish(sim, 20);
    REQUIRE(first.size() == 5);
    for (std::uint32_t id = 0; id < 5; ++id) {
        CHECK(first[id].id == id);
        CHECK(first[id].velocity == velocityOf(sim, id));
    }
    CHECK(inspectFirstFish(sim, 2).size() == 2);
}

TEST_CASE("a fish within a predator's reach is shown alarmed", "[inspect]") {
    SerialScheduler serial;
    Simulation sim(sceneWith(quietParams(), 2), serial);
    placeFish(sim, {{Vec2{{100, 100}}, Vec2{{10, 0}}}, {Vec2{{900, 900}}, Vec2{{10, 0}}}});
    sim.setPredators({Predator{Vec2{{150, 100}}, Vec2{}, PredatorBehaviour::FollowPath, {}, 0}});
    CHECK(inspectFish(sim, 0)->alarmed);
    CHECK_FALSE(inspectFish(sim, 1)->alarmed);
    // After a step the alarm lasts alarmDuration.
    sim.step();
    CHECK(inspectFish(sim, 0)->alarmSeconds == Approx(sim.params().get(ParamId::AlarmDuration)));
}
