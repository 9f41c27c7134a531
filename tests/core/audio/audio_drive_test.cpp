// End to end in the core: audio -> analysis -> the default routes -> the
// simulation. The article's promise: the school bursts on the kick.
#include <catch2/catch.hpp>

#include "audio/audio_analyzer.hpp"
#include "audio/modulation.hpp"
#include "audio_signals.hpp"
#include "io/preset.hpp"
#include "sched/scheduler.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

TEST_CASE("with the default routes a kick raises the school's mean separation force within two frames", "[audio]") {
    // 1 s of silence, then a 60 Hz kick at exactly frame 60 (1.0 s).
    std::vector<float> audio(samplesFor(1.5), 0.0f);
    const auto kick = sine(60, 0.15, 0.8);
    std::copy(kick.begin(), kick.end(), audio.begin() + static_cast<std::ptrdiff_t>(samplesFor(1.0)));
    AudioAnalyzer analyzer;
    const auto frames = analyzer.analyzeAll(audio, 60.0);

    SerialScheduler serial;
    const Preset preset = loadPreset(shippedPreset("gentle-cruise"));
    Simulation sim(preset.scene, serial);
    const ModulationMatrix routes = defaultRoutes();
    OnsetEnvelope onset;
    std::vector<double> separation;  // the step's mean weighted separation, px/s^2
    std::vector<float> weight;       // the separation weight the routes set
    for (std::size_t k = 0; k < frames.size(); ++k) {
        sim.setParams(routes.apply(preset.scene.params, frames[k], onset.update(frames[k])));
        weight.push_back(sim.params().get(ParamId::SeparationWeight));
        sim.step();
        const RuleForceHistory& h = sim.ruleForces();
        separation.push_back(h.perStep[(h.next + RuleForceHistory::kWindow - 1) % RuleForceHistory::kWindow][0]);
    }
    const double before = separation[59];
    INFO("separation at frames 59..62: " << separation[59] << " " << separation[60] << " " << separation[61] << " "
                                         << separation[62]);
    // Frame 60 hears the kick's start; by frame 62 the force has jumped.
    CHECK(separation[62] > 1.5 * before);
    CHECK(weight[59] == Approx(1.2f));  // silence: the route's min
    CHECK(weight[62] > 2.0f);
    // After the kick the weight falls back (release), the school calms down.
    CHECK(weight.back() == Approx(1.2f));
}

TEST_CASE("a quiet and a loud copy of the same music move the default routes alike", "[audio]") {
    // 12 s of kicks on every beat at 120 BPM over a soft bass line; the quiet copy is 20 dB down.
    std::vector<float> loud(samplesFor(12.0), 0.0f);
    const auto bass = sine(110, 12.0, 0.1);
    for (std::size_t i = 0; i < loud.size(); ++i) loud[i] = bass[i];
    for (double t = 0.0; t < 11.9; t += 0.5) {
        const auto kick = sine(60, 0.08, 0.7);
        for (std::size_t i = 0; i < kick.size(); ++i) loud[samplesFor(t) + i] += kick[i];
    }
    std::vector<float> quiet(loud);
    for (float& s : quiet) s *= 0.1f;

    const Params base = loadPreset(shippedPreset("gentle-cruise")).scene.params;
    const ModulationMatrix routes = defaultRoutes();
    auto separationCurve = [&](const std::vector<float>& audio) {
        AudioAnalyzer analyzer;
        OnsetEnvelope onset;
        std::vector<float> out;
        for (const AudioFeatures& f : analyzer.analyzeAll(audio, 60.0))
            out.push_back(routes.apply(base, f, onset.update(f)).get(ParamId::SeparationWeight));
        return out;
    };
    const auto a = separationCurve(loud), b = separationCurve(quiet);
    REQUIRE(a.size() == b.size());
    // After the gain has settled (the last 6 s): the same swing, frame by frame.
    double diff = 0, swingLo = 1e9, swingHi = 0;
    for (std::size_t k = a.size() - 360; k < a.size(); ++k) {
        diff += std::abs(a[k] - b[k]);
        swingLo = std::min<double>(swingLo, b[k]);
        swingHi = std::max<double>(swingHi, b[k]);
    }
    diff /= 360.0;
    INFO("mean difference " << diff << ", quiet copy swings " << swingLo << " .. " << swingHi);
    CHECK(diff < 0.1 * (3.5 - 1.2));
    CHECK(swingHi - swingLo > 0.5);  // the quiet copy still makes the school burst on the kicks
}
