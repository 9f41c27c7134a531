#include "export_job.hpp"

#include <QQuickItem>
#include <algorithm>
#include <cmath>
#include <thread>

#include "cli/audio_decode.hpp"
#include "editor/fish_view.hpp"
#include "editor/frame_capture.hpp"
#include "editor/trail_frame.hpp"
#include "frame_sink.hpp"
#include "io/atomic_file.hpp"
#include "io/whole_path.hpp"
#include "offscreen_quick.hpp"

namespace mirofish::render {

namespace {
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

constexpr int kMinSide = 16, kMaxSide = 16384;


// The folders that do not exist yet on the way to the output's folder (a
// video's: through a link, the folder of the file it leads to), deepest
// first. Taken as written: "new/../frames" makes "new" on its way, which a
// lexically normal path ("frames") left behind, empty.
std::vector<std::filesystem::path> missingFolders(const ExportSettings& s) {
    // None named: checkOutput says so (absolute("") throws a library error).
    if (s.output.empty()) return {};
    std::filesystem::path output = wholePath(s.output);
    if (!output.has_filename()) output = output.parent_path();  // "frames/"
    const std::filesystem::path folder =
        s.kind() == OutputKind::PngSequence ? output : wholePath(fileTarget(output).path).parent_path();
    std::vector<std::filesystem::path> missing;
    std::filesystem::path prefix;
    std::error_code ec;
    for (const std::filesystem::path& part : folder) {
        prefix /= part;
        if (part == "." || part == "..") continue;  // no folder of its own
        // A link, even one that leads nowhere (a drive not mounted), is the
        // user's: not made here, so never removed (removing it removed the link).
        if (std::filesystem::is_symlink(prefix, ec)) continue;
        // "new/../old" of an "old" there is no folder made: where it leads
        // as the system goes (through a linked folder's "..", the parent of
        // where the link leads).
        if (!std::filesystem::exists(prefix, ec) &&
            !std::filesystem::exists(std::filesystem::weakly_canonical(prefix, ec), ec))
            missing.push_back(prefix);
    }
    std::reverse(missing.begin(), missing.end());
    return missing;
}
}  // namespace

void fitWorldToFrame(ExportSettings& s) {
    Scene& scene = s.preset.scene;
    const double aspect = static_cast<double>(s.width) / s.height;
    // Nearly the frame's shape already: keep the world exactly as it is.
    if (std::abs(scene.width / scene.height / aspect - 1.0) < 0.005) return;
    const double area = static_cast<double>(scene.width) * scene.height;
    const float width = static_cast<float>(std::sqrt(area * aspect));
    const float height = static_cast<float>(std::sqrt(area / aspect));
    // The objects keep their places relative to the world (a rock two thirds
    // across stays two thirds across), not their pixels, which could fall
    // outside the new world. Radii stay: the area is the same.
    const Vec2 scale{{width / scene.width, height / scene.height}};
    const auto move = [&](Vec2& p) { p = Vec2{{p[0] * scale[0], p[1] * scale[1]}}; };
    for (ForceField& f : scene.fields) move(f.position);
    for (Obstacle& o : scene.obstacles) move(o.centre);
    for (Predator& p : scene.predators) {
        move(p.position);
        for (Vec2& w : p.path) move(w);
    }
    if (scene.leader) {
        move(scene.leader->position);
        for (Vec2& w : scene.leader->path) move(w);
    }
    scene.width = width;
    scene.height = height;
}

std::uint64_t framesFor(double seconds, double fps) {
    return static_cast<std::uint64_t>(std::max(1.0, std::round(seconds * fps)));
}

void checkSettings(const ExportSettings& s) {
    if (s.width < kMinSide || s.height < kMinSide || s.width > kMaxSide || s.height > kMaxSide)
        throw ExportError("the size " + std::to_string(s.width) + "x" + std::to_string(s.height) +
                          " is out of range (each side " + std::to_string(kMinSide) + " to " +
                          std::to_string(kMaxSide) + " px)");
    if (s.kind() == OutputKind::Mp4 && (s.width % 2 || s.height % 2))
        throw ExportError("MP4 (yuv420p) wants an even width and height, got " + std::to_string(s.width) + "x" +
                          std::to_string(s.height));
    if (s.alpha && s.kind() == OutputKind::Mp4)
        throw ExportError("a transparent background needs a PNG sequence or a .mov (H.264 has no alpha)");
    if (!(s.fps > 0 && s.fps <= 240)) throw ExportError("the frame rate must be above 0 and at most 240");
    if (s.frames < 1 && s.audioFile.empty())
        throw ExportError("nothing to export: no length given, and no audio file to take one from");
    if (!(s.warmupSeconds >= 0 && s.warmupSeconds <= 3600)) throw ExportError("the warm-up must be 0 to 3600 s");
    if (s.crf < kBestCrf || s.crf > 51)
        throw ExportError("the MP4 quality (crf) must be " + std::to_string(kBestCrf) + " to 51");
    if (s.pngCompression < 0 || s.pngCompression > 9) throw ExportError("the PNG compression must be 0 to 9");
}

ExportJob::ExportJob(ExportSettings settings, std::function<bool()> stopRequested) : settings_(std::move(settings)) {
    checkSettings(settings_);
    createdFolders_ = missingFolders(settings_);
    try {
        // It may create the folders, then find them not writable.
        checkOutput(settings_);
        prepare(stopRequested);
    } catch (...) {
        stopAudio();
        removeCreatedFolders();
        throw;
    }
}

void ExportJob::stopAudio() {
    if (!audioAnalysis_.valid()) return;
    stopAnalysis_.store(true, std::memory_order_relaxed);
    audioAnalysis_.wait();
}

// Nothing kept: leave no empty folder made for it (an unreadable audio
// file, no OpenGL, a cancel, a video that failed).
void ExportJob::removeCreatedFolders() {
    std::error_code ignored;
    for (const auto& folder : createdFolders_)
        if (std::filesystem::is_directory(std::filesystem::symlink_status(folder, ignored)))
            std::filesystem::remove(folder, ignored);  // only if empty
}

void ExportJob::prepare(const std::function<bool()>& stopRequested) {
    clock_ = FrameClock::forFps(settings_.fps);

    const int threads = settings_.threads > 0 ? settings_.threads
                                              : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    pool_ = std::make_unique<ThreadPool>(threads);
    if (settings_.fitWorld) fitWorldToFrame(settings_);
    sim_ = std::make_unique<Simulation>(settings_.preset.scene, *pool_);
    sim_->setStepSeconds(clock_.stepSeconds);
    base_ = sim_->params();
    if (settings_.trails) base_.set(ParamId::Trails, *settings_.trails ? 1.0f : 0.0f);
    if (!settings_.audioFile.empty()) {
        // On a thread of its own: minutes for hours of audio, during which
        // the editor's window answers and Cancel works (the destructor asks it to stop).
        audioAnalysis_ = std::async(std::launch::async, [this, stopRequested, base = base_] {
            const auto stop = [this, stopRequested] {
                return stopAnalysis_.load(std::memory_order_relaxed) || (stopRequested && stopRequested());
            };
            cli::AudioDrive drive = cli::analyseAudioDrive(settings_.audioFile, settings_.preset, base, settings_.fps,
                                                           settings_.ffmpeg, {{}, stop});
            if (settings_.kind() != OutputKind::PngSequence) {
                // Only what the video carries: a length given, or all of the audio.
                const double seconds = static_cast<double>(settings_.frames) / settings_.fps;
                cli::checkAudioForVideo(settings_.audioFile, seconds, {{}, stop}, settings_.ffmpeg);
            }
            return drive;
        });
    }
    warmupFrames_ = static_cast<std::uint64_t>(std::llround(settings_.warmupSeconds * settings_.fps));

    try {
        quick_ = std::make_unique<OffscreenQuick>(QUrl(QStringLiteral("qrc:/MiroFish/FishCanvas.qml")),
                                                  QSize(settings_.width, settings_.height), settings_.alpha);
    } catch (const RenderError& e) {
        throw ExportError(e.what());
    }
    view_ = quick_->root()->findChild<editor::FishView*>();
    if (!view_) throw ExportError("the export scene has no fish view");
    view_->setFrameFeed(&feed_);
    view_->setGuides(false);
    view_->setShowOvershoot(false);

    // A video with sound starts once the audio file is read: ffmpeg cuts the
    // sound at the last frame (the audio's length, where no length is given)
    // and is told the file's channels.
    if (settings_.kind() == OutputKind::PngSequence) sink_ = openPngSequence(settings_);
    else if (settings_.audioFile.empty()) sink_ = openFfmpegPipe(settings_);
}

ExportJob::~ExportJob() {
    stopAudio();
    // A cancelled export does not wait for a frame's steps to end.
    if (advancing_.valid()) {
        sim_->abandon();
        advancing_.wait();
    }
    if (!finished_) {
        sink_.reset();  // removes what it began (ffmpeg's unfinished file)
        // Left empty, as a video not kept leaves them: its frames kept, a
        // PNG sequence's are not.
        removeCreatedFolders();
    }
}

void ExportJob::advanceOneFrame(const Params& params) {
    const auto t0 = Clock::now();
    sim_->setParams(params);
    for (int s = 0; s < clock_.stepsPerFrame; ++s) sim_->step();
    times_.simulation += since(t0);
}

void ExportJob::drawFrame() {
    const auto t0 = Clock::now();
    captureDrawable(*sim_, sim_->params(), feed_.writeSlot());
    feed_.publish();
    view_->setTrailFrame(editor::trailFrame(sim_->params(), 1.0 / settings_.fps));
    view_->update();
    times_.capture += since(t0);
    const auto t1 = Clock::now();
    try {
        quick_->render();
    } catch (const RenderError& e) {
        throw ExportError(e.what());
    }
    times_.draw += since(t1);
}

std::optional<Params> ExportJob::nextFrameParams() {
    // The audio starts with frame 0: the warm-up runs on the preset's parameters.
    if (warmedUp_ < warmupFrames_) return base_;
    if (done_ < settings_.frames) return audio_ ? audio_->paramsAt(done_) : base_;
    return std::nullopt;
}

void ExportJob::completeFrame(Clock::time_point start, const ExportTimes& before) {
    if (warmedUp_ < warmupFrames_) {
        // With trails the canvas is part of the picture: paint it during the warm-up too.
        if (base_.get(ParamId::Trails) >= 0.5f) drawFrame();
        ++warmedUp_;
        times_ = before;
        times_.warmup += since(start);
        return;
    }
    drawFrame();
    const auto r0 = Clock::now();
    quick_->readBack(image_);
    times_.readBack += since(r0);
    const auto w0 = Clock::now();
    sink_->write(image_, done_);
    times_.output += since(w0);
    ++done_;
    times_.total += since(start);
}

bool ExportJob::outputReadyFor(std::chrono::milliseconds wait) {
    const auto start = Clock::now();
    const bool ready = sink_->readyFor(wait);
    times_.output += since(start);
    times_.total += since(start);
    return ready;
}

bool ExportJob::finishOutputFor(std::chrono::milliseconds wait) {
    const auto start = Clock::now();
    finished_ = sink_->finishFor(wait);
    times_.output += since(start);
    times_.total += since(start);
    return !finished_;
}

bool ExportJob::audioReadFor(std::chrono::milliseconds wait) {
    if (!audioAnalysis_.valid()) return true;
    if (audioAnalysis_.wait_for(wait) != std::future_status::ready) return false;
    try {
        audio_ = audioAnalysis_.get();
    } catch (const std::exception& e) {
        throw ExportError(e.what());
    }
    if (settings_.frames == 0) settings_.frames = framesFor(audio_->durationSeconds, settings_.fps);
    if (!sink_) sink_ = openFfmpegPipe(settings_, audio_->channels);
    return true;
}

void ExportJob::waitForAudio() {
    while (!audioReadFor(std::chrono::seconds(1))) {
    }
}

bool ExportJob::step() {
    if (finished_) return false;
    waitForAudio();
    const auto params = nextFrameParams();
    // A caller between calls can stop it while ffmpeg completes a long video,
    // or while it has not taken the frames handed over yet.
    if (!params) return finishOutputFor(std::chrono::seconds(1));
    if (!outputReadyFor(std::chrono::milliseconds(100))) return true;
    const auto start = Clock::now();
    const ExportTimes before = times_;
    advanceOneFrame(*params);
    completeFrame(start, before);
    return true;
}

bool ExportJob::stepFor(std::chrono::milliseconds wait) {
    if (finished_) return false;
    if (!audioReadFor(wait)) return true;
    if (!advancing_.valid()) {
        const auto params = nextFrameParams();
        if (!params) return finishOutputFor(wait);  // only the output's end is left
        if (!outputReadyFor(wait)) return true;
        advanceStart_ = Clock::now();
        advanceBefore_ = times_;
        advancing_ = std::async(std::launch::async, [this, p = *params] { advanceOneFrame(p); });
    }
    if (advancing_.wait_for(wait) != std::future_status::ready) return true;
    advancing_.get();
    completeFrame(advanceStart_, advanceBefore_);
    return true;
}

}  // namespace mirofish::render
