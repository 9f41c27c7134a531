// Morphing between two sets of parameters along their sliders.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "edit/param_morph.hpp"

using namespace mirofish;

namespace {

bool bitwiseEqual(const Params& a, const Params& b) {
    for (const ParamDef& d : paramRegistry()) {
        const float x = a.get(d.id), y = b.get(d.id);
        if (std::memcmp(&x, &y, sizeof x) != 0) return false;
    }
    return true;
}

// Two parameter sets that differ in a linear, a log-scale and a choice parameter.
Params paramsA() {
    Params p;
    p.set(ParamId::SeparationWeight, 0.3f);
    p.set(ParamId::MaxSpeed, 10.0f);
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    return p;
}
Params paramsB() {
    Params p;
    p.set(ParamId::SeparationWeight, 7.1f);
    p.set(ParamId::MaxSpeed, 1000.0f);
    p.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Bounce));
    return p;
}

}  // namespace

TEST_CASE("a morph starts exactly at the current parameters and ends exactly at the target", "[edit]") {
    const ParamMorph m(paramsA(), paramsB(), 3.0);
    REQUIRE(bitwiseEqual(m.at(0.0), paramsA()));
    REQUIRE(bitwiseEqual(m.at(-1.0), paramsA()));
    REQUIRE(bitwiseEqual(m.at(3.0), paramsB()));
    REQUIRE(bitwiseEqual(m.at(10.0), paramsB()));
    REQUIRE(bitwiseEqual(m.target(), paramsB()));
    REQUIRE_FALSE(m.finished(2.9));
    REQUIRE(m.finished(3.0));
    // Just inside, the value has moved but not arrived.
    const float early = m.at(0.3).get(ParamId::SeparationWeight);
    REQUIRE(early > 0.3f);
    REQUIRE(early < 7.1f);
}

TEST_CASE("a linear parameter is halfway at half time and eases in and out", "[edit]") {
    const ParamMorph m(paramsA(), paramsB(), 2.0);
    REQUIRE(m.at(1.0).get(ParamId::SeparationWeight) == Approx(3.7).epsilon(1e-6));
    // smoothstep(0.25) = 0.15625: slower than linear at the start.
    REQUIRE(m.at(0.5).get(ParamId::SeparationWeight) == Approx(0.3 + 6.8 * 0.15625).epsilon(1e-6));
}

TEST_CASE("a log-scale parameter morphs evenly on its slider (geometric midpoint)", "[edit]") {
    const ParamMorph m(paramsA(), paramsB(), 2.0);
    // maxSpeed 10 -> 1000 on a log slider passes 100, not 505.
    REQUIRE(m.at(1.0).get(ParamId::MaxSpeed) == Approx(100.0).epsilon(1e-5));
}

TEST_CASE("a choice parameter switches at the halfway point, never in between", "[edit]") {
    const ParamMorph m(paramsA(), paramsB(), 2.0);
    REQUIRE(m.at(0.99).get(ParamId::BoundaryMode) == static_cast<float>(BoundaryMode::Wrap));
    REQUIRE(m.at(1.0).get(ParamId::BoundaryMode) == static_cast<float>(BoundaryMode::Bounce));
}

TEST_CASE("parameters the two presets share do not move during a morph", "[edit]") {
    Params a = paramsA(), b = paramsB();
    a.set(ParamId::Noise, 0.123f);
    b.set(ParamId::Noise, 0.123f);
    const ParamMorph m(a, b, 1.0);
    for (double t : {0.1, 0.37, 0.5, 0.93}) REQUIRE(m.at(t).get(ParamId::Noise) == 0.123f);
}

TEST_CASE("a morph of zero, negative or invalid duration jumps to the target", "[edit]") {
    for (double d : {0.0, -2.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        const ParamMorph m(paramsA(), paramsB(), d);
        REQUIRE(m.finished(0.0));
        REQUIRE(bitwiseEqual(m.at(0.0), paramsB()));
    }
}
