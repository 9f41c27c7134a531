// The audio modulation matrix: routes from the music to the school's
// parameters, with a logarithmic curve by default, and saved in presets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "audio/modulation.hpp"
#include "io/preset.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;

namespace {

ModRoute route(ModSource source, ParamId target, double min, double max, ModCurve curve = ModCurve::Log,
               double amount = 1.0, bool invert = false, std::size_t band = 0) {
    ModRoute r;
    r.source = source;
    r.band = band;
    r.target = target;
    r.min = min;
    r.max = max;
    r.curve = curve;
    r.amount = amount;
    r.invert = invert;
    return r;
}

ModulationMatrix matrixOf(std::vector<ModRoute> routes) {
    ModulationMatrix m;
    m.routes = std::move(routes);
    return m;
}

AudioFeatures lowAtDb(double dB) {
    AudioFeatures f;
    f.namedGainDb = {static_cast<float>(dB), -120.0f, -120.0f};
    return f;
}

AudioFeatures bandAt(double s, std::size_t bands = 8, std::size_t which = 3) {
    AudioFeatures f;
    f.bands.assign(bands, 0.0f);
    f.bands[which] = static_cast<float>(s);
    return f;
}

double param(const Params& p, ParamId id) { return static_cast<double>(p.get(id)); }

std::string errorOf(const nlohmann::json& routes, const std::string& source = "my-preset.json") {
    const nlohmann::json j = {{"format", "mirofish-preset"}, {"version", 1}, {"name", "Test"}, {"audioRoutes", routes}};
    try {
        parsePreset(j.dump(), source);
    } catch (const PresetError& e) {
        return e.what();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("the log curve maps -60 dB to the route's min and 0 dB to its max, monotone in between", "[modulation]") {
    const Params base;
    for (const auto& [target, lo, hi] : {std::tuple{ParamId::SeparationWeight, 1.2, 3.5},
                                         std::tuple{ParamId::MaxSpeed, 120.0, 260.0},  // a log-scale parameter
                                         std::tuple{ParamId::Noise, 0.10, 0.02}}) {     // min above max
        INFO(paramDef(target).key);
        const ModulationMatrix m = matrixOf({route(ModSource::Low, target, lo, hi)});
        CHECK(param(m.apply(base, lowAtDb(-60)), target) == Approx(lo));
        CHECK(param(m.apply(base, lowAtDb(0)), target) == Approx(hi));
        CHECK(m.routeValues(base, lowAtDb(-60))[0].value == lo);
        CHECK(m.routeValues(base, lowAtDb(0))[0].value == hi);
        // Quieter than the floor stays at min, louder than 0 dB at max.
        CHECK(m.routeValues(base, lowAtDb(-120))[0].value == lo);
        CHECK(m.routeValues(base, lowAtDb(6))[0].value == hi);
        double previous = m.routeValues(base, lowAtDb(-60))[0].value;
        for (int i = 1; i <= 600; ++i) {
            const double dB = -60.0 + 0.1 * i;
            const double v = m.routeValues(base, lowAtDb(dB))[0].value;
            INFO(dB << " dB gives " << v);
            if (hi > lo)
                REQUIRE(v > previous);
            else
                REQUIRE(v < previous);
            previous = v;
        }
    }
    // Linear in dB: half way (-30 dB) is half the range on a linear-scale parameter.
    const ModulationMatrix sep = matrixOf({route(ModSource::Low, ParamId::SeparationWeight, 1.0, 3.0)});
    CHECK(sep.routeValues(base, lowAtDb(-30))[0].value == Approx(2.0));
    // The overall level and a log-spaced band use their own dB the same way.
    AudioFeatures f;
    const ModulationMatrix level = matrixOf({route(ModSource::Level, ParamId::SeparationWeight, 1.0, 3.0)});
    const ModulationMatrix band = matrixOf({route(ModSource::Band, ParamId::SeparationWeight, 1.0, 3.0,
                                                  ModCurve::Log, 1.0, false, 3)});
    f.bands.assign(8, 0.0f);
    f.bandsGainDb.assign(8, -120.0f);
    for (double dB : {-90.0, -60.0, -45.0, -30.0, -20.0, -6.0, 0.0}) {
        f.levelGainDb = static_cast<float>(dB);
        f.bandsGainDb[3] = static_cast<float>(dB);
        const double expected = 1.0 + 2.0 * std::max(dB + 60, 0.0) / 60;
        CHECK(level.routeValues(base, f)[0].value == Approx(expected));
        CHECK(band.routeValues(base, f)[0].value == Approx(expected));
    }
    CHECK(shapeDb(-60) == 0.0);
    CHECK(shapeDb(0) == 1.0);
    CHECK(shapeDb(-15) == Approx(0.75));
    // Without a dB (onset, beat phase, a band the analysis gave no dB for) the
    // 0..1 value stands for its place on the -60..0 dB scale.
    CHECK(band.routeValues(base, bandAt(0.25))[0].value == Approx(1.5));
    CHECK(shape(ModCurve::Log, 0.25) == Approx(0.25));
}

TEST_CASE("the linear and exponential curves go from min at silence to max at full level, monotone", "[modulation]") {
    const Params base;
    for (ModCurve curve : {ModCurve::Linear, ModCurve::Exp}) {
        INFO(modCurveKey(curve));
        const ModulationMatrix m =
            matrixOf({route(ModSource::Band, ParamId::CohesionWeight, 0.5, 4.5, curve, 1.0, false, 3)});
        CHECK(m.routeValues(base, bandAt(0))[0].value == 0.5);
        CHECK(m.routeValues(base, bandAt(1))[0].value == 4.5);
        CHECK(param(m.apply(base, bandAt(0)), ParamId::CohesionWeight) == Approx(0.5));
        CHECK(param(m.apply(base, bandAt(1)), ParamId::CohesionWeight) == Approx(4.5));
        double previous = 0.5;
        for (int i = 1; i <= 200; ++i) {
            const double v = m.routeValues(base, bandAt(i / 200.0))[0].value;
            REQUIRE(v > previous);
            previous = v;
        }
        // Linear is half way at half level; exp holds back the quiet half (a quarter).
        const double half = m.routeValues(base, bandAt(0.5))[0].value;
        CHECK(half == Approx(curve == ModCurve::Linear ? 2.5 : 1.5));
    }
    // A band the analysis does not have (one of four bands) reads as silence.
    const ModulationMatrix missing =
        matrixOf({route(ModSource::Band, ParamId::CohesionWeight, 0.5, 4.5, ModCurve::Linear, 1.0, false, 6)});
    CHECK(missing.routeValues(base, bandAt(1, 4, 3))[0].value == 0.5);
}

TEST_CASE("invert swaps the route's ends", "[modulation]") {
    const Params base;
    const ModulationMatrix m =
        matrixOf({route(ModSource::Low, ParamId::SeparationWeight, 1.2, 3.5, ModCurve::Log, 1.0, true)});
    CHECK(m.routeValues(base, lowAtDb(-60))[0].value == 3.5);
    CHECK(m.routeValues(base, lowAtDb(0))[0].value == 1.2);
    CHECK(m.routeValues(base, lowAtDb(-20))[0].value < m.routeValues(base, lowAtDb(-40))[0].value);
    const ModulationMatrix lin =
        matrixOf({route(ModSource::Level, ParamId::AlignmentWeight, 0, 4, ModCurve::Linear, 1.0, true)});
    AudioFeatures f;
    f.level = 0.25f;
    CHECK(lin.routeValues(base, f)[0].value == Approx(3.0));
}

TEST_CASE("a route at amount 0 leaves the parameter at the preset's value, 0.5 goes half way", "[modulation]") {
    Params base;
    base.set(ParamId::SeparationWeight, 2.0f);
    ModulationMatrix m = matrixOf({route(ModSource::Low, ParamId::SeparationWeight, 1.0, 4.0, ModCurve::Log, 0.0)});
    for (double dB : {-60.0, -30.0, 0.0}) CHECK(m.apply(base, lowAtDb(dB)) == base);
    m.routes[0].amount = 0.5;
    CHECK(param(m.apply(base, lowAtDb(0)), ParamId::SeparationWeight) == Approx(3.0));   // 2 + 0.5 (4 - 2)
    CHECK(param(m.apply(base, lowAtDb(-60)), ParamId::SeparationWeight) == Approx(1.5)); // 2 + 0.5 (1 - 2)
    CHECK(m.routeValues(base, lowAtDb(0))[0].offset == Approx(1.0));
}

TEST_CASE("two routes on one parameter add their pulls from the preset's value", "[modulation]") {
    Params base;
    base.set(ParamId::SeparationWeight, 2.0f);
    const ModulationMatrix m = matrixOf({
        route(ModSource::Low, ParamId::SeparationWeight, 1.0, 4.0, ModCurve::Log, 1.0),
        route(ModSource::Level, ParamId::SeparationWeight, 0.0, 6.0, ModCurve::Linear, 0.5),
    });
    AudioFeatures f = lowAtDb(-30);  // route 0: t = 0.5 -> v = 2.5, pull +0.5
    f.level = 0.5f;                  // route 1: v = 3, pull 0.5 * (3 - 2) = +0.5
    CHECK(param(m.apply(base, f), ParamId::SeparationWeight) == Approx(3.0));
    f.level = 0.0f;  // route 1 pulls 0.5 * (0 - 2) = -1
    CHECK(param(m.apply(base, f), ParamId::SeparationWeight) == Approx(1.5));
    // Order does not matter.
    const ModulationMatrix swapped = matrixOf({m.routes[1], m.routes[0]});
    CHECK(param(swapped.apply(base, f), ParamId::SeparationWeight) == Approx(1.5));
    // Loud on both: the sum is clamped to the registry range (0 to 20).
    const ModulationMatrix stacked = matrixOf({
        route(ModSource::Low, ParamId::SeparationWeight, 0, 20),
        route(ModSource::Low, ParamId::SeparationWeight, 0, 20),
    });
    CHECK(param(stacked.apply(base, lowAtDb(0)), ParamId::SeparationWeight) == 20.0);
    CHECK(param(stacked.apply(base, lowAtDb(-60)), ParamId::SeparationWeight) == 0.0);
}

TEST_CASE("parameters without a route keep the preset's values", "[modulation]") {
    Params base;
    base.set(ParamId::CohesionWeight, 3.25f);
    base.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    const Params out = defaultRoutes().apply(base, lowAtDb(0));
    for (const ParamDef& d : paramRegistry()) {
        if (d.id == ParamId::SeparationWeight || d.id == ParamId::MaxSpeed || d.id == ParamId::Noise) continue;
        INFO(d.key);
        CHECK(out.get(d.id) == base.get(d.id));
    }
}

TEST_CASE("the modulated parameters always stay inside the registry range", "[modulation]") {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<ParamId> numeric;
    for (const ParamDef& d : paramRegistry())
        if (!d.isChoice()) numeric.push_back(d.id);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (int trial = 0; trial < 300; ++trial) {
        ModulationMatrix m;
        const int n = 1 + static_cast<int>(u(rng) * 12);
        for (int i = 0; i < n; ++i) {
            const ParamId id = numeric[static_cast<std::size_t>(u(rng) * static_cast<double>(numeric.size()))];
            const ParamDef& d = paramDef(id);
            const auto pick = [&] { return u(rng) < 0.3 ? (u(rng) < 0.5 ? d.min : d.max) : d.min + u(rng) * (d.max - d.min); };
            m.routes.push_back(route(static_cast<ModSource>(static_cast<int>(u(rng) * 7)), id, pick(), pick(),
                                     static_cast<ModCurve>(static_cast<int>(u(rng) * 3)), u(rng) < 0.2 ? 1.0 : u(rng),
                                     u(rng) < 0.5, static_cast<std::size_t>(u(rng) * kDefaultBands)));
        }
        REQUIRE(m.validate().empty());
        AudioFeatures f;
        f.bands.resize(8);
        const auto level = [&]() -> float {
            const double r = u(rng);
            return r < 0.05 ? nan : r < 0.1 ? inf : r < 0.2 ? -1.0f : r < 0.3 ? 2.0f : static_cast<float>(u(rng));
        };
        for (float& v : f.named) v = level();
        for (float& v : f.bands) v = level();
        for (float& v : f.namedGainDb) v = u(rng) < 0.1 ? nan : static_cast<float>(-130 + 140 * u(rng));
        f.bandsGainDb.resize(u(rng) < 0.5 ? 8 : 0);
        for (float& v : f.bandsGainDb) v = u(rng) < 0.1 ? nan : static_cast<float>(-130 + 140 * u(rng));
        f.level = level();
        f.levelGainDb = u(rng) < 0.1 ? -inf : static_cast<float>(-130 + 140 * u(rng));
        f.onset = u(rng) < 0.5;
        f.beatPhase = level();
        Params base;
        for (ParamId id : numeric) {
            const ParamDef& d = paramDef(id);
            base.set(id, static_cast<float>(d.min + u(rng) * (d.max - d.min)));
        }
        const Params out = m.apply(base, f);
        for (const ParamDef& d : paramRegistry()) {
            INFO(d.key << " = " << out.get(d.id));
            REQUIRE(std::isfinite(out.get(d.id)));
            REQUIRE(static_cast<double>(out.get(d.id)) >= d.min);
            REQUIRE(static_cast<double>(out.get(d.id)) <= d.max);
        }
    }
}

TEST_CASE("the default routes are the articles' three: low to separation, mid to max speed, high to noise",
          "[modulation]") {
    const ModulationMatrix m = defaultRoutes();
    REQUIRE(m.routes.size() == 3);
    CHECK(m.validate().empty());
    CHECK(m.routes[0].source == ModSource::Low);
    CHECK(m.routes[0].target == ParamId::SeparationWeight);
    CHECK(m.routes[1].source == ModSource::Mid);
    CHECK(m.routes[1].target == ParamId::MaxSpeed);
    CHECK(m.routes[2].source == ModSource::High);
    CHECK(m.routes[2].target == ParamId::Noise);
    for (const ModRoute& r : m.routes) {
        INFO(paramDef(r.target).key);
        CHECK(r.curve == ModCurve::Log);
        CHECK(r.amount == 1.0);
        CHECK_FALSE(r.invert);
        // Around the registry default: quiet goes below it, loud above.
        CHECK(r.min < paramDef(r.target).defaultValue);
        CHECK(r.max > paramDef(r.target).defaultValue);
    }
}

TEST_CASE("a louder low band raises separation, and only the band's own route moves", "[modulation]") {
    const Params base;
    const ModulationMatrix m = defaultRoutes();
    AudioFeatures quiet;
    quiet.namedGainDb = {-40.0f, -30.0f, -30.0f};
    AudioFeatures kick = quiet;
    kick.namedGainDb[0] = -8.0f;
    const Params a = m.apply(base, quiet);
    const Params b = m.apply(base, kick);
    CHECK(b.get(ParamId::SeparationWeight) > a.get(ParamId::SeparationWeight));
    CHECK(b.get(ParamId::SeparationWeight) > base.get(ParamId::SeparationWeight));
    CHECK(b.get(ParamId::MaxSpeed) == a.get(ParamId::MaxSpeed));
    CHECK(b.get(ParamId::Noise) == a.get(ParamId::Noise));
    // The live view shows how far each route moves its parameter.
    const auto values = m.routeValues(base, kick);
    REQUIRE(values.size() == 3);
    CHECK(values[0].position == Approx((60.0 - 8.0) / 60.0));
    CHECK(values[0].offset == Approx(values[0].value - 1.6).margin(1e-6));
    // Silence: every route at its min.
    AudioFeatures silence;
    silence.namedGainDb = {-120.0f, -120.0f, -120.0f};
    const Params s = m.apply(base, silence);
    CHECK(param(s, ParamId::SeparationWeight) == Approx(1.2));
    CHECK(param(s, ParamId::MaxSpeed) == Approx(120.0));
    CHECK(param(s, ParamId::Noise) == Approx(0.02));
}

TEST_CASE("an onset lights the onset source on its frame and fades over 0.15 s", "[modulation]") {
    const Params base;
    const ModulationMatrix m =
        matrixOf({route(ModSource::Onset, ParamId::SeparationWeight, 1.0, 4.0, ModCurve::Linear)});
    AudioFeatures f;
    f.onset = true;
    CHECK(param(m.apply(base, f), ParamId::SeparationWeight) == Approx(4.0));  // the frame's flag, no decay
    f.onset = false;
    CHECK(param(m.apply(base, f), ParamId::SeparationWeight) == Approx(1.0));

    OnsetEnvelope env;
    std::vector<double> seen;
    for (int k = 0; k < 14; ++k) {
        f.time = k / 60.0;
        f.onset = k == 2;
        seen.push_back(env.update(f));
    }
    CHECK(seen[0] == 0.0);
    CHECK(seen[1] == 0.0);
    CHECK(seen[2] == 1.0);
    CHECK(seen[3] == Approx(1.0 - 1.0 / 9.0));
    for (int k = 3; k < 11; ++k) CHECK(seen[static_cast<std::size_t>(k)] < seen[static_cast<std::size_t>(k) - 1]);
    CHECK(seen[11] == Approx(0.0).margin(1e-9));
    CHECK(seen[13] == 0.0);
    f.time = 3.0 / 60.0;
    f.onset = false;
    // Re-lit by the frame after the onset through apply's onset argument.
    env.reset();
    f.onset = true;
    env.update(f);
    f.time = 4.0 / 60.0;
    f.onset = false;
    CHECK(param(m.apply(base, f, env.update(f)), ParamId::SeparationWeight) == Approx(1.0 + 3.0 * (1.0 - 1.0 / 9.0)));
    // A seek back forgets the onset.
    f.time = 0.0;
    CHECK(env.update(f) == 0.0);
}

TEST_CASE("an invalid route is refused with a message naming what is wrong, and skipped", "[modulation]") {
    CHECK(validateRoute(route(ModSource::Low, ParamId::SeparationWeight, 1, 2)).empty());
    CHECK_THAT(validateRoute(route(ModSource::Low, ParamId::SeparationWeight, 1, 25)),
               Catch::Contains("max is 25") && Catch::Contains("separationWeight") && Catch::Contains("0 to 20"));
    CHECK_THAT(validateRoute(route(ModSource::Low, ParamId::MaxSpeed, 0, 200)),
               Catch::Contains("min is 0") && Catch::Contains("1 to 5000 px/s"));
    CHECK_THAT(validateRoute(route(ModSource::Low, ParamId::SeparationWeight, std::nan(""), 2)),
               Catch::Contains("min must be a finite number"));
    CHECK_THAT(validateRoute(route(ModSource::Low, ParamId::SeparationWeight, 1, 2, ModCurve::Log, 1.5)),
               Catch::Contains("amount is 1.5, outside 0 to 1"));
    CHECK_THAT(validateRoute(route(ModSource::Low, ParamId::BoundaryMode, 0, 2)),
               Catch::Contains("boundaryMode is a choice"));
    CHECK_THAT(validateRoute(route(ModSource::Band, ParamId::SeparationWeight, 1, 2, ModCurve::Log, 1, false, 999)),
               Catch::Contains("band is 999"));
    // The school is driven by eight bands: a ninth would read silence.
    CHECK(validateRoute(route(ModSource::Band, ParamId::SeparationWeight, 1, 2, ModCurve::Log, 1, false, 7)).empty());
    CHECK_THAT(validateRoute(route(ModSource::Band, ParamId::SeparationWeight, 1, 2, ModCurve::Log, 1, false, 8)),
               Catch::Contains("band is 8, outside 0 to 7"));
    ModulationMatrix m = matrixOf({route(ModSource::Low, ParamId::SeparationWeight, 1, 2),
                                   route(ModSource::Low, ParamId::Noise, 0, 5)});
    CHECK_THAT(m.validate(), Catch::StartsWith("route 1: max is 5"));
    const Params base;
    const Params out = m.apply(base, lowAtDb(0));
    CHECK(out.get(ParamId::Noise) == base.get(ParamId::Noise));
    CHECK(param(out, ParamId::SeparationWeight) == Approx(2.0));
}

TEST_CASE("audio routes are saved in the preset and read back unchanged", "[modulation][preset]") {
    Preset p;
    p.name = "Reactive";
    p.routes = defaultRoutes().routes;
    p.routes->push_back(route(ModSource::Band, ParamId::CohesionWeight, 0.4, 2.5, ModCurve::Exp, 0.35, true, 5));
    p.routes->push_back(route(ModSource::BeatPhase, ParamId::AlignmentWeight, 1.0, 0.5, ModCurve::Linear, 1.0));
    p.routes->push_back(route(ModSource::Onset, ParamId::MaxSpeed, 150, 400, ModCurve::Log, 0.8));
    p.routes->push_back(route(ModSource::Level, ParamId::Jitter, 0, 0.1));
    const std::string text = presetToJson(p);
    const Preset back = parsePreset(text, "round-trip");
    CHECK(back.routes == p.routes);
    CHECK(presetToJson(back) == text);
    const nlohmann::json j = nlohmann::json::parse(text);
    REQUIRE(j["audioRoutes"].size() == 7);
    CHECK(j["audioRoutes"][0] == nlohmann::json{{"source", "low"}, {"target", "separationWeight"}, {"min", 1.2},
                                                {"max", 3.5}, {"curve", "log"}, {"amount", 1.0}, {"invert", false}});
    CHECK(j["audioRoutes"][3]["band"] == 5);
    CHECK(j["audioRoutes"][4]["source"] == "beatPhase");
    // An empty list stays an empty list: a preset can switch audio off.
    p.routes->clear();
    CHECK(nlohmann::json::parse(presetToJson(p))["audioRoutes"] == nlohmann::json::array());
    CHECK(parsePreset(presetToJson(p), "x").routes == std::vector<ModRoute>{});
    CHECK(presetAudioRoutes(parsePreset(presetToJson(p), "x")).routes.empty());
    // No key: the articles' three routes.
    p.routes.reset();
    CHECK_FALSE(nlohmann::json::parse(presetToJson(p)).contains("audioRoutes"));
    CHECK_FALSE(parsePreset(presetToJson(p), "x").routes.has_value());
    CHECK(presetAudioRoutes(p) == defaultRoutes());
    // Only source, target, min and max are required.
    const Preset minimal = parsePreset(
        R"({"format": "mirofish-preset", "version": 1, "name": "M",
            "audioRoutes": [{"source": "mid", "target": "maxSpeed", "min": 120, "max": 260}]})",
        "minimal.json");
    REQUIRE(minimal.routes->size() == 1);
    CHECK((*minimal.routes)[0] == route(ModSource::Mid, ParamId::MaxSpeed, 120, 260, ModCurve::Log, 1.0, false));
}

TEST_CASE("a preset with a bad audio route is refused naming the file, the route and the key", "[modulation][preset]") {
    const nlohmann::json good = {{"source", "low"}, {"target", "separationWeight"}, {"min", 1.2}, {"max", 3.5}};
    const auto bad = [&](const nlohmann::json& patch) {
        nlohmann::json second = good;
        second.merge_patch(patch);
        return errorOf(nlohmann::json::array({good, second}));
    };
    CHECK(errorOf(nlohmann::json::array({good})) == "(accepted)");
    const std::string range = bad({{"max", 25}});
    CHECK_THAT(range, Catch::Contains("my-preset.json"));
    CHECK_THAT(range, Catch::Contains("'audioRoutes[1].max' is 25, outside the allowed range 0 to 20"));
    CHECK_THAT(bad({{"target", "speed"}}), Catch::Contains("'audioRoutes[1].target' is 'speed', not a parameter"));
    CHECK_THAT(bad({{"target", "boundaryMode"}, {"min", 0}, {"max", 1}}),
               Catch::Contains("'audioRoutes[1].target'") && Catch::Contains("choice"));
    CHECK_THAT(bad({{"source", "bass"}}),
               Catch::Contains("'audioRoutes[1].source' is 'bass', allowed: low, mid, high, band, level, onset, beatPhase"));
    CHECK_THAT(bad({{"curve", "cubic"}}), Catch::Contains("'audioRoutes[1].curve' is 'cubic', allowed: log, linear, exp"));
    CHECK_THAT(bad({{"amount", 2}}), Catch::Contains("'audioRoutes[1].amount' is 2, outside the allowed range 0 to 1"));
    CHECK_THAT(bad({{"invert", "yes"}}), Catch::Contains("'audioRoutes[1].invert' must be true or false"));
    CHECK_THAT(bad({{"min", nullptr}}), Catch::Contains("'audioRoutes[1].min' is missing"));
    CHECK_THAT(bad({{"gain", 3}}), Catch::Contains("'audioRoutes[1].gain' is not a known key"));
    CHECK_THAT(bad({{"source", "band"}}), Catch::Contains("'audioRoutes[1].band' is missing"));
    CHECK_THAT(bad({{"source", "band"}, {"band", 2.5}}), Catch::Contains("'audioRoutes[1].band' must be a whole number"));
    CHECK_THAT(bad({{"band", 2}}), Catch::Contains("'audioRoutes[1].band' is only used with"));
    CHECK_THAT(errorOf(nlohmann::json::object()), Catch::Contains("'audioRoutes' must be a list"));
    CHECK_THAT(errorOf(nlohmann::json::array({5})), Catch::Contains("'audioRoutes[0]' must be an object"));
    // Saving a bad route is refused too, so no unloadable file is written.
    Preset p;
    p.name = "Bad";
    p.routes = std::vector<ModRoute>{route(ModSource::Low, ParamId::Noise, 0, 0.1), route(ModSource::Low, ParamId::Noise, 0, 3)};
    test::TempDir dir;
    CHECK_THROWS_WITH(savePreset(p, dir / "bad.json"), Catch::Contains("bad.json") && Catch::Contains("route 1: max is 3"));
    CHECK_FALSE(std::filesystem::exists(dir / "bad.json"));
}
