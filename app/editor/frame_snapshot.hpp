#pragma once
// What the simulation thread hands to the view each step: a copy of the
// drawable state (not the simulation's arrays), and the small statistics the
// window shows as text.
#include <cstdint>
#include <optional>
#include <vector>

#include "audio/modulation.hpp"
#include "params/params.hpp"
#include "sim/inspect.hpp"
#include "sim/metrics.hpp"
#include "sim/scene.hpp"

namespace mirofish::editor {

// What the overlays ask the simulation thread to compute.
struct OverlayRequest {
    bool neighbours = false;  // neighbour lines
    bool forces = false;      // the three rule arrows
    bool vision = false;      // FOV cone and radii of the selected fish
    bool grid = false;
    std::uint32_t firstFish = 20;              // inspected when nothing is selected
    std::optional<std::uint32_t> selectedId;   // a clicked fish
};

// Double-buffered through TripleBuffer: reused every step, so the vectors
// keep their capacity and copying a step allocates nothing once warm.
struct FrameSnapshot {
    std::uint64_t step = 0;
    float worldWidth = 0, worldHeight = 0;
    Params params;
    // The soft walls' margin the view keeps in sight for overshoot: the
    // user's own, or the most an audio route can drive it to, so that a
    // margin moving on the beat does not zoom the view on the beat.
    float viewMargin = 0;
    // Fish [0, count): position, drawn heading, speed, identity, alarm; and
    // the way it moves (its velocity's direction, the heading where it is
    // still), which its trail stamps follow back: the drawn heading turns at
    // most turnRate, and after a bounce it pointed across the way swum.
    std::vector<float> px, py, hx, hy, speed, mx, my;
    std::vector<std::uint32_t> id;
    std::vector<std::uint8_t> alarmed;
    std::vector<Predator> predators;
    std::vector<Obstacle> obstacles;
    std::vector<ForceField> fields;
    std::optional<Leader> leader;
    // Overlays (empty when switched off).
    std::vector<FishInspection> inspected;  // the selected fish, or the first 20
    bool drawNeighbours = false, drawForces = false, drawVision = false;
    std::optional<Vec2> selectedPosition;
    float gridCellWidth = 0, gridCellHeight = 0;  // 0: no grid drawn

    std::size_t count() const { return px.size(); }
};

// Small, copied under a mutex for the window's text (a few times a second).
struct SimStats {
    std::uint64_t step = 0;
    std::uint32_t fishCount = 0;
    std::uint64_t seed = 0;
    float worldWidth = 0, worldHeight = 0;
    bool paused = false;
    bool morphing = false;
    double stepMilliseconds = 0;   // mean wall time of one step over the last second
    double realTimeRatio = 1;      // simulated / wall seconds over the last second (1 = keeps up)
    Metrics metrics;
    // The neighbours and rule forces in `metrics` are counted by steps: they
    // describe the school as it is only when no edit of its parameters, fish
    // count or world came after the last step (paused, until the next one).
    bool stepCountsCurrent = true;
    Params params;                 // the user's parameters (what sliders show and presets save)
    Params effectiveParams;        // what the last step ran with: params with the audio routes applied
    bool audioDriving = false;     // audio moved the parameters in the last step
    std::vector<RouteValue> routeValues;  // per route, what it does now (zeros when audio is not driving)
    std::vector<Predator> predators;        // where they are now
    std::vector<Predator> predatorsAsSet;   // where a reset puts them (what a preset saves)
    std::vector<Obstacle> obstacles;
    std::vector<ForceField> fields;  // placed fields only (no pointer gestures)
    std::size_t activeFields = 0;    // every field acting now, pointer gestures included
    std::optional<FishInspection> selected;
    // How many of the commands posted so far (SimHost::post's numbers) this
    // report includes: one posted during a step of seconds is not in it yet.
    std::uint64_t commandsApplied = 0;
};

}  // namespace mirofish::editor
