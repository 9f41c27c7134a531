#pragma once
// Helpers shared by the simulation tests: hand-placed scenes, lookup by fish
// id (the arrays are re-sorted by grid cell every step, so an array index is
// not an identity), temporary directories and the shipped presets.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/preset.hpp"
#include "math/vec.hpp"
#include "params/params.hpp"
#include "sim/fish_kernel.hpp"
#include "sim/scene.hpp"
#include "sim/simulation.hpp"

#include <unistd.h>

namespace mirofish::test {

// Puts the CPU's best build of the kernel back in use when it goes out of
// scope, for a test that runs another (useKernelBuild).
struct BestKernelBuildAtExit {
    ~BestKernelBuildAtExit() { useKernelBuild(bestKernelBuild()); }
};

// The same for the CPU's way of summing the separation (useSeparationScan).
struct BestSeparationScanAtExit {
    ~BestSeparationScanAtExit() { useSeparationScan(bestSeparationScan()); }
};

// Parameters with every source of randomness and memory switched off, so a
// step is a pure function of positions and velocities: no noise, jitter,
// wander, reaction lag or per-fish variation, no speed floor, a full circle
// of vision, bouncing walls (no boundary force).
inline Params quietParams() {
    Params p;
    p.set(ParamId::Noise, 0.0f);
    p.set(ParamId::Jitter, 0.0f);
    p.set(ParamId::WanderWeight, 0.0f);
    p.set(ParamId::ReactionLag, 0.0f);
    p.set(ParamId::Variation, 0.0f);
    p.set(ParamId::MinSpeed, 0.0f);
    p.set(ParamId::FovHalfAngle, 180.0f);
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Bounce));
    return p;
}

inline Scene sceneWith(const Params& params, std::uint32_t fish, float width = 1000.0f, float height = 1000.0f,
                       std::uint64_t seed = 1) {
    Scene s;
    s.params = params;
    s.fishCount = fish;
    s.width = width;
    s.height = height;
    s.seed = seed;
    return s;
}

struct FishInit {
    Vec2 position{};
    Vec2 velocity{};
};

// Overwrites fish 0..n-1 (ids in list order) with the given positions and
// velocities; the lag memory and the alarm are zeroed, headings follow the
// velocity. (The per-fish variation comes from the ids and the scene's
// Variation parameter, which quietParams sets to 0.)
inline void placeFish(Simulation& sim, const std::vector<FishInit>& fish) {
    Simulation::SavedState st = sim.save();
    if (fish.size() != st.scene.fishCount) throw std::logic_error("placeFish: count differs from the scene's");
    for (std::size_t slot = 0; slot < fish.size(); ++slot) {
        const std::uint32_t id = st.fish.id[slot];
        const FishInit& f = fish[id];
        st.fish.px[slot] = f.position[0];
        st.fish.py[slot] = f.position[1];
        st.fish.vx[slot] = f.velocity[0];
        st.fish.vy[slot] = f.velocity[1];
        st.fish.ax[slot] = st.fish.ay[slot] = 0.0f;
        st.fish.alarm[slot] = 0.0f;
        const Vec2 h = normalizedOrZero(f.velocity);
        if (h != Vec2{}) st.fish.hx[slot] = h[0], st.fish.hy[slot] = h[1];
    }
    sim.restore(std::move(st));
}

// Array index of the fish with this id (-1 if none).
inline std::ptrdiff_t indexOf(const Simulation& sim, std::uint32_t id) {
    const FishArrays& f = sim.fish();
    for (std::size_t i = 0; i < sim.fishCount(); ++i)
        if (f.id[i] == id) return static_cast<std::ptrdiff_t>(i);
    return -1;
}

inline Vec2 positionOf(const Simulation& sim, std::uint32_t id) {
    const auto i = static_cast<std::size_t>(indexOf(sim, id));
    return Vec2{{sim.fish().px[i], sim.fish().py[i]}};
}
inline Vec2 velocityOf(const Simulation& sim, std::uint32_t id) {
    const auto i = static_cast<std::size_t>(indexOf(sim, id));
    return Vec2{{sim.fish().vx[i], sim.fish().vy[i]}};
}
// With reactionLag 0, the limited acceleration of the last step (px/s^2).
inline Vec2 accelerationOf(const Simulation& sim, std::uint32_t id) {
    const auto i = static_cast<std::size_t>(indexOf(sim, id));
    return Vec2{{sim.fish().ax[i], sim.fish().ay[i]}};
}

inline Vec2 centroid(const Simulation& sim) {
    double x = 0, y = 0;
    for (std::size_t i = 0; i < sim.fishCount(); ++i) x += sim.fish().px[i], y += sim.fish().py[i];
    const double n = static_cast<double>(sim.fishCount());
    return Vec2{{static_cast<float>(x / n), static_cast<float>(y / n)}};
}

inline std::filesystem::path shippedPreset(const std::string& id) {
    return std::filesystem::path(MIROFISH_PRESET_DIR) / (id + ".json");
}

// A fresh directory under the system temp dir, removed with its contents.
class TempDir {
public:
    TempDir() {
        static std::atomic<int> counter{0};
        path_ = std::filesystem::temp_directory_path() /
                ("mirofish-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

inline void writeText(const std::filesystem::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text;
}

// A shell script standing in for a program (a slow or failing ffmpeg), runnable.
inline void writeProgram(const std::filesystem::path& file, const std::string& script) {
    writeText(file, script);
    std::filesystem::permissions(file, std::filesystem::perms::owner_all);
}

inline std::string readText(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace mirofish::test
