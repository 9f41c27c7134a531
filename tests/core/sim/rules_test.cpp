// Each flocking rule against values worked out by hand for two or three fish.
// The expected numbers are written from SPEC.md's formulas directly (not via
// sim/rules.hpp), so a wrong formula in the rules cannot also be in the test.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "sched/scheduler.hpp"
#include "sim/rules.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

constexpr double kRate = 60.0;  // steer (px/s) -> acceleration (px/s^2) over one reference step
constexpr float kMaxSpeed = 100.0f;

struct D2 {
    double x, y;
};
D2 unit(double x, double y) {
    const double l = std::hypot(x, y);
    return {x / l, y / l};
}
// Reynolds steering written out: unit(direction) * maxSpeed - v, as an acceleration.
D2 steerAccel(D2 direction, D2 v, double maxSpeed = kMaxSpeed) {
    const D2 u = unit(direction.x, direction.y);
    return {(u.x * maxSpeed - v.x) * kRate, (u.y * maxSpeed - v.y) * kRate};
}

Params ruleParams(float sep, float ali, float coh) {
    Params p = quietParams();
    p.set(ParamId::SeparationWeight, sep);
    p.set(ParamId::AlignmentWeight, ali);
    p.set(ParamId::CohesionWeight, coh);
    p.set(ParamId::SeparationRadius, 28.0f);
    p.set(ParamId::PerceptionRadius, 75.0f);
    p.set(ParamId::MinDistance, 2.0f);
    p.set(ParamId::MaxSpeed, kMaxSpeed);
    p.set(ParamId::MaxForce, 1e6f);  // no limiting unless a test asks for it
    return p;
}

// Steps once from the given fish and returns fish 0's acceleration.
Vec2 firstFishAcceleration(const Params& params, const std::vector<FishInit>& fish) {
    SerialScheduler serial;
    Simulation sim(sceneWith(params, static_cast<std::uint32_t>(fish.size())), serial);
    placeFish(sim, fish);
    sim.step();
    return accelerationOf(sim, 0);
}

void requireClose(Vec2 got, D2 want, double tol = 1e-3) {
    INFO("got (" << got[0] << ", " << got[1] << "), want (" << want.x << ", " << want.y << ")");
    const double scale = std::max(1.0, std::hypot(want.x, want.y));
    REQUIRE(std::fabs(got[0] - want.x) <= tol * scale);
    REQUIRE(std::fabs(got[1] - want.y) <= tol * scale);
}

Vec2 at(double x, double y) { return Vec2{{static_cast<float>(x), static_cast<float>(y)}}; }

}  // namespace

TEST_CASE("separation pushes away from close neighbours, weighted by inverse distance") {
    // A at the origin of the group; B 10 px to the right, C 5 px above it
    // (y grows downwards, so "above" is -y). D is 40 px away: perceived, but
    // outside the 28 px separation radius, so it must not push.
    const Params p = ruleParams(1, 0, 0);
    const Vec2 a = firstFishAcceleration(p, {{at(500, 500), at(10, 0)},
                                             {at(510, 500), at(10, 0)},
                                             {at(500, 495), at(10, 0)},
                                             {at(500, 540), at(10, 0)}});
    // sum of (self - other) / d^2 = (-10, 0)/100 + (0, 5)/25 = (-0.1, 0.2):
    // the closer fish weighs twice as much. Unweighted unit vectors would
    // give (-1, 1), 1/d^2 weighting (-1, 4).
    requireClose(a, steerAccel({-0.1, 0.2}, {10, 0}));
}

TEST_CASE("separation clamps the distance from below so very close fish do not dominate") {
    // B is 1 px away, C 4 px away; with minDistance 2 B's term is
    // (-1, 0)/max(1, 4) = (-0.25, 0) and C's (0, -4)/16 = (0, -0.25): a 45
    // degree push. Without the clamp B would give (-1, 0) and dominate.
    const Params p = ruleParams(1, 0, 0);
    const Vec2 a = firstFishAcceleration(p, {{at(500, 500), at(10, 0)},
                                             {at(501, 500), at(10, 0)},
                                             {at(500, 504), at(10, 0)}});
    requireClose(a, steerAccel({-0.25, -0.25}, {10, 0}));
}

TEST_CASE("coincident fish produce no separation push and no NaN") {
    const Params p = ruleParams(1, 1, 1);
    const Vec2 a = firstFishAcceleration(p, {{at(500, 500), at(0, 0)}, {at(500, 500), at(0, 0)}});
    REQUIRE(std::isfinite(a[0]));
    REQUIRE(std::isfinite(a[1]));
    REQUIRE(a == Vec2{});
}

TEST_CASE("alignment steers towards the mean neighbour velocity, speeds included") {
    // Neighbours move at (30, 40) and (10, -20): mean (20, 10). The mean of
    // their unit headings would point elsewhere ((0.52, -0.05)), and counting
    // the fish's own velocity would give (50, 20)/3.
    const Params p = ruleParams(0, 1, 0);
    const Vec2 a = firstFishAcceleration(p, {{at(500, 500), at(10, 0)},
                                             {at(530, 500), at(30, 40)},
                                             {at(500, 540), at(10, -20)}});
    requireClose(a, steerAccel({20, 10}, {10, 0}));
}

TEST_CASE("cohesion steers towards the plain centroid of the perceived neighbours") {
    // B is 10 px right, C 60 px below: centroid (505, 530), direction (5, 30).
    // E at 200 px is beyond perception and must not pull.
    const Params p = ruleParams(0, 0, 1);
    const Vec2 a = firstFishAcceleration(p, {{at(500, 500), at(10, 0)},
                                             {at(510, 500), at(10, 0)},
                                             {at(500, 560), at(10, 0)},
                                             {at(500, 700), at(10, 0)}});
    requireClose(a, steerAccel({5, 30}, {10, 0}));
}

TEST_CASE("a fish alone feels no flocking force") {
    const Params p = ruleParams(1, 1, 1);
    const Vec2 a = firstFishAcceleration(p, {{at(500, 500), at(10, 0)}, {at(900, 900), at(10, 0)}});
    REQUIRE(a == Vec2{});
}

TEST_CASE("the field of view is a cone around the heading, wider than 90 degrees included") {
    // A moves along +x; one neighbour 30 px away at angle theta from the
    // heading. Only cohesion is on, so A accelerates iff it sees B.
    struct Case {
        float halfAngle, theta;
        bool seen;
    };
    const Case cases[] = {
        {110, 0, true},   {110, 60, true},   {110, 100, true}, {110, 109, true},  {110, -109, true},
        {110, 111, false}, {110, -111, false}, {110, 150, false}, {110, 180, false},
        {60, 45, true},    {60, 59, true},     {60, 61, false},  {60, 100, false}, {60, 180, false},
        {90, 89, true},    {90, 91, false},
        {180, 180, true},  {180, 135, true},
        {0, 0, true},      {0, 5, false},
    };
    for (const Case& c : cases) {
        Params p = ruleParams(0, 0, 1);
        p.set(ParamId::FovHalfAngle, c.halfAngle);
        const double t = c.theta * std::numbers::pi / 180.0;
        const Vec2 a = firstFishAcceleration(p, {{at(500, 500), at(50, 0)},
                                                 {at(500 + 30 * std::cos(t), 500 + 30 * std::sin(t)), at(50, 0)}});
        INFO("half angle " << c.halfAngle << ", neighbour at " << c.theta << " degrees");
        CHECK((a != Vec2{}) == c.seen);
    }
}

TEST_CASE("a fish's field of view is the same cone whatever its speed and direction") {
    // The cone's test takes the velocity itself as its axis (rules::inFieldOfView):
    // from a crawl to 1000 times maxSpeed (the old state's speed, before the
    // step limits it), a neighbour 1 degree inside the edge is seen and 1
    // degree outside is not.
    for (const float halfAngle : {60.0f, 110.0f}) {
        for (const double speed : {0.002, 0.7, 50.0, 3000.0, 1e5}) {
            for (const double heading : {0.0, 1.0, 2.5, -2.0}) {
                for (const double off : {-1.0, 1.0}) {
                    for (const double side : {-1.0, 1.0}) {
                        Params p = ruleParams(0, 0, 1);
                        p.set(ParamId::FovHalfAngle, halfAngle);
                        const double t = heading + side * (halfAngle + off) * std::numbers::pi / 180.0;
                        const Vec2 v = at(speed * std::cos(heading), speed * std::sin(heading));
                        const Vec2 a = firstFishAcceleration(
                            p, {{at(500, 500), v}, {at(500 + 40 * std::cos(t), 500 + 40 * std::sin(t)), at(0, 0)}});
                        INFO("half angle " << halfAngle << ", speed " << speed << ", heading " << heading
                                           << " rad, neighbour " << off << " degree(s) from the edge");
                        CHECK((a != Vec2{}) == (off < 0));
                    }
                }
            }
        }
    }
}

TEST_CASE("a fish whose stored speed is absurd sees all around for that step and nothing breaks") {
    // Speeds are clamped far below 10^6 px/s after one step; only a state
    // file written by hand holds such a speed (rules::hasConeAxis).
    Params p = ruleParams(0, 0, 1);
    p.set(ParamId::FovHalfAngle, 60.0f);
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 2), serial);
    placeFish(sim, {{at(500, 500), at(3e6, 0)}, {at(470, 500), at(0, 0)}});
    sim.step();
    const Vec2 a = accelerationOf(sim, 0);
    CHECK(a != Vec2{});
    CHECK(std::isfinite(a[0]));
    CHECK(std::isfinite(a[1]));
    CHECK(std::isfinite(positionOf(sim, 0)[0]));
}

TEST_CASE("a fish that is (nearly) still sees all around: its cone is undefined") {
    Params p = ruleParams(0, 0, 1);
    p.set(ParamId::FovHalfAngle, 60.0f);
    // Neighbour straight behind a heading of +x.
    const Vec2 behind = at(470, 500);
    CHECK(firstFishAcceleration(p, {{at(500, 500), at(0, 0)}, {behind, at(0, 0)}}) != Vec2{});
    CHECK(firstFishAcceleration(p, {{at(500, 500), at(1e-4, 0)}, {behind, at(0, 0)}}) != Vec2{});
    // Moving: the same neighbour is now outside the cone.
    CHECK(firstFishAcceleration(p, {{at(500, 500), at(5, 0)}, {behind, at(0, 0)}}) == Vec2{});
}

TEST_CASE("the weighted sum, not each rule, is limited to maxForce") {
    Params p = ruleParams(1, 1, 1);
    p.set(ParamId::MaxForce, 500.0f);
    const Vec2 a = firstFishAcceleration(p, {{at(500, 500), at(10, 0)},
                                             {at(510, 500), at(0, 30)},
                                             {at(500, 495), at(20, 10)}});
    // separation towards (-0.1, 0.2) (see above), alignment towards the mean
    // velocity (10, 20), cohesion towards the centroid offset (5, -2.5).
    const D2 sep = steerAccel({-0.1, 0.2}, {10, 0});
    const D2 ali = steerAccel({10, 20}, {10, 0});
    const D2 coh = steerAccel({5, -2.5}, {10, 0});
    const D2 sum{sep.x + ali.x + coh.x, sep.y + ali.y + coh.y};
    REQUIRE(std::hypot(sum.x, sum.y) > 500.0);  // the limit is active
    const D2 u = unit(sum.x, sum.y);
    requireClose(a, {u.x * 500, u.y * 500});
}

TEST_CASE("velocity is limited to maxSpeed after the acceleration is added, then the fish moves") {
    SECTION("a lone fish faster than maxSpeed is slowed to maxSpeed, keeping its direction") {
        const Params p = ruleParams(1, 1, 1);
        SerialScheduler serial;
        Simulation sim(sceneWith(p, 1), serial);
        placeFish(sim, {{at(500, 500), at(300, 400)}});
        sim.step();
        requireClose(velocityOf(sim, 0), {60, 80}, 1e-6);
        requireClose(positionOf(sim, 0), {500 + 60.0 / 60, 500 + 80.0 / 60}, 1e-6);
    }
    SECTION("order: add the limited force to the old velocity, then limit the speed") {
        // A at 500 px/s (5x maxSpeed) is pulled towards B, straight below.
        Params p = ruleParams(0, 0, 1);
        p.set(ParamId::MaxForce, 1200.0f);
        SerialScheduler serial;
        Simulation sim(sceneWith(p, 2), serial);
        placeFish(sim, {{at(500, 500), at(500, 0)}, {at(500, 530), at(0, 0)}});
        sim.step();
        const D2 steer = steerAccel({0, 30}, {500, 0});  // (-500, 100) * 60: above maxForce
        const D2 u = unit(steer.x, steer.y);
        const D2 a{u.x * 1200, u.y * 1200};
        requireClose(accelerationOf(sim, 0), a);
        const D2 v{500 + a.x / 60, 0 + a.y / 60};  // still far above maxSpeed
        const D2 limited = unit(v.x, v.y);
        requireClose(velocityOf(sim, 0), {limited.x * kMaxSpeed, limited.y * kMaxSpeed}, 1e-4);
        requireClose(positionOf(sim, 0), {500 + limited.x * kMaxSpeed / 60, 500 + limited.y * kMaxSpeed / 60}, 1e-5);
    }
}

TEST_CASE("a fish never swims slower than its minimum speed, unless it has no direction at all") {
    Params p = ruleParams(1, 1, 1);
    p.set(ParamId::MinSpeed, 0.5f);  // half of maxSpeed
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 2), serial);
    placeFish(sim, {{at(200, 200), at(6, 8)}, {at(800, 800), at(0, 0)}});
    sim.step();
    requireClose(velocityOf(sim, 0), {30, 40}, 1e-5);
    // A fish at rest has no heading to speed up along; it stays at rest.
    REQUIRE(velocityOf(sim, 1) == Vec2{});
}

TEST_CASE("all accelerations of a step come from the old state (two phases)") {
    // Three fish in a row, at rest, 20 px apart. The middle one is pushed
    // equally from both sides: exactly nothing. Had A already moved when B
    // was computed, B would feel a net push.
    const Params p = ruleParams(1, 0, 0);
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 3), serial);
    placeFish(sim, {{at(480, 500), at(0, 0)}, {at(500, 500), at(0, 0)}, {at(520, 500), at(0, 0)}});
    sim.step();
    REQUIRE(accelerationOf(sim, 1) == Vec2{});
    REQUIRE(positionOf(sim, 1) == at(500, 500));
    // A and C are pushed outwards, mirror images of each other: full speed
    // away (the steer is unit * maxSpeed - 0) times the steer rate.
    requireClose(accelerationOf(sim, 0), {-kMaxSpeed * kRate, 0});
    requireClose(accelerationOf(sim, 2), {kMaxSpeed * kRate, 0});
    requireClose(positionOf(sim, 0), {480 - kMaxSpeed / 60.0, 500}, 1e-6);
    requireClose(positionOf(sim, 2), {520 + kMaxSpeed / 60.0, 500}, 1e-6);
}

// --- The building blocks of sim/rules.hpp and math/vec.hpp ---------------

TEST_CASE("normalising and limiting vectors never divides by zero or overflows") {
    REQUIRE(normalizedOrZero(Vec2{}) == Vec2{});
    REQUIRE(normalizedOrZero(Vec2{{1e-7f, 0}}) == Vec2{});  // below the usable length
    const Vec2 huge = normalizedOrZero(Vec2{{3e30f, 4e30f}});
    REQUIRE(huge[0] == Approx(0.6f));
    REQUIRE(huge[1] == Approx(0.8f));
    // The largest floats, and a vector near the shortest with a direction.
    const float max = std::numeric_limits<float>::max();
    const Vec2 largest = normalizedOrZero(Vec2{{max, -max}});
    CHECK(largest[0] == Approx(std::sqrt(0.5f)));
    CHECK(largest[1] == Approx(-std::sqrt(0.5f)));
    const Vec2 along = normalizedOrZero(Vec2{{max, 1}});
    CHECK(along[0] == Approx(1.0f));
    CHECK(std::fabs(along[1]) < 1e-30f);
    const Vec2 tiny = normalizedOrZero(Vec2{{-3e-6f, 4e-6f}});
    CHECK(tiny[0] == Approx(-0.6f));
    CHECK(tiny[1] == Approx(0.8f));
    const Vec2 lim = limitLength(Vec2{{3e30f, -4e30f}}, 10.0f);
    REQUIRE(lim[0] == Approx(6.0f));
    REQUIRE(lim[1] == Approx(-8.0f));
    REQUIRE(limitLength(Vec2{{3, 4}}, 10.0f) == Vec2{{3, 4}});
    REQUIRE(limitLength(Vec2{{3, 4}}, 0.0f) == Vec2{});
    REQUIRE(limitLength(Vec2{{3, 4}}, -1.0f) == Vec2{});
    // Non-finite input (an overflowed sum of enormous weights) gives no
    // direction rather than NaN, and so does limiting it.
    const float inf = std::numeric_limits<float>::infinity();
    CHECK(normalizedOrZero(Vec2{{inf, 0}}) == Vec2{});
    CHECK(normalizedOrZero(Vec2{{inf, -inf}}) == Vec2{});
    CHECK(normalizedOrZero(Vec2{{inf, std::nanf("")}}) == Vec2{});
    CHECK(limitLength(Vec2{{-inf, 3}}, 10.0f) == Vec2{});
}

TEST_CASE("limiting eight vectors at once gives each the bits of limiting it alone") {
    // The kernel limits eight or sixteen fish at once, and its builds must
    // agree bit for bit: a lane's result may not depend on its neighbours
    // (here one whose squared length overflows, one within the limit).
    const Vec2 cases[kLanes] = {{{3e30f, -4e30f}}, {{31.3f, 47.9f}}, {{3, 4}},        {{-70.1f, 0.3f}},
                                {{0, 0}},          {{1e19f, 1e19f}}, {{-11.7f, 5.9f}}, {{1e-3f, -2e-3f}}};
    VecLanes<2> lanes;
    for (int k = 0; k < kLanes; ++k) lanes[0][k] = cases[k][0], lanes[1][k] = cases[k][1];
    for (const float limit : {10.0f, 0.37f}) {
        const VecLanes<2> limited = limitLength(lanes, limit);
        for (int k = 0; k < kLanes; ++k) {
            INFO("lane " << k << ", limit " << limit);
            const Vec2 alone = limitLength(cases[k], limit);
            CHECK(limited[0][k] == alone[0]);
            CHECK(limited[1][k] == alone[1]);
        }
    }
}

TEST_CASE("the soft wall pushes quadratically inside the margin and keeps growing past the wall") {
    REQUIRE(rules::softWallPush(150.0f, 100.0f) == 0.0f);
    REQUIRE(rules::softWallPush(100.0f, 100.0f) == 0.0f);
    REQUIRE(rules::softWallPush(50.0f, 100.0f) == Approx(0.25f));
    REQUIRE(rules::softWallPush(0.0f, 100.0f) == Approx(1.0f));
    REQUIRE(rules::softWallPush(-50.0f, 100.0f) == Approx(2.25f));
    REQUIRE(rules::softWallPush(-50.0f, 0.0f) == 0.0f);  // margin 0: no zone, no division by zero
}

TEST_CASE("the steering helpers follow SPEC.md") {
    // steer = unit(direction) * maxSpeed - v; no direction, no steering.
    const Vec2 s = rules::steerTowards(Vec2{{0, 5}}, Vec2{{10, 0}}, 100.0f);
    REQUIRE(s == Vec2{{-10, 100}});
    REQUIRE(rules::steerTowards(Vec2{}, Vec2{{10, 0}}, 100.0f) == Vec2{});
    // Separation term: (self - other) / max(d^2, min^2), the offset (other - self) times the weight.
    REQUIRE(10.0f * rules::separationWeight(100.0f, 4.0f) == Approx(-0.1f));
    REQUIRE(1.0f * rules::separationWeight(1.0f, 4.0f) == Approx(-0.25f));
    // Linear falloff from 1 at the centre to 0 at the radius.
    REQUIRE(rules::linearFalloff(0.0f, 100.0f) == 1.0f);
    REQUIRE(rules::linearFalloff(25.0f, 100.0f) == 0.75f);
    REQUIRE(rules::linearFalloff(100.0f, 100.0f) == 0.0f);
    REQUIRE(rules::linearFalloff(10.0f, 0.0f) == 0.0f);
    // Speed kept within [min, max].
    const float dt = 1.0f / 60.0f;
    REQUIRE(rules::applyAcceleration(Vec2{{0, 500}}, Vec2{}, dt, 10.0f, 100.0f) == Vec2{{0, 100}});
    REQUIRE(rules::applyAcceleration(Vec2{{0, 2}}, Vec2{}, dt, 10.0f, 100.0f) == Vec2{{0, 10}});
    REQUIRE(rules::applyAcceleration(Vec2{{0, 50}}, Vec2{}, dt, 10.0f, 100.0f) == Vec2{{0, 50}});
}

TEST_CASE("a fish that may not brake below its minimum speed turns away instead") {
    const float dt = 1.0f / 60.0f;
    // Head-on: braking 6000 px/s^2 for one step would stop a 100 px/s fish.
    // It keeps its minimum speed and turns by atan(6000 dt / 100) = 45 degrees
    // to its left (no sideways hint in the acceleration).
    const Vec2 headOn = rules::applyAcceleration(Vec2{{100, 0}}, Vec2{{-6000, 0}}, dt, 80.0f, 160.0f);
    CHECK(length(headOn) == Approx(80.0f));
    CHECK(headOn[0] == Approx(80.0f / std::sqrt(2.0f)));
    CHECK(headOn[1] == Approx(80.0f / std::sqrt(2.0f)));
    // A sideways hint picks the side.
    const Vec2 right = rules::applyAcceleration(Vec2{{100, 0}}, Vec2{{-6000, -10}}, dt, 80.0f, 160.0f);
    CHECK(right[1] < 0.0f);
    // Without a floor it simply brakes.
    const Vec2 braked = rules::applyAcceleration(Vec2{{100, 0}}, Vec2{{-3000, 0}}, dt, 0.0f, 160.0f);
    CHECK(braked[0] == Approx(50.0f));
    CHECK(braked[1] == 0.0f);
}

TEST_CASE("a fish whose minimum speed is its maximum swims where it is pushed, at that speed") {
    // Six shipped presets set minSpeed to 1 (x maxSpeed): constant speed.
    // A push with v + accel dt at least that fast must only be shortened,
    // never spent as a turn: the limited length rounds short of maxSpeed
    // about every other time, and a forward push turned the fish left.
    const float dt = 1.0f / 60.0f, speed = 140.0f;
    std::mt19937 random(5);
    std::uniform_real_distribution<float> angle(-3.14159f, 3.14159f), force(0.0f, 3000.0f);
    int pushes = 0;
    for (int i = 0; i < 20000; ++i) {
        const float a = angle(random), f = force(random), b = angle(random);
        const Vec2 v{{speed * std::cos(a), speed * std::sin(a)}};
        const Vec2 accel{{f * std::cos(b), f * std::sin(b)}};
        const double wx = double(v[0]) + double(accel[0]) * dt, wy = double(v[1]) + double(accel[1]) * dt;
        const double pushedLength = std::hypot(wx, wy);
        if (pushedLength < speed * (1.0 + 1e-5)) continue;  // braked: the turn, tested below
        const Vec2 got = rules::applyAcceleration(v, accel, dt, speed, speed);
        INFO("v " << v[0] << " " << v[1] << ", accel " << accel[0] << " " << accel[1]);
        CHECK(got[0] == Approx(wx * speed / pushedLength).margin(1e-3));
        CHECK(got[1] == Approx(wy * speed / pushedLength).margin(1e-3));
        ++pushes;
    }
    CHECK(pushes > 5000);
    // Straight ahead: no turn at all.
    const Vec2 ahead = rules::applyAcceleration(Vec2{{speed, 0}}, Vec2{{600, 0}}, dt, speed, speed);
    CHECK(ahead[0] == Approx(speed));
    CHECK(ahead[1] == 0.0f);
}

TEST_CASE("the turn at the speed floor is v and accel dt at right angles, scaled to the floor") {
    // The slow, obviously correct reference in doubles: the unit vector of
    // v times |v|, plus its perpendicular on accel's side times |accel| dt,
    // scaled to minSpeed.
    const float dt = 1.0f / 60.0f;
    std::mt19937 random(11);
    std::uniform_real_distribution<float> speed(0.01f, 200.0f), angle(-3.14159f, 3.14159f), force(0.0f, 30000.0f);
    int turnedRight = 0, turnedLeft = 0;
    for (int i = 0; i < 20000; ++i) {
        const float s = speed(random), a = angle(random), f = force(random), b = angle(random);
        const Vec2 v{{s * std::cos(a), s * std::sin(a)}};
        const Vec2 accel{{f * std::cos(b), f * std::sin(b)}};
        const float minSpeed = 80.0f;
        const Vec2 got = rules::applyAcceleration(v, accel, dt, minSpeed, 160.0f);
        const double vx = v[0], vy = v[1], ax = accel[0], ay = accel[1];
        const double braked = std::hypot(vx + ax * dt, vy + ay * dt);
        if (braked >= minSpeed) continue;  // not below the floor: no turn
        const double along = std::hypot(vx, vy), across = std::hypot(ax, ay) * dt;
        const double ux = vx / along, uy = vy / along;
        const bool right = ux * ay - uy * ax < 0;
        const double sx = right ? uy : -uy, sy = right ? -ux : ux;
        const double scale = minSpeed / std::hypot(along, across);
        const double wantX = (ux * along + sx * across) * scale, wantY = (uy * along + sy * across) * scale;
        INFO("v " << v[0] << " " << v[1] << ", accel " << accel[0] << " " << accel[1]);
        CHECK(got[0] == Approx(wantX).margin(1e-3));
        CHECK(got[1] == Approx(wantY).margin(1e-3));
        (right ? turnedRight : turnedLeft) += 1;
    }
    CHECK(turnedRight > 500);
    CHECK(turnedLeft > 500);
    // A velocity that is not finite has no direction to turn from: no NaN.
    const float inf = std::numeric_limits<float>::infinity();
    const Vec2 wild = rules::applyAcceleration(Vec2{{inf, 0}}, Vec2{{-inf, 0}}, dt, 80.0f, 160.0f);
    CHECK(std::isfinite(wild[0]));
    CHECK(std::isfinite(wild[1]));
}

TEST_CASE("a fish's wander direction is a unit vector at its own phase plus the school's") {
    // Every draw u in steps of 2^-15 (VariationDraws::wanderPhase), at the
    // angle pi * u plus the school's phase, to 0.15 degrees (the quintic
    // for tan in rules::wanderDirection is off by at most 0.131).
    std::size_t wrong = 0;
    double worstDegrees = 0;
    for (const double phase : {0.0, 1.0, 2.5, 4.0, 6.2}) {
        for (int i = -32768; i < 32768; ++i) {
            const double u = i / 32768.0;
            const Vec2 w = rules::wanderDirection(static_cast<float>(u), static_cast<float>(std::cos(phase)),
                                                  static_cast<float>(std::sin(phase)));
            const double off = std::remainder(std::atan2(w[1], w[0]) - (std::numbers::pi * u + phase), 2 * std::numbers::pi);
            worstDegrees = std::max(worstDegrees, std::fabs(off) * 180 / std::numbers::pi);
            wrong += std::fabs(std::hypot(w[0], w[1]) - 1.0) > 1e-6 || std::fabs(off) * 180 / std::numbers::pi > 0.15;
        }
    }
    INFO("largest angle off: " << worstDegrees << " degrees");
    CHECK(wrong == 0);
}

TEST_CASE("fish wander in every direction alike: their fixed phases spread evenly around the circle") {
    // All 65 536 draws in 72 sectors of 5 degrees: each sector within 1.5 %
    // of an even share (the quintic's spacing of the angles is within half a
    // per cent of even).
    constexpr int kSectors = 72;
    std::array<int, kSectors> count{};
    for (int i = -32768; i < 32768; ++i) {
        const Vec2 w = rules::wanderDirection(static_cast<float>(i / 32768.0), 1.0f, 0.0f);
        const double turns = std::atan2(w[1], w[0]) / (2 * std::numbers::pi) + 0.5;  // [0, 1]
        ++count[std::min(static_cast<int>(turns * kSectors), kSectors - 1)];
    }
    const double even = 65536.0 / kSectors;
    for (int s = 0; s < kSectors; ++s) {
        INFO("sector " << s << ": " << count[s] << " draws, " << even << " even");
        CHECK(std::fabs(count[s] - even) <= 0.015 * even);
    }
}

TEST_CASE("the school's wander phase turns by the wander rate times the length of every step") {
    Params p = ruleParams(0, 0, 0);
    p.set(ParamId::WanderRate, 2.1f);
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 3), serial);
    double expected = 0;
    for (int t = 0; t < 400; ++t) {
        if (t == 200) sim.setStepSeconds(1.0 / 240);
        sim.step();
        expected += static_cast<double>(2.1f) * sim.stepSeconds();
    }
    CHECK(sim.wanderPhase() == Approx(std::fmod(expected, 2 * std::numbers::pi)).margin(1e-9));
    CHECK(sim.wanderPhase() >= 0.0);
    CHECK(sim.wanderPhase() < 2 * std::numbers::pi);
}

TEST_CASE("a change of the noise time scale goes on from the currents as they are, without a jump") {
    Params p = ruleParams(0, 0, 0);
    p.set(ParamId::NoiseTimeScale, 4.0f);
    SerialScheduler serial;
    Simulation sim(sceneWith(p, 3), serial);
    // 50 s: the currents half way between two of their 4 s ticks, where they change the most.
    for (int t = 0; t < 3000; ++t) sim.step();
    const auto current = [&] { return sim.noise().sample(123.0f, 77.0f); };
    const Vec2 a = current();
    sim.step();
    const Vec2 b = current();
    const float usual = length(b - a);  // one step's change
    REQUIRE(usual > 0.0f);
    // Computed from the time alone, 4.5 s ticks would put the currents at
    // 50 / 4.5 = 11.1 ticks, one and a half ticks back.
    sim.setParam(ParamId::NoiseTimeScale, 4.5f);
    sim.step();
    const Vec2 c = current();
    sim.step();
    const Vec2 d = current();
    CHECK(length(c - b) < 2.0f * usual);
    CHECK(length(d - c) < 2.0f * usual);
}

TEST_CASE("the drawn heading turns at most the per-step turn limit") {
    const float limit = 10.0f * std::numbers::pi_v<float> / 180.0f;
    const Vec2 from{{1, 0}};
    const Vec2 to{{0, 1}};  // 90 degrees to the left (positive cross product)
    const Vec2 h = rules::turnTowards(from, to, std::cos(limit), std::sin(limit));
    REQUIRE(h[0] == Approx(std::cos(limit)));
    REQUIRE(h[1] == Approx(std::sin(limit)));
    const Vec2 hr = rules::turnTowards(from, Vec2{{0, -1}}, std::cos(limit), std::sin(limit));
    REQUIRE(hr[1] == Approx(-std::sin(limit)));
    // Within the limit it goes straight to the target.
    const Vec2 near{{std::cos(0.05f), std::sin(0.05f)}};
    REQUIRE(rules::turnTowards(from, near, std::cos(limit), std::sin(limit)) == near);
}
