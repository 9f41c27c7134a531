// WAV files in and out, and the errors a user sees for bad ones.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "audio/wav_file.hpp"
#include "support/decimal_comma_locale.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
std::vector<unsigned char> pcm16Stereo(const std::vector<std::int16_t>& left, const std::vector<std::int16_t>& right) {
    std::vector<unsigned char> b;
    auto put32 = [&](std::uint32_t v) { for (int i = 0; i < 4; ++i) b.push_back(static_cast<unsigned char>(v >> (8 * i))); };
    auto put16 = [&](std::uint16_t v) { b.push_back(static_cast<unsigned char>(v)); b.push_back(static_cast<unsigned char>(v >> 8)); };
    auto tag = [&](const char* t) { for (int i = 0; i < 4; ++i) b.push_back(static_cast<unsigned char>(t[i])); };
    const auto dataBytes = static_cast<std::uint32_t>(left.size() * 4);
    tag("RIFF");
    put32(36 + dataBytes);
    tag("WAVE");
    tag("fmt ");
    put32(16);
    put16(1);
    put16(2);
    put32(44100);
    put32(44100 * 4);
    put16(4);
    put16(16);
    tag("data");
    put32(dataBytes);
    for (std::size_t i = 0; i < left.size(); ++i) {
        put16(static_cast<std::uint16_t>(left[i]));
        put16(static_cast<std::uint16_t>(right[i]));
    }
    return b;
}
}  // namespace

TEST_CASE("a float WAV written and read back keeps every sample and the rate", "[audio]") {
    TempDir dir;
    MonoAudio a;
    a.sampleRate = 48000;
    for (int i = 0; i < 4800; ++i) a.samples.push_back(0.5f * std::sin(2.0f * std::numbers::pi_v<float> * 440.0f * i / 48000.0f));
    writeWav(dir / "tone.wav", a);
    const MonoAudio b = readWav(dir / "tone.wav");
    CHECK(b.sampleRate == 48000);
    CHECK(b.samples == a.samples);
    CHECK(b.seconds() == Approx(0.1));
}

TEST_CASE("a 16-bit stereo WAV is mixed down to mono", "[audio]") {
    const auto bytes = pcm16Stereo({16384, -32768, 0}, {16384, 0, 32767});
    const MonoAudio a = parseWav(bytes, "stereo.wav");
    CHECK(a.sampleRate == 44100);
    REQUIRE(a.samples.size() == 3);
    CHECK(a.samples[0] == Approx(0.5f));
    CHECK(a.samples[1] == Approx(-0.5f));
    CHECK(a.samples[2] == Approx(0.5f).margin(1e-4));
}

TEST_CASE("a WAV stream fed in pieces of any size, cut inside its header and its frames, mixes as the whole file does",
          "[audio]") {
    std::vector<std::int16_t> left, right;
    for (int i = 0; i < 1000; ++i) {
        left.push_back(static_cast<std::int16_t>(i * 37 % 65536 - 32768));
        right.push_back(static_cast<std::int16_t>(i * 91 % 65536 - 32768));
    }
    const auto bytes = pcm16Stereo(left, right);
    const MonoAudio whole = parseWav(bytes, "stereo.wav");
    for (const std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{43}, std::size_t{4096}}) {
        INFO("pieces of " << piece << " bytes");
        WavStreamMixer mixer("stereo.wav");
        std::vector<unsigned char> arrived;
        for (std::size_t at = 0; at < bytes.size(); at += piece) {
            arrived.insert(arrived.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at),
                           bytes.begin() + static_cast<std::ptrdiff_t>(std::min(at + piece, bytes.size())));
            mixer.feed(arrived);
            CHECK(arrived.size() < 44 + 4);  // no more than a header and a frame wait
        }
        const MonoAudio streamed = mixer.finish(arrived);
        CHECK(streamed.sampleRate == 44100);
        CHECK(streamed.samples == whole.samples);
    }
    // A stream that ends inside its header, or before any sample, says so.
    std::vector<unsigned char> header(bytes.begin(), bytes.begin() + 20);
    CHECK_THROWS_AS(WavStreamMixer("cut.wav").finish(header), AudioFileError);
    std::vector<unsigned char> noSamples(bytes.begin(), bytes.begin() + 44);
    CHECK_THROWS_WITH(WavStreamMixer("empty.wav").finish(noSamples), Catch::Contains("empty.wav: the file holds no audio"));
}

TEST_CASE("a missing, empty, foreign or truncated WAV is refused with a message naming the file", "[audio]") {
    TempDir dir;
    CHECK_THROWS_WITH(readWav(dir / "nope.wav"), Catch::Contains("nope.wav") && Catch::Contains("missing"));
    writeText(dir / "empty.wav", "");
    CHECK_THROWS_WITH(readWav(dir / "empty.wav"), Catch::Contains("empty.wav") && Catch::Contains("empty"));
    writeText(dir / "text.wav", "this is not audio at all");
    CHECK_THROWS_WITH(readWav(dir / "text.wav"), Catch::Contains("not a WAV file"));
    auto bytes = pcm16Stereo({1, 2, 3}, {1, 2, 3});
    bytes.resize(40);  // the header ends before the data chunk
    CHECK_THROWS_WITH(parseWav(bytes, "cut.wav"), Catch::Contains("cut.wav"));
}

TEST_CASE("a WAV cut short inside its extensible format chunk is refused as truncated, not read past its end", "[audio]") {
    // The whole chunk in memory, the file only its first 40 bytes: the
    // sub-format (PCM) lies past the file's end.
    auto whole = pcm16Stereo({1, 2, 3}, {1, 2, 3});
    whole[16] = 40;  // the format chunk's size: an extensible one
    whole[20] = 0xFE;
    whole[21] = 0xFF;
    whole.resize(12 + 8 + 40);
    whole[12 + 8 + 24] = 1;  // the sub-format: PCM
    whole[12 + 8 + 25] = 0;
    const std::span<const unsigned char> file(whole.data(), 40);
    CHECK_THROWS_WITH(parseWav(file, "cut.wav"), Catch::Contains("cut.wav") && Catch::Contains("truncated format chunk"));
}

TEST_CASE("a WAV's length comes from its header and size alone, before its audio is read", "[audio]") {
    TempDir dir;
    // A streaming writer's header (data size unknown) over 20 MB of 8-bit mono at 1 kHz:
    // 20 000 s, more than the four hours MiroFish analyses, in a sparse file.
    auto bytes = pcm16Stereo({}, {});
    bytes[22] = 1;  // mono
    bytes[24] = 0xE8;  // 1000 Hz
    bytes[25] = 0x03;
    bytes[34] = 8;  // bits
    for (int i = 40; i < 44; ++i) bytes[static_cast<std::size_t>(i)] = 0xFF;
    const auto file = dir / "long.wav";
    writeText(file, std::string(bytes.begin(), bytes.end()));
    std::filesystem::resize_file(file, 44 + 20'000'000);
    CHECK(wavSeconds(file) == Approx(20'000.0));
    // Metadata before the audio beyond the first megabyte is not looked for.
    auto late = pcm16Stereo({1}, {1});
    std::vector<unsigned char> padded(late.begin(), late.begin() + 36);
    const char list[] = {'L', 'I', 'S', 'T', 0, 0, 0x20, 0};  // 2 MB
    padded.insert(padded.end(), list, list + 8);
    padded.resize(padded.size() + 0x200000, 0);
    padded.insert(padded.end(), late.begin() + 36, late.end());
    writeText(dir / "late.wav", std::string(padded.begin(), padded.end()));
    CHECK_THROWS_WITH(wavSeconds(dir / "late.wav"), Catch::Contains("no audio data chunk"));
    CHECK(readWav(dir / "late.wav").samples.size() == 1);
}

TEST_CASE("a WAV cut short is read as far as it goes, with a warning that says how much is missing", "[audio]") {
    std::vector<std::int16_t> left(44100, 1000), right(44100, -1000);  // one second
    auto bytes = pcm16Stereo(left, right);
    CHECK(parseWav(bytes, "whole.wav").warning.empty());
    bytes.resize(44 + 4 * 4410);  // the header and a tenth of a second
    const MonoAudio cut = parseWav(bytes, "cut.wav");
    CHECK(cut.samples.size() == 4410);
    CHECK_THAT(cut.warning, Catch::Contains("cut.wav") &&
                                Catch::Contains("4410 of the 44100 samples its header gives (0.100 s of 1.000 s)"));
    // In the editor, under a locale of decimal commas (Qt sets the user's), as the number fields write them.
    {
        const DecimalCommaLocale commas;
        CHECK_THAT(parseWav(bytes, "cut.wav").warning, Catch::Contains("(0.100 s of 1.000 s)"));
    }
    // A streaming writer's "size unknown" (0xFFFFFFFF) is no damage.
    for (int i = 0; i < 4; ++i) bytes[40 + i] = 0xFF;
    CHECK(parseWav(bytes, "stream.wav").warning.empty());
}

TEST_CASE("a recording whose writer never finished its header (data size 0) is read to the end of the file",
          "[audio]") {
    TempDir dir;
    std::vector<std::int16_t> left(44100, 1000), right(44100, -1000);  // one second
    auto bytes = pcm16Stereo(left, right);
    for (int i = 0; i < 4; ++i) bytes[40 + i] = 0;  // the data chunk's size, as a recorder opens it
    const MonoAudio a = parseWav(bytes, "crashed.wav");
    CHECK(a.samples.size() == 44100);
    CHECK(a.warning.empty());
    writeText(dir / "crashed.wav", std::string(bytes.begin(), bytes.end()));
    CHECK(wavSeconds(dir / "crashed.wav") == Approx(1.0));
    // An empty data chunk with another chunk after it holds no samples: the
    // metadata is not read as audio.
    auto empty = pcm16Stereo({}, {});
    const char list[] = {'L', 'I', 'S', 'T', 4, 0, 0, 0, 'I', 'N', 'F', 'O'};
    empty.insert(empty.end(), list, list + sizeof list);
    CHECK_THROWS_WITH(parseWav(empty, "tagged.wav"), Catch::Contains("holds no samples"));
}

TEST_CASE("a WAV whose header gives an impossible sample rate is refused, not read as no audio", "[audio]") {
    auto bytes = pcm16Stereo({1, 2, 3}, {1, 2, 3});
    for (const std::uint32_t rate : {0xFFFFFFFFu, 7u}) {
        for (int i = 0; i < 4; ++i) bytes[24 + i] = static_cast<unsigned char>(rate >> (8 * i));
        CHECK_THROWS_WITH(parseWav(bytes, "odd.wav"), Catch::Contains("odd.wav") && Catch::Contains("sample rate"));
    }
    for (int i = 0; i < 4; ++i) bytes[24 + i] = static_cast<unsigned char>(8000u >> (8 * i));
    CHECK(parseWav(bytes, "phone.wav").sampleRate == 8000);
}
