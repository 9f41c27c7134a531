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
