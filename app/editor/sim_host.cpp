#include "sim_host.hpp"

#include "frame_capture.hpp"
#include "params/registry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>


namespace mirofish::editor {

namespace {
using Clock = std::chrono::steady_clock;
constexpr auto kTick = std::chrono::microseconds(16'667);  // the display rate the loop paces itself to
constexpr double kStatsWindowSeconds = 1.0;
constexpr double kMetricsEverySeconds = 0.25;

// The parameters differ in one that the step reads.
bool swimDiffers(const Params& a, const Params& b) {
    return std::any_of(paramRegistry().begin(), paramRegistry().end(),
                       [&](const ParamDef& d) { return !d.drawingOnly() && a.get(d.id) != b.get(d.id); });
}
}  // namespace

bool SimHost::Context::isTransient(std::uint32_t fieldId) const {
    return std::any_of(transient.begin(), transient.end(), [&](const TransientField& t) { return t.id == fieldId; });
}

void SimHost::Context::reset(std::uint64_t seed) {
    const std::uint64_t before = sim.stepIndex();
    sim.reset(seed);
    for (TransientField& t : transient) {
        if (t.expiresAtStep == 0) continue;  // held until removed
        const std::uint64_t left = t.expiresAtStep > before ? t.expiresAtStep - before : 1;
        t.expiresAtStep = sim.stepIndex() + left;
    }
}

void SimHost::Context::setFishCount(std::uint32_t count) {
    sim.setFishCount(count);
    if (overlays.selectedId && *overlays.selectedId >= sim.fishCount()) overlays.selectedId.reset();
}

SimHost::SimHost(Scene scene, int threads, std::shared_ptr<const AudioFeed> audio, bool paused)
    : pool_(std::make_unique<ThreadPool>(threads)),
      sim_(std::make_unique<Simulation>(std::move(scene), *pool_)),
      context_(std::make_unique<Context>(*sim_)),
      audio_(std::move(audio)) {
    context_->paused = paused;
    effective_ = sim_->params();
    publish(false);
    thread_ = std::thread([this] { run(); });
}

SimHost::~SimHost() {
    {
        std::lock_guard lock(commandMutex_);
        stopping_ = true;
    }
    // A step of absurd settings can take half a minute; closing the window
    // does not wait for it (the simulation goes with the host).
    sim_->abandon();
    wake_.notify_one();
    thread_.join();
}

std::uint64_t SimHost::post(Command command) {
    std::uint64_t number = 0;
    {
        std::lock_guard lock(commandMutex_);
        pending_.push_back(std::move(command));
        number = ++posted_;
    }
    wake_.notify_one();
    return number;
}

void SimHost::setFrameReady(std::function<void()> callback) {
    std::lock_guard lock(commandMutex_);
    frameReady_ = std::move(callback);
}

double SimHost::runningStepSeconds() const {
    const std::int64_t started = stepStartedNs_.load(std::memory_order_relaxed);
    if (started == 0) return 0.0;
    const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
    return static_cast<double>(std::max<std::int64_t>(now - started, 0)) * 1e-9;
}

SimStats SimHost::stats() const {
    std::lock_guard lock(statsMutex_);
    return stats_;
}

std::vector<RouteValue> SimHost::routeValues() const {
    std::lock_guard lock(statsMutex_);
    return stats_.routeValues;
}

void SimHost::expireTransientFields() {
    auto& t = context_->transient;
    for (auto it = t.begin(); it != t.end();) {
        if (it->expiresAtStep != 0 && sim_->stepIndex() >= it->expiresAtStep) {
            sim_->removeForceField(it->id);
            it = t.erase(it);
        } else {
            ++it;
        }
    }
}

bool SimHost::modulate() {
    const auto now = AudioFeed::Clock::now();
    audioDriving_ = audio_ && audio_->current(audioFrame_, now);
    // Steps may land on one frame in several: the onset is looked back for.
    effective_ = audioDriving_ ? context_->routes.apply(sim_->params(), audioFrame_,
                                                        onset_.update(audioFrame_, audio_->onsetAge(now)))
                               : sim_->params();
    return audioDriving_;
}

void SimHost::run() {
    Context& ctx = *context_;
    std::vector<Command> batch;
    auto last = Clock::now();
    auto nextTick = last + kTick;
    // Rolling window for the stats line.
    auto windowStart = last;
    double windowSimSeconds = 0, windowStepSeconds = 0, windowRunningSeconds = 0;
    int windowSteps = 0;
    auto lastMetrics = last - std::chrono::seconds(1);
    // The shown metrics are not those of the present state: at the start (a
    // school opened paused must not show zeros), and after steps or an edit.
    bool metricsStale = true;
    bool wasPaused = ctx.paused;

    for (;;) {
        {
            std::unique_lock lock(commandMutex_);
            wake_.wait_until(lock, nextTick, [&] { return stopping_ || !pending_.empty(); });
            if (stopping_) return;
            batch.swap(pending_);
            applied_ = posted_;
        }
        const bool edited = !batch.empty();
        if (edited) {
            // What the next step would read, routes applied, before and after.
            const Scene& scene = sim_->scene();
            const Params ran = effective_;
            const auto fish = scene.fishCount;
            const float width = scene.width, height = scene.height;
            for (Command& c : batch) c(ctx);
            // An edit is drawn with the routes acting on it, at once: a paused
            // school takes no step that would apply them, and a source closed
            // since the last step drives nothing.
            modulate();
            stepCountsStale_ = stepCountsStale_ || swimDiffers(effective_, ran) || scene.fishCount != fish ||
                               scene.width != width || scene.height != height;
        }
        batch.clear();

        const auto now = Clock::now();
        if (now < nextTick && ctx.singleSteps == 0) {
            // Woken by an edit between ticks: show it without advancing time.
            // Its metrics follow at a tick (a reset while paused changes them
            // all, and no step will).
            if (edited) {
                metricsStale = true;
                publish(false);
            }
            continue;
        }
        // An edit that came during a step longer than a frame is shown now,
        // before the next such step: it waited for one step, not two.
        if (edited && !ctx.paused && lastStepSeconds_ > std::chrono::duration<double>(kTick).count()) {
            metricsStale = true;
            publish(false);
        }
        const double frameSeconds = std::chrono::duration<double>(now - last).count();
        last = now;
        nextTick = std::max(nextTick + kTick, now);

        int steps = 0;
        if (ctx.paused) {
            // Three a frame; the presses beyond come in the next frames.
            steps = std::min(ctx.singleSteps, 3);
        } else {
            // Resuming must not replay the paused time.
            steps = stepper_.advance(wasPaused ? 0.0 : frameSeconds).steps;
            windowRunningSeconds += frameSeconds;
            // Steps longer than a frame cannot catch up: one per tick, so an
            // edit waits for one step, not three.
            if (lastStepSeconds_ > std::chrono::duration<double>(kTick).count()) steps = std::min(steps, 1);
        }
        if (!ctx.paused) ctx.singleSteps = 0;
        wasPaused = ctx.paused;

        for (int s = 0; s < steps; ++s) {
            if (ctx.morph) {
                ctx.morphElapsed += Simulation::kStepSeconds;
                sim_->setParams(ctx.morph->at(ctx.morphElapsed));
                if (ctx.morph->finished(ctx.morphElapsed)) ctx.morph.reset();
            }
            const Params base = sim_->params();
            const bool driven = modulate();
            if (driven) sim_->setParams(effective_);
            const auto t0 = Clock::now();
            stepStartedNs_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(t0.time_since_epoch()).count(),
                                 std::memory_order_relaxed);
            sim_->step();
            stepStartedNs_.store(0, std::memory_order_relaxed);
            if (driven) sim_->setParams(base);
            lastStepSeconds_ = std::chrono::duration<double>(Clock::now() - t0).count();
            windowStepSeconds += lastStepSeconds_;
            expireTransientFields();
            // An edit or the window closing goes before the frame's other
            // steps, which come due again (not lost: they are simulated time).
            std::lock_guard lock(commandMutex_);
            if (stopping_ || !pending_.empty()) {
                if (!ctx.paused) stepper_.giveBack(steps - (s + 1));
                steps = s + 1;
                break;
            }
        }
        if (ctx.paused) ctx.singleSteps -= steps;
        if (steps > 0) stepCountsStale_ = false;
        windowSteps += steps;
        windowSimSeconds += steps * Simulation::kStepSeconds;

        // Up to the end of this frame's steps: a step of seconds shows at once.
        const auto stepped = steps > 0 ? Clock::now() : now;
        const double windowSeconds = std::chrono::duration<double>(stepped - windowStart).count();
        if (windowSeconds >= kStatsWindowSeconds) {
            std::lock_guard lock(statsMutex_);
            stats_.stepMilliseconds = windowSteps > 0 ? 1000.0 * windowStepSeconds / windowSteps : 0.0;
            stats_.realTimeRatio = windowRunningSeconds > 0.5 ? windowSimSeconds / windowRunningSeconds : 1.0;
            windowStart = stepped;
            windowSimSeconds = windowStepSeconds = windowRunningSeconds = 0;
            windowSteps = 0;
        }
        metricsStale = metricsStale || steps > 0 || edited;
        const bool metricsDue =
            metricsStale && std::chrono::duration<double>(now - lastMetrics).count() >= kMetricsEverySeconds;
        if (metricsDue) {
            lastMetrics = now;
            metricsStale = false;
        }
        if (steps > 0 || edited || metricsDue) publish(metricsDue);
    }
}

void SimHost::publish(bool withMetrics) {
    const Simulation& sim = *sim_;
    const Context& ctx = *context_;
    const Scene& scene = sim.scene();
    const std::size_t n = sim.fishCount();

    FrameSnapshot& frame = frames_.writeSlot();
    // Seen with the parameters the step ran with: with audio driving, the
    // routes' values, as the fish and the arrows' scale are drawn.
    const Params& ran = audioDriving_ ? effective_ : sim.params();
    captureDrawable(sim, ran, frame);
    frame.viewMargin = sim.params().get(ParamId::BoundaryMargin);
    for (const ModRoute& route : ctx.routes.routes)
        if (route.target == ParamId::BoundaryMargin)
            frame.viewMargin = std::max(frame.viewMargin, static_cast<float>(std::max(route.min, route.max)));

    const OverlayRequest& o = ctx.overlays;
    frame.inspected.clear();
    std::optional<FishInspection> selected;
    if (o.selectedId) selected = inspectFish(sim, *o.selectedId, ran);
    if (o.neighbours || o.forces || o.vision) {
        if (selected) frame.inspected.push_back(*selected);
        else if (!o.selectedId) frame.inspected = inspectFirstFish(sim, o.firstFish, ran);
    }
    frame.drawNeighbours = o.neighbours;
    frame.drawForces = o.forces;
    frame.drawVision = o.vision;
    frame.selectedPosition.reset();
    if (selected) frame.selectedPosition = selected->position;
    frame.gridCellWidth = frame.gridCellHeight = 0;
    // As the next step lays it out: paused, a new radius or world shows at once.
    if (o.grid) std::tie(frame.gridCellWidth, frame.gridCellHeight) = sim.nextGridCells(ran);
    frames_.publish();

    // Computed before taking the lock: the window never waits for metrics.
    std::optional<Metrics> metrics;
    if (withMetrics) metrics = computeMetrics(sim);
    {
        std::lock_guard lock(statsMutex_);
        stats_.step = sim.stepIndex();
        stats_.fishCount = static_cast<std::uint32_t>(n);
        // Current once metrics computed after the last step say so: a step
        // taken since the last computation still shows that one's count.
        if (stepCountsStale_) stats_.stepCountsCurrent = false;
        else if (metrics) stats_.stepCountsCurrent = true;
        stats_.seed = scene.seed;
        stats_.worldWidth = scene.width;
        stats_.worldHeight = scene.height;
        stats_.paused = ctx.paused;
        stats_.morphing = ctx.morph.has_value();
        stats_.params = scene.params;
        stats_.effectiveParams = audioDriving_ ? effective_ : scene.params;
        stats_.audioDriving = audioDriving_;
        stats_.routeValues = audioDriving_ ? ctx.routes.routeValues(scene.params, audioFrame_, onset_.value())
                                           : std::vector<RouteValue>(ctx.routes.routes.size());
        stats_.predators = scene.predators;
        stats_.predatorsAsSet = sim.predatorsAsSet();
        stats_.obstacles = scene.obstacles;
        stats_.activeFields = scene.fields.size();
        stats_.fields.clear();
        for (const ForceField& field : scene.fields)
            if (!ctx.isTransient(field.id)) stats_.fields.push_back(field);
        stats_.selected = selected;
        stats_.commandsApplied = applied_;
        if (metrics) stats_.metrics = *metrics;
    }
    std::function<void()> ready;
    {
        std::lock_guard lock(commandMutex_);
        ready = frameReady_;
    }
    if (ready) ready();
}

}  // namespace mirofish::editor
