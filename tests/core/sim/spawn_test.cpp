// Where a school starts: spread over the world, outside the obstacles.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "io/state_hash.hpp"
#include "sched/scheduler.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

// The plain test: inside a circle, or in a wrapping world inside any of its
// copies one world away in each direction.
bool insideAny(const Scene& s, float x, float y) {
    const bool wrap = s.params.boundaryMode() == BoundaryMode::Wrap;
    for (const Obstacle& o : s.obstacles)
        for (int cx = -1; cx <= 1; ++cx)
            for (int cy = -1; cy <= 1; ++cy) {
                if (!wrap && (cx != 0 || cy != 0)) continue;
                const double dx = x - (o.centre[0] + cx * s.width);
                const double dy = y - (o.centre[1] + cy * s.height);
                if (dx * dx + dy * dy < double(o.radius) * o.radius) return true;
            }
    return false;
}

std::size_t fishInside(const Simulation& sim) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i)
        if (insideAny(sim.scene(), sim.fish().px[i], sim.fish().py[i])) ++n;
    return n;
}

// Rocks over a good part of the world, one across the wrapping seam's corner.
std::vector<Obstacle> rocks() {
    return {{Vec2{{300, 300}}, 150}, {Vec2{{650, 320}}, 120}, {Vec2{{500, 700}}, 200}, {Vec2{{990, 5}}, 90}};
}

Scene rockyScene(BoundaryMode mode, std::uint32_t fish) {
    Params p;
    p.set(ParamId::BoundaryMode, static_cast<float>(mode));
    Scene s = sceneWith(p, fish, 1000, 1000, 7);
    s.obstacles = rocks();
    return s;
}

}  // namespace

TEST_CASE("a school opened with obstacles starts with no fish inside them, wrapping or not") {
    for (BoundaryMode mode : {BoundaryMode::Wrap, BoundaryMode::Bounce, BoundaryMode::Soft}) {
        SerialScheduler serial;
        Simulation sim(rockyScene(mode, 3000), serial);
        INFO("boundary mode " << static_cast<int>(mode));
        CHECK(fishInside(sim) == 0);
        // The same after a reset with another seed.
        sim.reset(99);
        CHECK(fishInside(sim) == 0);
    }
}

TEST_CASE("fish added to a rocky scene start outside the rocks, where they would in a fresh run") {
    SerialScheduler serial;
    Simulation grown(rockyScene(BoundaryMode::Wrap, 500), serial);
    grown.setFishCount(2500);
    CHECK(fishInside(grown) == 0);
    Simulation fresh(rockyScene(BoundaryMode::Wrap, 2500), serial);
    for (std::uint32_t id = 0; id < 2500; id += 97) CHECK(positionOf(grown, id) == positionOf(fresh, id));
}

TEST_CASE("obstacles move only the fish that would have started inside them, and the school stays evenly spread") {
    SerialScheduler serial;
    Scene open = rockyScene(BoundaryMode::Bounce, 20000);
    open.obstacles.clear();
    const Simulation without(open, serial);
    const Simulation with(rockyScene(BoundaryMode::Bounce, 20000), serial);
    std::size_t moved = 0, wouldBeInside = 0;
    for (std::uint32_t id = 0; id < 20000; ++id) {
        const Vec2 p = positionOf(without, id);
        if (insideAny(with.scene(), p[0], p[1]))
            ++wouldBeInside;
        else
            CHECK(positionOf(with, id) == p);
        if (positionOf(with, id) != p) ++moved;
    }
    CHECK(moved == wouldBeInside);
    REQUIRE(wouldBeInside > 2000);
    // The free world's left and right halves hold fish in proportion to their
    // free area (measured on a 1 px lattice), within 3 standard deviations.
    double freeLeft = 0, freeRight = 0;
    for (int x = 0; x < 1000; ++x)
        for (int y = 0; y < 1000; ++y)
            if (!insideAny(with.scene(), x + 0.5f, y + 0.5f)) (x < 500 ? freeLeft : freeRight) += 1;
    std::size_t left = 0;
    for (std::size_t i = 0; i < with.fishCount(); ++i) left += with.fish().px[i] < 500 ? 1 : 0;
    const double share = freeLeft / (freeLeft + freeRight);
    const double expected = share * 20000;
    CHECK(std::abs(static_cast<double>(left) - expected) < 3 * std::sqrt(expected * (1 - share)));
}

TEST_CASE("a world an obstacle covers still opens, its school spread over it") {
    Params p;
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Bounce));
    Scene s = sceneWith(p, 5000, 400, 300, 3);
    s.obstacles = {{Vec2{{200, 150}}, 1000}};
    SerialScheduler serial;
    const Simulation sim(s, serial);
    CHECK(fishInside(sim) == 5000);
    std::set<std::pair<float, float>> places;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) places.insert({sim.fish().px[i], sim.fish().py[i]});
    CHECK(places.size() > 4990);
}

TEST_CASE("a school reset to another count is the school a fresh run of that count starts with, and swims as it does") {
    SerialScheduler serial;
    for (const std::uint32_t count : {200u, 2600u, 9000u}) {
        INFO(count << " fish");
        Simulation resized(rockyScene(BoundaryMode::Wrap, 2500), serial);
        resized.step();
        resized.reset(11, count);
        Scene fresh = rockyScene(BoundaryMode::Wrap, count);
        fresh.seed = 11;
        Simulation started(fresh, serial);
        CHECK(stateHash(resized) == stateHash(started));
        for (int s = 0; s < 10; ++s) resized.step(), started.step();
        CHECK(stateHash(resized) == stateHash(started));
    }
}
