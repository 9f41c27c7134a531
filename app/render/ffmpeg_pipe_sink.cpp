// MP4 (H.264, yuv420p) and ProRes 4444 MOV through the ffmpeg program: raw
// RGBA frames on its standard input, converted and tagged as BT.709, the
// audio file (if any) muxed in. ffmpeg encodes in its own process while the
// next frame renders. It writes to FILE.part-PID, renamed to FILE only when
// ffmpeg has finished without error: a cancelled or failed export leaves no
// file that looks complete (two renders to one name each write their own:
// io/atomic_file.hpp partialBeside). Where FILE is a link, the file it leads to is
// the one written (checkOutput refused anything else but a file).
#include <QProcess>
#include <algorithm>
#include <cmath>

#include <signal.h>
#include <unistd.h>

#include "cli/audio_decode.hpp"
#include "frame_sink.hpp"
#include "io/atomic_file.hpp"
#include "io/file_names.hpp"

namespace mirofish::render {

namespace {

// An MP4's AAC sound as mono or stereo, whatever the file's channels and the
// layout its header names. ffmpeg's AAC encoder refused many: 9-15 channels
// (a recorder's bounce), and a WAV's FL+FR+LFE+SL+SR or SL+SR, with
// "Unsupported channel layout" as the video started, after the whole
// analysis; 5.1(side), the usual 5.1 WAV, and 7 channels made files of no
// layout, which players may not play. A MOV's PCM keeps every channel.
QString aacChannels(int channels) {
    channels = std::max(channels, 1);
    // The channels renamed by number into ffmpeg's default layout for their
    // count, where it has one (1-8 and 16): the mixing refuses some layouts
    // a header names (SL+SR). Without one, ffmpeg reads them with none.
    QString filters;
    if (channels <= 8 || channels == 16) {
        filters = "channelmap=map=0";
        for (int c = 1; c < channels; ++c) filters += QString("|%1").arg(c);
        filters += QString(":channel_layout=%1c,").arg(channels);
    }
    if (channels == 1) return filters + "pan=mono|c0=c0,";
    if (channels == 2) return filters + "pan=stereo|c0=c0|c1=c1,";
    // Three or more by number, none left out: the first two to the left and
    // the right, each other channel at half into both, scaled so that all
    // at full scale make full scale. A mix by position took the fourth of a
    // recorder's bounce for 5.1's LFE and dropped it, and the centre of a
    // 3.0 file for 2.1's LFE.
    const double side = 2.0 / channels, shared = 1.0 / channels;
    const auto gain = [](double g) { return QString::number(g, 'g', 9); };
    QString both;
    for (int c = 2; c < channels; ++c) both += QString("+%1*c%2").arg(gain(shared)).arg(c);
    return filters + "pan=stereo|c0=" + gain(side) + "*c0" + both + "|c1=" + gain(side) + "*c1" + both + ",";
}

// The frame rate as ffmpeg takes it. The broadcast rates, 24 to 240
// times 1000/1001, are given rounded (23.976, 29.97, 59.94) and written as
// that fraction: the rounded figure made 2997/125, a rate of its own that
// editing software may not match with its 23.976 timelines.
QString frameRateText(double fps) {
    for (const int whole : {24, 30, 48, 60, 120, 240})
        if (std::abs(fps - whole * 1000.0 / 1001.0) < 0.0015) return QString("%1/1001").arg(whole * 1000);
    return QString::number(fps, 'g', 10);
}

QStringList ffmpegArguments(const ExportSettings& s, int audioChannels, const std::filesystem::path& partial) {
    // -xerror: an error ends ffmpeg with a failure. Without it, ffmpeg 5.1
    // that could not write the MP4's trailer (a full disk) still exited 0,
    // leaving a video without its index.
    QStringList a{"-hide_banner", "-loglevel", "error", "-xerror", "-nostdin", "-y",
                  "-f", "rawvideo", "-pix_fmt", "rgba",
                  "-s", QString("%1x%2").arg(s.width).arg(s.height),
                  "-framerate", frameRateText(s.fps), "-i", "-"};
    const bool audio = !s.audioFile.empty();
    if (audio) {
        // The file itself (checkOutput): /dev/stdin would name ffmpeg's own, the frames.
        std::error_code ec;
        const std::filesystem::path file = std::filesystem::canonical(s.audioFile, ec);
        for (const std::string& arg : cli::ffmpegAudioInput(ec ? std::filesystem::path(s.audioFile) : file))
            a << QString::fromStdString(arg);
    }
    // The video's rate stated as the frames': ffmpeg 5.1 otherwise guesses
    // it from the input among rates of its own, which lack 120000/1001 and
    // 240000/1001, and wrote 119.88 fps as 120 with a frame doubled every 8 s.
    a << "-map" << "0:v" << "-r" << frameRateText(s.fps);
    // The first audio stream, the one analysed (cli::decodeAudioFile), from
    // its first sample as the analysis counts it: a video's sound that starts
    // after its picture played late and lost its end (asetpts). At 48 kHz,
    // video's own rate, padded with silence where the audio is shorter than
    // the frames, and cut at the last frame's end to the sample: -shortest
    // alone ends the file on whole audio packets, which ran a MOV's sound up
    // to 65 ms (8 kHz audio 0.4 s) past its last frame.
    if (audio) {
        const auto samples = std::llround(static_cast<double>(s.frames) / s.fps * 48000.0);
        const QString channels = s.kind() == OutputKind::Mp4 ? aacChannels(audioChannels) : QString();
        a << "-map" << "1:a:0" << "-af"
          << channels + QString("asetpts=PTS-STARTPTS,aresample=48000,apad,atrim=end_sample=%1").arg(samples) << "-shortest";
    }
    // RGB to Y'CbCr with the BT.709 matrix, and tagged so. Untagged, ffmpeg
    // converted with BT.601 while players decode HD video with BT.709: pure
    // green played back as (0, 215, 0), a teal (40, 200, 220) as
    // (24, 185, 221). Converted and tagged, both within 3 levels.
    // The frames carry the tags (setparams): ProRes took them only from there.
    // Rounded, not cut: the water (11, 22, 34) was Cr 122 for 122.7, a red
    // 1.4 levels short in every MP4.
    a << "-vf"
      << "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd,"
         "setparams=colorspace=bt709:color_primaries=bt709:color_trc=bt709:range=tv";
    if (s.kind() == OutputKind::Mp4) {
        a << "-c:v" << "libx264" << "-preset" << "superfast" << "-crf" << QString::number(s.crf)
          << "-pix_fmt" << "yuv420p" << "-movflags" << "+faststart";
        if (audio) a << "-c:a" << "aac" << "-b:a" << "192k";
        a << "-f" << "mp4";
    } else {
        a << "-c:v" << "prores_ks" << "-profile:v" << "4444" << "-pix_fmt"
          << (s.alpha ? "yuva444p10le" : "yuv444p10le");
        if (audio) a << "-c:a" << "pcm_s16le";
        a << "-f" << "mov";
    }
    a << QString::fromStdString(ffmpegFileUrl(partial));
    return a;
}

// ffmpeg taking no frame for this long has failed (a stalled share, a
// program that stopped reading).
constexpr std::chrono::minutes kLongestStall{1};

class FfmpegPipeSink : public FrameSink {
public:
    FfmpegPipeSink(const ExportSettings& s, int audioChannels, std::string program)
        : final_(fileTarget(s.output).path), partial_(partialBeside(final_)), alpha_(s.alpha) {
        process_.setProgram(QString::fromStdString(program));
        process_.setArguments(ffmpegArguments(s, audioChannels, partial_));
        process_.setProcessChannelMode(QProcess::SeparateChannels);
        // In a process group of its own: a Ctrl+C in the terminal, or the
        // SIGHUP of one closed, goes to the whole foreground group, and ended
        // ffmpeg at once while the editor was still asking whether to stop
        // the export. The editor or the render stops it itself.
        process_.setChildProcessModifier([] { ::setpgid(0, 0); });
        process_.start();
        if (!process_.waitForStarted(10'000))
            throw ExportError("could not start ffmpeg ('" + program + "'): " + process_.errorString().toStdString());
    }

    ~FfmpegPipeSink() override {
        if (process_.state() != QProcess::NotRunning) {
            // Its whole group (a wrapper script's ffmpeg too), as the audio's decoding is stopped.
            if (const qint64 pid = process_.processId(); pid > 0) ::kill(-static_cast<pid_t>(pid), SIGKILL);
            process_.kill();
            process_.waitForFinished(10'000);
        }
        if (!finished_) {
            std::error_code ignored;
            std::filesystem::remove(partial_, ignored);
        }
    }

    void write(const QImage& frame, std::uint64_t) override {
        // ffmpeg's rgba is straight alpha.
        const QImage straight = alpha_ ? frame.convertToFormat(QImage::Format_RGBA8888) : frame;
        frameBytes_ = straight.sizeInBytes();
        process_.write(reinterpret_cast<const char*>(straight.constBits()), frameBytes_);
        lastTaken_ = std::chrono::steady_clock::now();
        if (stoppedTakingFrames()) failed();
    }

    bool readyFor(std::chrono::milliseconds wait) override {
        // At most two frames in flight: ffmpeg encodes while we render. Its
        // waiting is the caller's (between two calls a render looks at its
        // signals, the editor answers Cancel), not a minute inside write().
        const auto until = std::chrono::steady_clock::now() + wait;
        while (process_.bytesToWrite() > 2 * frameBytes_) {
            if (process_.state() != QProcess::Running || stoppedTakingFrames()) failed();
            failIfStalled();
            const auto now = std::chrono::steady_clock::now();
            if (now >= until) return false;
            const auto slice = std::min(std::chrono::duration_cast<std::chrono::milliseconds>(until - now),
                                        std::chrono::milliseconds(100));
            if (process_.waitForBytesWritten(static_cast<int>(slice.count())))
                lastTaken_ = std::chrono::steady_clock::now();
        }
        if (stoppedTakingFrames()) failed();
        return true;
    }

    bool finishFor(std::chrono::milliseconds wait) override {
        // Its input closed before the last frame: the video is incomplete
        // whenever it ends, and it may never end.
        if (stoppedTakingFrames()) failed();
        const int ms = static_cast<int>(wait.count());
        // The frames still queued (a minute without a byte taken fails, as
        // before a frame), then the end of its input.
        while (process_.bytesToWrite() > 0) {
            if (!process_.waitForBytesWritten(ms)) {
                if (process_.state() != QProcess::Running || stoppedTakingFrames()) failed();
                failIfStalled();
                return false;
            }
            lastTaken_ = std::chrono::steady_clock::now();
        }
        if (!inputClosed_) {
            process_.closeWriteChannel();
            inputClosed_ = true;
        }
        // waitForFinished is false for a timeout and for a process already
        // ended alike: the state tells them apart.
        if (process_.state() != QProcess::NotRunning && !process_.waitForFinished(ms) &&
            process_.state() != QProcess::NotRunning)
            return false;
        // At -loglevel error, anything on its standard error is an error,
        // whatever the exit code says.
        const QByteArray errors = process_.readAllStandardError();
        if (process_.exitStatus() != QProcess::NormalExit || process_.exitCode() != 0 || !errors.trimmed().isEmpty())
            failed(errors);
        // ffmpeg writes at least the container's header: a program that wrote
        // nothing is not ffmpeg at work (it was told as a failed move).
        if (std::error_code missing; !std::filesystem::exists(partial_, missing))
            throw ExportError("'" + process_.program().toStdString() +
                              "' ended without writing the video or saying why: is it the ffmpeg program? "
                              "Nothing was kept");
        std::error_code ec;
        std::filesystem::rename(partial_, final_, ec);
        if (ec) throw ExportError("could not move the finished video to '" + final_.string() + "': " + ec.message());
        finished_ = true;
        return true;
    }

private:
    // A frame could not be handed over: it closed its input (Qt then
    // closes its side and drops what was queued).
    bool stoppedTakingFrames() const { return process_.error() == QProcess::WriteError; }
    void failIfStalled() {
        if (std::chrono::steady_clock::now() - lastTaken_ <= kLongestStall) return;
        stalled_ = true;
        failed();
    }

    // errors: what ffmpeg printed, where the caller has read it already.
    [[noreturn]] void failed(const QByteArray& errors = {}) {
        const bool closedItsInput = stoppedTakingFrames();  // before the wait sets its own error
        process_.waitForFinished(5'000);
        // ffmpeg names the cause itself ("No space left on device" included);
        // when it said nothing, how it ended is all there is to tell.
        QString why = QString::fromLocal8Bit(errors + process_.readAllStandardError()).trimmed();
        if (why.isEmpty())
            why = closedItsInput && process_.state() != QProcess::NotRunning
                      ? QStringLiteral("it stopped taking the frames (closed its input), without a message")
                  : stalled_ && process_.state() != QProcess::NotRunning
                      ? QStringLiteral("it took no frame for a minute, without a message")
                  : process_.state() != QProcess::NotRunning     ? process_.errorString()
                  : process_.exitStatus() == QProcess::CrashExit ? QStringLiteral("it was killed, without a message")
                  : process_.exitCode() == 0
                      ? QStringLiteral("it ended before the video was complete (exit code 0), without a message")
                      : QStringLiteral("it exited with code %1, without a message").arg(process_.exitCode());
        throw ExportError("ffmpeg failed writing '" + final_.string() + "': " + why.toStdString() +
                          "; nothing was kept");
    }

    QProcess process_;
    std::filesystem::path final_, partial_;
    bool alpha_;
    qsizetype frameBytes_ = 0;
    // When ffmpeg last took bytes (or a frame was handed over).
    std::chrono::steady_clock::time_point lastTaken_ = std::chrono::steady_clock::now();
    bool stalled_ = false;
    bool inputClosed_ = false;
    bool finished_ = false;
};

}  // namespace

std::unique_ptr<FrameSink> openFfmpegPipe(const ExportSettings& settings, int audioChannels) {
    return std::make_unique<FfmpegPipeSink>(settings, audioChannels, findProgram(ffmpegProgram(settings)));
}

}  // namespace mirofish::render
