// Live input and the feed the simulation reads: a performer's input device
// delivers samples in whatever chunks it likes, and the school must react to
// exactly what the same audio from a file would give; the visuals follow the
// playhead (not the decoder) and wait for the latency offset.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>

#include "audio/audio_analyzer.hpp"
#include "audio/audio_feed.hpp"
#include "audio/bands.hpp"
#include "audio/live_analyzer.hpp"
#include "audio/modulation.hpp"
#include "audio/resample.hpp"
#include "core/audio/audio_signals.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

bool sameFrame(const AudioFeatures& a, const AudioFeatures& b) {
    return a.time == b.time && a.named == b.named && a.bands == b.bands && a.level == b.level &&
           a.namedGainDb == b.namedGainDb && a.onset == b.onset && a.bpm == b.bpm && a.beatPhase == b.beatPhase;
}

AudioFeatures frameAt(double time, float low) {
    AudioFeatures f;
    f.time = time;
    f.named[0] = low;
    return f;
}

using Clock = AudioFeed::Clock;
Clock::time_point at(double seconds) {
    return Clock::time_point{} + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// Two seconds of frames at 60 a second, the onset at frame 30 (0.5 s) alone,
// playing in `feed` from time 0.
std::shared_ptr<std::vector<AudioFeatures>> playTrackWithOneOnset(AudioFeed& feed) {
    auto frames = std::make_shared<std::vector<AudioFeatures>>();
    for (int k = 0; k < 120; ++k) {
        frames->push_back(frameAt(k / 60.0, 0));
        frames->back().onset = k == 30;
    }
    feed.setTrack(frames, 60, 2.0);
    feed.setPlayhead(0, true, at(0));
    return frames;
}

// Ten seconds of frames whose low band is the time in seconds.
std::shared_ptr<std::vector<AudioFeatures>> tenSeconds() {
    auto frames = std::make_shared<std::vector<AudioFeatures>>();
    for (int k = 0; k <= 600; ++k) frames->push_back(frameAt(k / 60.0, static_cast<float>(k) / 60));
    return frames;
}

}  // namespace

TEST_CASE("live input analysed in uneven chunks gives exactly the file's analysis", "[audio][live]") {
    // 48 kHz, and 192 kHz, where a frame's hop (3200 samples) is longer than
    // the FFT window and each frame is two sub-frames.
    const double rate = GENERATE(48000.0, 192000.0);
    INFO(rate << " Hz");
    const std::vector<float> track = music(4.0 * rate / kRate);  // 4 s at `rate`
    AudioAnalyzerConfig config;
    config.sampleRate = rate;
    AudioAnalyzer offline(config);
    const std::vector<AudioFeatures> expected = offline.analyzeAll(track, 60);

    LiveAnalyzer live(config);
    std::vector<AudioFeatures> frames;
    Noise noise;
    std::size_t pos = 0;
    while (pos < track.size()) {
        // Chunks of 1 to 4000 samples, as capture devices deliver them.
        const auto size = std::min<std::size_t>(track.size() - pos, 1 + static_cast<std::size_t>((noise() + 1) * 2000));
        live.push(std::span(track).subspan(pos, size), frames);
        pos += size;
    }
    REQUIRE(frames.size() == expected.size());
    std::size_t onsets = 0;
    for (std::size_t k = 0; k < frames.size(); ++k) {
        INFO("frame " << k);
        REQUIRE(sameFrame(frames[k], expected[k]));
        onsets += frames[k].onset ? 1 : 0;
    }
    CHECK(onsets >= 6);  // the loop's kicks are seen live, not only offline
}

TEST_CASE("an input device at 44.1, 96 or 192 kHz reads the bands as a file at 48 kHz does", "[audio][live]") {
    // Steady tones in the lowest bands and above, at a device's rate: each
    // band's level (dB of its mean power per bin) as at 48 kHz.
    const auto tones = [](double rate) {
        std::vector<float> s(static_cast<std::size_t>(rate));  // 1 s
        for (std::size_t i = 0; i < s.size(); ++i) {
            const double t = static_cast<double>(i) / rate;
            double v = 0;
            for (const double hz : {25.0, 60.0, 130.0, 300.0, 1000.0, 5000.0}) v += 0.1 * std::sin(2 * std::numbers::pi * hz * t);
            s[i] = static_cast<float>(v);
        }
        return s;
    };
    const AudioFeatures reference = AudioAnalyzer(analyzerConfigFor(48000)).analyzeAll(tones(48000), 60).back();
    for (const double rate : {44100.0, 96000.0, 192000.0}) {
        const AudioFeatures at = AudioAnalyzer(analyzerConfigFor(rate)).analyzeAll(tones(rate), 60).back();
        REQUIRE(at.bandsDb.size() == reference.bandsDb.size());
        for (std::size_t b = 0; b < 8; ++b) {
            INFO(rate << " Hz, band " << b);
            CHECK(at.bandsDb[b] == Approx(reference.bandsDb[b]).margin(3.0));
        }
    }
}

TEST_CASE("an input device at 8, 11.025 or 16 kHz reads the bands as the same sound in a file does, nothing above its top",
          "[audio][live]") {
    // A band wholly above the device's top frequency read the top bin (the
    // "6.9k" band lit at 8 kHz), and one reaching past it the mean of the
    // bins below only: the loudest bands set the reference, and all the
    // others read lower than the same sound from a file.
    for (const double rate : {8000.0, 11025.0, 16000.0}) {
        std::vector<float> noise(static_cast<std::size_t>(3 * rate));
        std::uint32_t state = 12345;
        for (float& v : noise) {
            state = state * 1664525u + 1013904223u;
            v = 0.5f * (static_cast<float>(state >> 8) / 8388608.0f - 1.0f);
        }
        // A file is resampled to 48 kHz before it is analysed.
        const AudioFeatures file = AudioAnalyzer(analyzerConfigFor(48000))
                                       .analyzeAll(resample(noise, rate, 48000), 60)
                                       .back();
        const AudioFeatures live = AudioAnalyzer(analyzerConfigFor(rate)).analyzeAll(noise, 60).back();
        const std::vector<BandRange> ranges = logSpacedBands(live.bands.size());
        REQUIRE(live.bands.size() == file.bands.size());
        for (std::size_t b = 0; b < live.bands.size(); ++b) {
            INFO(rate << " Hz, band " << b << ": live " << live.bands[b] << " (" << live.bandsDb[b] << " dB), file "
                      << file.bands[b] << " (" << file.bandsDb[b] << " dB)");
            if (ranges[b].lowHz >= rate / 2) {
                CHECK(live.bandsDb[b] < -100);
                CHECK(live.bands[b] == file.bands[b]);
            } else if (ranges[b].highHz <= 0.3 * rate) {
                // Below where the file's resampling (linear) dulls the top
                // (at 0.3 of the rate, 1.3 dB); these few bins of noise
                // still differ by up to 4 dB from frame to frame.
                CHECK(live.bands[b] == Approx(file.bands[b]).margin(0.12));
            }
        }
    }
}

TEST_CASE("live analysis restarts cleanly for a new device", "[audio][live]") {
    const std::vector<float> track = sine(60, 1.0);
    LiveAnalyzer live;
    std::vector<AudioFeatures> first, second;
    live.push(track, first);
    live.reset();
    live.push(track, second);
    REQUIRE(first.size() == second.size());
    for (std::size_t k = 0; k < first.size(); ++k) CHECK(sameFrame(first[k], second[k]));
    CHECK(live.samplesSeen() == track.size());
}

TEST_CASE("a playing track drives the frame under the playhead, delayed by the latency offset", "[audio][feed]") {
    auto frames = std::make_shared<std::vector<AudioFeatures>>();
    for (int k = 0; k < 600; ++k) frames->push_back(frameAt(k / 60.0, static_cast<float>(k) / 600));
    AudioFeed feed;
    feed.setTrack(frames, 60, 10.0);
    AudioFeatures f;
    CHECK_FALSE(feed.current(f, at(10)));  // a loaded track waits for play

    feed.setPlayhead(2.0, true, at(10));
    REQUIRE(feed.current(f, at(10.5)));  // the playhead moves with the clock between reports
    CHECK(f.time == Approx(2.5));
    CHECK(feed.playhead(at(10.5)) == Approx(2.5));

    feed.setLatency(0.1);  // the audience hears 100 ms late: the visuals wait
    REQUIRE(feed.current(f, at(10.5)));
    CHECK(f.time == Approx(2.4));
    feed.setLatency(-0.2);  // or run ahead, for a track
    REQUIRE(feed.current(f, at(10.5)));
    CHECK(f.time == Approx(2.7));

    feed.setPlayhead(3.0, false, at(11));  // paused: the school runs on its own parameters
    CHECK_FALSE(feed.current(f, at(12)));
    CHECK(feed.playhead(at(12)) == Approx(3.0));
    feed.setPlayhead(9.95, true, at(20));  // past the end: nothing drives
    CHECK_FALSE(feed.current(f, at(21)));
}

TEST_CASE("with a latency offset the end of a track still reaches the school after the audio stopped", "[audio][feed]") {
    AudioFeed feed;
    feed.setTrack(tenSeconds(), 60, 10.0);
    feed.setLatency(1.0);
    feed.setPlayhead(9.0, true, at(100));
    feed.setEnded(at(101));  // the audience heard the last sample at 101 s
    AudioFeatures f;
    REQUIRE(feed.current(f, at(101.5)));
    CHECK(f.time == Approx(9.5));
    REQUIRE(feed.current(f, at(101.98)));
    CHECK(f.time == Approx(9.98).margin(0.01));
    CHECK_FALSE(feed.current(f, at(102.05)));  // then nothing drives
    CHECK(feed.playhead(at(102)) == 10.0);

    feed.setLatency(0);  // without the offset the end drives nothing at once
    CHECK_FALSE(feed.current(f, at(101.1)));
    feed.setLatency(1.0);
    feed.setPlayhead(10.0, false, at(101.2));  // moving or pausing the playhead drops what was owed
    CHECK_FALSE(feed.current(f, at(101.5)));
}

TEST_CASE("a looping track shows the end of each lap after the next has begun, as late as the latency", "[audio][feed]") {
    AudioFeed feed;
    feed.setTrack(tenSeconds(), 60, 10.0);
    feed.setLoop(true);
    feed.setLatency(0.5);
    feed.setPlayhead(0, true, at(0));
    AudioFeatures f;
    REQUIRE(feed.current(f, at(0.2)));  // the first lap waits at its first frame
    CHECK(f.time == 0);
    feed.setPlayhead(10.25, true, at(10.25));  // a quarter second into the second lap
    REQUIRE(feed.current(f, at(10.25)));
    CHECK(f.time == Approx(9.75));
    REQUIRE(feed.current(f, at(11.0)));
    CHECK(f.time == Approx(0.5));
    CHECK(feed.playhead(at(11.0)) == Approx(1.0));
    REQUIRE(feed.current(f, at(20.6)));  // between reports the clock carries the playhead over the wrap
    CHECK(f.time == Approx(0.1));

    feed.setLatency(-0.5);  // ahead of the audio, the next lap's start shows before the wrap
    REQUIRE(feed.current(f, at(19.8)));
    CHECK(f.time == Approx(0.3));
}

TEST_CASE("a looping track whose length is no whole number of frames drives up to the end of every lap",
          "[audio][feed]") {
    // 10.01 s: frames 0..600 (600.6 frames long). The last 0.1 frame of a
    // lap rounds to frame 601, which is not there: a step there ran on the
    // preset's own parameters, a one-frame twitch on some laps.
    auto frames = std::make_shared<std::vector<AudioFeatures>>();
    for (int k = 0; k <= 600; ++k) frames->push_back(frameAt(k / 60.0, 1.0f));
    AudioFeed feed;
    feed.setTrack(frames, 60, 10.01);
    feed.setLoop(true);
    feed.setPlayhead(0, true, at(0));
    AudioFeatures f;
    for (const double lapStart : {0.0, 10.01, 20.02}) {
        INFO("lap from " << lapStart << " s");
        REQUIRE(feed.current(f, at(lapStart + 10.009)));
        CHECK(f.time == Approx(10.0));
    }
    // Not looping, the track ends there: nothing drives after it.
    feed.setLoop(false);
    feed.setPlayhead(0, true, at(0));
    CHECK_FALSE(feed.current(f, at(10.02)));
}

TEST_CASE("from its second lap on a looping track drives with its lap-start frames, then with its own", "[audio][feed]") {
    AudioFeed feed;
    feed.setTrack(tenSeconds(), 60, 10.0);
    auto lapStart = std::make_shared<std::vector<AudioFeatures>>();
    for (int k = 0; k < 120; ++k) lapStart->push_back(frameAt(k / 60.0, 100.0f + static_cast<float>(k) / 60));
    feed.setLapStart(lapStart);
    feed.setLoop(true);
    feed.setPlayhead(0, true, at(0));
    AudioFeatures f;
    REQUIRE(feed.current(f, at(0.5)));  // the first lap: the track's own
    CHECK(f.named[0] == Approx(0.5));
    REQUIRE(feed.current(f, at(10.5)));  // the second: as heard after the first
    CHECK(f.named[0] == Approx(100.5));
    REQUIRE(feed.current(f, at(23.0)));  // past the lap-start frames: the track's own again
    CHECK(f.named[0] == Approx(3.0));
    feed.setTrack(tenSeconds(), 60, 10.0);  // another track: its own frames on every lap
    feed.setLoop(true);
    feed.setPlayhead(10.5, true, at(10.5));
    REQUIRE(feed.current(f, at(10.5)));
    CHECK(f.named[0] == Approx(0.5));
}

TEST_CASE("live frames drive once they are as old as the latency, and stop when the input stalls", "[audio][feed]") {
    AudioFeed feed;
    feed.useLive();
    feed.pushLive(frameAt(0, 0.1f), at(1.00));
    feed.pushLive(frameAt(0, 0.2f), at(1.05));
    feed.pushLive(frameAt(0, 0.3f), at(1.10));
    AudioFeatures f;
    REQUIRE(feed.current(f, at(1.11)));
    CHECK(f.named[0] == 0.3f);
    feed.setLatency(0.05);
    REQUIRE(feed.current(f, at(1.11)));
    CHECK(f.named[0] == 0.2f);
    feed.setLatency(-1);  // live audio cannot be shown ahead of time
    REQUIRE(feed.current(f, at(1.11)));
    CHECK(f.named[0] == 0.3f);
    feed.setLatency(0);
    CHECK_FALSE(feed.current(f, at(1.10 + AudioFeed::kLiveStaleSeconds + 0.01)));

    auto frames = std::make_shared<std::vector<AudioFeatures>>(std::vector<AudioFeatures>{frameAt(0, 0.9f)});
    feed.setTrack(frames, 60, 1 / 60.0);  // a file replaces the input
    feed.setPlayhead(0, true, at(2));
    REQUIRE(feed.current(f, at(2)));
    CHECK(f.named[0] == 0.9f);
    feed.clear();
    CHECK_FALSE(feed.current(f, at(2)));
}

TEST_CASE("live frames a capture still delivers after a file was chosen, or the source closed, change nothing",
          "[audio][feed]") {
    AudioFeed feed;
    feed.useLive();
    feed.pushLive(frameAt(0, 0.1f), at(1.00));
    auto frames = std::make_shared<std::vector<AudioFeatures>>(std::vector<AudioFeatures>{frameAt(0, 0.9f)});
    feed.setTrack(frames, 60, 1 / 60.0);
    feed.setPlayhead(0, true, at(2));
    feed.pushLive(frameAt(0, 0.2f), at(2));  // the capture thread had not stopped yet
    AudioFeatures f;
    REQUIRE(feed.current(f, at(2)));
    CHECK(f.named[0] == 0.9f);  // the file still drives

    feed.clear();
    feed.pushLive(frameAt(0, 0.3f), at(3));
    CHECK_FALSE(feed.current(f, at(3)));  // nothing drives after closing
}

TEST_CASE("an onset route sees an onset in a frame that no step read, dated where it was", "[audio][feed]") {
    AudioFeed feed;
    const auto frames = playTrackWithOneOnset(feed);
    OnsetEnvelope envelope, everyFrame;
    AudioFeatures f;
    for (const double t : {0.45, 0.55}) {  // steps at 10 Hz: frame 30 falls between them
        REQUIRE(feed.current(f, at(t)));
        envelope.update(f, feed.onsetAge(at(t)));
    }
    for (int k = 0; k <= 33; ++k) everyFrame.update((*frames)[static_cast<std::size_t>(k)]);
    CHECK(envelope.value() > 0.0);
    CHECK(envelope.value() == Approx(everyFrame.value()));  // as if every frame had been read
}

TEST_CASE("the beat light sees every onset however slowly the meter samples", "[audio][feed]") {
    AudioFeed feed;
    const auto frames = playTrackWithOneOnset(feed);
    CHECK(feed.onsetAge(at(0.4)) == std::numeric_limits<double>::infinity());
    CHECK(feed.onsetAge(at(0.5)) == 0);
    CHECK(feed.onsetAge(at(0.55)) == Approx(3 / 60.0));  // a meter at 20 Hz skipped the onset's own frame
    feed.setPlayhead(0.55, false, at(0.55));
    CHECK(feed.onsetAge(at(0.55)) == std::numeric_limits<double>::infinity());  // paused: no light

    AudioFeed live;
    live.useLive();
    AudioFeatures beat = frameAt(0, 0);
    beat.onset = true;
    live.pushLive(beat, at(1.0));
    live.pushLive(frameAt(0, 0), at(1.1));
    CHECK(live.onsetAge(at(1.12)) == Approx(0.1));
}
