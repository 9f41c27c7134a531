// Exports at 24 or 25 fps step the school in 1/72 s or 1/75 s; the school
// must behave the same in seconds as live at 60 steps a second.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "sched/scheduler.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

// The speed a lone fish at rest reaches in `seconds` pulled by a strong
// field (its pull clamped to maxForce), with steps of `stepSeconds`.
double speedAfterPull(float lag, double stepSeconds, double seconds) {
    SerialScheduler serial;
    Params p = quietParams();
    p.set(ParamId::ReactionLag, lag);
    Simulation sim(sceneWith(p, 1), serial);
    placeFish(sim, {{Vec2{{500, 500}}, Vec2{}}});
    sim.addForceField(ForceField{0, Vec2{{700, 500}}, 400.0f, 50.0f, FieldKind::Attract});
    sim.setStepSeconds(stepSeconds);
    const int steps = static_cast<int>(std::lround(seconds / stepSeconds));
    for (int s = 0; s < steps; ++s) sim.step();
    return std::hypot(sim.fish().vx[0], sim.fish().vy[0]);
}

// The mean squared speed that jitter alone gives 400 fish at rest, far
// apart, in `seconds`.
double jitteredSquaredSpeed(double stepSeconds, double seconds) {
    SerialScheduler serial;
    Params p = quietParams();
    p.set(ParamId::Jitter, 0.5f);
    p.set(ParamId::PerceptionRadius, 1.0f);
    p.set(ParamId::SeparationRadius, 0.0f);
    Simulation sim(sceneWith(p, 400), serial);
    std::vector<FishInit> fish;
    for (int i = 0; i < 400; ++i) fish.push_back({Vec2{{25.0f + 50.0f * (i % 20), 25.0f + 50.0f * (i / 20)}}, Vec2{}});
    placeFish(sim, fish);
    sim.setStepSeconds(stepSeconds);
    const int steps = static_cast<int>(std::lround(seconds / stepSeconds));
    for (int s = 0; s < steps; ++s) sim.step();
    double sum = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) sum += sim.fish().vx[i] * sim.fish().vx[i] + sim.fish().vy[i] * sim.fish().vy[i];
    return sum / static_cast<double>(sim.fishCount());
}

}  // namespace

TEST_CASE("a fish reacts as slowly in seconds at 72 or 120 steps a second as at 60") {
    // Reaction lag 0.9 keeps 90 % of the last acceleration per 1/60 s. Kept
    // per step instead, 120 steps a second halve the reaction time and the
    // fish is about 1.4 times as fast after 0.2 s.
    const double live = speedAfterPull(0.9f, 1.0 / 60, 0.2);
    const double unlagged = speedAfterPull(0.0f, 1.0 / 60, 0.2);
    CHECK(live < 0.8 * unlagged);  // the lag holds the fish back at all
    for (const double stepsPerSecond : {72.0, 75.0, 120.0}) {
        const double exported = speedAfterPull(0.9f, 1.0 / stepsPerSecond, 0.2);
        INFO(stepsPerSecond << " steps a second: " << exported << " px/s against " << live << " at 60");
        CHECK(exported == Approx(live).epsilon(0.08));
    }
}

TEST_CASE("jitter shakes the school as much in seconds at 72 or 120 steps a second as at 60") {
    // Independent kicks add in variance: kicked per step at a fixed
    // strength, twice the steps would give half the squared speed.
    const double live = jitteredSquaredSpeed(1.0 / 60, 0.5);
    CHECK(live > 0.0);
    for (const double stepsPerSecond : {72.0, 120.0}) {
        const double exported = jitteredSquaredSpeed(1.0 / stepsPerSecond, 0.5);
        INFO(stepsPerSecond << " steps a second: " << exported << " (px/s)^2 against " << live << " at 60");
        CHECK(exported == Approx(live).epsilon(0.2));
    }
}
