#include "frame_capture.hpp"

#include <algorithm>
#include <cmath>

#include "sim/inspect.hpp"

namespace mirofish::editor {

namespace {
template <typename T, typename Allocator>
void copyPrefix(std::vector<T>& to, const std::vector<T, Allocator>& from, std::size_t n) {
    to.resize(n);
    std::copy_n(from.begin(), n, to.begin());
}
}  // namespace

void captureDrawable(const Simulation& sim, const Params& ran, FrameSnapshot& frame) {
    const Scene& scene = sim.scene();
    const FishArrays& f = sim.fish();
    const std::size_t n = sim.fishCount();
    frame.step = sim.stepIndex();
    frame.worldWidth = scene.width;
    frame.worldHeight = scene.height;
    frame.params = ran;
    copyPrefix(frame.px, f.px, n);
    copyPrefix(frame.py, f.py, n);
    copyPrefix(frame.hx, f.hx, n);
    copyPrefix(frame.hy, f.hy, n);
    copyPrefix(frame.id, f.id, n);
    frame.speed.resize(n);
    frame.mx.resize(n);
    frame.my.resize(n);
    frame.alarmed.resize(n);
    // Alarmed as the inspector says: alarm time left, or a predator within
    // reach. The last step gave the fish it scared alarm time, but not those
    // a predator placed, dragged or given a longer reach since reaches (paused,
    // or before the first step), nor any at an alarmDuration of 0.
    const StepConstants k = sim.stepConstants(ran);
    const bool lookForScares = !scene.predators.empty();
    for (std::size_t i = 0; i < n; ++i) {
        const float speed = std::hypot(f.vx[i], f.vy[i]);
        frame.speed[i] = speed;
        frame.mx[i] = speed > 0.0f ? f.vx[i] / speed : f.hx[i];
        frame.my[i] = speed > 0.0f ? f.vy[i] / speed : f.hy[i];
        frame.alarmed[i] = f.alarm[i] > 0.0f ||
                                   (lookForScares && scaredByPredators(k, scene.predators, Vec2{{f.px[i], f.py[i]}}))
                               ? 1
                               : 0;
    }
    frame.predators = scene.predators;
    frame.obstacles = scene.obstacles;
    frame.fields = scene.fields;
    frame.leader = scene.leader;
}

}  // namespace mirofish::editor
