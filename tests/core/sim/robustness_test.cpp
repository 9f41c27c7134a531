// Hostile scenes: whatever finite values a user (or a slider, or an audio
// route) sets, no position or velocity ever becomes NaN or infinite. One NaN
// spreads to the whole school within frames and the screen goes blank.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <functional>
#include <string>
#include <thread>

#include "sched/scheduler.hpp"
#include "sched/thread_pool.hpp"
#include "sim/metrics.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

struct Hostile {
    std::string name;
    std::function<void(Params&)> params;
    bool onePoint = false;  // every fish at the same point with zero velocity
    int steps = 2000;
};

// Fish outside what the boundary mode allows (soft: one margin outside).
std::size_t outOfBounds(const Simulation& sim) {
    const StepConstants k = sim.stepConstants();
    const float lo = k.boundary == BoundaryMode::Soft ? -k.boundaryMargin : 0.0f;
    const float hiX = k.boundary == BoundaryMode::Soft ? k.width + k.boundaryMargin : k.width;
    const float hiY = k.boundary == BoundaryMode::Soft ? k.height + k.boundaryMargin : k.height;
    std::size_t out = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) {
        const float x = sim.fish().px[i], y = sim.fish().py[i];
        out += !(x >= lo && x <= hiX && y >= lo && y <= hiY);
        if (k.boundary == BoundaryMode::Wrap) out += !(x < k.width && y < k.height);
    }
    return out;
}

std::size_t nonFiniteNow(const Simulation& sim) {
    std::size_t bad = 0;
    const FishArrays& f = sim.fish();
    for (std::size_t i = 0; i < sim.fishCount(); ++i)
        for (float v : {f.px[i], f.py[i], f.vx[i], f.vy[i], f.ax[i], f.ay[i], f.hx[i], f.hy[i], f.alarm[i]})
            bad += !std::isfinite(v);
    for (const Predator& p : sim.scene().predators)
        for (float v : {p.position[0], p.position[1], p.velocity[0], p.velocity[1]}) bad += !std::isfinite(v);
    if (sim.scene().leader)
        for (float v : {sim.scene().leader->position[0], sim.scene().leader->position[1]}) bad += !std::isfinite(v);
    return bad;
}

void runHostile(const Hostile& h, BoundaryMode mode, int steps) {
    Params p;
    p.set(ParamId::BoundaryMode, static_cast<float>(mode));
    h.params(p);
    const std::uint32_t n = 40;
    const float w = 400, hgt = 300;
    SerialScheduler serial;
    Scene scene = sceneWith(p, n, w, hgt, 17);
    // Interaction objects in the middle of it all, with hostile strengths too.
    scene.fields.push_back(ForceField{0, Vec2{{200, 150}}, 100, 1.0f, FieldKind::Vortex});
    scene.predators.push_back(Predator{Vec2{{200, 150}}, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0});
    scene.obstacles.push_back(Obstacle{Vec2{{100, 100}}, 30});
    scene.leader = Leader{{Vec2{{200, 150}}}, Vec2{{200, 150}}, 0};
    Simulation sim(scene, serial);
    if (h.onePoint) {
        std::vector<FishInit> fish(n, FishInit{Vec2{{200, 150}}, Vec2{}});
        placeFish(sim, fish);
    }
    for (int s = 0; s < steps; ++s) {
        sim.step();
        if (s % 97 == 0 || s == steps - 1) {
            INFO(h.name << ", boundary mode " << static_cast<int>(mode) << ", step " << s);
            REQUIRE(nonFiniteNow(sim) == 0);
            REQUIRE(computeMetrics(sim).nonFinite == 0);
            REQUIRE(outOfBounds(sim) == 0);
        }
    }
}

}  // namespace

TEST_CASE("hostile scenes never produce a non-finite value, even over thousands of steps") {
    const std::vector<Hostile> cases = {
        {"every fish at one point, at rest", [](Params&) {}, true},
        {"every fish at one point, no noise or jitter to separate them",
         [](Params& p) {
             p.set(ParamId::Noise, 0), p.set(ParamId::Jitter, 0), p.set(ParamId::WanderWeight, 0);
         },
         true},
        {"boundary margin 0", [](Params& p) { p.set(ParamId::BoundaryMargin, 0); }},
        {"all radii 0",
         [](Params& p) {
             p.set(ParamId::PerceptionRadius, 0), p.set(ParamId::SeparationRadius, 0), p.set(ParamId::MinDistance, 0);
             p.set(ParamId::PredatorRadius, 0), p.set(ParamId::ObstacleMargin, 0);
         },
         true},
        // The finest noise lattice is refreshed every step: slow, so fewer steps.
        {"noise scale 0, noise everywhere", [](Params& p) { p.set(ParamId::NoiseScale, 0), p.set(ParamId::Noise, 1); },
         false, 300},
        {"maxSpeed 0", [](Params& p) { p.set(ParamId::MaxSpeed, 0); }},
        {"maxSpeed and maxForce 0", [](Params& p) { p.set(ParamId::MaxSpeed, 0), p.set(ParamId::MaxForce, 0); }},
        {"negative everything",
         [](Params& p) {
             for (ParamId id : {ParamId::MaxSpeed, ParamId::MaxForce, ParamId::PerceptionRadius, ParamId::MinSpeed,
                                ParamId::SeparationWeight, ParamId::CohesionWeight, ParamId::BoundaryMargin,
                                ParamId::ReactionLag, ParamId::Variation, ParamId::TurnRate, ParamId::NoiseTimeScale})
                 p.set(id, -5.0f);
         }},
        {"enormous weights",
         [](Params& p) {
             for (ParamId id : {ParamId::SeparationWeight, ParamId::AlignmentWeight, ParamId::CohesionWeight,
                                ParamId::BoundaryWeight, ParamId::WanderWeight, ParamId::PredatorRepulsion,
                                ParamId::ObstacleWeight, ParamId::GoalWeight})
                 p.set(id, 1e6f);
         },
         true},
        {"enormous forces and speeds",
         [](Params& p) {
             p.set(ParamId::MaxForce, 1e30f), p.set(ParamId::MaxSpeed, 1e30f), p.set(ParamId::PredatorSpeed, 1e30f);
             p.set(ParamId::PredatorForce, 1e30f), p.set(ParamId::LeaderSpeed, 1e30f), p.set(ParamId::Noise, 1e30f);
         }},
        {"enormous everything",
         [](Params& p) {
             for (const ParamDef& d : paramRegistry())
                 if (d.id != ParamId::BoundaryMode) p.set(d.id, 1e30f);
         },
         true},
        {"field of view 0", [](Params& p) { p.set(ParamId::FovHalfAngle, 0); }},
        {"minimum distance tiny, separation huge",
         [](Params& p) { p.set(ParamId::MinDistance, 1e-30f), p.set(ParamId::SeparationWeight, 1e6f); }, true},
        {"lag close to 1", [](Params& p) { p.set(ParamId::ReactionLag, 1.0f); }},
    };
    const BoundaryMode mode = GENERATE(BoundaryMode::Wrap, BoundaryMode::Bounce, BoundaryMode::Soft);
    for (const Hostile& h : cases) runHostile(h, mode, h.steps);
}

TEST_CASE("a tiny world with a huge school density stays finite") {
    Params p;
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Soft));
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 300, 1.0f, 1.0f, 3), serial);
    for (int s = 0; s < 1000; ++s) sim.step();
    CHECK(computeMetrics(sim).nonFinite == 0);
    CHECK(nonFiniteNow(sim) == 0);
}

TEST_CASE("an abandoned step ends within a small part of its time, and the steps after it do nothing") {
    // 20 000 fish that all see one another: every fish examines every other,
    // the whole school's worth of work per fish, a step that takes a good part
    // of a second. Closing the editor must not wait for it.
    Params p;
    p.set(ParamId::PerceptionRadius, 2000.0f);
    ThreadPool pool(2);
    Simulation sim(sceneWith(p, 20'000), pool);
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
    const auto t0 = Clock::now();
    sim.step();
    const double whole = seconds(Clock::now() - t0);
    REQUIRE(sim.lastMeanCandidates() > 19'000);

    std::thread closer([&] {
        std::this_thread::sleep_for(std::chrono::duration<double>(whole / 20));
        sim.abandon();
    });
    const auto t1 = Clock::now();
    sim.step();
    const double abandoned = seconds(Clock::now() - t1);
    closer.join();
    INFO("a whole step " << whole << " s, the abandoned one " << abandoned << " s");
    CHECK(abandoned < whole / 2);
    CHECK(sim.abandoned());
    CHECK(sim.stepIndex() == 1);  // the abandoned step never finished
    sim.step();
    CHECK(sim.stepIndex() == 1);
}
