#include "sim/simulation.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <numbers>
#include <utility>

#include "math/hash.hpp"
#include "sim/agents.hpp"
#include "sim/cell_order_gather.hpp"
#include "sim/rules.hpp"
#include "sim/row_stretch.hpp"
#include "sim/spawn.hpp"

namespace mirofish {

namespace {

// Finite, 1 px to Simulation::kLargestWorld.
float worldExtent(float size) { return std::isfinite(size) ? std::clamp(size, 1.0f, Simulation::kLargestWorld) : 1.0f; }

// A plain clamp, or the kernel's wrap (wrapInto in sim/fish_kernel_body.hpp);
// NaN lands on 0 either way.
float bringInside(float x, float size, bool wrap) {
    if (!wrap) return x > size ? size : (x >= 0.0f ? x : 0.0f);
    x -= std::floor(x / size) * size;
    return x >= 0.0f && x < size ? x : 0.0f;
}

// A leader or path predator put outside the world (a preset drawn for a
// larger one, the world made smaller) comes to its nearest edge, wrapping or
// not: that is where its waypoints out there are aimed at (agents.cpp,
// reachable). Wrapped round, a goal at x 1500 in a world 1280 wide started
// at 220 and then slid to the edge. Wrapping, the far edge is the near one.
// A chasing predator has no waypoints, and wraps as the fish do.
float agentInside(float x, float size, bool wrap) {
    const float edge = bringInside(x, size, false);
    return wrap && edge >= size ? 0.0f : edge;
}

// The statistics of the kernel's chunks a thread ran in this step, in its
// own memory until its last chunk is done (Simulation::step).
StepStats& threadStepStats() {
    thread_local StepStats stats;
    return stats;
}

}  // namespace

void RuleForceHistory::push(double sep, double ali, double coh) {
    perStep[next] = {sep, ali, coh};
    next = (next + 1) % kWindow;
    filled = std::min(filled + 1, kWindow);
}

std::array<double, 3> RuleForceHistory::mean() const {
    std::array<double, 3> m{};
    if (filled == 0) return m;
    // Oldest to newest, so the sum is the same whatever `next` is.
    for (std::size_t k = 0; k < filled; ++k) {
        const auto& s = perStep[(next + kWindow - filled + k) % kWindow];
        for (int r = 0; r < 3; ++r) m[r] += s[r];
    }
    for (double& v : m) v /= static_cast<double>(filled);
    return m;
}

Simulation::Simulation(Scene scene, Scheduler& scheduler, std::size_t capacity)
    : scene_(std::move(scene)), predatorsAsSet_(scene_.predators), scheduler_(&scheduler) {
    scene_.width = worldExtent(scene_.width);
    scene_.height = worldExtent(scene_.height);
    for (ForceField& f : scene_.fields) f.id = nextFieldId_++;
    allocate(std::max<std::size_t>(capacity, scene_.fishCount));
    reserveGrid();
    reset(scene_.seed);
}

void Simulation::allocate(std::size_t capacity) {
    capacity = std::max<std::size_t>(capacity, 1);
    fish_.allocate(capacity);
    back_.allocate(capacity);
}

void Simulation::reserveGrid() {
    // For the fish there are, not the arrays' capacity: the grid's cell budget
    // shapes its layout, and with it the order of every fish's neighbour sums,
    // so a school must not run differently in a larger allocation (the
    // editor's, or a state resumed into a preset with more fish).
    grid_.reserve(std::max<std::size_t>(scene_.fishCount, 1));
}

void Simulation::reserveFish(std::size_t count, std::size_t keep) {
    if (count <= fish_.capacity()) return;
    FishArrays kept;
    if (keep > 0) kept = fish_;
    allocate(std::max<std::size_t>(count, fish_.capacity() * 3 / 2));
    if (keep > 0) fish_.copyPrefix(kept, keep);
}

void Simulation::reset(std::uint64_t seed, std::optional<std::uint32_t> count) {
    if (count && *count != scene_.fishCount) {
        reserveFish(*count, 0);  // all of them spawned below
        scene_.fishCount = *count;
        reserveGrid();
    }
    scene_.seed = seed;
    step_ = 0;
    time_ = 0;
    wanderPhase_ = 0;
    noiseTicks_ = 0;
    history_ = RuleForceHistory{};
    lastNeighbours_ = lastCandidates_ = 0;
    cellsKnown_ = false;
    alarmsClear_ = true;
    rowStretch_ = 1.0f;
    spawnFish(fish_, 0, scene_.fishCount, seed, scene_.width, scene_.height, scene_.params, scene_.obstacles);
    // The predators go back where they were put: a path predator starts its
    // path again from its start, not from mid-path across the world.
    scene_.predators = predatorsAsSet_;
    bringPredatorsInside(scene_.predators);
    for (Predator& p : scene_.predators) p.nextWaypoint = 0;
    if (scene_.leader) {
        scene_.leader->nextWaypoint = 0;
        if (!scene_.leader->path.empty()) scene_.leader->position = scene_.leader->path.front();
        bringLeaderInside();
    }
    configureSpatial();
}

void Simulation::configureSpatial() {
    noise_.configure(scene_.width, scene_.height, scene_.params.get(ParamId::NoiseScale));
}

StepConstants Simulation::stepConstants() const { return stepConstants(scene_.params); }

std::pair<float, float> Simulation::nextGridCells(const Params& params) const {
    const StepConstants k = stepConstants(params);
    return grid_.cellSizeFor(k.width, k.height, k.largestRadius(), rowStretch_);
}

StepConstants Simulation::stepConstants(const Params& p) const {
    StepConstants k;
    k.dt = static_cast<float>(stepSeconds_);
    k.width = scene_.width;
    k.height = scene_.height;
    k.boundary = p.boundaryMode();
    k.variation = std::clamp(p.get(ParamId::Variation), 0.0f, 0.99f);
    k.perception = std::max(p.get(ParamId::PerceptionRadius), 0.0f);
    const float sepR = std::max(p.get(ParamId::SeparationRadius), 0.0f);
    k.separationRadius2 = sepR * sepR;
    const float minD = std::max(p.get(ParamId::MinDistance), 1e-3f);
    k.minDistance2 = minD * minD;
    const float half = std::clamp(p.get(ParamId::FovHalfAngle), 0.0f, 180.0f);
    k.fovEverywhere = half >= 180.0f;
    k.cosHalfFov = std::cos(half * std::numbers::pi_v<float> / 180.0f);
    k.fovLimit = rules::coneLimit(k.cosHalfFov);
    k.wSep = p.get(ParamId::SeparationWeight);
    k.wAli = p.get(ParamId::AlignmentWeight);
    k.wCoh = p.get(ParamId::CohesionWeight);
    // Speeds and forces beyond 1e9 mean nothing on any screen, and their
    // squares would overflow float: clamp, so absurd settings stay finite.
    constexpr float kAbsurd = 1e9f;
    k.maxSpeed = std::clamp(p.get(ParamId::MaxSpeed), 0.0f, kAbsurd);
    k.minSpeedShare = std::clamp(p.get(ParamId::MinSpeed), 0.0f, 1.0f);
    k.maxForce = std::clamp(p.get(ParamId::MaxForce), 0.0f, kAbsurd);
    // The lag and the jitter are given for steps of kStepSeconds; shorter
    // steps (exports at 24 or 25 fps run 72 or 75 a second) keep the same
    // reaction time, lag^(dt / kStepSeconds), and the same random walk of
    // the velocity: independent kicks add in variance, so each is
    // sqrt(kStepSeconds / dt) as strong. At kStepSeconds both factors are
    // exactly 1.
    const double referenceStepsPerStep = stepSeconds_ / kStepSeconds;
    k.lag = static_cast<float>(
        std::pow(static_cast<double>(std::clamp(p.get(ParamId::ReactionLag), 0.0f, 0.99f)), referenceStepsPerStep));
    k.noiseAmp = std::clamp(p.get(ParamId::Noise), -kAbsurd, kAbsurd) * k.maxForce;
    k.jitterAmp = std::clamp(p.get(ParamId::Jitter), -kAbsurd, kAbsurd) * k.maxForce *
                  static_cast<float>(std::sqrt(1.0 / referenceStepsPerStep));
    k.wanderAmp = p.get(ParamId::WanderWeight);
    k.wanderPhaseCos = static_cast<float>(std::cos(wanderPhase_));
    k.wanderPhaseSin = static_cast<float>(std::sin(wanderPhase_));
    const float turnStep = std::clamp(p.get(ParamId::TurnRate), 0.0f, 10000.0f) * k.dt * std::numbers::pi_v<float> / 180.0f;
    k.turnCos = std::cos(std::min(turnStep, std::numbers::pi_v<float>));
    k.turnSin = std::sin(std::min(turnStep, std::numbers::pi_v<float>));
    k.boundaryMargin = std::max(p.get(ParamId::BoundaryMargin), 0.0f);
    k.boundaryWeight = p.get(ParamId::BoundaryWeight);
    k.predatorRadius = std::max(p.get(ParamId::PredatorRadius), 0.0f);
    k.predatorRepulsion = p.get(ParamId::PredatorRepulsion);
    k.alarmDuration = std::max(p.get(ParamId::AlarmDuration), 0.0f);
    k.alarmSpeedBoost = std::clamp(p.get(ParamId::AlarmSpeedBoost), 0.0f, 10.0f);
    k.alarmCohesion = p.get(ParamId::AlarmCohesion);
    k.obstacleMargin = std::max(p.get(ParamId::ObstacleMargin), 0.0f);
    k.obstacleWeight = p.get(ParamId::ObstacleWeight);
    k.goalWeight = p.get(ParamId::GoalWeight);
    k.goalRadius = std::max(p.get(ParamId::GoalRadius), 0.0f);
    k.seed = scene_.seed;
    k.step = step_;
    k.jitterKey = foldKey(hashKey(k.seed, 0, k.step, RandomStream::Jitter));
    k.variationKey = foldKey(hashKey(k.seed, 0, 0, RandomStream::Variation));
    return k;
}

// Gather every per-fish array into cell order (the grid's counting sort), so
// that the neighbours of a fish are a few contiguous spans in memory.
void Simulation::reorderByCell(std::size_t chunk) {
    const std::size_t n = scene_.fishCount;
    const std::uint32_t* order = grid_.order();
    // Each thread gathers into the slots of (roughly) its share of the
    // kernel's chunks (the pool hands thread t the t-th share), which it also
    // wrote last step: most fish are still there, so most reads hit its own
    // cache. At most 4096 fish a chunk. Roughly: the pool rounds its split of
    // the kernel's chunks down and these pieces round up, so with an odd
    // count of kernel chunks on 2 threads the worker's first one is gathered
    // by the calling thread; an exact split, here and in the counting sort's
    // parts, measured no faster (README, twenty-sixth session).
    const auto threads = static_cast<std::size_t>(scheduler_->threadCount());
    const std::size_t grain = std::min<std::size_t>(4096, chunkCount(chunkCount(n, chunk), threads) * chunk);
    const CopyWrites writes = streamsCellOrderCopy(n) ? CopyWrites::Streamed : CopyWrites::Cached;
    const Alarms alarms = alarmsClear_ ? Alarms::LeftOut : Alarms::Copied;
    scheduler_->parallelFor(n, grain, [&](std::size_t b, std::size_t e) {
        gatherInCellOrder(fish_, back_, order, b, e, kernelBuild(), writes, alarms);
    });
    std::swap(fish_, back_);
    if (alarms == Alarms::LeftOut) std::swap(fish_.alarm, back_.alarm);
}

void Simulation::step() {
    if (abandoned()) return;
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    const StepConstants k = stepConstants();
    const std::size_t n = scene_.fishCount;

    const bool layoutChanged =
        grid_.configure(k.width, k.height, k.largestRadius(), k.boundary == BoundaryMode::Wrap, n, rowStretch_);
    if (cellsKnown_ && !layoutChanged)
        grid_.buildFromCells(n, *scheduler_);
    else
        grid_.build(fish_.px.data(), fish_.py.data(), n, *scheduler_);
    rowStretch_ = nextRowStretch(grid_, n, rowStretch_);
    const auto t1 = Clock::now();
    const std::size_t chunk = kernelChunk();  // of this step's reorder and kernel
    reorderByCell(chunk);
    const auto t2 = Clock::now();
    noise_.update(scene_.seed, noiseTicks_);

    const Vec2 leaderPosition = scene_.leader ? scene_.leader->position : Vec2{};
    const KernelInput in{&k,
                         &grid_,
                         &noise_,
                         &fish_,
                         &back_,
                         grid_.cells(),
                         scene_.fields,
                         scene_.predators,
                         scene_.obstacles,
                         scene_.leader ? &leaderPosition : nullptr,
                         alarmsClear_ && scene_.predators.empty(),
                         k.separationApart() && separationScan() == SeparationScan::Apart};
    // Each thread sums its chunks' statistics in memory of its own and adds
    // them to the step's once, after its last chunk; the sums are the same
    // in any order (StepStats). They used to be stored chunk by chunk, a
    // cache line each, which this thread read at the end of every step: a
    // worker's store then waited on this thread's core before the atomic
    // that takes its next chunk could run. Without those stores (a bound),
    // 0.96 of the time at 50 000 fish on 2 threads with the CPUs far apart;
    // this way, 0.983 (six pairs of runs of 8 steps in lock-step; 0.974 and
    // 1/1.041 in runs of 64), at 1 000 000 fish 0.985, article 000 0.990; on
    // 1 thread 1.003 and 1.007 (2026-12-05).
    stepTotals_->stats = StepStats{};
    scheduler_->parallelFor(
        n, chunk,
        [&](std::size_t b, std::size_t e) {
            if (!abandoned()) threadStepStats().add(runFishKernel(in, b, e));
        },
        [&] {
            const std::lock_guard lock(stepTotals_->mutex);
            stepTotals_->stats.add(threadStepStats());
            threadStepStats() = StepStats{};
        });
    if (abandoned()) return;
    const auto t3 = Clock::now();

    // Agents move from the same old state the fish saw.
    updatePredators(scene_.predators, fish_, n, k, scene_.params.get(ParamId::PredatorSpeed),
                    scene_.params.get(ParamId::PredatorForce));
    if (scene_.leader) updateLeader(*scene_.leader, k, scene_.params.get(ParamId::LeaderSpeed));
    const auto t4 = Clock::now();
    const auto seconds = [](auto d) { return std::chrono::duration<double>(d).count(); };
    phases_.grid += seconds(t1 - t0);
    phases_.reorder += seconds(t2 - t1);
    phases_.kernel += seconds(t3 - t2);
    phases_.agents += seconds(t4 - t3);
    ++phases_.steps;

    std::swap(fish_.px, back_.px);
    std::swap(fish_.py, back_.py);
    std::swap(fish_.vx, back_.vx);
    std::swap(fish_.vy, back_.vy);
    cellsKnown_ = true;

    const StepStats& total = stepTotals_->stats;
    const double inv = n > 0 ? 1.0 / static_cast<double>(n) : 0.0;
    lastNeighbours_ = total.neighbours.value() * inv;
    lastCandidates_ = total.candidates.value() * inv;
    if (!in.alarmsStayClear) alarmsClear_ = !total.alarmsLeft;
    history_.push(total.separation.value() * inv, total.alignment.value() * inv, total.cohesion.value() * inv);
    ++step_;
    time_ += stepSeconds_;
    advanceWanderPhase();
    noiseTicks_ += stepSeconds_ / noiseTimeScale(scene_.params);
}

void Simulation::advanceWanderPhase() {
    // In [0, 2 pi), in double: the phase of a run of years keeps its precision.
    const double turned = wanderPhase_ + static_cast<double>(scene_.params.get(ParamId::WanderRate)) * stepSeconds_;
    double phase = std::fmod(turned, 2.0 * std::numbers::pi);
    if (phase < 0.0) phase += 2.0 * std::numbers::pi;
    // A hair below 0 rounds up to 2 pi; a rate that is not finite starts the phase over.
    wanderPhase_ = std::isfinite(phase) && phase < 2.0 * std::numbers::pi ? phase : 0.0;
}

void Simulation::setStepSeconds(double seconds) {
    stepSeconds_ = std::isfinite(seconds) ? std::clamp(seconds, 1e-6, kStepSeconds) : kStepSeconds;
}

void Simulation::setParams(const Params& params) {
    const bool noiseLayoutChanged = params.get(ParamId::NoiseScale) != scene_.params.get(ParamId::NoiseScale);
    scene_.params = params;
    if (noiseLayoutChanged) configureSpatial();
}

void Simulation::setParam(ParamId id, float value) {
    Params p = scene_.params;
    p.set(id, value);
    setParams(p);
}

void Simulation::setFishCount(std::uint32_t count) {
    const std::size_t old = scene_.fishCount;
    cellsKnown_ = false;
    reserveFish(count, old);  // outside any step
    if (count < old) {
        // Drop the fish with the highest ids, so ids stay exactly 0..count-1.
        std::size_t w = 0;
        for (std::size_t r = 0; r < old; ++r) {
            if (fish_.id[r] >= count) continue;
            if (w != r) fish_.moveFish(r, w);
            ++w;
        }
    } else {
        spawnFish(fish_, static_cast<std::uint32_t>(old), count, scene_.seed, scene_.width, scene_.height,
                  scene_.params, scene_.obstacles);
    }
    scene_.fishCount = count;
    if (count != old) reserveGrid();
}

std::uint32_t Simulation::addForceField(ForceField field) {
    field.id = nextFieldId_++;
    scene_.fields.push_back(field);
    return field.id;
}

bool Simulation::updateForceField(const ForceField& field) {
    for (ForceField& f : scene_.fields)
        if (f.id == field.id) return f = field, true;
    return false;
}

bool Simulation::removeForceField(std::uint32_t id) {
    return std::erase_if(scene_.fields, [id](const ForceField& f) { return f.id == id; }) > 0;
}

void Simulation::setWorldSize(float width, float height) {
    scene_.width = worldExtent(width);
    scene_.height = worldExtent(height);
    const bool wrap = scene_.params.boundaryMode() == BoundaryMode::Wrap;
    cellsKnown_ = false;
    for (std::size_t i = 0; i < scene_.fishCount; ++i) {
        fish_.px[i] = bringInside(fish_.px[i], scene_.width, wrap);
        fish_.py[i] = bringInside(fish_.py[i], scene_.height, wrap);
    }
    // The places the predators were put stay as they were (a window shrunk
    // for a moment must not move them for good); reset() brings them inside.
    bringPredatorsInside(scene_.predators);
    bringLeaderInside();
    // The grid is laid out anew by every step; the noise lattice spans the world.
    configureSpatial();
}

void Simulation::scaleWorldTo(float width, float height) {
    const float sx = worldExtent(width) / scene_.width, sy = worldExtent(height) / scene_.height;
    for (std::size_t i = 0; i < scene_.fishCount; ++i) {
        fish_.px[i] *= sx;
        fish_.py[i] *= sy;
    }
    setWorldSize(width, height);
}

void Simulation::bringPredatorsInside(std::vector<Predator>& predators) const {
    const bool wrap = scene_.params.boundaryMode() == BoundaryMode::Wrap;
    for (Predator& p : predators) {
        const auto inside = p.behaviour == PredatorBehaviour::FollowPath ? agentInside : bringInside;
        p.position[0] = inside(p.position[0], scene_.width, wrap);
        p.position[1] = inside(p.position[1], scene_.height, wrap);
    }
}

void Simulation::setPredators(std::vector<Predator> predators) {
    predatorsAsSet_ = predators;
    scene_.predators = std::move(predators);
    bringPredatorsInside(scene_.predators);
}
void Simulation::addPredator(Predator predator) {
    predatorsAsSet_.push_back(predator);
    scene_.predators.push_back(std::move(predator));
}
void Simulation::movePredator(std::size_t index, Vec2 to) {
    if (index >= scene_.predators.size()) return;
    scene_.predators[index].position = to;
    predatorsAsSet_[index].position = to;
}
void Simulation::removePredator(std::size_t index) {
    if (index >= scene_.predators.size()) return;
    scene_.predators.erase(scene_.predators.begin() + static_cast<std::ptrdiff_t>(index));
    predatorsAsSet_.erase(predatorsAsSet_.begin() + static_cast<std::ptrdiff_t>(index));
}
void Simulation::setObstacles(std::vector<Obstacle> obstacles) { scene_.obstacles = std::move(obstacles); }
void Simulation::setLeader(std::optional<Leader> leader) {
    scene_.leader = std::move(leader);
    bringLeaderInside();
}

// As the predators: a leader whose path starts outside the world (a preset's
// world larger than the window's) was drawn beyond the view's edge while
// paused, and the fish steered at it for a step.
void Simulation::bringLeaderInside() {
    if (!scene_.leader) return;
    const bool wrap = scene_.params.boundaryMode() == BoundaryMode::Wrap;
    scene_.leader->position[0] = agentInside(scene_.leader->position[0], scene_.width, wrap);
    scene_.leader->position[1] = agentInside(scene_.leader->position[1], scene_.height, wrap);
}

Simulation::SavedState Simulation::save() const {
    SavedState s;
    s.scene = scene_;
    s.step = step_;
    s.time = time_;
    s.wanderPhase = wanderPhase_;
    s.noiseTicks = noiseTicks_;
    s.nextFieldId = nextFieldId_;
    s.fish.allocate(scene_.fishCount);
    s.fish.copyPrefix(fish_, scene_.fishCount);
    s.history = history_;
    s.lastNeighbours = lastNeighbours_;
    s.lastCandidates = lastCandidates_;
    s.rowStretch = rowStretch_;
    return s;
}

void Simulation::restore(SavedState state) {
    scene_ = std::move(state.scene);
    predatorsAsSet_ = scene_.predators;
    step_ = state.step;
    time_ = state.time;
    wanderPhase_ = std::isfinite(state.wanderPhase) ? state.wanderPhase : 0.0;
    noiseTicks_ = std::isfinite(state.noiseTicks) ? state.noiseTicks : 0.0;
    nextFieldId_ = state.nextFieldId;
    history_ = state.history;
    lastNeighbours_ = state.lastNeighbours;
    lastCandidates_ = state.lastCandidates;
    rowStretch_ = validRowStretch(state.rowStretch) ? state.rowStretch : 1.0f;
    cellsKnown_ = false;
    allocate(std::max(fish_.capacity(), state.fish.capacity()));
    reserveGrid();
    fish_.copyPrefix(state.fish, scene_.fishCount);
    const auto alarms = fish_.alarm.begin();
    alarmsClear_ = std::all_of(alarms, alarms + static_cast<std::ptrdiff_t>(scene_.fishCount),
                               [](float a) { return std::bit_cast<std::uint32_t>(a) == 0; });
    configureSpatial();
}

}  // namespace mirofish
