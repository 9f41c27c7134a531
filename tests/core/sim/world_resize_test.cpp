// Resizing the world between steps (the editor's window): fish are brought
// inside, the grid follows, and the result is as deterministic as a step.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "io/state_hash.hpp"
#include "sched/scheduler.hpp"
#include "sched/thread_pool.hpp"
#include "sim/inspect.hpp"
#include "sim/metrics.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

const char* modeName(BoundaryMode mode) {
    return mode == BoundaryMode::Wrap ? "wrap" : mode == BoundaryMode::Bounce ? "bounce" : "soft";
}

Scene schoolWith(BoundaryMode mode, float width, float height) {
    Params p;
    p.set(ParamId::BoundaryMode, static_cast<float>(mode));
    Scene s = sceneWith(p, 400, width, height, 8);
    s.predators.push_back(Predator{Vec2{{width - 10, height - 10}}, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0});
    return s;
}

// Fish outside the world, by the mode's own standard: [0,W) when wrapping,
// [0,W] when bouncing, within one boundary margin of it when soft.
std::size_t fishOutside(const Simulation& sim) {
    const StepConstants k = sim.stepConstants();
    const float slack = k.boundary == BoundaryMode::Soft ? k.boundaryMargin : 0.0f;
    std::size_t out = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) {
        for (const auto& [x, size] : {std::pair{sim.fish().px[i], k.width}, std::pair{sim.fish().py[i], k.height}}) {
            const bool inside = k.boundary == BoundaryMode::Wrap ? x >= 0.0f && x < size : x >= -slack && x <= size + slack;
            out += !inside;
        }
    }
    return out;
}

std::size_t allPairsNeighbours(const Simulation& sim) {
    const StepConstants k = sim.stepConstants();
    std::size_t total = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i)
        total += inspectFishAt(sim.fish(), sim.fishCount(), i, k, sim.scene().predators).neighbours.size();
    return total;
}

}  // namespace

TEST_CASE("shrinking the world brings every fish inside, and the next 300 steps stay finite and inside", "[inspect]") {
    const BoundaryMode mode = GENERATE(BoundaryMode::Wrap, BoundaryMode::Bounce, BoundaryMode::Soft);
    INFO(modeName(mode));
    SerialScheduler serial;
    Simulation sim(schoolWith(mode, 1200, 900), serial);
    for (int s = 0; s < 30; ++s) sim.step();

    sim.setWorldSize(400, 300);
    CHECK(sim.scene().width == 400.0f);
    CHECK(sim.scene().height == 300.0f);
    // Right after the resize, inside the world itself (not just the soft margin).
    for (std::size_t i = 0; i < sim.fishCount(); ++i) {
        INFO("fish " << sim.fish().id[i]);
        REQUIRE(sim.fish().px[i] >= 0.0f);
        REQUIRE(sim.fish().px[i] <= 400.0f);
        REQUIRE(sim.fish().py[i] >= 0.0f);
        REQUIRE(sim.fish().py[i] <= 300.0f);
    }
    const Vec2 predator = sim.scene().predators[0].position;
    CHECK((predator[0] >= 0.0f && predator[0] <= 400.0f && predator[1] >= 0.0f && predator[1] <= 300.0f));

    std::size_t outside = 0;
    for (int s = 0; s < 300; ++s) {
        sim.step();
        outside += fishOutside(sim);
    }
    CHECK(outside == 0);
    CHECK(computeMetrics(sim).nonFinite == 0);
}

TEST_CASE("growing the world leaves every fish where it was", "[inspect]") {
    const BoundaryMode mode = GENERATE(BoundaryMode::Wrap, BoundaryMode::Bounce, BoundaryMode::Soft);
    INFO(modeName(mode));
    SerialScheduler serial;
    Simulation sim(schoolWith(mode, 800, 600), serial);
    for (int s = 0; s < 30; ++s) sim.step();
    const FishArrays before = sim.fish();

    sim.setWorldSize(1920, 1080);
    std::size_t moved = 0, wasInside = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) {
        // A soft-walled fish may be outside the old walls; it is clamped onto them.
        if (before.px[i] < 0.0f || before.px[i] > 800.0f || before.py[i] < 0.0f || before.py[i] > 600.0f) continue;
        ++wasInside;
        moved += sim.fish().px[i] != before.px[i] || sim.fish().py[i] != before.py[i];
    }
    CHECK(moved == 0);
    if (mode != BoundaryMode::Soft) CHECK(wasInside == sim.fishCount());
    CHECK(wasInside > sim.fishCount() * 9 / 10);
}

TEST_CASE("after a resize the step finds exactly the neighbours an all-pairs search finds", "[inspect]") {
    const BoundaryMode mode = GENERATE(BoundaryMode::Wrap, BoundaryMode::Bounce, BoundaryMode::Soft);
    struct Size {
        float w, h;
    };
    // Smaller, larger, and so narrow that the grid is a single row of cells.
    const Size size = GENERATE(Size{450, 330}, Size{1700, 1300}, Size{900, 60});
    INFO(modeName(mode) << ", resized to " << size.w << "x" << size.h);
    SerialScheduler serial;
    Simulation sim(schoolWith(mode, 1000, 700), serial);
    for (int s = 0; s < 20; ++s) sim.step();
    sim.setWorldSize(size.w, size.h);
    for (int s = 0; s < 3; ++s) {
        const std::size_t expected = allPairsNeighbours(sim);
        sim.step();
        CHECK(expected > 0);
        CHECK(sim.lastMeanNeighbours() * static_cast<double>(sim.fishCount()) ==
              Approx(static_cast<double>(expected)).epsilon(1e-12));
    }
}

TEST_CASE("two simulations resized at the same step end in the same state, whatever the thread count", "[inspect]") {
    const Scene scene = schoolWith(BoundaryMode::Soft, 1000, 700);
    auto run = [&](Scheduler& scheduler, bool resize) {
        Simulation sim(scene, scheduler);
        for (int s = 0; s < 40; ++s) sim.step();
        if (resize) sim.setWorldSize(600, 450);
        for (int s = 0; s < 40; ++s) sim.step();
        if (resize) sim.setWorldSize(1500, 900);
        for (int s = 0; s < 40; ++s) sim.step();
        return stateHash(sim);
    };
    SerialScheduler serial;
    ThreadPool pool(4);
    const std::uint64_t resized = run(serial, true);
    CHECK(run(pool, true) == resized);
    CHECK(run(serial, true) == resized);
    CHECK(run(serial, false) != resized);  // the resize did change the run
}

TEST_CASE("absurd world sizes are clamped to something the simulation can lay out", "[inspect]") {
    SerialScheduler serial;
    Simulation sim(schoolWith(BoundaryMode::Wrap, 800, 600), serial);
    sim.setWorldSize(0.0f, -5.0f);
    CHECK(sim.scene().width == 1.0f);
    CHECK(sim.scene().height == 1.0f);
    sim.setWorldSize(std::nanf(""), std::numeric_limits<float>::infinity());
    CHECK(sim.scene().width == 1.0f);
    CHECK(sim.scene().height == 1.0f);
    for (int s = 0; s < 10; ++s) sim.step();
    CHECK(fishOutside(sim) == 0);
    CHECK(computeMetrics(sim).nonFinite == 0);
}

TEST_CASE("a leader and a path predator whose path lies partly outside a walled world shrunk under them go round the "
          "part inside, not stuck at the wall", "[inspect]") {
    for (const BoundaryMode mode : {BoundaryMode::Bounce, BoundaryMode::Soft}) {
        INFO(modeName(mode));
        Scene s = schoolWith(mode, 1280, 720);
        const std::vector<Vec2> loop{Vec2{{100, 100}}, Vec2{{1040, 100}}, Vec2{{1040, 600}}, Vec2{{100, 600}}};
        s.leader = Leader{loop, loop.front(), 0};
        s.predators = {Predator{loop.front(), Vec2{}, PredatorBehaviour::FollowPath, loop, 0}};
        SerialScheduler serial;
        Simulation sim(s, serial);
        sim.setWorldSize(900, 720);  // the two right-hand waypoints now lie beyond the wall
        std::vector<std::uint32_t> leaderVisits, predatorVisits;
        for (int step = 0; step < 60 * 40; ++step) {
            sim.step();
            const std::uint32_t l = sim.scene().leader->nextWaypoint, p = sim.scene().predators.front().nextWaypoint;
            if (leaderVisits.empty() || leaderVisits.back() != l) leaderVisits.push_back(l);
            if (predatorVisits.empty() || predatorVisits.back() != p) predatorVisits.push_back(p);
        }
        // Round the loop at least once: every waypoint aimed at in turn, back to the first.
        CHECK(leaderVisits.size() >= 5);
        CHECK(predatorVisits.size() >= 5);
        CHECK(sim.scene().leader->position[0] <= 900.0f);
    }
}

TEST_CASE("a world shrunk and grown back resets its predators where they were put, inside the world while it is small",
          "[inspect]") {
    const BoundaryMode mode = GENERATE(BoundaryMode::Wrap, BoundaryMode::Bounce, BoundaryMode::Soft);
    INFO(modeName(mode));
    SerialScheduler serial;
    Simulation sim(schoolWith(mode, 1200, 900), serial);
    const Vec2 put = sim.predatorsAsSet().at(0).position;
    sim.setWorldSize(400, 300);
    sim.reset(1);
    const Vec2 small = sim.scene().predators.at(0).position;
    CHECK((small[0] >= 0.0f && small[0] <= 400.0f && small[1] >= 0.0f && small[1] <= 300.0f));
    CHECK(sim.predatorsAsSet().at(0).position == put);
    sim.setWorldSize(1200, 900);
    sim.reset(1);
    CHECK(sim.scene().predators.at(0).position == put);
    // Predators and a leader set (a preset loaded into a window smaller than
    // its world) come inside at once: paused, one outside could not be seen
    // or grabbed, and the fish steered at the leader out there for a step.
    sim.setWorldSize(400, 300);
    sim.setPredators(Simulation(schoolWith(mode, 1200, 900), serial).predatorsAsSet());
    const Vec2 set = sim.scene().predators.at(0).position;
    CHECK((set[0] >= 0.0f && set[0] <= 400.0f && set[1] >= 0.0f && set[1] <= 300.0f));
    CHECK(sim.predatorsAsSet().at(0).position == put);
    sim.setLeader(Leader{{Vec2{{1000, 250}}, Vec2{{100, 250}}}, Vec2{{1000, 250}}, 0});
    const Vec2 leader = sim.scene().leader->position;
    CHECK((leader[0] >= 0.0f && leader[0] <= 400.0f && leader[1] >= 0.0f && leader[1] <= 300.0f));
    sim.reset(2);
    CHECK(sim.scene().leader->position == leader);
    CHECK(sim.scene().leader->path.front() == Vec2{{1000, 250}});
}
