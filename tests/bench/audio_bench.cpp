// The audio analysis' cost per frame (files and live input) and its latency:
// from the first sample of a kick to the default low route moving
// separationWeight. Prints a table; run: build/tests/bench/mirofish_audio_bench
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "audio/audio_analyzer.hpp"
#include "audio/live_analyzer.hpp"
#include "audio/modulation.hpp"
#include "core/audio/audio_signals.hpp"

using namespace mirofish;
using Clock = std::chrono::steady_clock;

namespace {

double microsecondsPerFrame(const std::vector<float>& track, bool live) {
    std::size_t frames = 0;
    const auto start = Clock::now();
    if (live) {
        LiveAnalyzer analyzer;
        std::vector<AudioFeatures> out;
        // 10 ms chunks, as the capture delivers them.
        for (std::size_t pos = 0; pos < track.size(); pos += 480) {
            out.clear();
            analyzer.push(std::span(track).subspan(pos, std::min<std::size_t>(480, track.size() - pos)), out);
            frames += out.size();
        }
    } else {
        AudioAnalyzer analyzer;
        frames = analyzer.analyzeAll(track, 60).size();
    }
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / static_cast<double>(frames);
}

struct Latency {
    double firstMoveMs, halfwayMs;
};

// Silence with a quiet hum, then a 60 Hz tone at -6 dBFS from sample `start`.
Latency kickLatency(std::size_t start) {
    std::vector<float> s = test::sine(440, 4.0, 0.003);
    const std::vector<float> kick = test::sine(60, 4.0, 0.5);
    for (std::size_t i = start; i < s.size(); ++i) s[i] += kick[i - start];
    AudioAnalyzer analyzer;
    const auto frames = analyzer.analyzeAll(s, 60);
    const ModulationMatrix routes = defaultRoutes();
    const Params base;
    std::vector<float> weight;
    for (const AudioFeatures& f : frames) weight.push_back(routes.apply(base, f).get(ParamId::SeparationWeight));
    const std::size_t before = static_cast<std::size_t>(static_cast<double>(start) / 800.0);
    const float from = weight[before], to = weight.back();
    Latency l{-1, -1};
    for (std::size_t k = before + 1; k < weight.size(); ++k) {
        const double ms = (static_cast<double>(k) * 800.0 - static_cast<double>(start)) / 48.0;
        if (l.firstMoveMs < 0 && weight[k] > from + 0.01f * (to - from)) l.firstMoveMs = ms;
        if (l.halfwayMs < 0 && weight[k] >= from + 0.5f * (to - from)) l.halfwayMs = ms;
    }
    return l;
}

}  // namespace

int main() {
    const std::vector<float> track = test::music(60.0);
    std::printf("analysis (FFT 2048 at 48 kHz, 3 named + 8 log bands, onsets, tempo), 60 s of music:\n");
    std::printf("  file, whole track:      %.1f us per frame\n", microsecondsPerFrame(track, false));
    std::printf("  live, 10 ms chunks:     %.1f us per frame\n", microsecondsPerFrame(track, true));

    // The kick starting at 16 positions across one 800-sample hop.
    double firstSum = 0, halfSum = 0, firstMax = 0, halfMax = 0;
    const int n = 16;
    for (int j = 0; j < n; ++j) {
        const Latency l = kickLatency(96'000 + static_cast<std::size_t>(j) * 50);
        firstSum += l.firstMoveMs;
        halfSum += l.halfwayMs;
        firstMax = std::max(firstMax, l.firstMoveMs);
        halfMax = std::max(halfMax, l.halfwayMs);
    }
    std::printf("latency from a kick's first sample to the low route moving separationWeight\n"
                "(analysis frames at 60 fps, attack 10 ms; the capture buffer and the next step add to it):\n");
    std::printf("  first change:  mean %.1f ms, max %.1f ms\n", firstSum / n, firstMax);
    std::printf("  halfway:       mean %.1f ms, max %.1f ms\n", halfSum / n, halfMax);
    return 0;
}
