#pragma once
// What one drawn frame does to the trail canvas, from the registry's trail
// parameters and the simulated time the frame covers: how much of the canvas
// is kept (per channel: the "age" palette fades red first, so old strokes
// turn blue), how much light each fish adds, and the exposure that shows it.
// Persistence p is the share left after one second, so a frame of dt seconds
// keeps p^dt, the same look at any frame rate.
#include "params/params.hpp"

namespace mirofish::editor {

struct TrailFrame {
    bool on = false;
    float keep[3] = {0, 0, 0};  // multiplier of the canvas per channel, this frame
    float deposit = 1;          // light a fish adds this frame (the stroke opacity x dt x 60)
    float exposure = 1;         // shown as 1 - exp(-exposure x light)
    // The simulated time the frame covers: each fish lays its light along
    // the way it swam in it (fish_geometry's strokes), not in one place.
    float seconds = 0;

    bool operator==(const TrailFrame&) const = default;
};

enum class TrailPalette { Speed = 0, Heading = 1, Age = 2, Gradient = 3 };

// frameSeconds > 0: the simulated time since the previous frame.
TrailFrame trailFrame(const Params& params, double frameSeconds);

}  // namespace mirofish::editor
