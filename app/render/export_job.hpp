#pragma once
// One export: its own simulation (not the editor's), stepped by exactly
// 1/fps of simulated time per frame (FrameClock), the audio analysed at
// frame / fps, every frame drawn offscreen by the same FishCanvas as the
// window and handed to a sink. Runs one frame per call, so the command line
// loops and the editor interleaves it with its event loop. GUI thread only
// (the simulation of a frame may run on a thread of its own: stepFor).
#include <QImage>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <vector>

#include "cli/audio_drive.hpp"
#include "editor/frame_snapshot.hpp"
#include "editor/triple_buffer.hpp"
#include "export_settings.hpp"
#include "sched/thread_pool.hpp"
#include "sim/frame_clock.hpp"
#include "sim/simulation.hpp"

namespace mirofish::editor {
class FishView;
}

namespace mirofish::render {

class FrameSink;
class OffscreenQuick;

// Where the time went, in seconds.
struct ExportTimes {
    double simulation = 0;  // stepping (and audio routes)
    double capture = 0;     // copying the fish for the view
    double draw = 0;        // Qt Quick's sync and drawing (OpenGL)
    double readBack = 0;    // reading the frame back from OpenGL
    double output = 0;      // handing frames to the sink (waiting for the PNG writers or ffmpeg)
    double total = 0;       // all of the above, for the frames
    double warmup = 0;      // the warm-up before frame 0 (not in the others)
};

// Throws ExportError for settings no export takes (a size, a frame rate, no
// length); the output and ffmpeg are checked by the job.
void checkSettings(const ExportSettings& s);

class ExportJob {
public:
    // Checks everything the user can get wrong (output, ffmpeg, sizes) and
    // throws ExportError before any frame is drawn. The audio file is read
    // and analysed on a thread of its own (minutes for hours of audio):
    // waitForAudio() or the first step tells whether it could be.
    // `stopRequested`, if set, is asked meanwhile: true ends the reading,
    // and the job then throws ExportError.
    explicit ExportJob(ExportSettings settings, std::function<bool()> stopRequested = {});
    ~ExportJob();  // without finish(): cancelled; the sink removes what it began

    // The warm-up, then one frame per call: renders and writes frame
    // framesDone(); then up to a second per call of completing the output.
    // Returns false once every frame is written and the output is complete.
    // Throws ExportError (the output is then cleaned up).
    bool step();
    // The same for a caller with an event loop: starts the frame's
    // simulation on a thread of its own and waits at most `wait` for it;
    // true with nothing drawn while it runs on (call again). So the editor's
    // window keeps answering while a step at absurd settings takes seconds
    // (Cancel included: the destructor abandons that step).
    bool stepFor(std::chrono::milliseconds wait);
    // Waits until the audio file is read and analysed; throws ExportError
    // when it cannot be (missing, corrupt, stopped). Nothing without audio.
    void waitForAudio();
    // The audio file is still being read and analysed (framesTotal() is 0
    // until then when the length is the audio's).
    bool readingAudio() const { return audioAnalysis_.valid(); }

    const ExportSettings& settings() const { return settings_; }
    std::uint64_t framesDone() const { return done_; }
    std::uint64_t framesTotal() const { return settings_.frames; }
    bool warmingUp() const { return warmedUp_ < warmupFrames_; }
    // Every frame is handed over and the output is being completed (the PNG
    // writers' last frames, ffmpeg's end of the video).
    bool finishing() const { return !readingAudio() && done_ >= settings_.frames && !finished_; }
    // Seconds of the warm-up simulated so far, of warmupSeconds().
    double warmedUpSeconds() const { return static_cast<double>(warmedUp_) / settings_.fps; }
    double warmupSeconds() const { return static_cast<double>(warmupFrames_) / settings_.fps; }
    const ExportTimes& times() const { return times_; }
    // The audio file could be read only in part (cli::AudioDrive::warning); empty otherwise.
    std::string audioWarning() const { return audio_ ? audio_->warning : std::string{}; }

private:
    // Everything after the checks: simulation, audio, renderer and output.
    void prepare(const std::function<bool()>& stopRequested);
    using Clock = std::chrono::steady_clock;
    // The parameters of the frame the next call simulates: a warm-up frame
    // or frame framesDone(); none once every frame is written. Once per
    // frame: the audio routes keep state from frame to frame.
    std::optional<Params> nextFrameParams();
    void advanceOneFrame(const Params& params);
    // After the simulation of the frame begun at `start` (times as they were
    // then): draws and writes it (a warm-up frame only draws, with trails).
    void completeFrame(Clock::time_point start, const ExportTimes& before);
    void drawFrame();
    // Whether the output can take the next frame (ffmpeg has taken all but
    // two), waiting at most about `wait`.
    bool outputReadyFor(std::chrono::milliseconds wait);
    // Once every frame is handed over: completes the output, waiting at most
    // about `wait`. step()'s result.
    bool finishOutputFor(std::chrono::milliseconds wait);

    ExportSettings settings_;
    FrameClock clock_;
    std::unique_ptr<ThreadPool> pool_;
    std::unique_ptr<Simulation> sim_;
    std::optional<cli::AudioDrive> audio_;
    Params base_;
    editor::TripleBuffer<editor::FrameSnapshot> feed_;
    std::unique_ptr<OffscreenQuick> quick_;
    editor::FishView* view_ = nullptr;
    std::unique_ptr<FrameSink> sink_;
    QImage image_;
    std::uint64_t warmupFrames_ = 0, warmedUp_ = 0, done_ = 0;
    bool finished_ = false;
    ExportTimes times_;
    // stepFor's frame whose simulation runs on another thread, begun at
    // advanceStart_ with the times of advanceBefore_.
    std::future<void> advancing_;
    Clock::time_point advanceStart_;
    ExportTimes advanceBefore_;
    // The audio file's reading and analysis, until audioReadFor takes it.
    std::future<cli::AudioDrive> audioAnalysis_;
    std::atomic<bool> stopAnalysis_{false};
    void stopAudio();  // asks the analysis to stop and waits for it
    // The folders made for the output, deepest first.
    std::vector<std::filesystem::path> createdFolders_;
    void removeCreatedFolders();
    // Takes the analysis once it is done, waiting at most `wait`: false while
    // it runs on. Throws ExportError when it failed.
    bool audioReadFor(std::chrono::milliseconds wait);
};

// Gives the world the frame's shape, keeping its area (so the density), and
// moves the objects with it (fields, obstacles, predators and the leader,
// their paths too); nothing when the shapes already agree within 0.5 %.
void fitWorldToFrame(ExportSettings& settings);

// Frames for `seconds` at `fps` (rounded to the nearest frame, at least 1).
std::uint64_t framesFor(double seconds, double fps);

}  // namespace mirofish::render
