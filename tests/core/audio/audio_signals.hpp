#pragma once
// Test signals for the audio analysis, generated in code at 48 kHz.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <vector>

namespace mirofish::test {

inline constexpr double kRate = 48000;

inline std::size_t samplesFor(double seconds) { return static_cast<std::size_t>(std::lround(seconds * kRate)); }

inline std::vector<float> sine(double hz, double seconds, double amplitude = 0.5) {
    std::vector<float> s(samplesFor(seconds));
    for (std::size_t i = 0; i < s.size(); ++i)
        s[i] = static_cast<float>(amplitude * std::sin(2 * std::numbers::pi * hz * static_cast<double>(i) / kRate));
    return s;
}

// Deterministic white noise in [-1, 1].
struct Noise {
    std::uint32_t state = 12345;
    float operator()() {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1.0f;
    }
};

// Adds a 3 ms noise burst with a fast exponential decay at `at` seconds.
inline void addClick(std::vector<float>& s, double at, double amplitude, Noise& noise) {
    const auto start = static_cast<std::size_t>(std::llround(at * kRate));
    for (std::size_t i = 0; i < samplesFor(0.003) && start + i < s.size(); ++i)
        s[start + i] += static_cast<float>(amplitude * std::exp(-static_cast<double>(i) / (0.001 * kRate))) * noise();
}

// The click times (seconds) of a click track.
inline std::vector<double> clickTimes(double bpm, double seconds, double offset = 0) {
    std::vector<double> t;
    for (double x = offset; x < seconds; x += 60.0 / bpm) t.push_back(x);
    return t;
}

inline std::vector<float> clickTrack(double bpm, double seconds, double offset = 0, double amplitude = 0.8) {
    std::vector<float> s(samplesFor(seconds), 0.0f);
    Noise noise;
    for (double t : clickTimes(bpm, seconds, offset)) addClick(s, t, amplitude, noise);
    return s;
}

// A little dance loop (124 BPM unless told): a pitch-dropping kick on every
// beat, a bass line in eighths, off-beat hats (noise bursts) and a chord stab
// on 2 and 4.
inline std::vector<float> music(double seconds, double gain = 1.0, double bpm = 124) {
    const double beat = 60.0 / bpm;
    std::vector<float> s(samplesFor(seconds), 0.0f);
    Noise noise;
    const double bass[4] = {55.0, 55.0, 82.41, 73.42};
    const double pi2 = 2 * std::numbers::pi;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const double t = static_cast<double>(i) / kRate;
        const double inBeat = std::fmod(t, beat);
        const auto beatIndex = static_cast<long>(t / beat);
        // Kick: 120 -> 50 Hz in 100 ms, phase integrated analytically.
        const double kickPhase = pi2 * (50 * inBeat + 70 * 0.03 * (1 - std::exp(-inBeat / 0.03)));
        double x = 0.5 * std::exp(-inBeat / 0.12) * std::sin(kickPhase);
        // Bass in eighths.
        const double eighth = beat / 2;
        const double inEighth = std::fmod(t, eighth);
        const auto eighthIndex = static_cast<std::size_t>(t / eighth);
        x += 0.2 * std::min(1.0, inEighth / 0.005) * std::exp(-inEighth / 0.2) * std::sin(pi2 * bass[eighthIndex % 4] * t);
        // Off-beat hats.
        if (eighthIndex % 2 == 1) x += 0.25 * std::exp(-inEighth / 0.02) * noise();
        // Chord stab on 2 and 4.
        if (beatIndex % 2 == 1)
            x += 0.06 * std::exp(-inBeat / 0.15) *
                 (std::sin(pi2 * 440 * t) + std::sin(pi2 * 554.37 * t) + std::sin(pi2 * 659.26 * t));
        s[i] = static_cast<float>(gain * x);
    }
    return s;
}

}  // namespace mirofish::test
