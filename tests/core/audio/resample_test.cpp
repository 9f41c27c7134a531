// WAV files at other rates than the analysis's: a tone keeps its level and
// frequency, and nothing appears where linear interpolation put images of it.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include "audio/resample.hpp"

using namespace mirofish;

namespace {
std::vector<float> tone(double hz, double rate, double seconds) {
    std::vector<float> s(static_cast<std::size_t>(rate * seconds));
    for (std::size_t i = 0; i < s.size(); ++i)
        s[i] = static_cast<float>(0.5 * std::sin(2 * std::numbers::pi * hz * static_cast<double>(i) / rate));
    return s;
}

// The amplitude of the component at `hz` (a DFT bin, by Goertzel), over the
// middle of the signal (away from its ends), Hann-windowed.
double amplitudeAt(const std::vector<float>& s, double hz, double rate) {
    const std::size_t first = s.size() / 4, count = s.size() / 2;
    const double w = 2 * std::numbers::pi * hz / rate;
    double re = 0, im = 0, windowSum = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const double hann = 0.5 - 0.5 * std::cos(2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(count));
        const double v = s[first + i] * hann;
        re += v * std::cos(w * static_cast<double>(i));
        im -= v * std::sin(w * static_cast<double>(i));
        windowSum += hann;
    }
    return 2 * std::hypot(re, im) / windowSum;
}

double dB(double ratio) { return 20 * std::log10(ratio); }
}  // namespace

TEST_CASE("resampling keeps a tone's level and leaves no image of it", "[audio]") {
    struct Case {
        double from, to, hz;
        std::vector<double> images;  // where a tone would leak: mirror images at the rates involved
    };
    const std::vector<Case> cases{
        {44100, 48000, 15000, {48000 - (44100 - 15000)}},  // 18.9 kHz; linear interpolation: -11.5 dB
        {16000, 48000, 5000, {16000 - 5000, 16000 + 5000}},
        {96000, 48000, 10000, {}},
        {96000, 48000, 30000, {48000 - 30000}},  // above the new Nyquist: must go, not fold to 18 kHz
    };
    for (const Case& c : cases) {
        INFO(c.from << " Hz to " << c.to << " Hz, a " << c.hz << " Hz tone");
        const std::vector<float> in = tone(c.hz, c.from, 1.0);
        const std::vector<float> out = resample(in, c.from, c.to);
        CHECK(out.size() == static_cast<std::size_t>(c.to));
        if (c.hz < c.to / 2) CHECK(dB(amplitudeAt(out, c.hz, c.to) / 0.5) == Approx(0.0).margin(0.1));
        for (const double image : c.images) {
            INFO("at " << image << " Hz");
            CHECK(dB(amplitudeAt(out, image, c.to) / 0.5) < -70.0);
        }
    }
    CHECK(resample(tone(1000, 48000, 0.1), 48000, 48000) == tone(1000, 48000, 0.1));
}

TEST_CASE("a constant level stays that level to the first and last sample, at any rate", "[audio]") {
    // Zeros assumed beyond the ends made an 8-bit file's silence (0x7F) or a
    // recording's DC offset ramp in: the analysis read an onset at the start.
    for (const double from : {8000.0, 22050.0, 44100.0, 96000.0}) {
        INFO(from << " Hz to 48000 Hz");
        const std::vector<float> in(static_cast<std::size_t>(from * 0.5), 0.3f);
        const std::vector<float> out = resample(in, from, 48000);
        REQUIRE(out.size() == 24000);
        for (std::size_t i = 0; i < out.size(); ++i) {
            INFO("sample " << i);
            REQUIRE(out[i] == Approx(0.3f).margin(1e-5));
        }
    }
}
