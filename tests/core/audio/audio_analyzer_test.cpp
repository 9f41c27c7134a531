// The audio analysis as a user of the meters and routes sees it: which band
// lights for which sound, silence stays dark, loud and quiet copies of a
// track read alike, and the same samples always give the same frames.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "audio/audio_analyzer.hpp"
#include "audio/resample.hpp"
#include "core/audio/audio_signals.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

std::vector<AudioFeatures> analyze(const std::vector<float>& s, double fps = 60, AudioAnalyzerConfig config = {}) {
    AudioAnalyzer analyzer(config);
    return analyzer.analyzeAll(s, fps);
}

bool allFinite(const AudioFeatures& f) {
    bool ok = std::isfinite(f.time) && std::isfinite(f.level) && std::isfinite(f.levelDb) &&
              std::isfinite(f.bpm) && std::isfinite(f.tempoConfidence) && std::isfinite(f.beatPhase);
    for (float v : f.named) ok = ok && std::isfinite(v) && v >= 0 && v <= 1;
    for (float v : f.namedDb) ok = ok && std::isfinite(v);
    for (float v : f.bands) ok = ok && std::isfinite(v) && v >= 0 && v <= 1;
    for (float v : f.bandsDb) ok = ok && std::isfinite(v);
    return ok && f.level >= 0 && f.level <= 1;
}

}  // namespace

TEST_CASE("a 60 Hz sine lights the low band, 1 kHz the mid band, 8 kHz the high band", "[audio]") {
    const struct { double hz; NamedBand lit; } cases[] = {
        {60, NamedBand::Low}, {1000, NamedBand::Mid}, {8000, NamedBand::High}};
    for (const auto& c : cases) {
        const auto frames = analyze(sine(c.hz, 2.0));
        const AudioFeatures& f = frames.back();
        INFO(c.hz << " Hz: low " << f.named[0] << " mid " << f.named[1] << " high " << f.named[2]
                  << " (dB " << f.namedDb[0] << ' ' << f.namedDb[1] << ' ' << f.namedDb[2] << ")");
        for (std::size_t b = 0; b < 3; ++b) {
            if (b == static_cast<std::size_t>(c.lit)) CHECK(f.named[b] > 0.9f);
            else CHECK(f.named[b] < 0.05f);
        }
        CHECK(f.level > 0.9f);
    }
}

TEST_CASE("a sweep of sines lights the log-spaced bands one after another, low to high", "[audio]") {
    AudioAnalyzer analyzer;
    const auto ranges = analyzer.bandRanges();
    std::size_t previousLoudest = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const double centre = std::sqrt(ranges[i].lowHz * ranges[i].highHz);
        const auto frames = analyzer.analyzeAll(sine(centre, 1.0), 60);
        const AudioFeatures& f = frames.back();
        const auto loudest = static_cast<std::size_t>(std::max_element(f.bands.begin(), f.bands.end()) - f.bands.begin());
        std::string row;
        for (float v : f.bands) row += std::to_string(v).substr(0, 4) + ' ';
        INFO("sine at " << centre << " Hz: bands " << row);
        CHECK(loudest == i);
        CHECK(f.bands[i] > 0.9f);
        if (i > 0) CHECK(loudest > previousLoudest);
        for (std::size_t j = 0; j < f.bands.size(); ++j)
            if (j + 1 < i || j > i + 1) CHECK(f.bands[j] < 0.05f);  // only neighbours may glow
        previousLoudest = loudest;
    }
}

TEST_CASE("silence gives no onsets, zero levels, no tempo and only finite values", "[audio]") {
    const std::vector<float> silence(samplesFor(10.0), 0.0f);
    const auto frames = analyze(silence);
    REQUIRE(frames.size() == 601);
    for (const AudioFeatures& f : frames) {
        CHECK_FALSE(f.onset);
        CHECK(f.level == 0.0f);
        CHECK(f.bpm == 0.0f);
        CHECK(f.tempoConfidence == 0.0f);
        for (float v : f.named) CHECK(v == 0.0f);
        for (float v : f.bands) CHECK(v == 0.0f);
        CHECK(allFinite(f));
    }
}

TEST_CASE("faint noise below the floor stays dark however long it lasts", "[audio]") {
    std::vector<float> hiss(samplesFor(8.0));
    Noise noise;
    for (float& x : hiss) x = 1e-5f * noise();  // about -105 dBFS
    const auto frames = analyze(hiss);
    for (const AudioFeatures& f : frames) {
        CHECK_FALSE(f.onset);
        CHECK(f.level == 0.0f);
        for (float v : f.bands) CHECK(v == 0.0f);
    }
}

TEST_CASE("a DC offset is no sound: silence written with one stays dark, and music over one keeps its onsets", "[audio]") {
    // An 8-bit file's silence written as 0x7F is an offset of -1/128; a
    // recorder's or sound card's is often a few thousandths.
    for (float offset : {0.001f, -1.0f / 128}) {
        INFO("offset " << offset);
        const std::vector<float> still(samplesFor(4.0), offset);
        const auto frames = analyze(still);
        for (std::size_t k = 0; k < frames.size(); ++k) {
            CHECK_FALSE(frames[k].onset);
            CHECK(frames[k].level == 0.0f);
            for (float v : frames[k].named) CHECK(v == 0.0f);
            for (float v : frames[k].bands) CHECK(v == 0.0f);
        }
        auto song = music(6.0, 0.5);
        const auto clean = analyze(song);
        for (float& x : song) x += offset;
        const auto offsetSong = analyze(song);
        for (std::size_t k = 30; k < clean.size(); ++k) {
            CHECK(offsetSong[k].onset == clean[k].onset);
            CHECK(offsetSong[k].named[0] == Approx(clean[k].named[0]).margin(0.05));
        }
    }
}

TEST_CASE("silence on an offset stays dark in a file at another rate than 48 kHz, from its first frame", "[audio]") {
    // A 22.05 kHz 8-bit file of 0x7F read an onset and a level of 0.13 at
    // its start, which a 48 kHz one did not: the resampling ramped the offset in.
    for (const double rate : {22050.0, 44100.0}) {
        for (const float offset : {-1.0f / 128, 0.3f}) {
            INFO(rate << " Hz, offset " << offset);
            const std::vector<float> still(static_cast<std::size_t>(rate * 3), offset);
            const auto frames = analyze(resample(still, rate, kRate));
            REQUIRE(frames.size() > 100);
            for (std::size_t k = 0; k < frames.size(); ++k) {
                INFO("frame " << k);
                CHECK_FALSE(frames[k].onset);
                CHECK(frames[k].level < 0.01f);
            }
        }
    }
}

TEST_CASE("a small DC offset under fading bass notes adds no onsets", "[audio]") {
    // Four plucked notes of a bass (55 Hz, fading over 2 s) read four onsets
    // with or without a recorder's offset, however the offset compares with
    // the fading note: it must not beat against the note's lowest bins.
    std::vector<float> bass(samplesFor(10.0), 0.0f);
    for (int note = 0; note < 4; ++note) {
        const std::size_t start = samplesFor(0.5 + 2.4 * note);
        for (std::size_t i = start; i < bass.size(); ++i) {
            const double t = static_cast<double>(i - start) / kRate;
            bass[i] += static_cast<float>(0.6 * std::exp(-t / 0.5) * std::sin(2 * M_PI * 55 * t));
        }
    }
    const auto onsets = [](const std::vector<AudioFeatures>& frames) {
        return std::count_if(frames.begin(), frames.end(), [](const AudioFeatures& f) { return f.onset; });
    };
    CHECK(onsets(analyze(bass)) == 4);
    for (float offset : {0.0005f, 0.002f, 0.01f, -1.0f / 128}) {
        INFO("offset " << offset);
        auto shifted = bass;
        for (float& x : shifted) x += offset;
        CHECK(onsets(analyze(shifted)) == 4);
    }
}

TEST_CASE("a quiet (-20 dB) copy of a track reads like the loud copy once the gain settles", "[audio]") {
    const auto loud = analyze(music(14.0, 1.0));
    const auto quiet = analyze(music(14.0, 0.1));
    REQUIRE(loud.size() == quiet.size());
    const std::size_t from = 8 * 60;  // two gain windows in
    double named = 0, bands = 0, level = 0, loudMean = 0, n = 0;
    for (std::size_t k = from; k < loud.size(); ++k, ++n) {
        for (std::size_t b = 0; b < 3; ++b) {
            named += std::abs(loud[k].named[b] - quiet[k].named[b]) / 3;
            loudMean += loud[k].named[b] / 3;
        }
        for (std::size_t b = 0; b < loud[k].bands.size(); ++b)
            bands += std::abs(loud[k].bands[b] - quiet[k].bands[b]) / static_cast<double>(loud[k].bands.size());
        level += std::abs(loud[k].level - quiet[k].level);
        CHECK(quiet[k].namedDb[0] == Approx(loud[k].namedDb[0] - 20).margin(0.5));
    }
    INFO("mean |loud - quiet|: named " << named / n << ", bands " << bands / n << ", level " << level / n
                                       << "; loud named mean " << loudMean / n);
    CHECK(named / n < 0.1);
    CHECK(bands / n < 0.1);
    CHECK(level / n < 0.1);
    CHECK(loudMean / n > 0.2);  // the curves are not trivially dark
}

TEST_CASE("analysing the same samples twice gives identical frames", "[audio]") {
    const auto s = music(6.0);
    const auto a = analyze(s);
    AudioAnalyzer analyzer;
    std::vector<AudioFeatures> b;
    for (std::size_t k = 0; k < a.size(); ++k) b.push_back(analyzer.analyzeFrame(s, k));
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        CHECK(a[k].time == b[k].time);
        CHECK(a[k].named == b[k].named);
        CHECK(a[k].namedDb == b[k].namedDb);
        CHECK(a[k].bands == b[k].bands);
        CHECK(a[k].level == b[k].level);
        CHECK(a[k].onset == b[k].onset);
        CHECK(a[k].bpm == b[k].bpm);
        CHECK(a[k].beatPhase == b[k].beatPhase);
    }
}

TEST_CASE("frame k analyses the window ending at k / fps seconds", "[audio]") {
    const auto s = sine(1000, 1.0);
    CHECK(AudioAnalyzer::frameCount(s.size(), kRate, 60) == 61);
    CHECK(AudioAnalyzer::frameCount(0, kRate, 60) == 0);
    const auto frames = analyze(s, 24);
    REQUIRE(frames.size() == 25);
    for (std::size_t k = 0; k < frames.size(); ++k) CHECK(frames[k].time == Approx(static_cast<double>(k) / 24));
    CHECK(frames[0].level == 0.0f);  // the window ending at 0 s holds only the zeros before the track
    CHECK(frames[1].level > 0.5f);
}

TEST_CASE("seeking (a frame that does not follow the last) starts the analysis afresh", "[audio]") {
    const auto s = music(4.0);
    AudioAnalyzer a, b;
    for (std::size_t k = 0; k < 100; ++k) a.analyzeFrame(s, k);
    const AudioFeatures afterSeek = a.analyzeFrame(s, 200);
    const AudioFeatures fresh = b.analyzeFrame(s, 200);
    CHECK(afterSeek.named == fresh.named);
    CHECK(afterSeek.bands == fresh.bands);
}

TEST_CASE("the live path (newest samples) matches the offline frames", "[audio]") {
    const auto s = music(3.0);
    AudioAnalyzer offline, live;
    for (std::size_t k = 0; k < 150; ++k) {
        const AudioFeatures a = offline.analyzeFrame(s, k);
        const std::size_t end = std::min(s.size(), k * 800);
        const AudioFeatures b = live.analyzeWindow(std::span(s).first(end), static_cast<double>(k) / 60);
        CHECK(a.named == b.named);
        CHECK(a.onset == b.onset);
    }
}

TEST_CASE("configurations the analysis cannot use are refused", "[audio]") {
    AudioAnalyzerConfig c;
    c.fftSize = 1001;
    CHECK_THROWS_AS(AudioAnalyzer(c), std::invalid_argument);
    c = {};
    c.bands = 0;
    CHECK_THROWS_AS(AudioAnalyzer(c), std::invalid_argument);
    c = {};
    c.minBpm = 200;
    c.maxBpm = 60;
    CHECK_THROWS_AS(AudioAnalyzer(c), std::invalid_argument);
    c = {};
    c.bands = 16;
    CHECK(AudioAnalyzer(c).bandRanges().size() == 16);
}

TEST_CASE("a looping track's later laps go on from the lap before: tempo known at once, no onset in a held note",
          "[audio]") {
    // Analysed alone, every lap started cold: no tempo for 2.5 s, and an
    // onset at the seam even inside a note that never stops.
    const std::vector<float> loop = music(8.0);
    const std::vector<AudioFeatures> cold = analyze(loop);
    const std::vector<AudioFeatures> lap = analyzeLapStart(AudioAnalyzerConfig{}, loop);
    REQUIRE(lap.size() == 480);  // the tempo window, 8 s at 60 frames a second
    CHECK(cold[30].bpm == 0.0f);
    INFO("the second lap's tempo at its first frames: " << lap[0].bpm << ", " << lap[30].bpm);
    CHECK(lap[0].bpm == Approx(124).margin(3));
    CHECK(lap[30].bpm == Approx(124).margin(3));
    for (std::size_t k = 0; k < lap.size(); ++k) REQUIRE(lap[k].time == Approx(cold[k].time));

    const std::vector<float> held = sine(220, 3.0);
    const auto heldCold = analyze(held);
    const auto heldLap = analyzeLapStart(AudioAnalyzerConfig{}, held);
    REQUIRE(heldLap.size() == heldCold.size());  // a track shorter than the window: all of it
    CHECK(std::any_of(heldCold.begin(), heldCold.begin() + 6, [](const AudioFeatures& f) { return f.onset; }));
    CHECK(std::none_of(heldLap.begin(), heldLap.end(), [](const AudioFeatures& f) { return f.onset; }));
    CHECK(analyzeLapStart(AudioAnalyzerConfig{}, std::vector<float>{}).empty());
}
