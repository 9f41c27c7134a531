#include "render_command.hpp"

#include <QGuiApplication>
#include <QQuickStyle>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iomanip>
#include <optional>

#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/preset_paths.hpp"
#include "export_job.hpp"
#include "frame_sink.hpp"
#include "io/printable_text.hpp"
#include "sim/scene.hpp"
#include "stop_signals.hpp"
#include "xvfb_wrap.hpp"

namespace mirofish::render {

namespace {
// About 46 hours at 60 fps; --frames and --seconds alike.
constexpr std::uint64_t kMaxFrames = 10'000'000;

const std::vector<cli::OptionSpec> kOptions = {
    {"preset", "NAME|FILE", "preset id or file (default " + std::string(cli::kDefaultPreset) + ")"},
    {"frames", "N", "frames to render"},
    {"seconds", "S", "or seconds to render (frames = round(S x fps), at least 1); with --audio and neither: the audio's length"},
    {"fps", "F", "frames per second (default 30); each frame is exactly 1/F s of simulated time"},
    {"size", "WxH", "frame size in px (default 1920x1080)"},
    {"warmup", "S", "seconds simulated before the first frame, in whole frames (default 0)"},
    {"seed", "S", "override the preset's seed"},
    {"fish", "N", "override the preset's fish count"},
    {"world", "WxH", "override the preset's world size in px"},
    {"fit-world", "", "give the world the frame's shape, keeping its area (else a world of another shape is letterboxed)"},
    {"audio", "FILE", "drive the parameters through the preset's audio routes (frame k hears k/fps s) and mux it in"},
    {"trails", "on|off", "override the preset's trails setting"},
    {"alpha", "", "transparent background (PNG sequence and MOV)"},
    {"crf", "Q", "MP4 quality: H.264 constant rate factor, 1 best to 51 worst (default 18)"},
    {"png-compression", "L", "PNG zlib level, 0 stored (fastest, largest), 1 run-length matches (default), 2-9 smaller and slower"},
    {"ffmpeg", "PROGRAM", "the ffmpeg program for MP4, MOV and audio other than WAV (default $MIROFISH_FFMPEG, else ffmpeg)"},
    {"threads", "T", "simulation threads (default: all cores); frames do not depend on it"},
    {"out", "DIR|FILE.mp4|FILE.mov", "a folder for frame_000000.png..., an H.264 MP4 or a ProRes 4444 MOV"},
};

ExportSettings parseSettings(const cli::Args& a) {
    ExportSettings s;
    s.preset = cli::loadPresetByName(a.value("preset").value_or(cli::kDefaultPreset));
    s.preset.scene.fishCount =
        static_cast<std::uint32_t>(a.integer("fish", s.preset.scene.fishCount, 1, kMaxFish));
    s.preset.scene.seed = a.unsignedInteger("seed", s.preset.scene.seed);
    if (auto world = a.value("world")) {
        const auto [w, h] = cli::parseSize("--world", *world, 1, static_cast<int>(kMaxWorldSize));
        s.preset.scene.width = static_cast<float>(w);
        s.preset.scene.height = static_cast<float>(h);
    }
    if (auto size = a.value("size")) std::tie(s.width, s.height) = cli::parseSize("--size", *size, 16, 16384);
    s.fitWorld = a.has("fit-world");
    s.fps = a.number("fps", 30, 1, 240);
    s.warmupSeconds = a.number("warmup", 0, 0, 3600);
    s.audioFile = a.value("audio").value_or("");
    if (auto trails = a.value("trails")) {
        if (*trails != "on" && *trails != "off") throw cli::ArgError("--trails wants on or off, got '" + *trails + "'");
        s.trails = *trails == "on";
    }
    s.alpha = a.has("alpha");
    s.pngCompression = static_cast<int>(a.integer("png-compression", 1, 0, 9));
    s.ffmpeg = a.value("ffmpeg").value_or("");
    s.threads = static_cast<int>(a.integer("threads", 0, 1, 256));
    const auto out = a.value("out");
    if (!out) throw cli::ArgError("--out is required: a folder, FILE.mp4 or FILE.mov");
    // "-" usually means standard output, which takes no frames; a folder named "-" would surprise.
    if (*out == "-") throw cli::ArgError("--out cannot be '-' (standard output): give a folder, FILE.mp4 or FILE.mov");
    s.output = *out;
    // Each sets one kind of output alone: beside another it would do nothing, without a word.
    if (a.has("crf") && s.kind() != OutputKind::Mp4)
        throw cli::ArgError("--crf sets an MP4's quality; " +
                            std::string(s.kind() == OutputKind::ProRes ? "ProRes 4444 has a quality of its own"
                                                                       : "a PNG sequence is lossless") +
                            ": drop --crf, or give --out FILE.mp4");
    try {
        s.crf = static_cast<int>(a.integer("crf", 18, kBestCrf, 51));
    } catch (const cli::ArgError&) {
        bool lossless = false;
        try {
            lossless = a.integer("crf", 18, 0, 0) == 0;
        } catch (const cli::ArgError&) {
        }
        if (!lossless) throw;
        throw cli::ArgError("--crf 0 is H.264's lossless mode, whose profile (High 4:4:4 Predictive) few players open: " +
                            std::to_string(kBestCrf) + " is the best quality that plays everywhere; for lossless frames "
                            "give --out a folder (PNG) or FILE.mov (ProRes 4444)");
    }
    if (a.has("png-compression") && s.kind() != OutputKind::PngSequence)
        throw cli::ArgError("--png-compression is for a PNG sequence (--out a folder), not a video: drop it");
    if (a.has("frames") && a.has("seconds")) throw cli::ArgError("give --frames or --seconds, not both");
    if (a.has("frames")) s.frames = static_cast<std::uint64_t>(a.integer("frames", 0, 1, kMaxFrames));
    else if (a.has("seconds")) {
        s.frames = framesFor(a.number("seconds", 0, 1e-3, 86'400), s.fps);
        if (s.frames > kMaxFrames)
            throw cli::ArgError("--seconds x --fps makes " + std::to_string(s.frames) + " frames; at most " +
                                std::to_string(kMaxFrames) + " are rendered");
    }
    else if (s.audioFile.empty()) throw cli::ArgError("give the length: --frames N or --seconds S (or --audio FILE)");
    return s;
}

std::string clockText(double seconds) {
    const long s = std::lround(std::max(0.0, seconds));
    std::ostringstream t;
    if (s >= 3600) t << s / 3600 << " h ";
    if (s >= 60) t << (s / 60) % 60 << " min ";
    t << s % 60 << " s";
    return t.str();
}

// seconds: since the first frame was written. The rate counts the frames
// after it; with none yet there is no rate to tell ("frame 1/1, 12048192.8
// fps" was printed).
void printProgress(std::ostream& err, const ExportJob& job, double seconds) {
    err << "render: frame " << job.framesDone() << "/" << job.framesTotal();
    if (job.framesDone() > 1 && seconds > 0) {
        const double fps = static_cast<double>(job.framesDone() - 1) / seconds;
        const double left = static_cast<double>(job.framesTotal() - job.framesDone()) / fps;
        err << ", " << std::fixed << std::setprecision(1) << fps << " fps, " << clockText(left) << " left"
            << std::defaultfloat;
    }
    err << "\n" << std::flush;
}

void printSummary(std::ostream& err, const ExportJob& job) {
    const ExportTimes& t = job.times();
    auto share = [&](double part) { return t.total > 0 ? 100.0 * part / t.total : 0.0; };
    err << std::fixed << std::setprecision(1) << "render: " << job.framesDone()
        << (job.framesDone() == 1 ? " frame in " : " frames in ") << t.total << " s ("
        << (t.total > 0 ? static_cast<double>(job.framesDone()) / t.total : 0.0) << " fps); simulation "
        << share(t.simulation) << "%, copying fish " << share(t.capture) << "%, drawing " << share(t.draw)
        << "%, read-back " << share(t.readBack) << "%, waiting for the output " << share(t.output) << "%";
    if (t.warmup > 0) err << "; the warm-up took " << t.warmup << " s before";
    err << "\n" << std::defaultfloat;
}

enum class RenderEnd { Done, Stopped, ProgressUnread };

// Renders every frame, with progress on `err`; Stopped when a stop signal came first, ProgressUnread when the
// reader of `err` went away (a closed pipe; another failure, such as a full
// disk behind `2>log`, only loses the progress). Throws ExportError.
RenderEnd renderAll(ExportJob& job, std::ostream& err) {
    using Clock = std::chrono::steady_clock;
    auto lastReport = Clock::now();
    std::optional<Clock::time_point> firstFrame;  // the rate counts from here, after the warm-up
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - *firstFrame).count(); };
    // From the first frame to the last, once every frame is rendered: the
    // output's completion (ffmpeg moving a long MP4's index, the last PNG
    // files) is no rendering, and counted in the rate it fell every second
    // under "0 s left".
    std::optional<double> renderedIn;
    bool completionSaid = false;
    // The warm-up is whole frames: one asked for between them is rounded, and
    // one under half a frame dropped, said either way.
    const double askedWarmup = job.settings().warmupSeconds;
    const bool warmupRounded = std::abs(askedWarmup - job.warmupSeconds()) > 1e-9;
    if (job.warmingUp()) {
        err << "render: warming up: " << job.warmupSeconds() << " s of simulation before the first frame";
        if (warmupRounded)
            err << " (the " << askedWarmup << " s asked for, rounded to whole frames of 1/" << job.settings().fps << " s)";
        err << "\n";
    } else if (warmupRounded) {
        err << "render: no warm-up: the " << askedWarmup << " s asked for is under half a frame (1/"
            << job.settings().fps << " s), and the warm-up is whole frames\n";
    }
    // Asked right after each write, while errno is still that write's.
    bool progressLost = false;
    const auto readerGone = [&] {
        if (!err.fail() || progressLost) return false;
        progressLost = true;
        return errno == EPIPE;
    };
    if (readerGone()) return RenderEnd::ProgressUnread;
    while (job.step()) {
        if (StopSignals::received()) return RenderEnd::Stopped;
        if (!firstFrame && !job.warmingUp()) firstFrame = Clock::now();
        if (job.finishing() && !renderedIn) renderedIn = firstFrame ? elapsed() : 0.0;
        if (Clock::now() - lastReport < std::chrono::seconds(1)) continue;
        lastReport = Clock::now();
        if (renderedIn) {
            if (completionSaid) continue;
            printProgress(err, job, *renderedIn);
            err << "render: every frame rendered; "
                << (job.settings().kind() == OutputKind::PngSequence ? "writing the last frames' files"
                                                                      : "ffmpeg is completing the video")
                << "\n" << std::flush;
            completionSaid = true;
        } else if (job.framesDone() > 0) {
            // Progress counts frames from the first one written (not "frame 0/N, 0 fps" right after the warm-up).
            printProgress(err, job, elapsed());
        } else if (job.warmingUp()) {
            err << "render: warming up, " << std::fixed << std::setprecision(1) << job.warmedUpSeconds() << " of "
                << job.warmupSeconds() << " s\n" << std::defaultfloat << std::flush;
        }
        if (readerGone()) return RenderEnd::ProgressUnread;
    }
    if (!completionSaid) printProgress(err, job, renderedIn.value_or(firstFrame ? elapsed() : 0.0));
    printSummary(err, job);
    return RenderEnd::Done;
}

// The complete output's path on `out`, flushed here, while SIGPIPE is
// ignored: later, a pipe closed at the end (`2>&1 | head -1`) killed a
// render that was complete. A reader gone took what it wanted; another
// failure (a full disk behind `> log`) is said as what it is, for the
// render is complete, and the exit code is 1.
int printOutputPath(std::ostream& out, std::ostream& err, const std::filesystem::path& output) {
    errno = 0;
    out << output.string() << "\n" << std::flush;
    if (out) return cli::kExitOk;
    const int why = errno;
    out.clear();  // stdio drops what it failed to write: nothing is left for a later flush
    if (why == EPIPE) return cli::kExitOk;
    err << "mirofish render: the render is complete (" << printableText(output.string())
        << "), but its path could not be written to standard output: "
        << (why != 0 ? std::strerror(why) : "the write was refused") << "\n";
    return cli::kExitFailed;
}

// A pipe closed under the progress (`render ... 2>&1 | head -1`) fails its
// writes instead of killing the render in the middle of a file, and the
// render stops as on a full disk. Starting ffmpeg ignores SIGPIPE too (Qt's
// QProcess does), so both kinds of output end alike.
class SigpipeIgnored {
public:
    SigpipeIgnored() : previous_(std::signal(SIGPIPE, SIG_IGN)) {}
    ~SigpipeIgnored() { std::signal(SIGPIPE, previous_); }
    SigpipeIgnored(const SigpipeIgnored&) = delete;
    SigpipeIgnored& operator=(const SigpipeIgnored&) = delete;

private:
    void (*previous_)(int);
};

int reportStop(std::ostream& err, const ExportSettings& s, std::uint64_t written, std::uint64_t total, int signal) {
    err << "mirofish render: stopped by a signal after " << written << " of " << total
        << (total == 1 ? " frame; " : " frames; ")
        << printableText(stoppedOutputNote(s, written)) << "\n";
    return exitCodeFor(signal);
}

}  // namespace

int runRender(int argc, char** argv, const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const cli::CommandSpec spec{
        "render",
        "mirofish render [options] [--frames N | --seconds S] [--audio FILE] --out DIR|FILE.mp4|FILE.mov",
        "Renders a preset offscreen, not in real time, to a PNG sequence or a video (through ffmpeg),\n"
        "--frames or --seconds long, or as long as the --audio file when neither is given.\n"
        "The same seed, settings and audio give byte-identical PNG frames. Needs no display: without\n"
        "one it runs itself inside Xvfb. Progress on stderr.",
        kOptions};
    const int code = cli::runCommand(spec, args, out, err, [&](const cli::Args& a) {
        ExportSettings settings = parseSettings(a);
        if (!displayAvailable()) return runUnderXvfb(argc, argv, err);

        QGuiApplication app(argc, argv);
        const StopSignals stopSignals;
        const SigpipeIgnored sigpipeIgnored;
        std::optional<ExportJob> job;
        // Reading and analysing hours of audio takes a while before the first frame.
        if (!settings.audioFile.empty()) err << "render: reading the audio file " << printableText(settings.audioFile) << "\n";
        try {
            // A stop ends the reading of the audio file too (minutes for hours of audio).
            job.emplace(settings, StopSignals::asked);
            job->waitForAudio();  // an unreadable audio file is refused before any frame, too
        } catch (const ExportError& e) {
            // A stop before any frame: the job removed what it had made (its
            // folder), and the length may not be known yet (the audio's).
            job.reset();
            if (const int signal = StopSignals::received()) {
                err << "mirofish render: stopped by a signal before the first frame; nothing was written\n";
                return exitCodeFor(signal);
            }
            // Found before any frame was drawn: the settings or the output are wrong.
            throw cli::ArgError(e.what());
        }
        if (const std::string warning = job->audioWarning(); !warning.empty())
            err << "mirofish render: warning: " << printableText(warning) << "\n";
        std::string failure;
        RenderEnd end = RenderEnd::Stopped;
        try {
            end = renderAll(*job, err);
            if (end == RenderEnd::Done) return printOutputPath(out, err, settings.output);
        } catch (const ExportError& e) {
            failure = e.what();
        }
        const std::uint64_t handedOver = job->framesDone(), total = job->framesTotal();
        job.reset();  // its sink removes what it began
        // A signal also reaches ffmpeg when the terminal sends it to the
        // whole process group: the write error that follows is the stop.
        if (const int signal = StopSignals::received())
            return reportStop(err, settings, framesWritten(settings, handedOver), total, signal);
        if (end == RenderEnd::ProgressUnread)
            failure = "could not write the output (the progress's pipe was closed); " +
                      stoppedOutputNote(settings, framesWritten(settings, handedOver));
        err << "mirofish render: " << printableText(failure) << "\n";
        return cli::kExitFailed;
    });
    reportToOuterRender(code);
    return code;
}

}  // namespace mirofish::render
