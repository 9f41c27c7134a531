// The parameter registry: one table that the presets, the sliders and the
// README are generated from, so every entry must be complete and sane.
#include <catch2/catch.hpp>

#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "params/number_text.hpp"
#include "params/params.hpp"
#include "params/registry.hpp"
#include "support/decimal_comma_locale.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;

TEST_CASE("every parameter has a unique key, a label, a description and a unit of the project's unit system") {
    // Seconds and world units (px in 2D); dimensionless weights and shares
    // have no unit or say what they are a share of. Nothing per frame.
    const std::set<std::string> units = {"",     "px",      "px/s",      "px/s^2",      "deg",
                                         "deg/s", "s",      "rad/s",     "x maxSpeed", "x maxForce"};
    std::set<std::string> keys;
    REQUIRE(paramRegistry().size() == kParamCount);
    for (std::size_t i = 0; i < kParamCount; ++i) {
        const ParamDef& d = paramRegistry()[i];
        INFO(d.key);
        CHECK(static_cast<std::size_t>(d.id) == i);
        CHECK_FALSE(d.key.empty());
        CHECK(d.key.find(' ') == std::string_view::npos);
        CHECK(keys.insert(std::string(d.key)).second);
        CHECK_FALSE(d.label.empty());
        CHECK_FALSE(d.group.empty());
        CHECK(d.description.size() > 15);
        CHECK(units.count(std::string(d.unit)) == 1);
        CHECK(findParam(d.key) == d.id);
    }
    CHECK_FALSE(findParam("noSuchParameter").has_value());
    CHECK_FALSE(findParam("").has_value());
}

TEST_CASE("every parameter's range is sane and holds its default") {
    for (const ParamDef& d : paramRegistry()) {
        INFO(d.key);
        CHECK(d.min < d.max);
        CHECK(d.defaultValue >= d.min);
        CHECK(d.defaultValue <= d.max);
        if (d.scale == ParamScale::Log) CHECK(d.min > 0.0);
        if (d.isChoice()) {
            const auto labels = d.choiceLabels();
            CHECK(labels.size() >= 2);
            CHECK(d.min == 0.0);
            CHECK(d.max == static_cast<double>(labels.size() - 1));
            CHECK(d.defaultValue == std::floor(d.defaultValue));
            for (auto l : labels) CHECK_FALSE(l.empty());
        }
        CHECK(validateParam(d.id, d.defaultValue).empty());
    }
}

TEST_CASE("a fresh parameter set holds every default, and ignores non-finite values") {
    Params p;
    for (const ParamDef& d : paramRegistry()) CHECK(p.get(d.id) == static_cast<float>(d.defaultValue));
    p.set(ParamId::MaxSpeed, std::nanf(""));
    p.set(ParamId::MaxSpeed, std::numeric_limits<float>::infinity());
    CHECK(p.get(ParamId::MaxSpeed) == static_cast<float>(paramDef(ParamId::MaxSpeed).defaultValue));
    // Out of range but finite is stored: the simulation must survive it.
    p.set(ParamId::MaxSpeed, -3.0f);
    CHECK(p.get(ParamId::MaxSpeed) == -3.0f);
    CHECK(p != Params{});
}

TEST_CASE("the boundary mode choice maps to wrap, bounce and soft") {
    Params p;
    CHECK(paramDef(ParamId::BoundaryMode).choiceLabels() == std::vector<std::string_view>{"wrap", "bounce", "soft"});
    p.set(ParamId::BoundaryMode, 0);
    CHECK(p.boundaryMode() == BoundaryMode::Wrap);
    p.set(ParamId::BoundaryMode, 1);
    CHECK(p.boundaryMode() == BoundaryMode::Bounce);
    p.set(ParamId::BoundaryMode, 2);
    CHECK(p.boundaryMode() == BoundaryMode::Soft);
    p.set(ParamId::BoundaryMode, 7);  // nonsense stays usable
    CHECK(p.boundaryMode() == BoundaryMode::Soft);
}

TEST_CASE("slider positions round-trip and honour the scale") {
    for (const ParamDef& d : paramRegistry()) {
        INFO(d.key);
        CHECK(fromNormalized(d, 0.0) == Approx(d.min));
        CHECK(fromNormalized(d, 1.0) == Approx(d.max));
        CHECK(toNormalized(d, d.min) == Approx(0.0));
        CHECK(toNormalized(d, d.max) == Approx(1.0));
        for (double t = 0.0; t <= 1.0; t += 0.125) CHECK(toNormalized(d, fromNormalized(d, t)) == Approx(t).margin(1e-12));
        CHECK(fromNormalized(d, toNormalized(d, d.defaultValue)) == Approx(d.defaultValue));
        // Outside the range clamps to the ends.
        CHECK(toNormalized(d, d.max + 1e9) == 1.0);
        CHECK(toNormalized(d, d.min - 1e9) == 0.0);
        CHECK(fromNormalized(d, 2.0) == Approx(d.max));
        CHECK(fromNormalized(d, -1.0) == Approx(d.min));
    }
    // Log scale: the middle of the slider is the geometric mean.
    const ParamDef& speed = paramDef(ParamId::MaxSpeed);
    REQUIRE(speed.scale == ParamScale::Log);
    CHECK(fromNormalized(speed, 0.5) == Approx(std::sqrt(speed.min * speed.max)));
    const ParamDef& weight = paramDef(ParamId::SeparationWeight);
    REQUIRE(weight.scale == ParamScale::Linear);
    CHECK(fromNormalized(weight, 0.5) == Approx((weight.min + weight.max) / 2));
}

TEST_CASE("a distance slider that starts at 0 spreads the useful distances over its track and still reaches 0") {
    // goalRadius 0 to 100000 px was linear: the radii a designer uses sat in
    // the first 2 % of the slider, and an arrow key (a tenth) moved 10000 px.
    const ParamDef& goal = paramDef(ParamId::GoalRadius);
    REQUIRE(goal.scale == ParamScale::LogFromZero);
    CHECK(fromNormalized(goal, 0.0) == 0.0);
    CHECK(fromNormalized(goal, 1.0) == goal.max);
    CHECK(toNormalized(goal, 100) == Approx(std::log(2.0) / std::log(1001.0)));  // the knee: a thousandth of the range
    CHECK(toNormalized(goal, 1000) > 0.3);
    CHECK(toNormalized(goal, 10000) < 0.7);
    // An arrow key's tenth of the track from 1000 px about doubles it, not adds 10000 px.
    const double t = toNormalized(goal, 1000);
    CHECK(fromNormalized(goal, t + 0.1) < 2500);
    for (ParamId id : {ParamId::SeparationRadius, ParamId::BoundaryMargin, ParamId::PredatorRadius,
                       ParamId::ObstacleMargin}) {
        const ParamDef& d = paramDef(id);
        INFO(d.key);
        CHECK(d.scale == ParamScale::LogFromZero);
        // The default sits well inside the track, not in its first few percent.
        CHECK(toNormalized(d, d.defaultValue) > 0.4);
        CHECK(toNormalized(d, d.defaultValue) < 0.7);
    }
}

TEST_CASE("validating a value says what is wrong with it and the allowed range, for the caller to say where it was") {
    CHECK(validateParam(ParamId::MaxSpeed, 160).empty());
    CHECK(validateParam(ParamId::MaxSpeed, 1).empty());
    CHECK(validateParam(ParamId::MaxSpeed, 5000).empty());
    CHECK(validateParam(ParamId::MaxSpeed, 0.5) == "is 0.5, outside the allowed range 1 to 5000 px/s");
    CHECK_THAT(validateParam(ParamId::MaxSpeed, 1e6), Catch::Contains("1 to 5000 px/s"));
    CHECK_THAT(validateParam(ParamId::MaxSpeed, std::nan("")), Catch::StartsWith("is nan, outside"));
    CHECK_THAT(validateParam(ParamId::MaxSpeed, std::numeric_limits<double>::infinity()), Catch::StartsWith("is inf, outside"));
    // Dimensionless: no unit after the range.
    CHECK_THAT(validateParam(ParamId::SeparationWeight, 21), Catch::EndsWith("0 to 20"));
    // Choices: a whole index among the labels.
    CHECK(validateParam(ParamId::BoundaryMode, 1).empty());
    CHECK_THAT(validateParam(ParamId::BoundaryMode, 1.5), Catch::Contains("must be one of wrap, bounce or soft"));
    CHECK_THAT(validateParam(ParamId::BoundaryMode, 3), Catch::Contains("wrap, bounce or soft"));
}

TEST_CASE("ranges and numbers in messages are written with a decimal point in a locale of decimal commas") {
    // The editor and `render` run with the user's locale (Qt sets it); a
    // German one made printf write "0 to 0,95" beside fields showing 0.95.
    std::string german, range, number;
    {
        const test::DecimalCommaLocale commas;
        char printed[16];
        std::snprintf(printed, sizeof printed, "%g", 0.95);
        german = printed;
        range = paramDef(ParamId::ReactionLag).rangeText();
        number = numberText(2.25);
    }
    CHECK(german == "0,95");  // the locale took
    CHECK(range == "0 to 0.95");
    CHECK(number == "2.25");
}
