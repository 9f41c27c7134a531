// The fixed-step accumulator: the school behaves the same on a 60 Hz and on
// a 144 Hz display, and a slow frame never makes a bigger step.
#include <catch2/catch.hpp>

#include <random>

#include "io/preset.hpp"
#include "io/state_hash.hpp"
#include "sched/scheduler.hpp"
#include "sim/fixed_stepper.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

// Drives a simulation by frames of the given rate for `seconds` of wall time.
std::uint64_t hashAfterFrames(double hz, int frames, std::uint64_t* stepsOut = nullptr) {
    SerialScheduler serial;
    Scene scene = loadPreset(shippedPreset("gentle-cruise")).scene;
    scene.fishCount = 150;
    Simulation sim(scene, serial);
    FixedStepper stepper;
    for (int f = 0; f < frames; ++f) {
        const FixedStepper::Advance a = stepper.advance(1.0 / hz);
        REQUIRE(a.droppedSeconds == 0.0);
        for (int s = 0; s < a.steps; ++s) sim.step();
    }
    if (stepsOut) *stepsOut = sim.stepIndex();
    return stateHash(sim);
}

}  // namespace

TEST_CASE("frames at 60 Hz and at 144 Hz give the same state after the same simulated time") {
    std::uint64_t steps60 = 0, steps144 = 0, steps30 = 0;
    const std::uint64_t at60 = hashAfterFrames(60, 300, &steps60);     // 5 s
    const std::uint64_t at144 = hashAfterFrames(144, 720, &steps144);  // 5 s
    const std::uint64_t at30 = hashAfterFrames(30, 150, &steps30);     // 5 s, two steps a frame
    CHECK(steps60 == 300);
    CHECK(steps144 == 300);
    CHECK(steps30 == 300);
    CHECK(at144 == at60);
    CHECK(at30 == at60);
}

TEST_CASE("the accumulator never loses or gains a step over long runs at odd frame rates") {
    for (double hz : {144.0, 120.0, 75.0, 59.94, 165.0, 240.0}) {
        FixedStepper stepper;
        long long steps = 0;
        const int frames = static_cast<int>(hz * 600);  // ten minutes
        for (int f = 0; f < frames; ++f) steps += stepper.advance(1.0 / hz).steps;
        INFO(hz << " Hz");
        // 600 s of frames: 36 000 steps, give or take the fraction left in the accumulator.
        const double expected = frames / hz * 60.0;
        CHECK(std::fabs(static_cast<double>(steps) - expected) <= 1.0);
        CHECK(stepper.alpha() >= 0.0);
        CHECK(stepper.alpha() < 1.0);
    }
}

TEST_CASE("a slow frame runs at most 3 steps and reports the time it dropped") {
    FixedStepper stepper;
    const FixedStepper::Advance a = stepper.advance(0.1);  // 6 steps due
    CHECK(a.steps == 3);
    CHECK(a.droppedSeconds == Approx(0.05));
    // Nothing of the dropped time is carried into the next frame.
    const FixedStepper::Advance b = stepper.advance(1.0 / 60.0);
    CHECK(b.steps == 1);
    CHECK(b.droppedSeconds == 0.0);
    // A frame of a whole second after a stall: still 3 steps.
    CHECK(stepper.advance(1.0).steps == 3);
}

TEST_CASE("steps handed out and not run come due with the next frame") {
    FixedStepper stepper;
    CHECK(stepper.advance(3.0 / 60.0).steps == 3);
    stepper.giveBack(2);  // an edit came after the first
    CHECK(stepper.advance(1.0 / 60.0).steps == 3);
    CHECK(stepper.advance(1.0 / 60.0).steps == 1);
}

TEST_CASE("frames shorter than a step accumulate, and nonsense frame times are ignored") {
    FixedStepper stepper;
    CHECK(stepper.advance(0.005).steps == 0);
    CHECK(stepper.alpha() == Approx(0.3));
    CHECK(stepper.advance(0.005).steps == 0);
    CHECK(stepper.advance(0.007).steps == 1);
    for (double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
        const FixedStepper::Advance a = stepper.advance(bad);
        CHECK(a.steps == 0);
        CHECK(a.droppedSeconds == 0.0);
    }
    CHECK(std::isfinite(stepper.alpha()));
}

TEST_CASE("irregular frame times give the same state as regular ones when the total time matches") {
    // A display that stutters between 4 and 30 ms per frame, never more than
    // 3 steps a frame: every due step runs, so the state after the same total
    // time is the same as with regular frames.
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> frame(0.004, 0.030);
    SerialScheduler serial;
    Scene scene = loadPreset(shippedPreset("gentle-cruise")).scene;
    scene.fishCount = 100;
    Simulation irregular(scene, serial), regular(scene, serial);
    FixedStepper stepper;
    double total = 0;
    while (irregular.stepIndex() < 200) {
        const double dt = frame(rng);
        total += dt;
        const auto a = stepper.advance(dt);
        REQUIRE(a.droppedSeconds == 0.0);
        for (int s = 0; s < a.steps; ++s) irregular.step();
    }
    CHECK(std::fabs(total * 60.0 - static_cast<double>(irregular.stepIndex())) < 1.0);
    while (regular.stepIndex() < irregular.stepIndex()) regular.step();
    CHECK(stateHash(regular) == stateHash(irregular));
}
