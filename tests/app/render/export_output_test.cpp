// Where frames go: MP4 through ffmpeg (frames, duration, muxed audio), and
// what the user sees when the output cannot be made.
#include <QTest>
#include <catch2/catch.hpp>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audio/wav_file.hpp"
#include "io/atomic_file.hpp"
#include "render/frame_sink.hpp"
#include "render_fixture.hpp"
#include "support/cli_run.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
// 2 s of a 220 Hz tone with a kick every half second.
std::filesystem::path writeTone(const std::filesystem::path& file) {
    MonoAudio a;
    a.sampleRate = 48000;
    a.samples.resize(96000);
    for (std::size_t i = 0; i < a.samples.size(); ++i) {
        const double t = static_cast<double>(i) / a.sampleRate;
        const double kick = std::fmod(t, 0.5) < 0.1 ? std::sin(2 * M_PI * 60 * t) : 0.0;
        a.samples[i] = static_cast<float>(0.3 * std::sin(2 * M_PI * 220 * t) + 0.6 * kick);
    }
    writeWav(file, a);
    return file;
}

std::string probe(const std::filesystem::path& file, const std::string& entries, const std::string& stream) {
    return shell("ffprobe -v error -count_frames -select_streams " + stream + " -show_entries " + entries +
                 " -of default=noprint_wrappers=1:nokey=1 '" + file.string() + "'")
        .output;
}

std::vector<std::string> filesIn(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(folder)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Why an export to `out` does not start, or "the export started".
std::string refusal(const std::filesystem::path& out) {
    try {
        render::ExportJob job(smallExport(out));
    } catch (const render::ExportError& e) {
        return e.what();
    }
    return "the export started";
}
}  // namespace

TEST_CASE("a video's sound from standard input redirected from a file is that file's, and from a pipe it is refused at once",
          "[render][ffmpeg]") {
    // ffmpeg's own standard input is the frames: /dev/stdin gave it them as
    // sound ("input channel 'FL' not available"), after the whole render.
    TempDir dir;
    writeTone(dir / "tone.wav");
    const std::string render = std::string(MIROFISH_BINARY) + " render --frames 30 --size 64x64 --fish 5 --audio /dev/stdin";
    const Shell file = shell(render + " --out '" + (dir / "file.mp4").string() + "' < '" + (dir / "tone.wav").string() + "'");
    INFO(file.output);
    CHECK(file.code == 0);
    CHECK(probe(dir / "file.mp4", "stream=codec_name", "a:0").find("aac") != std::string::npos);
    const Shell piped = shell("cat '" + (dir / "tone.wav").string() + "' | " + render + " --out '" +
                              (dir / "piped.mp4").string() + "'");
    INFO(piped.output);
    CHECK(piped.code == 2);
    CHECK_THAT(piped.output, Catch::Contains("no file that ffmpeg can read again"));
    CHECK_FALSE(std::filesystem::exists(dir / "piped.mp4"));
    // Nor frames from a pipe, which the message must not offer instead.
    CHECK_THAT(piped.output, !Catch::Contains("PNG"));
    const Shell frames = shell("cat '" + (dir / "tone.wav").string() + "' | " + render + " --out '" +
                               (dir / "frames").string() + "'");
    CHECK(frames.code == 2);
    CHECK_FALSE(std::filesystem::exists(dir / "frames"));
}

TEST_CASE("an output through a link that leads nowhere is refused, naming the link, and the link is kept", "[render]") {
    // A link to a drive not mounted: "it cannot be created (File exists)",
    // and the failed export's clean-up removed the user's link.
    TempDir dir;
    std::filesystem::create_directory_symlink(dir / "unmounted" / "renders", dir / "renders");
    for (const std::filesystem::path out : {dir / "renders", dir / "renders" / "take1", dir / "renders" / "take1.mp4"}) {
        INFO(out);
        CHECK_THAT(refusal(out), Catch::Contains("'" + (dir / "renders").string() + "' is a link to '" +
                                                 (dir / "unmounted" / "renders").string() + "', which is not there"));
        CHECK(std::filesystem::is_symlink(dir / "renders"));
    }
    // A video named by such a link: its folders were made on the local disk.
    std::filesystem::create_symlink(dir / "unmounted" / "clip.mp4", dir / "clip.mp4");
    CHECK_THAT(refusal(dir / "clip.mp4"), Catch::Contains("is a link to '" + (dir / "unmounted" / "clip.mp4").string() +
                                                          "', whose folder is not there"));
    CHECK_FALSE(std::filesystem::exists(dir / "unmounted"));
    // A loop of links cannot be reached: said so, not taken for a drive not mounted.
    std::filesystem::create_directory_symlink(dir / "loop", dir / "loop");
    CHECK_THAT(refusal(dir / "loop" / "take1"), Catch::Contains("is a link to '" + (dir / "loop").string() +
                                                                "', which cannot be reached ("));
    // A video named by two links to each other: the words follow its name.
    std::filesystem::create_symlink("b.mp4", dir / "a.mp4");
    std::filesystem::create_symlink("a.mp4", dir / "b.mp4");
    CHECK_THAT(refusal(dir / "a.mp4"), Catch::Contains("the output '" + (dir / "a.mp4").string() +
                                                       "' is a loop of symbolic links, or a chain of more than 40; "
                                                       "nothing was written"));
}

TEST_CASE("a video named by a link to a name beside it, given from its own folder, is written through the link",
          "[render][ffmpeg]") {
    // The link's target had no folder in it, and was taken for a link into a
    // folder not there ("a drive not mounted?").
    TempDir dir;
    std::filesystem::create_symlink("take3.mp4", dir / "clip.mp4");
    const Shell r = shell("cd '" + dir.path().string() + "' && " + MIROFISH_BINARY +
                          " render --frames 2 --size 32x32 --fish 5 --out clip.mp4");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK(std::filesystem::is_symlink(dir / "clip.mp4"));
    CHECK(std::filesystem::is_regular_file(dir / "take3.mp4"));
}

TEST_CASE("a video at 23.976 to 239.76 fps has the broadcast rate, 1000/1001 of a whole one, and every frame once", "[render][ffmpeg]") {
    // 23.976 was written as 2997/125, a rate of its own, and 119.88 as 120
    // fps with a frame doubled every 8 s.
    TempDir dir;
    const std::pair<double, const char*> rates[] = {{23.976, "24000/1001"},  {29.97, "30000/1001"},
                                                    {59.94, "60000/1001"},   {119.88, "120000/1001"},
                                                    {239.76, "240000/1001"}, {25, "25/1"}};
    for (const auto& [fps, fraction] : rates) {
        INFO(fps);
        const auto file = dir / ("at-" + std::to_string(fps) + ".mp4");
        auto s = smallExport(file, 3);
        s.fps = fps;
        runExport(s);
        CHECK(probe(file, "stream=r_frame_rate", "v:0").find(fraction) == 0);
    }
    // 8.5 s at 119.88 fps: 1019 frames, where ffmpeg had put one more.
    const auto file = dir / "long.mp4";
    auto s = smallExport(file, 1019);
    s.width = 64;
    s.height = 36;
    s.preset.scene.fishCount = 20;
    s.fps = 119.88;
    runExport(s);
    CHECK(probe(file, "stream=nb_frames", "v:0").find("1019") == 0);
}

TEST_CASE("an MP4 export has the requested frames and duration, and the audio that drove it", "[render][ffmpeg]") {
    TempDir dir;
    auto s = smallExport(dir / "out.mp4", 45);
    s.audioFile = writeTone(dir / "tone.wav").string();
    runExport(s);
    REQUIRE(std::filesystem::exists(dir / "out.mp4"));
    CHECK_FALSE(partialLeftBeside(dir / "out.mp4"));
    CHECK(std::stoi(probe(dir / "out.mp4", "stream=nb_read_frames", "v:0")) == 45);
    CHECK(std::stod(probe(dir / "out.mp4", "stream=duration", "v:0")) == Approx(1.5).margin(0.01));
    CHECK(probe(dir / "out.mp4", "stream=codec_name", "v:0").find("h264") != std::string::npos);
    CHECK(probe(dir / "out.mp4", "stream=pix_fmt", "v:0").find("yuv420p") != std::string::npos);
    // The audio is cut to the video's length.
    const std::string audio = probe(dir / "out.mp4", "stream=codec_name,duration", "a:0");
    INFO("audio stream: " << audio);
    CHECK(audio.find("aac") != std::string::npos);
}

TEST_CASE("a video carries a WAV whose header gives no length, one past its end or one inside a frame, as the analysis reads it",
          "[render][ffmpeg]") {
    // ffmpeg's WAV reader called the short last packet damaged, and the video
    // was refused: a WAV written to a pipe, a recorder's that never finished,
    // a copy cut short.
    TempDir dir;
    REQUIRE(shell("ffmpeg -nostdin -v error -f lavfi -i sine=f=440:d=2 -ac 2 -f wav - > '" + (dir / "piped.wav").string() +
                  "'").code == 0);
    std::string bytes = readText(dir / "piped.wav");
    const std::size_t data = bytes.find("data");
    REQUIRE((data != std::string::npos && bytes.substr(data + 4, 4) == "\xff\xff\xff\xff"));
    bytes.replace(data + 4, 4, std::string(4, '\0'));
    writeText(dir / "unfinished.wav", bytes);
    bytes = readText(writeTone(dir / "tone.wav"));
    bytes.resize(bytes.size() * 3 / 4 + 1);  // mid-sample, too
    writeText(dir / "cut.wav", bytes);
    // A length that ends inside a frame (a recovered recording): a stray byte after the last whole one.
    bytes = readText(dir / "tone.wav");
    const std::size_t toneData = bytes.find("data");
    REQUIRE(toneData != std::string::npos);
    std::uint32_t length = 0;
    std::memcpy(&length, bytes.data() + toneData + 4, 4);
    ++length;
    std::memcpy(bytes.data() + toneData + 4, &length, 4);
    bytes.push_back('\0');
    writeText(dir / "ragged.wav", bytes);
    for (const char* name : {"piped.wav", "unfinished.wav", "cut.wav", "ragged.wav"}) {
        INFO(name);
        const auto out = dir / (std::string(name) + ".mp4");
        auto s = smallExport(out, 0);
        s.audioFile = (dir / name).string();
        runExport(s);
        const double seconds = wavSeconds(dir / name);
        const double video = std::stod(probe(out, "stream=duration", "v:0"));
        CHECK(video == Approx(seconds).margin(1.0 / 30));
        CHECK(std::stod(probe(out, "stream=duration", "a:0")) == Approx(video).margin(0.05));
    }
}

TEST_CASE("an MP4 carries the sound of a file of any number of channels and any layout, as mono or stereo, no channel left out",
          "[render][ffmpeg]") {
    // A 10-channel recorder's bounce, or a WAV whose header names a layout
    // AAC has none for (FL+FR+LFE+SL+SR, SL+SR), stopped the video at its
    // start with ffmpeg's "Unsupported channel layout", after the whole analysis.
    // A mix by position dropped the 4th of a 6-track bounce as LFE, and the
    // centre of a 3.0 file.
    TempDir dir;
    struct Case {
        int channels;
        std::uint32_t mask;  // WAVE_FORMAT_EXTENSIBLE's speaker positions; 0: plain PCM
        int carried;
        int only = -1;       // the one channel with sound; -1: a tone in each
    };
    for (const Case c : {Case{1, 0, 1}, Case{2, 0, 2}, Case{2, 0x600, 2}, Case{5, 0x60B, 2}, Case{6, 0x60F, 2},
                         Case{7, 0, 2}, Case{10, 0, 2}, Case{6, 0, 2, 3}, Case{3, 0x7, 2, 2}}) {
        const std::string name =
            "ch" + std::to_string(c.channels) + "-" + std::to_string(c.mask) + "-" + std::to_string(c.only);
        INFO(name);
        std::string bytes("RIFF\0\0\0\0WAVEfmt ", 16);
        const auto put = [&](std::uint32_t v, int size) {
            for (int i = 0; i < size; ++i) bytes.push_back(static_cast<char>(v >> (8 * i)));
        };
        const auto channels = static_cast<std::uint32_t>(c.channels);
        const std::uint32_t frames = 48000;
        put(c.mask ? 40 : 16, 4), put(c.mask ? 0xFFFE : 1, 2), put(channels, 2), put(48000, 4);
        put(48000u * 2 * channels, 4), put(2u * channels, 2), put(16, 2);
        if (c.mask) {
            put(22, 2), put(16, 2), put(c.mask, 4);
            bytes += std::string("\x01\x00\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71", 16);  // PCM
        }
        bytes += "data";
        put(frames * 2 * channels, 4);
        for (std::uint32_t i = 0; i < frames; ++i)
            for (std::uint32_t ch = 0; ch < channels; ++ch)
                put(c.only >= 0 && ch != static_cast<std::uint32_t>(c.only)
                        ? 0
                        : static_cast<std::uint16_t>(static_cast<std::int16_t>(8000 * std::sin(2 * M_PI * 220 * (ch + 1) * i / 48000.0))),
                    2);
        const auto riff = static_cast<std::uint32_t>(bytes.size() - 8);
        std::memcpy(bytes.data() + 4, &riff, 4);
        writeText(dir / (name + ".wav"), bytes);
        const auto out = dir / (name + ".mp4");
        auto s = smallExport(out, 15);
        s.audioFile = (dir / (name + ".wav")).string();
        runExport(s);
        REQUIRE(std::filesystem::exists(out));
        CHECK(probe(out, "stream=codec_name,channels,channel_layout", "a:0") ==
              "aac\n" + std::to_string(c.carried) + "\n" + (c.carried == 1 ? "mono" : "stereo") + "\n");
        // The sound is there: a tone at -12 dB in one channel of six comes out above -40 dB.
        const Shell loudness = shell("ffmpeg -nostdin -v info -i '" + out.string() + "' -map 0:a -af volumedetect -f null - 2>&1 | grep max_volume");
        INFO(loudness.output);
        const auto at = loudness.output.find("max_volume: ");
        REQUIRE(at != std::string::npos);
        CHECK(std::stod(loudness.output.substr(at + 12)) > -40.0);
        CHECK(std::stod(probe(out, "stream=duration", "a:0")) == Approx(0.5).margin(0.05));
    }
}

TEST_CASE("a video export's ffmpeg runs in a process group of its own, out of reach of a Ctrl+C to the terminal's",
          "[render][ffmpeg]") {
    // Ctrl+C in the editor's terminal reached ffmpeg too, which ended at
    // once, while the editor was still asking whether to stop the export.
    TempDir dir;
    auto s = smallExport(dir / "out.mp4", 30);
    render::ExportJob job(s);
    REQUIRE(job.step());
    pid_t ffmpeg = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos || line.find("(ffmpeg)") == std::string::npos) continue;
        char state = 0;
        pid_t parent = 0;
        std::istringstream(line.substr(close + 1)) >> state >> parent;
        if (parent == ::getpid()) ffmpeg = std::stoi(name);
    }
    REQUIRE(ffmpeg > 0);
    CHECK(::getpgid(ffmpeg) == ffmpeg);
    CHECK(::getpgid(ffmpeg) != ::getpgrp());
}

TEST_CASE("an export with audio and no length lasts as long as the audio", "[render][ffmpeg]") {
    TempDir dir;
    auto s = smallExport(dir / "frames", 0);
    s.audioFile = writeTone(dir / "tone.wav").string();
    s.fps = 24;
    render::ExportJob job(s);
    job.waitForAudio();
    CHECK(job.framesTotal() == 48);
}

TEST_CASE("an export's sound starts with its first frame and ends with its last, from a video whose sound starts late "
          "and from 8 kHz audio", "[render][ffmpeg]") {
    // The late sound played that much late and lost its end; the 8 kHz
    // sound ran 0.4 s past the last frame.
    TempDir dir;
    const auto late = dir / "late.mp4";
    const Shell made = shell("ffmpeg -nostdin -v error -y -f lavfi -i color=c=black:s=32x32:r=30:d=2 -itsoffset 0.5 "
                             "-f lavfi -i sine=f=440:d=2 -map 0:v -map 1:a -c:v libx264 -c:a aac '" + late.string() + "'");
    REQUIRE(made.code == 0);
    REQUIRE(std::stod(probe(late, "stream=start_time", "a:0")) > 0.4);
    MonoAudio phone;
    phone.sampleRate = 8000;
    phone.samples.assign(16000, 0.25f);
    writeWav(dir / "phone.wav", phone);
    for (const auto& audio : {late, dir / "phone.wav"}) {
        INFO(audio.filename());
        const auto out = dir / (audio.stem().string() + "-out.mp4");
        auto s = smallExport(out, 0);
        s.audioFile = audio.string();
        runExport(s);
        const double video = std::stod(probe(out, "stream=duration", "v:0"));
        CHECK(std::stod(probe(out, "stream=start_time", "a:0")) == Approx(0).margin(0.001));
        CHECK(std::stod(probe(out, "stream=duration", "a:0")) == Approx(video).margin(0.03));
    }
}

TEST_CASE("a video's sound ends with its last frame to the sample, in a MOV and an MP4, its length given or the audio's",
          "[render][ffmpeg]") {
    // -shortest ended the sound on whole packets: a MOV's ran 21-65 ms past
    // its last frame, 1-2 frames longer than its picture in an editor's timeline.
    TempDir dir;
    const auto tone = writeTone(dir / "tone.wav");  // 2 s
    for (const char* name : {"given.mov", "whole.mov", "given.mp4", "whole.mp4"}) {
        INFO(name);
        const auto out = dir / name;
        auto s = smallExport(out, std::string(name).starts_with("given") ? 20 : 0);
        s.fps = 25;
        s.audioFile = tone.string();
        runExport(s);
        const double video = std::stod(probe(out, "stream=duration", "v:0"));
        CHECK(video == Approx(std::string(name).starts_with("given") ? 0.8 : 2.0).margin(1e-6));
        CHECK(std::stod(probe(out, "stream=duration", "a:0")) == Approx(video).margin(1e-6));
    }
}

TEST_CASE("an MP4 without audio has no audio stream", "[render][ffmpeg]") {
    TempDir dir;
    runExport(smallExport(dir / "silent.mp4", 10));
    CHECK(std::stoi(probe(dir / "silent.mp4", "stream=nb_read_frames", "v:0")) == 10);
    CHECK(probe(dir / "silent.mp4", "stream=codec_type", "a").empty());
}

TEST_CASE("a ProRes 4444 MOV export has the requested frames", "[render][ffmpeg]") {
    TempDir dir;
    auto s = smallExport(dir / "out.mov", 5);
    s.alpha = true;
    runExport(s);
    CHECK(std::stoi(probe(dir / "out.mov", "stream=nb_read_frames", "v:0")) == 5);
    CHECK(probe(dir / "out.mov", "stream=codec_name,pix_fmt", "v:0").find("prores") != std::string::npos);
    CHECK(probe(dir / "out.mov", "stream=pix_fmt", "v:0").find("yuva444p") != std::string::npos);
}

namespace {
// Colours a render uses, as flat patches 32 px wide: the water, the primaries, a teal and an orange.
const std::vector<QRgb> kPatches{qRgb(11, 22, 34),   qRgb(255, 0, 0),   qRgb(0, 255, 0), qRgb(0, 0, 255),
                                 qRgb(40, 200, 220), qRgb(230, 140, 40)};
constexpr int kPatch = 32;

// A short video of the patches side by side, written through the ffmpeg sink.
void writePatches(const std::filesystem::path& file) {
    render::ExportSettings s;
    s.output = file;
    s.width = kPatch * static_cast<int>(kPatches.size());
    s.height = kPatch;
    QImage frame(s.width, s.height, QImage::Format_RGBA8888_Premultiplied);
    for (int x = 0; x < s.width; ++x)
        for (int y = 0; y < s.height; ++y) frame.setPixel(x, y, kPatches[static_cast<std::size_t>(x / kPatch)]);
    render::checkOutput(s);
    const auto sink = render::openFfmpegPipe(s);
    for (std::uint64_t i = 0; i < 3; ++i) sink->write(frame, i);
    sink->finish();
}

// The middle of each patch in the video's first frame, decoded with the
// BT.709 matrix, as players decode HD video.
std::vector<QRgb> patchesPlayedBack(const std::filesystem::path& file) {
    const Shell rgb = shell("ffmpeg -v error -i '" + file.string() +
                            "' -frames:v 1 -vf scale=in_color_matrix=bt709:in_range=tv -f rawvideo -pix_fmt rgb24 -");
    const std::size_t width = kPatch * kPatches.size();
    std::vector<QRgb> played;
    if (rgb.output.size() != width * kPatch * 3) return played;
    for (std::size_t i = 0; i < kPatches.size(); ++i) {
        const std::size_t at = ((kPatch / 2) * width + i * kPatch + kPatch / 2) * 3;
        const auto level = [&](std::size_t k) { return static_cast<unsigned char>(rgb.output[at + k]); };
        played.push_back(qRgb(level(0), level(1), level(2)));
    }
    return played;
}
}  // namespace

TEST_CASE("an MP4's water is its colour converted to Y'CbCr and rounded, not cut short", "[render][ffmpeg]") {
    // Cr 122 for 122.7: the dark water's red 1.4 levels short in every MP4.
    TempDir dir;
    writePatches(dir / "patches.mp4");
    const Shell raw = shell("ffmpeg -v error -i '" + (dir / "patches.mp4").string() +
                            "' -frames:v 1 -f rawvideo -pix_fmt yuv444p -");
    const std::size_t width = kPatch * kPatches.size(), plane = width * kPatch;
    REQUIRE(raw.output.size() == 3 * plane);
    const std::size_t centre = (kPatch / 2) * width + kPatch / 2;  // of the water's patch
    const auto level = [&](std::size_t p) { return static_cast<unsigned char>(raw.output[p * plane + centre]); };
    // BT.709, limited range, from (11, 22, 34).
    const double r = 11 / 255.0, g = 22 / 255.0, b = 34 / 255.0, y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double exact[3] = {16 + 219 * y, 128 + 224 * (b - y) / 1.8556, 128 + 224 * (r - y) / 1.5748};
    for (std::size_t p = 0; p < 3; ++p) {
        INFO("plane " << p << ": " << int(level(p)) << " for " << exact[p]);
        CHECK(level(p) == std::lround(exact[p]));
    }
}

TEST_CASE("MP4 and MOV exports play back in the colours rendered, and say they are BT.709", "[render][ffmpeg]") {
    TempDir dir;
    for (const char* name : {"patches.mp4", "patches.mov"}) {
        const std::filesystem::path file = dir / name;
        writePatches(file);
        INFO(name);
        CHECK(probe(file, "stream=color_space,color_primaries,color_transfer", "v:0") == "bt709\nbt709\nbt709\n");
        const std::vector<QRgb> played = patchesPlayedBack(file);
        REQUIRE(played.size() == kPatches.size());
        for (std::size_t i = 0; i < kPatches.size(); ++i) {
            const QRgb want = kPatches[i], got = played[i];
            INFO("rendered " << qRed(want) << "," << qGreen(want) << "," << qBlue(want) << " played back " << qRed(got)
                             << "," << qGreen(got) << "," << qBlue(got));
            CHECK(std::abs(qRed(got) - qRed(want)) <= 4);
            CHECK(std::abs(qGreen(got) - qGreen(want)) <= 4);
            CHECK(std::abs(qBlue(got) - qBlue(want)) <= 4);
        }
    }
}

TEST_CASE("a cancelled MP4 export leaves no file that looks complete, nor the folders it made", "[render][ffmpeg]") {
    TempDir dir;
    {
        render::ExportJob job(smallExport(dir / "new" / "deeper" / "out.mp4", 30));
        for (int i = 0; i < 5; ++i) REQUIRE(job.step());
    }  // cancelled: dropped before the end
    CHECK(filesIn(dir.path()).empty());
}

TEST_CASE("an output folder that cannot be written is reported before any work", "[render]") {
    TempDir dir;
    writeText(dir / "a-file", "not a folder");
    const auto blocked = dir / "a-file" / "frames";
    try {
        render::ExportJob job(smallExport(blocked));
        FAIL("the export started");
    } catch (const render::ExportError& e) {
        CHECK_THAT(e.what(), Catch::Contains("cannot write to the output folder") && Catch::Contains("a-file"));
    }
    try {
        render::ExportJob job(smallExport(blocked / "out.mp4"));
        FAIL("the export started");
    } catch (const render::ExportError& e) {
        CHECK_THAT(e.what(), Catch::Contains("cannot write to the output folder"));
    }
}

TEST_CASE("a video named by a link is written to the file the link leads to, and a FIFO or a file as its folder is refused",
          "[render][ffmpeg]") {
    TempDir dir;
    writeText(dir / "real.mp4", "old");
    std::filesystem::create_symlink("real.mp4", dir / "link.mp4");
    runExport(smallExport(dir / "link.mp4", 3));
    CHECK(std::filesystem::is_symlink(dir / "link.mp4"));
    CHECK(fileBytes(dir / "real.mp4").substr(4, 4) == "ftyp");  // an MP4 now
    CHECK_FALSE(partialLeftBeside(dir / "real.mp4"));
    REQUIRE(::mkfifo((dir / "pipe.mp4").c_str(), 0600) == 0);
    CHECK_THAT(refusal(dir / "pipe.mp4"), Catch::Contains("pipe.mp4") && Catch::Contains("a FIFO"));
    CHECK(std::filesystem::is_fifo(dir / "pipe.mp4"));
    writeText(dir / "notes", "mine");
    CHECK_THAT(refusal(dir / "notes" / "clip.mp4"),
               Catch::Contains("cannot write the video into '" + (dir / "notes").string() + "': it is a file"));
    CHECK(fileBytes(dir / "notes") == "mine");
}

TEST_CASE("a video named as the audio file it is made from is refused before any work, and the audio is kept",
          "[render][ffmpeg]") {
    TempDir dir;
    const std::string audio = readText(writeTone(dir / "clip.mov"));
    std::filesystem::create_symlink("clip.mov", dir / "link.mov");
    for (const auto& output : {dir / "clip.mov", dir / "link.mov"}) {
        INFO(output.string());
        render::ExportSettings s = smallExport(output);
        s.audioFile = (dir / "clip.mov").string();
        CHECK_THROWS_WITH(render::ExportJob(s), Catch::Contains("is the audio file") && Catch::Contains("another name"));
        CHECK(readText(dir / "clip.mov") == audio);
    }
    CHECK(filesIn(dir.path()) == std::vector<std::string>{"clip.mov", "link.mov"});
}

TEST_CASE("an export whose audio file is missing stops before any frame and leaves no folder it made for its output",
          "[render]") {
    TempDir dir;
    // As written: "new/../frames" makes "new" on its way to "frames".
    // Through a linked folder, ".." is the parent of where the link leads:
    // "linked/../frames" makes "elsewhere/frames", though a "frames" is here.
    // (A video named by a link into folders not there is refused before:
    // "an output through a link that leads nowhere ...".)
    std::filesystem::create_directories(dir / "elsewhere" / "deep");
    std::filesystem::create_directories(dir / "here" / "frames");
    std::filesystem::create_directory_symlink(dir / "elsewhere" / "deep", dir / "here" / "linked");
    for (const auto& output : {dir / "new" / "deeper" / "frames", dir / "new" / "clip.mp4", dir / "new" / "frames/",
                               dir / "new" / ".." / "frames", dir / "new" / ".." / "clip.mp4",
                               dir / "here" / "linked" / ".." / "frames"}) {
        render::ExportSettings s = smallExport(output);
        s.audioFile = (dir / "missing.wav").string();
        INFO(output.string());
        CHECK_THROWS_WITH(render::ExportJob(s).waitForAudio(), Catch::Contains("missing.wav"));
        CHECK_FALSE(std::filesystem::exists(dir / "new"));
        CHECK_FALSE(std::filesystem::exists(dir / "frames"));
        CHECK_FALSE(std::filesystem::exists(dir / "elsewhere" / "frames"));
    }
    std::filesystem::create_directories(dir / "mine");  // a folder that was there stays
    render::ExportSettings s = smallExport(dir / "mine");
    s.audioFile = (dir / "missing.wav").string();
    CHECK_THROWS(render::ExportJob(s).waitForAudio());
    CHECK(std::filesystem::is_directory(dir / "mine"));
}

TEST_CASE("an export driven by a WAV cut short renders what the file holds and says the rest is missing", "[render]") {
    TempDir dir;
    std::string bytes = readText(writeTone(dir / "tone.wav"));
    bytes.resize(bytes.size() / 4);
    writeText(dir / "cut.wav", bytes);
    auto s = smallExport(dir / "frames", 0);
    s.audioFile = (dir / "cut.wav").string();
    render::ExportJob job(s);
    job.waitForAudio();
    CHECK_THAT(job.audioWarning(), Catch::Contains("cut.wav: the file ends before its audio does"));
    CHECK(job.framesTotal() == 15);  // half a second of the two, at 30 fps
    auto whole = smallExport(dir / "whole", 0);
    whole.audioFile = (dir / "tone.wav").string();
    render::ExportJob wholeJob(whole);
    wholeJob.waitForAudio();
    CHECK(wholeJob.audioWarning().empty());
}

TEST_CASE("an output named like a video MiroFish does not write or like an image, or a folder named FILE.mp4, is refused before any work",
          "[render]") {
    TempDir dir;
    CHECK_THAT(refusal(dir / "clip.avi"), Catch::Contains("avi is not written") && Catch::Contains("FILE.mp4"));
    CHECK_THAT(refusal(dir / "clip.MKV"), Catch::Contains("mkv is not written"));
    CHECK_THAT(refusal(dir / "clip.ts"), Catch::Contains("ts is not written"));
    CHECK_THAT(refusal(dir / "clip.mp4 "), Catch::Contains("ends with a space"));
    CHECK_FALSE(std::filesystem::exists(dir / "clip.mp4 "));
    CHECK_FALSE(std::filesystem::exists(dir / "clip.avi"));
    // Nor a folder of frames named like one image.
    CHECK_THAT(refusal(dir / "still.png"), Catch::Contains("named like one image") && Catch::Contains("folder"));
    CHECK_THAT(refusal(dir / "poster.JPG"), Catch::Contains("named like one image"));
    CHECK_FALSE(std::filesystem::exists(dir / "still.png"));
    // Nor a name that is only the extension (a folder with MP4 chosen), which would be a hidden folder of frames.
    CHECK_THAT(refusal(dir / ".mp4"), Catch::Contains("names no video") && Catch::Contains("clip.mp4"));
    CHECK_THAT(refusal(dir / ".MOV"), Catch::Contains("names no video"));
    CHECK_FALSE(std::filesystem::exists(dir / ".mp4"));
    // Nor a video's name with a slash after it, which names a folder of that name.
    CHECK_THAT(refusal(dir / "clip.mp4/"), Catch::Contains("ends with a slash") && Catch::Contains("to write clip.mp4"));
    CHECK_THAT(refusal(dir / "clip.MOV//"), Catch::Contains("ends with a slash"));
    CHECK_FALSE(std::filesystem::exists(dir / "clip.mp4"));
    // Any other name with a slash is the folder asked for.
    CHECK(render::otherKindRefusal(dir / "still.png/").empty());
    auto folder = smallExport(dir / "frames/", 2);
    CHECK_NOTHROW(render::checkOutput(folder));
    std::filesystem::create_directory(dir / "taken.mp4");
    CHECK_THAT(refusal(dir / "taken.mp4"), Catch::Contains("taken.mp4") && Catch::Contains("is a folder"));
    // The extension's case does not matter: FILE.MP4 is a video, not a folder of frames.
    auto upper = smallExport(dir / "CLIP.Mp4", 3);
    CHECK(upper.kind() == render::OutputKind::Mp4);
}

TEST_CASE("without ffmpeg, MP4 and MOV say they need it and PNG export still works", "[render]") {
    TempDir dir;
    for (const char* name : {"out.mp4", "out.mov"}) {
        auto s = smallExport(dir / name, 3);
        s.ffmpeg = (dir / "no-such-ffmpeg").string();
        try {
            render::ExportJob job(s);
            FAIL("the export started");
        } catch (const render::ExportError& e) {
            CHECK_THAT(e.what(), Catch::Contains("need the ffmpeg program") && Catch::Contains("no-such-ffmpeg") &&
                                     Catch::Contains("PNG export works"));
        }
    }
    auto png = smallExport(dir / "frames", 3);
    png.ffmpeg = (dir / "no-such-ffmpeg").string();
    runExport(png);
    CHECK(filesIn(dir / "frames").size() == 3);
}

TEST_CASE("a failing disk stops a PNG export with a clear message and leaves only complete frames", "[render]") {
    TempDir dir;
    render::ExportJob job(smallExport(dir / "frames", 30));
    for (int i = 0; i < 4; ++i) REQUIRE(job.step());
    // All four, not only the last: the two writers finish frames out of order, and one still under its
    // temporary name when the folder moves could not be removed by the name it was started under.
    const auto allFourWritten = [&] {
        for (int i = 0; i < 4; ++i)
            if (!std::filesystem::exists(framePath(dir / "frames", i))) return false;
        return true;
    };
    REQUIRE(QTest::qWaitFor(allFourWritten, 10'000));
    // The folder goes away under the export: every later write fails, as on a full disk.
    std::filesystem::rename(dir / "frames", dir / "kept");
    writeText(dir / "frames", "");
    try {
        while (job.step()) {
        }
        FAIL("the export finished");
    } catch (const render::ExportError& e) {
        // The reason the system gave, and no guess at a full disk.
        CHECK_THAT(e.what(), Catch::Contains("could not write frame") && Catch::Contains(std::strerror(ENOTDIR)));
        CHECK_THAT(e.what(), !Catch::Contains("disk full"));
    }
    for (const std::string& name : filesIn(dir / "kept")) {
        INFO(name);
        CHECK(name.ends_with(".png"));
        CHECK_FALSE(QImage(QString::fromStdString((dir / "kept" / name).string())).isNull());
    }
}

TEST_CASE("an export with no output named says so, not a file system library's error", "[render]") {
    // The editor's dialog with its folder field left empty, PNG chosen.
    auto s = smallExport("", 3);
    CHECK_THROWS_WITH(render::ExportJob(s), Catch::Equals("no output given (a folder, FILE.mp4 or FILE.mov)"));
}

TEST_CASE("a PNG export on a full disk says so and asks whether the disk is full", "[render]") {
    // The frame's unfinished file is /dev/full, where every write fails for lack of space.
    for (const int failing : {2, 0}) {
        INFO("frame " << failing);
        TempDir dir;
        std::filesystem::create_directories(dir / "frames");
        std::filesystem::create_symlink("/dev/full", partialBeside(framePath(dir / "frames", failing)));
        try {
            runExport(smallExport(dir / "frames", 5));
            FAIL("the export finished");
        } catch (const render::ExportError& e) {
            CHECK_THAT(e.what(), Catch::Contains("could not write frame " + std::to_string(failing)) &&
                                     Catch::Contains(std::strerror(ENOSPC)) && Catch::Contains("is the disk full?"));
            // Before the first frame there are none that are complete.
            CHECK_THAT(e.what(), Catch::EndsWith(failing == 0 ? "no frame was written"
                                                              : "the frames before it are complete"));
        }
    }
}

namespace {
// The error of a small MP4 export through `program` as its ffmpeg (empty if
// it finished), which must leave no video.
std::string errorOfExportThrough(const std::filesystem::path& program, const std::filesystem::path& video,
                                 std::uint64_t frames) {
    auto s = smallExport(video, frames);
    s.ffmpeg = program.string();
    std::string error;
    try {
        runExport(s);
    } catch (const render::ExportError& e) {
        error = e.what();
    }
    CHECK_FALSE(std::filesystem::exists(video));
    return error;
}

// A small MP4 export through a fake ffmpeg that starts the output file, reads
// the frames with `reading` (a shell command), says it could not write the
// trailer for lack of space, and exits with `exitCode`. Returns the export's
// error (empty if it finished); no video, finished or not, may be left.
std::string exportThroughFailingFfmpeg(const std::string& reading, int exitCode, std::uint64_t frames) {
    TempDir dir;
    const auto fake = dir / "ffmpeg";
    writeProgram(fake, "#!/bin/sh\n"
                       "for last; do :; done\n"
                       "echo partial > \"${last#file:}\"\n" +
                           reading +
                           "\n"
                           "echo 'Error writing trailer of out.mp4.part: No space left on device' >&2\n"
                           "exit " +
                           std::to_string(exitCode) + "\n");
    const std::string error = errorOfExportThrough(fake, dir / "out.mp4", frames);
    CHECK_FALSE(partialLeftBeside(dir / "out.mp4"));
    return error;
}
}  // namespace

TEST_CASE("ffmpeg that reports an error but exits 0, as ffmpeg 5.1 did on a full disk, keeps no video",
          "[render][ffmpeg]") {
    // It takes every frame and exits 0.
    CHECK_THAT(exportThroughFailingFfmpeg("cat > /dev/null", 0, 10),
               Catch::Contains("No space left on device") && Catch::Contains("nothing was kept"));
}

TEST_CASE("ffmpeg failing mid-export (a full disk) stops the export with its reason and keeps no video",
          "[render][ffmpeg]") {
    // It takes a few frames and exits 1.
    const std::string error = exportThroughFailingFfmpeg("head -c 1000000 > /dev/null", 1, 60);
    CHECK_THAT(error, Catch::Contains("No space left on device") && Catch::Contains("nothing was kept"));
    // ffmpeg gave its reason: no guess added to it.
    CHECK_THAT(error, !Catch::Contains("is the disk full?"));
}

TEST_CASE("a program given as ffmpeg that takes every frame and writes nothing is named, not taken for a failed move",
          "[render][ffmpeg]") {
    TempDir dir;
    const auto fake = dir / "not-ffmpeg";
    writeProgram(fake, "#!/bin/sh\ncat > /dev/null\nexit 0\n");
    CHECK_THAT(errorOfExportThrough(fake, dir / "out.mp4", 5),
               Catch::Contains("not-ffmpeg' ended without writing the video or saying why: is it the ffmpeg program?"));
}

TEST_CASE("an export's --ffmpeg program decodes its audio file too, not only writes the video", "[render][ffmpeg]") {
    TempDir dir;
    MonoAudio tone;
    tone.sampleRate = 48000;
    tone.samples.assign(48000, 0.25f);
    writeWav(dir / "tone.wav", tone);
    const std::string encode = "ffmpeg -nostdin -v error -y -i '" + (dir / "tone.wav").string() + "' '" +
                               (dir / "tone.flac").string() + "'";
    REQUIRE(std::system(encode.c_str()) == 0);
    // The real ffmpeg under another name, noting every call.
    const auto wrapper = dir / "my-ffmpeg";
    writeProgram(wrapper, "#!/bin/sh\necho \"$*\" >> '" + (dir / "calls.txt").string() + "'\nexec ffmpeg \"$@\"\n");
    const ScopedEnv unset("MIROFISH_FFMPEG", (dir / "no-such-ffmpeg").string());
    auto s = smallExport(dir / "out.mp4", 10);
    s.audioFile = (dir / "tone.flac").string();
    s.ffmpeg = wrapper.string();
    runExport(s);
    CHECK(std::filesystem::exists(dir / "out.mp4"));
    const std::string calls = readText(dir / "calls.txt");
    CHECK_THAT(calls, Catch::Contains("f32le"));     // the decoding
    CHECK_THAT(calls, Catch::Contains("out.mp4"));   // the video
}

TEST_CASE("an ffmpeg that does not run is named as the fault of a video with sound, not the audio file",
          "[render][ffmpeg]") {
    // A library missing since an upgrade: the WAV the analysis had just read
    // was called damaged, with "repair the file".
    TempDir dir;
    writeTone(dir / "tone.wav");
    const std::filesystem::path broken = dir / "broken-ffmpeg";
    writeText(broken, "#!/bin/sh\necho 'ffmpeg: error while loading shared libraries: libavdevice.so.59' >&2\nexit 127\n");
    std::filesystem::permissions(broken, std::filesystem::perms::owner_all);
    auto video = smallExport(dir / "out.mp4", 10);
    video.audioFile = (dir / "tone.wav").string();
    video.ffmpeg = broken.string();
    try {
        render::ExportJob(video).waitForAudio();
        FAIL("the export went ahead with an ffmpeg that does not run");
    } catch (const render::ExportError& e) {
        const std::string what = e.what();
        CHECK_THAT(what, Catch::Contains("does not run") && Catch::Contains("libavdevice.so.59") &&
                             Catch::Contains("reinstall the Debian package ffmpeg"));
        CHECK_THAT(what, !Catch::Contains("damaged"));
    }
    CHECK_FALSE(std::filesystem::exists(dir / "out.mp4"));
    // A kind that only ffmpeg decodes was called "not a readable audio file".
    writeText(dir / "song.mp3", readText(dir / "tone.wav").substr(44));
    auto frames = smallExport(dir / "frames", 10);
    frames.audioFile = (dir / "song.mp3").string();
    frames.ffmpeg = broken.string();
    CHECK_THROWS_WITH(render::ExportJob(frames).waitForAudio(),
                      Catch::Contains("song.mp3: decoding .mp3 needs the ffmpeg program") &&
                          Catch::Contains("does not run") && !Catch::Contains("not a readable audio file"));
}

TEST_CASE("a video from a damaged mp3 is refused before its first frame, and PNG frames from it are made",
          "[render][ffmpeg]") {
    // The analysis reads past the damage; muxing it into the video stopped
    // there, after every frame was rendered, and kept nothing.
    TempDir dir;
    writeTone(dir / "tone.wav");
    const std::string encode = "ffmpeg -nostdin -v error -y -f lavfi -i sine=frequency=220:duration=6 '" +
                               (dir / "tone.mp3").string() + "'";
    REQUIRE(std::system(encode.c_str()) == 0);
    std::string bytes = readText(dir / "tone.mp3");
    REQUIRE(bytes.size() > 20000);
    bytes.replace(12000, 6000, std::string(6000, 'x'));
    writeText(dir / "damaged.mp3", bytes);
    auto video = smallExport(dir / "out.mp4", 0);  // as long as the audio, damage included
    video.audioFile = (dir / "damaged.mp3").string();
    CHECK_THROWS_WITH(render::ExportJob(video).waitForAudio(),
                      Catch::Contains("damaged.mp3: damaged audio, which a video cannot carry"));
    CHECK_FALSE(std::filesystem::exists(dir / "out.mp4"));
    auto frames = smallExport(dir / "frames", 10);
    frames.audioFile = video.audioFile;
    runExport(frames);
    CHECK(std::filesystem::exists(framePath(dir / "frames", 9)));
    // A video that ends before the damage (the first 0.3 s) is made.
    auto shortVideo = smallExport(dir / "short.mp4", 9);
    shortVideo.audioFile = video.audioFile;
    runExport(shortVideo);
    CHECK(std::filesystem::exists(dir / "short.mp4"));
}

TEST_CASE("an export into a folder that already holds frames is refused before any work, and nothing is deleted",
          "[render]") {
    TempDir dir;
    runExport(smallExport(dir / "seq", 5));
    try {
        render::ExportJob job(smallExport(dir / "seq", 2));
        FAIL("the export started");
    } catch (const render::ExportError& e) {
        CHECK_THAT(e.what(), Catch::Contains("'" + (dir / "seq").string() + "'") &&
                                 Catch::Contains("already holds frames") && Catch::Contains("choose an empty folder"));
    }
    CHECK(filesIn(dir / "seq").size() == 5);
    // Other files do not count: a folder with no frames in it takes an export.
    std::filesystem::create_directory(dir / "other");
    writeText(dir / "other" / "notes.txt", "");
    writeText(dir / "other" / "frame_notes.png", "");
    runExport(smallExport(dir / "other", 2));
    CHECK(filesIn(dir / "other").size() == 4);
}

TEST_CASE("a PNG frame that cannot be written leaves no gap: the frame written after it goes too", "[render]") {
    TempDir dir;
    const auto folder = dir / "frames";
    std::filesystem::create_directory(folder);
    std::filesystem::create_directory(partialBeside(folder / "frame_000003.png"));  // frame 3 fails at once
    const auto sink = render::openPngSequence(smallExport(folder, 8));
    QImage frame(16, 16, QImage::Format_RGBA8888_Premultiplied);
    frame.fill(Qt::black);
    // One writer takes frame 4 and writes it; the other fails on frame 3.
    sink->write(frame, 4);
    sink->write(frame, 3);
    try {
        sink->finish();
        FAIL("the frames were written");
    } catch (const render::ExportError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("could not write frame 3 ") && Catch::Contains("before it are complete"));
    }
    CHECK_FALSE(std::filesystem::exists(folder / "frame_000004.png"));
}

TEST_CASE("when two PNG frames cannot be written, the message names the first of them", "[render]") {
    // Frame 4 is taken by one writer first and held (its file is a FIFO no one
    // reads yet); frame 3 then fails at once (its file is a folder). Frame 4
    // fails after it, when the FIFO opens and closes at once: the message must
    // still name frame 3, the first one missing.
    TempDir dir;
    const auto folder = dir / "frames";
    std::filesystem::create_directory(folder);
    const auto held = partialBeside(folder / "frame_000004.png");
    REQUIRE(::mkfifo(held.c_str(), 0600) == 0);
    std::filesystem::create_directory(partialBeside(folder / "frame_000003.png"));
    const auto previousPipeHandler = std::signal(SIGPIPE, SIG_IGN);

    render::ExportSettings settings = smallExport(folder, 8);
    const auto sink = render::openPngSequence(settings);
    QImage frame(16, 16, QImage::Format_RGBA8888_Premultiplied);
    frame.fill(Qt::black);
    // Queued in this order, frame 4 is taken first whichever writer is free.
    sink->write(frame, 4);
    sink->write(frame, 3);
    REQUIRE(QTest::qWaitFor([&] { return !std::filesystem::exists(partialBeside(folder / "frame_000003.png")); }, 5000));
    QTest::qWait(50);
    // Each open of the reading end lets the waiting writer on; with no reader left its write fails.
    REQUIRE(QTest::qWaitFor([&] {
        const int fd = ::open(held.c_str(), O_RDONLY | O_NONBLOCK);
        if (fd >= 0) ::close(fd);
        return !std::filesystem::exists(held);
    }, 5000));
    try {
        sink->finish();
        FAIL("the frames were written");
    } catch (const render::ExportError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("could not write frame 3 "));
    }
    std::signal(SIGPIPE, previousPipeHandler);
}
