// Audio files of every common format decode to the same samples (within the
// lossy codecs' tolerance); bad files and a missing decoder say what is wrong.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <chrono>
#include <thread>

#include "cli/audio_decode.hpp"
#include "cli/audio_track.hpp"
#include "support/cli_run.hpp"
#include "support/shell.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
// 1 s: a 220 Hz tone with a 2 Hz tremolo, so the envelope has a shape.
MonoAudio fixture() {
    MonoAudio a;
    a.sampleRate = 48000;
    for (int i = 0; i < 48000; ++i) {
        const double t = i / 48000.0;
        a.samples.push_back(static_cast<float>(0.4 * (0.6 + 0.4 * std::sin(2 * std::numbers::pi * 2 * t)) *
                                               std::sin(2 * std::numbers::pi * 220 * t)));
    }
    return a;
}

// RMS of consecutive 50 ms windows.
std::vector<double> envelope(const std::vector<float>& s) {
    std::vector<double> out;
    for (std::size_t b = 0; b + 2400 <= s.size(); b += 2400) {
        double sum = 0;
        for (std::size_t i = b; i < b + 2400; ++i) sum += static_cast<double>(s[i]) * s[i];
        out.push_back(std::sqrt(sum / 2400));
    }
    return out;
}

void encode(const std::filesystem::path& from, const std::filesystem::path& to) {
    const std::string cmd = "ffmpeg -nostdin -v error -y -i '" + from.string() + "' '" + to.string() + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
}
}  // namespace

TEST_CASE("wav, flac, mp3 and ogg files of the same sound decode to the same envelope", "[audio]") {
    TempDir dir;
    writeWav(dir / "tone.wav", fixture());
    const auto reference = envelope(cli::decodeAudioFile(dir / "tone.wav").samples);
    for (const char* ext : {".flac", ".mp3", ".ogg"}) {
        const auto file = dir / (std::string("tone") + ext);
        encode(dir / "tone.wav", file);
        const MonoAudio a = cli::decodeAudioFile(file);
        INFO(ext);
        CHECK(a.sampleRate == 48000);
        // mp3 adds up to about 50 ms of encoder padding.
        CHECK(a.seconds() == Approx(1.0).margin(0.06));
        const auto env = envelope(a.samples);
        // Lossy codecs shift the start by a few ms: compare windows after the first.
        for (std::size_t i = 1; i + 1 < std::min(env.size(), reference.size()); ++i)
            CHECK(env[i] == Approx(reference[i]).margin(0.02));
    }
}

TEST_CASE("a file with tags of more than a megabyte decodes as the same file without them", "[audio]") {
    // ffmpeg wrote the tags into its WAV before the data, and 1.1 MB of them
    // read as "no audio data chunk".
    TempDir dir;
    writeWav(dir / "tone.wav", fixture());
    writeText(dir / "tags.txt", ";FFMETADATA1\ntitle=long notes\ncomment=" + std::string(1'100'000, 'a') + "\n");
    const std::string cmd = "ffmpeg -nostdin -v error -y -i '" + (dir / "tone.wav").string() + "' -i '" +
                            (dir / "tags.txt").string() + "' -map_metadata 1 '" + (dir / "tagged.flac").string() + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    encode(dir / "tone.wav", dir / "plain.flac");
    CHECK(cli::decodeAudioFile(dir / "tagged.flac").samples == cli::decodeAudioFile(dir / "plain.flac").samples);
}

TEST_CASE("WAV files the WAV reader does not take (RF64, mu-law, A-law, 64-bit float, the format chunk last) decode through ffmpeg",
          "[audio]") {
    TempDir dir;
    writeWav(dir / "tone.wav", fixture());
    const auto reference = envelope(cli::decodeAudioFile(dir / "tone.wav").samples);
    const std::pair<const char*, const char*> kinds[] = {
        {"rf64", "-rf64 always"}, {"mulaw", "-c:a pcm_mulaw"}, {"alaw", "-c:a pcm_alaw"}, {"f64", "-c:a pcm_f64le"}};
    for (const auto& [name, options] : kinds) {
        INFO(name);
        const auto file = dir / (std::string(name) + ".wav");
        const std::string cmd = "ffmpeg -nostdin -v error -y -i '" + (dir / "tone.wav").string() + "' " + options + " '" +
                                file.string() + "'";
        REQUIRE(std::system(cmd.c_str()) == 0);
        CHECK_THROWS_AS(readWav(file), WavUnsupported);  // the native reader alone refuses it, as a kind it does not take
        const MonoAudio a = cli::decodeAudioFile(file);
        CHECK(a.sampleRate == 48000);
        CHECK(a.seconds() == Approx(1.0).margin(0.001));
        const auto env = envelope(a.samples);
        REQUIRE(env.size() == reference.size());
        for (std::size_t i = 0; i < env.size(); ++i) CHECK(env[i] == Approx(reference[i]).margin(0.01));
    }
    // The same file with its format chunk moved after the audio data.
    const std::string plain = readText(dir / "tone.wav");
    const std::size_t fmt = plain.find("fmt "), data = plain.find("data");
    REQUIRE((fmt == 12 && data != std::string::npos));
    writeText(dir / "fmt-last.wav", plain.substr(0, 12) + plain.substr(data) + plain.substr(fmt, data - fmt));
    CHECK_THROWS_AS(readWav(dir / "fmt-last.wav"), WavUnsupported);
    CHECK(envelope(cli::decodeAudioFile(dir / "fmt-last.wav").samples) == reference);
}

TEST_CASE("a 5.1 file through ffmpeg is mixed down as a 5.1 WAV is, not added up past full scale", "[audio]") {
    // ffmpeg's own downmix to mono adds 5.1's channels up (3.4 times the
    // level of one): loud passages were clipped, for the analysis and the
    // sound played.
    TempDir dir;
    MonoAudio loud = fixture();
    for (float& s : loud.samples) s *= 2.0f;  // peaks at 0.8
    writeWav(dir / "tone.wav", loud);
    const std::string join = "ffmpeg -nostdin -v error -y -i '" + (dir / "tone.wav").string() +
                             "' -filter_complex '[0:a]asplit=6[a][b][c][d][e][f];[a][b][c][d][e][f]join=inputs=6:"
                             "channel_layout=5.1' -c:a pcm_s16le '" + (dir / "surround.wav").string() + "'";
    REQUIRE(std::system(join.c_str()) == 0);
    encode(dir / "surround.wav", dir / "surround.flac");  // lossless: the very same samples
    const MonoAudio wav = cli::decodeAudioFile(dir / "surround.wav");
    const MonoAudio flac = cli::decodeAudioFile(dir / "surround.flac");
    REQUIRE(flac.samples.size() == wav.samples.size());
    CHECK(flac.samples == wav.samples);
    const float peak = *std::max_element(flac.samples.begin(), flac.samples.end());
    CHECK(peak == Approx(0.8).margin(0.01));
}

TEST_CASE("an RF64 WAV goes to ffmpeg from its header, not read whole first: its progress never goes back", "[audio]") {
    // RF64 is the form of WAV files over 4 GB: read whole before ffmpeg took
    // it, gigabytes went into memory for nothing, and the progress climbed
    // to a half, then fell back to 0.
    TempDir dir;
    MonoAudio minute = fixture();
    for (int i = 0; i < 5; ++i) minute.samples.insert(minute.samples.end(), minute.samples.begin(), minute.samples.end());
    writeWav(dir / "long.wav", minute);
    const std::string cmd = "ffmpeg -nostdin -v error -y -i '" + (dir / "long.wav").string() + "' -rf64 always '" +
                            (dir / "rf64.wav").string() + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::vector<double> seen;
    cli::DecodeProgress progress;
    progress.report = [&](double f) { seen.push_back(f); };
    const MonoAudio a = cli::decodeAudioFile(dir / "rf64.wav", 48000, progress);
    CHECK(a.seconds() == Approx(32.0).margin(0.01));
    INFO(seen.size() << " reports");
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    CHECK(seen.back() == 1.0);
}

TEST_CASE("a video without sound or a picture says it holds no audio stream, not ffmpeg's advice on its options",
          "[audio]") {
    TempDir dir;
    const std::string silent = "ffmpeg -nostdin -v error -y -f lavfi -i color=c=black:s=32x32:d=1 '" +
                               (dir / "silent.mp4").string() + "'";
    REQUIRE(std::system(silent.c_str()) == 0);
    const std::string picture = "ffmpeg -nostdin -v error -y -f lavfi -i color=c=black:s=32x32 -frames:v 1 '" +
                                (dir / "picture.png").string() + "'";
    REQUIRE(std::system(picture.c_str()) == 0);
    for (const char* name : {"silent.mp4", "picture.png"}) {
        INFO(name);
        CHECK_THROWS_WITH(cli::decodeAudioFile(dir / name),
                          Catch::Equals((dir / name).string() + ": the file holds no audio stream"));
    }
}

TEST_CASE("a program given as ffmpeg that writes nothing and exits 0 is named, the file not called empty", "[audio]") {
    TempDir dir;
    writeProgram(dir / "quiet-ffmpeg", "#!/bin/sh\nexit 0\n");
    writeText(dir / "song.mp3", "a song that only ffmpeg could read");
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "song.mp3", cli::kAnalysisSampleRate, {}, cli::kLongestAudioSeconds,
                                           (dir / "quiet-ffmpeg").string()),
                      Catch::Contains("quiet-ffmpeg' ended without writing any audio or saying why") &&
                          !Catch::Contains("empty"));
}

TEST_CASE("a program started while ffmpeg decodes does not inherit the decode's pipes", "[audio]") {
    // The export's video ffmpeg, started meanwhile, held the audio check's
    // pipe open: the check waited for its end, and the video for frames.
    TempDir dir;
    writeWav(dir / "tone.wav", fixture());
    writeProgram(dir / "slow-ffmpeg", "#!/bin/sh\nsleep 2\nexit 1\n");
    writeText(dir / "song.mp3", "decoded by the slow program");
    const auto openFds = [] {
        const Shell listing = shell("ls /proc/self/fd | wc -l");
        return std::stoi(listing.output);
    };
    const int before = openFds();
    std::thread decoding([&] {
        try {
            cli::decodeAudioFile(dir / "song.mp3", cli::kAnalysisSampleRate, {}, cli::kLongestAudioSeconds,
                                 (dir / "slow-ffmpeg").string());
        } catch (const std::exception&) {
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(700));  // the slow program is running
    const int during = openFds();
    decoding.join();
    CHECK(during == before);
}

TEST_CASE("a damaged WAV gives the WAV reader's reason, and one of another kind without ffmpeg says to install it",
          "[audio]") {
    TempDir dir;
    MonoAudio tone = fixture();
    // A header that says 100 Hz: read another way, this second would last 8 minutes.
    tone.sampleRate = 100;
    writeWav(dir / "slow-header.wav", tone);
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "slow-header.wav"),
                      Catch::Equals((dir / "slow-header.wav").string() +
                                    ": a sample rate of 100 Hz: the header is damaged (1 kHz to 1.5 MHz are read)"));
    // The same with the format chunk after the data, or as RF64, which only
    // ffmpeg reads: 2 KB of samples became 1000 s and 1.2 GB at the analysis rate.
    const std::string slow = readText(dir / "slow-header.wav");
    const std::size_t fmt = slow.find("fmt "), data = slow.find("data");
    writeText(dir / "slow-fmt-last.wav", slow.substr(0, 12) + slow.substr(data) + slow.substr(fmt, data - fmt));
    const std::string rf64 = "ffmpeg -nostdin -v error -y -i '" + (dir / "slow-header.wav").string() +
                             "' -c:a copy -rf64 always '" + (dir / "slow-rf64.wav").string() + "'";
    REQUIRE(std::system(rf64.c_str()) == 0);
    for (const char* name : {"slow-fmt-last.wav", "slow-rf64.wav"}) {
        INFO(name);
        CHECK_THROWS_WITH(cli::decodeAudioFile(dir / name),
                          Catch::Equals((dir / name).string() +
                                        ": a sample rate of 100 Hz: the header is damaged (1 kHz and above are read)"));
    }
    writeText(dir / "noise.wav", std::string(3000, 'x'));
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "noise.wav"),
                      Catch::StartsWith((dir / "noise.wav").string() + ": not a WAV file (no RIFF/WAVE header)") &&
                          Catch::Contains("; ffmpeg could not read it either: "));

    writeWav(dir / "tone.wav", fixture());
    // A title that reads like a stream's rate is no rate.
    const std::string titled = "ffmpeg -nostdin -v error -y -i '" + (dir / "tone.wav").string() +
                               "' -metadata 'title=Test Audio: 20 Hz to 20 kHz' '" + (dir / "Audio: 60 Hz hum.mp3").string() + "'";
    REQUIRE(std::system(titled.c_str()) == 0);
    CHECK(cli::decodeAudioFile(dir / "Audio: 60 Hz hum.mp3").seconds() == Approx(1.0).margin(0.05));
    const std::string cmd = "ffmpeg -nostdin -v error -y -i '" + (dir / "tone.wav").string() + "' -c:a pcm_mulaw '" +
                            (dir / "mulaw.wav").string() + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    // An RF64 header over bytes that are no audio: ffmpeg's reason joins the reader's.
    writeText(dir / "rf64-noise.wav", "RF64\xff\xff\xff\xffWAVE" + std::string(3000, 'x'));
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "rf64-noise.wav"),
                      Catch::Contains("an RF64 WAV file") && Catch::Contains("; ffmpeg could not read it either: "));
    const ScopedEnv ffmpeg("MIROFISH_FFMPEG", (dir / "no-such-ffmpeg").string());
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "mulaw.wav"),
                      Catch::Contains("unsupported encoding (format 7, 8 bits)") &&
                          Catch::Contains("ffmpeg program, which reads more kinds of WAV, was not found") &&
                          Catch::Contains("install the Debian package ffmpeg"));
}

TEST_CASE("audio longer than the longest MiroFish analyses is refused, its decoding stopped there", "[audio]") {
    TempDir dir;
    writeWav(dir / "tone.wav", fixture());  // 1 s
    encode(dir / "tone.wav", dir / "tone.flac");
    const auto refusedAt = [&](const std::filesystem::path& file, double longest) {
        CHECK_THROWS_WITH(cli::decodeAudioFile(file, 48000, {}, longest),
                          Catch::StartsWith(file.string() + ": more than ") &&
                              Catch::Contains("of audio, the longest MiroFish analyses"));
    };
    refusedAt(dir / "tone.wav", 0.5);
    refusedAt(dir / "tone.flac", 0.5);
    CHECK(cli::decodeAudioFile(dir / "tone.flac", 48000, {}, 2.0).seconds() == Approx(1.0).margin(0.01));
    // An RF64 file (which ffmpeg reads) whose header claims 1 kHz: its one
    // second reads as 48 s. Stopped at the limit, not decoded whole.
    const std::string cmd = "ffmpeg -nostdin -v error -y -i '" + (dir / "tone.wav").string() + "' -rf64 always '" +
                            (dir / "slow.wav").string() + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::string bytes = readText(dir / "slow.wav");
    const std::size_t fmt = bytes.find("fmt ");
    REQUIRE(fmt != std::string::npos);
    std::uint16_t blockAlign = 0;
    std::memcpy(&blockAlign, bytes.data() + fmt + 20, 2);
    const std::uint32_t rate = 1000, byteRate = rate * blockAlign;
    std::memcpy(bytes.data() + fmt + 12, &rate, 4);
    std::memcpy(bytes.data() + fmt + 16, &byteRate, 4);
    writeText(dir / "slow.wav", bytes);
    refusedAt(dir / "slow.wav", 10.0);
    CHECK(cli::decodeAudioFile(dir / "slow.wav", 48000, {}, 60.0).seconds() == Approx(48.0).margin(0.1));
}

TEST_CASE("a WAV at another rate is resampled to the analysis rate", "[audio]") {
    TempDir dir;
    MonoAudio a = fixture();
    a.sampleRate = 24000;  // the same samples now last 2 s
    writeWav(dir / "slow.wav", a);
    const MonoAudio b = cli::decodeAudioFile(dir / "slow.wav");
    CHECK(b.sampleRate == 48000);
    CHECK(b.seconds() == Approx(2.0).margin(0.001));
}

TEST_CASE("an MP3 named .wav is read by what it holds", "[audio]") {
    TempDir dir;
    writeWav(dir / "tone.wav", fixture());
    encode(dir / "tone.wav", dir / "tone.mp3");
    std::filesystem::rename(dir / "tone.mp3", dir / "song.wav");
    const MonoAudio a = cli::decodeAudioFile(dir / "song.wav");
    CHECK(a.seconds() == Approx(1.0).margin(0.06));
}

TEST_CASE("a WAV too short to hold one sample at the analysis rate is refused, not taken as silence", "[audio]") {
    // One sample at 96 kHz resamples to none at 48 kHz; taken as a track of
    // 0 s, a looping one played on forever at 0:00 with nothing driving.
    TempDir dir;
    MonoAudio a;
    a.sampleRate = 96000;
    a.samples = {0.5f};
    writeWav(dir / "blip.wav", a);
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "blip.wav"),
                      Catch::Contains("blip.wav") && Catch::Contains("too little audio"));
}

TEST_CASE("a missing, empty or corrupt audio file gives a clear error", "[audio]") {
    TempDir dir;
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "missing.mp3"), Catch::Contains("missing.mp3") && Catch::Contains("no such"));
    writeText(dir / "empty.ogg", "");
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "empty.ogg"), Catch::Contains("empty.ogg") && Catch::Contains("empty"));
    writeText(dir / "noise.mp3", std::string(5000, 'x'));
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "noise.mp3"), Catch::Contains("noise.mp3") && Catch::Contains("not a readable"));
    CHECK_THROWS_WITH(cli::decodeAudioFile("/dev/zero"), Catch::Contains("/dev/zero: a device, pipe or socket, not an audio file"));
}

TEST_CASE("without the ffmpeg program, compressed files say what to install and WAV still works", "[audio]") {
    TempDir dir;
    writeWav(dir / "tone.wav", fixture());
    encode(dir / "tone.wav", dir / "tone.flac");
    const ScopedEnv ffmpeg("MIROFISH_FFMPEG", (dir / "no-such-ffmpeg").string());
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "tone.flac"), Catch::Contains("ffmpeg") && Catch::Contains("install"));
    CHECK(cli::decodeAudioFile(dir / "tone.wav").samples.size() == 48000);
    // A WAV by what it holds, not by its name: a Broadcast WAV, or one saved without an extension.
    for (const char* name : {"take.bwf", "tone"}) {
        INFO(name);
        std::filesystem::copy_file(dir / "tone.wav", dir / name);
        CHECK(cli::decodeAudioFile(dir / name).samples.size() == 48000);
    }
    std::filesystem::copy_file(dir / "tone.flac", dir / "song");
    CHECK_THROWS_WITH(cli::decodeAudioFile(dir / "song"),
                      Catch::Contains("decoding a file without an extension needs the ffmpeg program"));
}

TEST_CASE("a long file reports its decoding and analysis progress up to the end", "[audio]") {
    TempDir dir;
    MonoAudio minute = fixture();
    for (int i = 0; i < 5; ++i) minute.samples.insert(minute.samples.end(), minute.samples.begin(), minute.samples.end());
    writeWav(dir / "long.wav", minute);
    encode(dir / "long.wav", dir / "long.flac");
    // A tag that names a length is not the file's length.
    const std::string tag = "ffmpeg -nostdin -v error -y -i '" + (dir / "long.wav").string() +
                            "' -metadata comment='Set Duration: 05:00:00.00' '" + (dir / "tagged.flac").string() + "'";
    REQUIRE(std::system(tag.c_str()) == 0);
    for (const char* name : {"tagged.flac", "long.flac"}) {
        INFO(name);
        std::vector<double> seen;
        cli::DecodeProgress reporting;
        reporting.report = [&](double f) { seen.push_back(f); };
        cli::analyseAudioFile(dir / name, AudioAnalyzerConfig{}, reporting);
        REQUIRE(seen.size() >= 4);
        CHECK(std::is_sorted(seen.begin(), seen.end()));
        CHECK(seen.back() == 1.0);
        // The decoder's share is reported while it runs, not only at the end.
        CHECK(std::any_of(seen.begin(), seen.end(), [](double f) { return f > 0.05 && f < 0.5; }));
    }
    cli::DecodeProgress progress;
    AudioAnalyzerConfig config;
    const cli::AnalysedTrack track = cli::analyseAudioFile(dir / "long.flac", config, progress);
    // The same frames as the whole-track analysis.
    config.sampleRate = track.audio.sampleRate;
    AudioAnalyzer reference(config);
    const auto expected = reference.analyzeAll(track.audio.samples, config.frameRate);
    REQUIRE(track.frames.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); k += 97) CHECK(track.frames[k].named == expected[k].named);
}

TEST_CASE("a long WAV at another rate reports its reading and its resampling while they run, and a cancel stops them",
          "[audio]") {
    TempDir dir;
    MonoAudio long44;
    long44.sampleRate = 44100;
    long44.samples.assign(100 * 44100, 0.25f);  // 100 s, 17.6 MB as float
    writeWav(dir / "long44.wav", long44);
    std::vector<double> seen;
    cli::DecodeProgress progress;
    progress.report = [&](double f) { seen.push_back(f); };
    const MonoAudio decoded = cli::decodeAudioFile(dir / "long44.wav", 48000, progress);
    CHECK(decoded.seconds() == Approx(100.0).margin(0.001));
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    REQUIRE_FALSE(seen.empty());
    CHECK(seen.back() == 1.0);
    CHECK(std::any_of(seen.begin(), seen.end(), [](double f) { return f > 0 && f < 0.5; }));  // reading
    CHECK(std::any_of(seen.begin(), seen.end(), [](double f) { return f > 0.5 && f < 1; }));  // resampling

    int reports = 0;
    cli::DecodeProgress cancelling;
    cancelling.report = [&](double) { ++reports; };
    cancelling.cancelled = [&] { return reports > 0; };  // the user cancels once the bar has moved
    CHECK_THROWS_AS(cli::decodeAudioFile(dir / "long44.wav", 48000, cancelling), cli::DecodeCancelled);
    CHECK(reports == 1);
}

TEST_CASE("a cancelled decode stops at once and says so", "[audio]") {
    TempDir dir;
    writeWav(dir / "tone.wav", fixture());
    encode(dir / "tone.wav", dir / "tone.ogg");
    cli::DecodeProgress progress;
    progress.cancelled = [] { return true; };
    CHECK_THROWS_AS(cli::analyseAudioFile(dir / "tone.ogg", AudioAnalyzerConfig{}, progress), cli::DecodeCancelled);
    CHECK_THROWS_AS(cli::analyseAudioFile(dir / "tone.wav", AudioAnalyzerConfig{}, progress), cli::DecodeCancelled);
}
