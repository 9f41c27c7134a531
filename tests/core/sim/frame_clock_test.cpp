// Export time: every video frame is exactly 1/fps of simulated time, made of
// equal steps no longer than the simulation's own 1/60 s.
#include <catch2/catch.hpp>

#include "io/preset.hpp"
#include "sched/scheduler.hpp"
#include "sim/frame_clock.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

TEST_CASE("each exported frame is exactly 1/fps of simulated time, whatever the rate") {
    for (const double fps : {24.0, 25.0, 30.0, 60.0, 12.0, 90.0}) {
        const FrameClock c = FrameClock::forFps(fps);
        INFO(fps << " fps: " << c.stepsPerFrame << " steps of " << c.stepSeconds << " s");
        CHECK(c.stepSeconds <= Simulation::kStepSeconds + 1e-12);
        CHECK(c.stepsPerFrame * c.stepSeconds == Approx(1.0 / fps).epsilon(1e-12));
    }
    CHECK(FrameClock::forFps(24).stepsPerFrame == 3);
    CHECK(FrameClock::forFps(25).stepsPerFrame == 3);
    CHECK(FrameClock::forFps(30).stepsPerFrame == 2);
    CHECK(FrameClock::forFps(60).stepsPerFrame == 1);
}

TEST_CASE("a simulation stepped by the frame clock is at frame / fps, and has moved that far") {
    SerialScheduler serial;
    // The leader travels its path at a constant speed: a clock anyone can read.
    Scene scene = loadPreset(shippedPreset("follow-the-leader")).scene;
    scene.fishCount = 50;
    REQUIRE(scene.leader);
    Simulation at24(scene, serial), at60(scene, serial);
    const FrameClock c = FrameClock::forFps(24);
    at24.setStepSeconds(c.stepSeconds);
    for (int frame = 0; frame < 48; ++frame)
        for (int s = 0; s < c.stepsPerFrame; ++s) at24.step();
    for (int s = 0; s < 120; ++s) at60.step();
    CHECK(at24.time() == Approx(2.0).epsilon(1e-9));
    CHECK(at60.time() == Approx(2.0).epsilon(1e-9));
    const Vec2 a = at24.scene().leader->position, b = at60.scene().leader->position;
    INFO("leader after 2 s: (" << a[0] << ", " << a[1] << ") at 24 fps, (" << b[0] << ", " << b[1] << ") at 60 steps/s");
    CHECK(std::hypot(a[0] - b[0], a[1] - b[1]) < 1.0);
    CHECK(std::hypot(a[0] - scene.leader->path[0][0], a[1] - scene.leader->path[0][1]) > 200.0);
}
