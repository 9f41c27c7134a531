// The DC blocker in front of the spectrum: a recorder's offset is gone, the
// bass a user hears is kept, and a window read after a short pre-roll is the
// window a filter running over the whole track would give.
#include <catch2/catch.hpp>

#include <cmath>

#include "audio/dc_blocker.hpp"
#include "core/audio/audio_signals.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
const float kPole = dcBlockerPole(10, kRate);

std::vector<float> blocked(std::span<const float> in) {
    std::vector<float> out(in.size());
    blockDc(in, out, kPole);
    return out;
}

double rms(std::span<const float> s) {
    double sum = 0;
    for (float x : s) sum += static_cast<double>(x) * x;
    return std::sqrt(sum / static_cast<double>(s.size()));
}
}  // namespace

TEST_CASE("an offset alone is silence from the first sample, and a stream starting at one starts with no click",
          "[audio]") {
    for (float offset : {0.001f, -0.004f, -1.0f / 128, 0.3f}) {
        INFO("offset " << offset);
        const std::vector<float> still(4800, offset);
        for (float y : blocked(still)) CHECK(y == 0.0f);
    }
}

TEST_CASE("bass passes the DC blocker: a 55 Hz note keeps 98% of its level, 1 kHz all of it, offset or not",
          "[audio]") {
    for (double hz : {55.0, 1000.0}) {
        INFO(hz << " Hz");
        auto tone = sine(hz, 1.0);
        const auto clean = blocked(tone);
        const std::span<const float> settled = std::span(clean).last(samplesFor(0.5));
        CHECK(rms(settled) / rms(std::span(tone).last(samplesFor(0.5))) ==
              Approx(hz / std::hypot(hz, 10.0)).epsilon(0.002));
        for (float& x : tone) x += 0.05f;
        const auto shifted = blocked(tone);
        for (std::size_t i = 0; i < clean.size(); i += 97) CHECK(shifted[i] == Approx(clean[i]).margin(1e-5));
    }
}

TEST_CASE("a window filtered after a quarter-second pre-roll matches the filter run over the whole track", "[audio]") {
    auto song = music(3.0, 1.0);
    for (float& x : song) x += 0.002f;
    const auto whole = blocked(song);
    const std::size_t window = 2048, preRoll = samplesFor(0.25);
    for (std::size_t end : {samplesFor(1.0), samplesFor(2.37), song.size()}) {
        INFO("window ending at sample " << end);
        const auto part = blocked(std::span(song).subspan(end - window - preRoll, window + preRoll));
        for (std::size_t i = 0; i < window; ++i)
            CHECK(part[preRoll + i] == Approx(whole[end - window + i]).margin(1e-5));
    }
}

TEST_CASE("a broken sample (NaN, infinity) in the input reads as silence and does not poison what follows",
          "[audio]") {
    std::vector<float> s = sine(440, 0.2);
    s[100] = NAN;
    s[200] = INFINITY;
    const auto out = blocked(s);
    for (float y : out) REQUIRE(std::isfinite(y));
    const auto clean = blocked(sine(440, 0.2));
    CHECK(rms(std::span(out).last(4800)) == Approx(rms(std::span(clean).last(4800))).epsilon(0.01));
}
