// The FFT's scaling and the bands' bins: the numbers every meter and route
// in the audio analysis build on.
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "audio/bands.hpp"
#include "audio/spectrum.hpp"
#include "core/audio/audio_signals.hpp"

using namespace mirofish;
using namespace mirofish::test;

TEST_CASE("a full-scale sine reads 0 dBFS summed over its bins, -20 dB at a tenth", "[audio]") {
    Spectrum spectrum(2048, kRate);
    for (double hz : {60.0, 1000.0, 1234.5, 8000.0}) {
        const auto loud = sine(hz, 0.1, 1.0);
        auto power = spectrum.compute(loud);
        const double total = std::accumulate(power.begin(), power.end(), 0.0);
        CHECK(powerToDb(total) == Approx(0.0).margin(0.1));
        const auto quiet = sine(hz, 0.1, 0.1);
        power = spectrum.compute(quiet);
        CHECK(powerToDb(std::accumulate(power.begin(), power.end(), 0.0)) == Approx(-20.0).margin(0.1));
    }
}

TEST_CASE("the spectrum peaks at the bin of the sine's frequency", "[audio]") {
    Spectrum spectrum(2048, kRate);
    const auto power = spectrum.compute(sine(1000, 0.1));
    const auto peak = static_cast<std::size_t>(std::max_element(power.begin(), power.end()) - power.begin());
    CHECK(std::abs(spectrum.binFrequency(peak) - 1000) <= spectrum.binHz() / 2);
    CHECK(spectrum.binCount() == 1025);
}

TEST_CASE("silence and a short block read as the floor, not as NaN", "[audio]") {
    Spectrum spectrum(2048, kRate);
    const std::vector<float> none;
    for (float p : spectrum.compute(none)) CHECK(p == 0.0f);
    CHECK(powerToDb(0.0) == -120.0f);
    std::vector<float> bad{1.0f, NAN, INFINITY, -1.0f};
    for (float p : spectrum.compute(bad)) CHECK(std::isfinite(p));
    CHECK_THROWS_AS(Spectrum(1001, kRate), std::invalid_argument);
}

TEST_CASE("log-spaced bands run from 20 Hz to 16 kHz with geometric edges, and none is empty", "[audio]") {
    const auto bands = logSpacedBands(8);
    REQUIRE(bands.size() == 8);
    CHECK(bands.front().lowHz == Approx(20));
    CHECK(bands.back().highHz == Approx(16000));
    for (std::size_t i = 0; i + 1 < bands.size(); ++i) {
        CHECK(bands[i].highHz == Approx(bands[i + 1].lowHz));
        CHECK(bands[i].highHz / bands[i].lowHz == Approx(std::pow(800.0, 1.0 / 8)));
    }
    const BandBins bins(bands, 2048, kRate);
    for (std::size_t i = 0; i < bins.size(); ++i) {
        CHECK(bins.endBin(i) > bins.firstBin(i));
        if (i > 0) CHECK(bins.firstBin(i) >= bins.endBin(i - 1));
    }
    // 20-46 Hz holds one 23.4 Hz bin; with 32 bands the lowest are narrower
    // than a bin and take the nearest one.
    CHECK(bins.firstBin(0) == 1);
    const BandBins fine(logSpacedBands(32), 2048, kRate);
    for (std::size_t i = 0; i < fine.size(); ++i) CHECK(fine.endBin(i) - fine.firstBin(i) >= 1);
}

TEST_CASE("the named bands have their documented edges", "[audio]") {
    CHECK(kNamedBands[0].lowHz == 20);
    CHECK(kNamedBands[0].highHz == 150);
    CHECK(kNamedBands[1].highHz == 2000);
    CHECK(kNamedBands[2].highHz == 16000);
    const BandBins bins(kNamedBands, 2048, kRate);
    CHECK(bins.firstBin(0) == 1);  // 23.4 Hz
    CHECK(bins.endBin(0) == 7);    // 140.6 Hz is the last bin below 150
    CHECK(bins.firstBin(1) == 7);
}
