#include "cli/audio_decode.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <csignal>
#include <poll.h>
#include <spawn.h>
#include <optional>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include "audio/resample.hpp"
#include "io/broken_link.hpp"
#include "io/file_names.hpp"
#include "io/whole_file.hpp"
#include "params/number_text.hpp"

extern char** environ;

namespace mirofish::cli {

namespace {
// A RIFF WAVE file by its first bytes, whatever its name: a Broadcast WAV
// (.bwf) or one saved without an extension is read natively, also where
// no ffmpeg is installed.
bool startsLikeWav(const std::filesystem::path& file) {
    std::FILE* f = std::fopen(file.c_str(), "rb");
    if (!f) return false;
    char head[12] = {};
    const bool whole = std::fread(head, 1, sizeof head, f) == sizeof head;
    std::fclose(f);
    return whole && std::memcmp(head, "RIFF", 4) == 0 && std::memcmp(head + 8, "WAVE", 4) == 0;
}

// What the message says ffmpeg is needed for: ".flac", or a file without an extension.
std::string kindOf(const std::filesystem::path& file) {
    const std::string ext = lowerExtension(file);
    return ext.empty() ? std::string("a file without an extension") : ext;
}

struct ProcessResult {
    int exitCode = -1;
    std::vector<unsigned char> out;
    std::string err;
};

// Runs argv[0] (looked up on the PATH) and collects stdout and stderr; no
// shell, so file names need no quoting. exitCode -1 with err set when it
// cannot start. `onData` sees the partial result after each read, and may
// take bytes out of its stdout; returning false kills the program (exitCode
// then reads as cancelled: -2).
constexpr int kCancelled = -2;
ProcessResult run(const std::vector<std::string>& args, const std::function<bool(ProcessResult&)>& onData) {
    ProcessResult r;
    int outPipe[2], errPipe[2];
    // Close-on-exec: a program another thread starts meanwhile (the export's
    // video ffmpeg) must not inherit their write ends, or this one's output
    // never ends (seen: the audio check waited on the video ffmpeg, which
    // waited for frames). posix_spawn's dup2 onto 1 and 2 keeps those open.
    if (pipe2(outPipe, O_CLOEXEC) != 0 || pipe2(errPipe, O_CLOEXEC) != 0) {
        r.err = std::strerror(errno);
        return r;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // In a process group of its own, as the video's ffmpeg is: a Ctrl+C
    // that the editor answers with a question must not end the decoding.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    close(outPipe[1]);
    close(errPipe[1]);
    if (spawned != 0) {
        close(outPipe[0]);
        close(errPipe[0]);
        r.err = std::strerror(spawned);
        return r;
    }
    // Read both pipes until they close, so neither side blocks on a full pipe.
    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    int open = 2;
    bool cancelled = false;
    std::vector<unsigned char> buffer(1 << 16);
    while (open > 0) {
        if (!cancelled && onData && !onData(r)) {
            cancelled = true;
            // The whole group: a wrapper script's own ffmpeg, its child,
            // decoded on to the end, and the pipes it held kept this waiting.
            kill(-pid, SIGKILL);
        }
        // A tenth of a second at most between two looks at onData: a stop
        // must not wait for a program that prints nothing (a signal caught
        // by another thread does not interrupt this poll).
        if (poll(fds, 2, onData ? 100 : -1) < 0 && errno != EINTR) break;
        for (pollfd& p : fds) {
            if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP))) continue;
            const ssize_t n = read(p.fd, buffer.data(), buffer.size());
            if (n <= 0) {
                close(p.fd);
                p.fd = -1;
                --open;
            } else if (&p == &fds[0]) {
                r.out.insert(r.out.end(), buffer.begin(), buffer.begin() + n);
            } else {
                r.err.append(reinterpret_cast<const char*>(buffer.data()), static_cast<std::size_t>(n));
            }
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    r.exitCode = cancelled ? kCancelled : WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    return r;
}

std::string lastLine(const std::string& text) {
    std::size_t end = text.find_last_not_of("\r\n");
    if (end == std::string::npos) return {};
    const std::size_t start = text.find_last_of('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
}

// ffmpeg's log of a file with no audio stream for "-map 0:a:0" (a silent
// video, a picture): its last line then advises a '?' on the map, an option
// the user never typed.
bool noAudioStream(const std::string& log) { return log.find("matches no streams") != std::string::npos; }

// The input's length from ffmpeg's "  Duration: 00:03:12.34, start: ..." line
// (0 while it has not appeared, or "N/A").
// Read with from_chars: sscanf's %lf follows the locale Qt sets, and in a
// German one stopped at the "." of 12.34. Only that line, at its start: the
// file's name and its tags come before it ("comment : Duration: 05:00:00").
double durationSeconds(const std::string& log) {
    const std::string line = "\n  Duration: ";
    const auto at = log.find(line);
    if (at == std::string::npos) return 0;
    const char* p = log.c_str() + at + line.size();
    const char* end = log.c_str() + log.size();
    int h = 0, m = 0;
    double sec = 0;
    auto r = std::from_chars(p, end, h);
    if (r.ec != std::errc{} || r.ptr == end || *r.ptr != ':') return 0;
    r = std::from_chars(r.ptr + 1, end, m);
    if (r.ec != std::errc{} || r.ptr == end || *r.ptr != ':') return 0;
    r = std::from_chars(r.ptr + 1, end, sec);
    if (r.ec != std::errc{}) return 0;
    return h * 3600.0 + m * 60.0 + sec;
}

// The sample rate of the input's first audio stream as ffmpeg's log names it
// ("  Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, ..."),
// or 0 until the log has said it. Only the input's stream lines are read:
// its file name and tags (a title "Audio: 20 Hz to 20 kHz") come before
// them, and the output's streams after "Output #0".
double inputSampleRate(const std::string& log) {
    const auto input = log.find("Input #0");
    if (input == std::string::npos) return 0;
    const auto output = log.find("Output #0", input);
    for (auto line = log.find("\n", input); line != std::string::npos && line < output; line = log.find('\n', line + 1)) {
        const auto end = log.find('\n', line + 1);
        if (end == std::string::npos) return 0;  // not all there yet
        const std::string_view text(log.data() + line + 1, end - line - 1);
        const auto stream = text.find_first_not_of(' ');
        if (stream == std::string_view::npos || !text.substr(stream).starts_with("Stream #0:")) continue;
        const auto audio = text.find(": Audio: ");
        if (audio == std::string_view::npos) continue;
        const auto hz = text.find(" Hz", audio);
        const auto start = hz == std::string_view::npos ? hz : text.rfind(' ', hz - 1);
        double rate = 0;
        if (start != std::string_view::npos) std::from_chars(text.data() + start + 1, text.data() + hz, rate);
        return rate;
    }
    return 0;
}

// The ffmpeg program could not be started: `program` and the system's reason.
struct FfmpegMissing : AudioFileError {
    FfmpegMissing(const std::string& message, std::string program, std::string reason)
        : AudioFileError(message), program(std::move(program)), reason(std::move(reason)) {}
    std::string program, reason;
};

// ffmpeg ran and failed: `reason` is the last line it wrote.
struct FfmpegFailed : AudioFileError {
    FfmpegFailed(const std::string& message, std::string reason)
        : AudioFileError(message), reason(std::move(reason)) {}
    std::string reason;
};

// A file that decodes to more than `longestSeconds` of audio.
AudioFileError tooLong(const std::filesystem::path& file, double longestSeconds) {
    return AudioFileError(file.string() + ": more than " + numberText(longestSeconds / 3600) + " hours" +
                          " of audio, the longest MiroFish analyses (or a damaged header gives a sample rate far "
                          "below the real one)");
}

// Why ffmpeg does not run at all (a library missing since an upgrade), or
// empty where it runs. Asked where it failed on a file, which was otherwise
// blamed ("not a readable audio file", "damaged audio") though it was fine.
// A failed run's reason: its last line, or its exit status where it wrote none.
std::string failureReason(const ProcessResult& r) {
    const std::string line = lastLine(r.err);
    return line.empty() ? "it ended with status " + std::to_string(r.exitCode) : line;
}

std::string whyFfmpegDoesNotRun(const std::string& ffmpeg) {
    const ProcessResult version = run({ffmpeg, "-hide_banner", "-version"}, {});
    return version.exitCode == 0 ? std::string() : failureReason(version);
}

std::string ffmpegDoesNotRun(const std::string& ffmpeg, const std::string& why) {
    return "'" + ffmpeg + "' does not run (" + why +
           "): reinstall the Debian package ffmpeg, or point MIROFISH_FFMPEG at one that runs";
}

// What ffmpeg (`program`, or when that is empty its path from
// $MIROFISH_FFMPEG, else "ffmpeg") decodes of the file, as mono at
// sampleRate, stopped past longestSeconds. Throws
// FfmpegMissing when it cannot start (the message says what to install),
// FfmpegFailed when it fails, AudioFileError when it read no audio or too
// much, and DecodeCancelled.
MonoAudio decodeWithFfmpeg(const std::filesystem::path& file, double sampleRate, const DecodeProgress& progress,
                           double longestSeconds, const std::string& program) {
    const double longestSamples = longestSeconds * sampleRate;
    bool overlong = false;
    // A damaged header that only ffmpeg reads (a WAV's format chunk after its
    // data, RF64) may claim 1 Hz: 2 KB of samples became 1000 s, 1.2 GB,
    // where the WAV reader refuses such a rate. So is a rate below 1 kHz
    // refused here; a high one makes fewer samples, and DSD512 reads as 2.8 MHz.
    double inputRate = 0;
    const auto rateDamaged = [&] { return inputRate > 0 && inputRate < kLowestSampleRate; };
    const std::string ffmpeg = ffmpegProgramNamed(program);
    WavStreamMixer mixer(file.string());
    std::optional<AudioFileError> broken;  // a header the mixer could not read
    std::size_t written = 0;               // bytes ffmpeg wrote, its WAV header and all
    // "info" so that the input's duration is printed (for the progress); no banner, no running stats.
    // The first audio stream, as the video carries it (ffmpeg_pipe_sink).
    // Every channel, mixed down here as a WAV file is: ffmpeg's own downmix
    // (-ac 1) adds 5.1's channels up, past full scale. No tags: ffmpeg
    // writes them into the WAV before its data, and a file's 1 MB comment
    // left the mixer no data chunk within the header's size.
    ProcessResult r = run(
        {ffmpeg, "-nostdin", "-hide_banner", "-nostats", "-v", "info", "-i", ffmpegFileUrl(file), "-map", "0:a:0",
         "-map_metadata", "-1", "-c:a", "pcm_f32le", "-ar", std::to_string(static_cast<int>(sampleRate)), "-f", "wav",
         "-bitexact", "-"},
        [&](ProcessResult& partial) {
            if (progress.cancelled && progress.cancelled()) return false;
            if (inputRate == 0) inputRate = inputSampleRate(partial.err);
            if (rateDamaged()) return false;
            written += partial.out.size();
            try {
                mixer.feed(partial.out);
            } catch (const AudioFileError& e) {
                broken = e;
                return false;
            }
            if (static_cast<double>(mixer.samples()) > longestSamples) {
                overlong = true;
                return false;
            }
            if (const double total = durationSeconds(partial.err); progress.report && total > 0)
                progress.report(std::min(1.0, static_cast<double>(mixer.samples()) / (total * sampleRate)));
            return true;
        });
    if (rateDamaged())
        throw AudioFileError(file.string() + ": a sample rate of " + std::to_string(std::llround(inputRate)) +
                             " Hz: the header is damaged (1 kHz and above are read)");
    if (overlong) throw tooLong(file, longestSeconds);
    if (broken) throw *broken;
    if (r.exitCode == kCancelled) throw DecodeCancelled(file.string() + ": decoding cancelled");
    if (r.exitCode == -1)
        throw FfmpegMissing(file.string() + ": decoding " + kindOf(file) + " needs the ffmpeg program ('" + ffmpeg + "': " + r.err +
                                "); install the Debian package ffmpeg, or use a WAV file",
                            ffmpeg, r.err);
    if (r.exitCode != 0)
        if (const std::string why = whyFfmpegDoesNotRun(ffmpeg); !why.empty()) {
            // A WAV that only ffmpeg reads (mu-law, RF64) says why it needed it, with this reason.
            const std::string doesNotRun = ffmpegDoesNotRun(ffmpeg, why);
            throw FfmpegFailed(file.string() + ": decoding " + kindOf(file) + " needs the ffmpeg program, and " +
                                   doesNotRun + "; or use a WAV file",
                               "the ffmpeg program " + doesNotRun);
        }
    if (r.exitCode != 0 && noAudioStream(r.err))
        throw FfmpegFailed(file.string() + ": the file holds no audio stream", "the file holds no audio stream");
    if (r.exitCode != 0)
        throw FfmpegFailed(file.string() + ": not a readable audio file (ffmpeg: " + lastLine(r.err) + ")", lastLine(r.err));
    // ffmpeg writes a WAV header even for no sound: a program that wrote
    // nothing at all is not ffmpeg at work (the file was called empty).
    if (written + r.out.size() == 0)
        throw FfmpegFailed(file.string() + ": '" + ffmpeg + "' ended without writing any audio or saying why: " +
                               "is it the ffmpeg program?",
                           "'" + ffmpeg + "' wrote no audio");
    MonoAudio a = mixer.finish(r.out);
    if (static_cast<double>(a.samples.size()) > longestSamples) throw tooLong(file, longestSeconds);
    if (progress.report) progress.report(1.0);
    return a;
}
}  // namespace

std::vector<std::string> ffmpegAudioInput(const std::filesystem::path& file) {
    const std::optional<WavSamples> raw = wavSamplesWithoutLength(file);
    if (!raw) return {"-i", ffmpegFileUrl(file)};
    const std::string format = raw->isFloat     ? "f32le"
                               : raw->bits == 8  ? "u8"
                               : raw->bits == 16 ? "s16le"
                               : raw->bits == 24 ? "s24le"
                                                 : "s32le";
    // ffmpeg's subfile protocol: the bytes from begin to end of the file.
    return {"-f", format, "-ar", std::to_string(raw->rate), "-ac", std::to_string(raw->channels), "-i",
            "subfile,,start," + std::to_string(raw->begin) + ",end," + std::to_string(raw->end) + ",,:" +
                ffmpegFileUrl(file)};
}

void checkAudioForVideo(const std::filesystem::path& file, double seconds, const DecodeProgress& progress,
                        const std::string& ffmpeg) {
    const std::string program = ffmpegProgramNamed(ffmpeg);
    // -xerror as the muxing runs: the first error ends it. A second beyond
    // the video's end, as the muxing may read a little past it.
    std::vector<std::string> args{program, "-nostdin", "-hide_banner", "-nostats", "-v", "error", "-xerror"};
    if (seconds > 0) {
        // to_chars: the C locale that Qt sets may write a decimal comma, which ffmpeg does not read.
        char limit[32];
        const auto end = std::to_chars(limit, limit + sizeof limit, seconds + 1.0, std::chars_format::fixed, 3).ptr;
        args.insert(args.end(), {"-t", std::string(limit, end)});
    }
    const std::vector<std::string> input = ffmpegAudioInput(file);
    args.insert(args.end(), input.begin(), input.end());
    args.insert(args.end(), {"-map", "0:a:0", "-f", "null", "-"});
    const ProcessResult r =
        run(args, [&](const ProcessResult&) { return !(progress.cancelled && progress.cancelled()); });
    if (r.exitCode == kCancelled) throw DecodeCancelled(file.string() + ": decoding cancelled");
    if (r.exitCode == -1)
        throw AudioFileError(file.string() + ": a video with its sound needs the ffmpeg program ('" + program + "': " +
                             r.err + ")");
    if (r.exitCode == 0) return;
    if (const std::string why = whyFfmpegDoesNotRun(program); !why.empty())
        throw AudioFileError("a video with sound needs the ffmpeg program, and " + ffmpegDoesNotRun(program, why) +
                             "; or export PNG frames, which need no sound");
    throw AudioFileError(file.string() + ": damaged audio, which a video cannot carry (ffmpeg: " + failureReason(r) +
                         "); repair the file, or export PNG frames, which need no sound");
}

MonoAudio decodeAudioFile(const std::filesystem::path& file, double sampleRate, const DecodeProgress& progress,
                          double longestSeconds, const std::string& ffmpeg) {
    std::error_code ec;
    if (const std::string what = notARegularFile(file); !what.empty())
        throw AudioFileError(file.string() + ": " + what + ", not an audio file");
    if (!std::filesystem::is_regular_file(file, ec))
        throw AudioFileError(file.string() + ": " + unreadableBecause(file, "no such audio file"));
    if (std::filesystem::file_size(file, ec) == 0) throw AudioFileError(file.string() + ": the file is empty");

    if (lowerExtension(file) != ".wav" && !startsLikeWav(file))
        return decodeWithFfmpeg(file, sampleRate, progress, longestSeconds, ffmpeg);
    // The WAV reader takes PCM and 32-bit float in a RIFF file; ffmpeg reads
    // the other kinds too (RF64, mu-law and A-law, 64-bit float, a format
    // chunk after the data, another kind of file named .wav). A damaged file
    // (a broken header) is not handed on: read another way, a sample rate of
    // 1 Hz made ffmpeg write gigabytes of samples.
    const auto throughFfmpeg = [&](const WavUnsupported& native) {
        try {
            return decodeWithFfmpeg(file, sampleRate, progress, longestSeconds, ffmpeg);
        } catch (const FfmpegMissing& missing) {
            throw AudioFileError(std::string(native.what()) + "; the ffmpeg program, which reads more kinds of WAV, was not found ('" +
                                 missing.program + "': " + missing.reason + "): install the Debian package ffmpeg");
        } catch (const FfmpegFailed& failed) {
            throw AudioFileError(std::string(native.what()) + "; ffmpeg could not read it either: " + failed.reason);
        }
    };
    // Known from the header, before the file is read whole into memory
    // (gigabytes for hours of audio; RF64 is the form for files over 4 GB):
    // too long, or a kind for ffmpeg. A header not read here is read in full
    // below, which says why.
    double declared = 0;
    try {
        declared = wavSeconds(file);
    } catch (const WavUnsupported& native) {
        return throughFfmpeg(native);
    } catch (const std::exception&) {
    }
    if (declared > longestSeconds) throw tooLong(file, longestSeconds);
    try {
        // Reading is the first half of the decoding, resampling the second.
        bool cancelled = false;
        const auto keepGoing = [&](double start, double done) {
            cancelled = progress.cancelled && progress.cancelled();
            if (progress.report && !cancelled) progress.report(start + 0.5 * done);
            return !cancelled;
        };
        MonoAudio a;
        try {
            a = readWav(file, [&](double done) { return keepGoing(0.0, done); });
        } catch (const WavReadStopped&) {
            throw DecodeCancelled(file.string() + ": decoding cancelled");
        }
        if (a.seconds() > longestSeconds) throw tooLong(file, longestSeconds);
        a.samples = resample(a.samples, a.sampleRate, sampleRate, [&](double done) { return keepGoing(0.5, done); });
        if (cancelled) throw DecodeCancelled(file.string() + ": decoding cancelled");
        // A few samples at a higher rate can come to none at the analysis's.
        if (a.samples.empty())
            throw AudioFileError(file.string() + ": the file holds too little audio (less than one sample at " +
                                 std::to_string(static_cast<int>(sampleRate)) + " Hz)");
        a.sampleRate = sampleRate;
        if (progress.report) progress.report(1.0);
        return a;
    } catch (const WavUnsupported& native) {
        return throughFfmpeg(native);
    }
}

}  // namespace mirofish::cli
