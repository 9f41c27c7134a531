// Reading a drag: a short still press is a click, a fast drag scares the
// school along its direction, a slow drag never does.
#include <catch2/catch.hpp>

#include "edit/pointer_gesture.hpp"

using namespace mirofish;

namespace {
Vec2 at(float x, float y) { return Vec2{{x, y}}; }
}  // namespace

TEST_CASE("a short press that barely moves is a click, a long or moving one is not", "[edit]") {
    PointerGesture g;
    g.begin(at(100, 100), 0.0);
    g.move(at(102, 101), 0.05);
    CHECK(g.endIsClick(at(103, 101), 0.1));

    g.begin(at(100, 100), 0.0);
    CHECK_FALSE(g.endIsClick(at(100, 100), 0.5));  // held too long

    g.begin(at(100, 100), 0.0);
    g.move(at(110, 100), 0.05);
    CHECK_FALSE(g.endIsClick(at(100, 100), 0.1));  // moved away and back
}

TEST_CASE("a fast swipe leaves scares along its direction, a few per second", "[edit]") {
    PointerGesture g;
    g.begin(at(0, 0), 0.0);
    int scares = 0;
    // 3000 px/s to the right, one event every 10 ms for 0.3 s.
    for (int i = 1; i <= 30; ++i) {
        if (auto dir = g.move(at(30.0f * static_cast<float>(i), 0), 0.01 * i)) {
            ++scares;
            CHECK((*dir)[0] == Approx(1.0f).margin(1e-4));
            CHECK((*dir)[1] == Approx(0.0f).margin(1e-4));
        }
    }
    // At most one every kScareInterval (0.06 s), and at least a few.
    CHECK(scares >= 3);
    CHECK(scares <= 6);
    CHECK(g.velocity()[0] == Approx(3000.0f).epsilon(0.05));
}

TEST_CASE("a slow drag or a single jittery event never scares", "[edit]") {
    PointerGesture g;
    g.begin(at(0, 0), 0.0);
    for (int i = 1; i <= 100; ++i) CHECK_FALSE(g.move(at(5.0f * static_cast<float>(i), 0), 0.01 * i));  // 500 px/s

    g.begin(at(0, 0), 1.0);
    g.move(at(0, 0), 1.03);
    // 40 px in 1 ms is 40 000 px/s for one sample: smoothing keeps it below the threshold.
    CHECK_FALSE(g.move(at(40, 0), 1.031));
}

TEST_CASE("moves without a press are ignored", "[edit]") {
    PointerGesture g;
    CHECK_FALSE(g.move(at(1000, 0), 0.01));
    CHECK_FALSE(g.endIsClick(at(0, 0), 0.02));
    CHECK_FALSE(g.active());
}
