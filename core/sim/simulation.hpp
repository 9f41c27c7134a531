#pragma once
// The 2D simulation kernel: pure maths, step() and state, nothing about
// drawing. It owns the fish arrays; edits (parameters, fish count, force
// fields...) are made between steps by whoever owns the Simulation (the app
// queues them onto its simulation thread).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "math/noise_field.hpp"
#include "params/params.hpp"
#include "sched/scheduler.hpp"
#include "sim/fish_arrays.hpp"
#include "sim/fish_kernel.hpp"
#include "sim/grid.hpp"
#include "sim/scene.hpp"

namespace mirofish {

// Per-step means of the weighted rule accelerations, kept for the last
// kWindow steps (the articles' "average each rule over 300 steps").
struct RuleForceHistory {
    static constexpr std::size_t kWindow = 300;
    std::array<std::array<double, 3>, kWindow> perStep{};  // separation, alignment, cohesion
    std::size_t filled = 0;
    std::size_t next = 0;

    void push(double sep, double ali, double coh);
    std::array<double, 3> mean() const;
};

// The seconds over which the noise currents change (noiseTimeScale), at least a millisecond.
inline double noiseTimeScale(const Params& params) {
    return std::max(static_cast<double>(params.get(ParamId::NoiseTimeScale)), 1e-3);
}

// Wall time spent in each phase of step(), summed since the last reset
// (mirofish bench --profile).
struct PhaseTimes {
    double grid = 0, reorder = 0, kernel = 0, agents = 0;  // seconds
    std::uint64_t steps = 0;
};

class Simulation {
public:
    static constexpr double kStepSeconds = 1.0 / 60.0;
    // The largest world side in px: a larger (or infinite) one is clamped to
    // it; an infinite world would never finish coarsening the noise lattice.
    static constexpr float kLargestWorld = 1e9f;
    // Fish per parallel-for chunk of the kernel: small enough that the
    // threads share out the dense balls of a formed school evenly, large
    // enough that taking a chunk costs nothing. Where the last step examined
    // at least kDenseCandidates candidates per fish, chunks of kDenseChunk: a
    // chunk then costs many times its overhead, and a thread that ends first
    // waits less for the other's last chunk. Lock-step, 2 threads, 64 against
    // 128 fish a chunk: article 000's scene from steps 1500 and 7407 (57 and 93
    // neighbours per fish) 0.984 and 0.966, with the app's defaults (488
    // neighbours) 0.962; on 1 thread 1.003-1.008. The constant-density scene
    // (80 candidates per fish) took 1.03 to 1.06 with 64 at 5 000 to 20 000
    // fish, so it keeps 128. The choice depends on the state alone, not on
    // the thread count: each chunk sums its fish's rule forces in float
    // lanes, so the chunks' sums, and the step's, are then the same on any
    // number of threads.
    static constexpr std::size_t kChunk = 128;
    static constexpr std::size_t kDenseChunk = 64;
    static constexpr double kDenseCandidates = 150;
    // Chunks start at multiples of sixteen, as runFishKernel needs.
    static_assert(kChunk % 16 == 0 && kDenseChunk % 16 == 0);

    // capacity: fish the arrays are allocated for (at least the scene's count).
    Simulation(Scene scene, Scheduler& scheduler, std::size_t capacity = 0);

    // Advance by one step (1/60 s unless setStepSeconds chose shorter). Allocates nothing.
    void step();
    // Any thread: the step in progress ends as soon as each thread has
    // finished the chunk of fish it is on, and every later step returns at
    // once. For closing a simulation in the middle of a step that takes
    // seconds: 200 000 fish that all see one another (perception 2000 px)
    // take half a minute a step on two cores, and a window that waited for
    // that would look hung. The fish are then left half-stepped, so the
    // simulation is only fit to be destroyed.
    void abandon() { abandoned_->store(true, std::memory_order_relaxed); }
    bool abandoned() const { return abandoned_->load(std::memory_order_relaxed); }
    // The length of the following steps, in (0, kStepSeconds]; export uses
    // 1/(fps n) so that n steps make exactly one frame. Not saved in snapshots.
    void setStepSeconds(double seconds);
    double stepSeconds() const { return stepSeconds_; }

    // --- Edits, between steps -------------------------------------------
    void setParams(const Params& params);
    void setParam(ParamId id, float value);
    // Keeps the fish that exist (ids 0..n-1 stay), spawns or drops the rest.
    // Grows the arrays when beyond capacity.
    void setFishCount(std::uint32_t count);
    // Respawns every fish from a new seed and restarts time; with a count,
    // a school of that many (a setFishCount before it would spawn the fish
    // it adds for nothing, which costs in a world rocks cover).
    void reset(std::uint64_t seed, std::optional<std::uint32_t> count = {});
    // The interaction layer: returns the new field's id.
    std::uint32_t addForceField(ForceField field);
    bool updateForceField(const ForceField& field);
    bool removeForceField(std::uint32_t id);
    // Sets the predators and where a reset puts them back; those outside the
    // world (a preset's world larger than the window's) are brought inside
    // at once, as a reset would, not at the next step.
    void setPredators(std::vector<Predator> predators);
    // One predator added, put somewhere else or removed: the others stay
    // where they are now, and a reset still puts them where they were put.
    void addPredator(Predator predator);
    void movePredator(std::size_t index, Vec2 to);
    void removePredator(std::size_t index);
    void setObstacles(std::vector<Obstacle> obstacles);
    // The leader, brought inside the world (its path stays as given).
    void setLeader(std::optional<Leader> leader);
    // Resizes the world (each side clamped to [1, 1e9] px; NaN or infinite
    // gives 1 px) and brings every fish, predator and the leader inside it: wrapped into
    // [0,W)x[0,H) when the world wraps, clamped into [0,W]x[0,H] otherwise.
    // Fields, obstacles, the leader's path and the places the predators were
    // put (predatorsAsSet, brought inside by a reset) stay where they are.
    void setWorldSize(float width, float height);
    // Resizes the world with the school in it, as a morph to a preset of
    // another world does: every fish keeps its place relative to the world
    // (x times the new width over the old), so none inside it is pressed
    // onto a wall or wrapped round; then as setWorldSize (a fish beyond a
    // soft wall comes to the wall, the predators and the leader inside).
    void scaleWorldTo(float width, float height);

    // --- Reading ----------------------------------------------------------
    const Scene& scene() const { return scene_; }  // fish count, world, params, interaction objects
    // Where the predators were put (what a saved preset holds); a reset puts
    // them there, brought inside the world.
    const std::vector<Predator>& predatorsAsSet() const { return predatorsAsSet_; }
    const Params& params() const { return scene_.params; }
    std::size_t fishCount() const { return scene_.fishCount; }
    std::size_t capacity() const { return fish_.capacity(); }
    const FishArrays& fish() const { return fish_; }
    // The cell layout of the last step (the grid overlay draws it).
    const UniformGrid& grid() const { return grid_; }
    std::uint64_t stepIndex() const { return step_; }
    double time() const { return time_; }
    // The school's wander phase, radians in [0, 2 pi) (rules::wanderDirection).
    double wanderPhase() const { return wanderPhase_; }
    double noiseTicks() const { return noiseTicks_; }
    // The noise currents as the last step met them.
    const NoiseField& noise() const { return noise_; }
    Scheduler& scheduler() const { return *scheduler_; }
    // The pool the following steps run on. Results are the same on any.
    void setScheduler(Scheduler& scheduler) { scheduler_ = &scheduler; }

    // Of the last step: mean neighbours perceived and candidates examined per fish.
    double lastMeanNeighbours() const { return lastNeighbours_; }
    double lastMeanCandidates() const { return lastCandidates_; }
    // How much taller than wide the next step's grid rows are (sim/row_stretch.hpp).
    float rowStretch() const { return rowStretch_; }
    const RuleForceHistory& ruleForces() const { return history_; }
    const PhaseTimes& phaseTimes() const { return phases_; }
    void resetPhaseTimes() { phases_ = PhaseTimes{}; }

    // Restores a saved state (io/snapshot.cpp); the arrays are taken as given.
    struct SavedState {
        Scene scene;
        std::uint64_t step = 0;
        double time = 0;  // simulated seconds: the sum of the steps' lengths
        double wanderPhase = 0;  // radians, in [0, 2 pi)
        double noiseTicks = 0;   // the noise currents' time (NoiseField::update)
        std::uint32_t nextFieldId = 1;
        FishArrays fish;
        RuleForceHistory history;
        double lastNeighbours = 0, lastCandidates = 0;
        float rowStretch = 1.0f;  // of the grid's rows (sim/row_stretch.hpp)
    };
    SavedState save() const;
    void restore(SavedState state);

    // The constants the kernel uses this step (tests and metrics share them).
    StepConstants stepConstants() const;
    // The same with other parameters (those an audio route gave a step).
    StepConstants stepConstants(const Params& params) const;
    // The neighbour grid's cell width and height the next step lays out
    // with these parameters, in the world as it is now (the grid overlay:
    // grid() holds the last step's, and none before the first).
    std::pair<float, float> nextGridCells(const Params& params) const;

private:
    void allocate(std::size_t capacity);
    // Room for `count` fish, the first `keep` of them kept: grown by half at
    // least, so that repeated small growths do not each reallocate.
    void reserveFish(std::size_t count, std::size_t keep);
    void reserveGrid();
    void bringPredatorsInside(std::vector<Predator>& predators) const;
    void bringLeaderInside();
    void configureSpatial();
    void reorderByCell(std::size_t chunk);  // chunk: the kernel's fish per chunk this step
    void advanceWanderPhase();  // by the wander rate times the step's length, after a step

    Scene scene_;
    // The predators as constructed, restored or last set: where a reset puts
    // them back (a path predator at the start its preset gives it).
    std::vector<Predator> predatorsAsSet_;
    Scheduler* scheduler_;
    FishArrays fish_;
    FishArrays back_;  // reorder target and next positions/velocities
    UniformGrid grid_;
    // The grid's cells hold every fish's cell at the positions the last step
    // wrote (the kernel computes them): false after any other change of the
    // fish, which the next step's grid then sorts from their positions.
    bool cellsKnown_ = false;
    // Every fish's alarm is +0 (all its bits clear), as after a spawn: the
    // alarms then stay where they are through the reorder, and while no
    // predator is about the kernel neither reads nor writes them either. An
    // alarm is a predator's doing, and most scenes have none. Lock-step
    // against moving them every step (Intel Xeon, 2026-12-04, the bench's
    // constant density): 1 000 000 fish 0.974-0.990 of the time on 2
    // threads, 0.968 on 1; 50 000 fish 0.996-0.999 on 1, 0.990 on 2.
    // Kept by the steps whose kernel wrote the alarms, by reset() and by
    // restore().
    bool alarmsClear_ = true;
    // How much taller than wide the next step's grid cells are
    // (sim/row_stretch.hpp): chosen from the fish of the grid each step
    // builds, and saved, since it decides the order of the sums.
    float rowStretch_ = 1.0f;
    NoiseField noise_;
    // The kernel's statistics of the step under way: each thread sums its
    // chunks' in memory of its own and adds its sum here once (Simulation::step).
    // Held by pointer so that a Simulation still moves.
    struct StepTotals {
        std::mutex mutex;
        StepStats stats;
    };
    std::unique_ptr<StepTotals> stepTotals_ = std::make_unique<StepTotals>();
    std::size_t kernelChunk() const { return lastCandidates_ >= kDenseCandidates ? kDenseChunk : kChunk; }
    std::uint64_t step_ = 0;
    double stepSeconds_ = kStepSeconds;
    double time_ = 0;  // sum of the steps' lengths
    // The school's wander phase (rules::wanderDirection): each step turns it
    // by the wander rate times the step's length.
    double wanderPhase_ = 0;
    // The noise currents' time: each step adds its length over the time
    // scale then in effect (NoiseField::update).
    double noiseTicks_ = 0;
    std::uint32_t nextFieldId_ = 1;
    RuleForceHistory history_;
    double lastNeighbours_ = 0, lastCandidates_ = 0;
    PhaseTimes phases_;
    // Relaxed: a flag polled between chunks, publishing no data; the
    // parallel-for's join orders everything the chunks wrote. Held by
    // pointer so that a Simulation still moves.
    std::unique_ptr<std::atomic<bool>> abandoned_ = std::make_unique<std::atomic<bool>>(false);
};

}  // namespace mirofish
