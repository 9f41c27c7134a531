#pragma once
// The simulation thread. It owns the Simulation; everyone else talks to it
// through queued commands (applied between steps) and reads what it
// publishes: the newest FrameSnapshot (lock-free, for the renderer) and a
// small SimStats (under a mutex, for text). Qt-free on purpose: the thread
// never touches a QObject; it calls frameReady, which the editor turns into
// a queued signal.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "audio/audio_feed.hpp"
#include "audio/modulation.hpp"
#include "edit/param_morph.hpp"
#include "frame_snapshot.hpp"
#include "sched/thread_pool.hpp"
#include "sim/fixed_stepper.hpp"
#include "sim/simulation.hpp"
#include "triple_buffer.hpp"

namespace mirofish::editor {

class SimHost {
public:
    // What a command may touch: the simulation and the thread's own settings.
    struct Context;
    using Command = std::function<void(Context&)>;

    // audio: what drives the parameters through the context's routes (may be
    // null); paused: the thread starts paused, at step 0.
    SimHost(Scene scene, int threads, std::shared_ptr<const AudioFeed> audio = nullptr, bool paused = false);
    ~SimHost();
    SimHost(const SimHost&) = delete;
    SimHost& operator=(const SimHost&) = delete;

    // Any thread. Applied in order, between steps. Returns the command's
    // number, 1 for the first: a report whose commandsApplied has reached it
    // shows it applied.
    std::uint64_t post(Command command);

    // Called on the simulation thread after each publish; must be cheap and thread-safe.
    void setFrameReady(std::function<void()> callback);

    TripleBuffer<FrameSnapshot>& frames() { return frames_; }
    SimStats stats() const;
    // Any thread: how long the step in progress has run, 0 between steps.
    // Settings that make every fish examine tens of thousands of others give
    // steps of seconds, and the window says so before the first one ends.
    double runningStepSeconds() const;
    // Just the routes' live values (the route table refreshes them 30 times a second).
    std::vector<RouteValue> routeValues() const;

private:
    void run();
    void publish(bool stepped);
    void expireTransientFields();
    // The parameters for the next step: the base ones with the audio routes
    // applied when audio drives now. Returns whether it drives.
    bool modulate();

    std::unique_ptr<ThreadPool> pool_;
    std::unique_ptr<Simulation> sim_;
    std::unique_ptr<Context> context_;
    FixedStepper stepper_;
    std::shared_ptr<const AudioFeed> audio_;
    // The audio frame of the last step and what the routes made of it (simulation thread only).
    AudioFeatures audioFrame_;
    OnsetEnvelope onset_;
    bool audioDriving_ = false;
    bool stepCountsStale_ = false;  // an edit since the last step changed what the counts describe
    Params effective_;

    std::mutex commandMutex_;
    std::condition_variable wake_;
    std::vector<Command> pending_;
    std::uint64_t posted_ = 0;   // under commandMutex_
    std::uint64_t applied_ = 0;  // simulation thread only
    bool stopping_ = false;

    // When the step in progress began (steady clock, nanoseconds), 0 between
    // steps. Relaxed: a figure for the window, ordered with nothing else.
    std::atomic<std::int64_t> stepStartedNs_{0};
    double lastStepSeconds_ = 0;  // simulation thread only

    std::function<void()> frameReady_;
    TripleBuffer<FrameSnapshot> frames_;
    mutable std::mutex statsMutex_;
    SimStats stats_;
    std::thread thread_;
};

// A field that lives only while a gesture lasts (pointer attract/repel, a
// swipe's scare); never saved in a preset.
struct TransientField {
    std::uint32_t id = 0;
    std::uint64_t expiresAtStep = 0;  // 0: until removed
};

struct SimHost::Context {
    explicit Context(Simulation& simulation) : sim(simulation) {}
    Simulation& sim;
    bool paused = false;
    int singleSteps = 0;
    OverlayRequest overlays;
    std::optional<ParamMorph> morph;
    double morphElapsed = 0;
    std::vector<TransientField> transient;
    std::optional<std::uint32_t> pointerField;  // the school tool's drag (transient too)
    // The predator or obstacle a drag holds (its index), found once at its
    // press: found again at each move as the nearest to where it was put,
    // another (or, wrapped to the far edge, none) could be nearer by then,
    // and the drag took that one.
    std::optional<std::size_t> dragged;
    // The audio routes. sim.params() stays the user's (base) parameters; the
    // routes act only around each step, so every edit, undo and save works
    // on the base values.
    ModulationMatrix routes;

    bool isTransient(std::uint32_t fieldId) const;
    // The school's size, and a selected fish that no longer exists let go
    // (else it would come back selected when the count grows again, and
    // the overlays would show no fish meanwhile).
    void setFishCount(std::uint32_t count);
    // A new school from `seed`, at step 0. A timed transient field (a
    // swipe's scare) keeps the steps it had left: its end, a step number,
    // would otherwise lie minutes ahead.
    void reset(std::uint64_t seed);
};

}  // namespace mirofish::editor
