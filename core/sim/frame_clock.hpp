#pragma once
// How offscreen export advances the simulation: each video frame is exactly
// 1/fps of simulated time, made of n = ceil(60 / fps) equal steps of
// 1/(fps n) s, so no step is longer than the simulation's own 1/60 s.
// 60 fps: 1 step of 1/60 s; 30 fps: 2 of 1/60 s; 25 fps: 3 of 1/75 s;
// 24 fps: 3 of 1/72 s.
#include <cmath>

#include "sim/simulation.hpp"

namespace mirofish {

struct FrameClock {
    int stepsPerFrame = 1;
    double stepSeconds = Simulation::kStepSeconds;

    // fps > 0.
    static FrameClock forFps(double fps) {
        FrameClock c;
        c.stepsPerFrame = static_cast<int>(std::ceil(1.0 / (fps * Simulation::kStepSeconds) - 1e-9));
        c.stepsPerFrame = c.stepsPerFrame < 1 ? 1 : c.stepsPerFrame;
        c.stepSeconds = 1.0 / (fps * c.stepsPerFrame);
        return c;
    }
};

}  // namespace mirofish
