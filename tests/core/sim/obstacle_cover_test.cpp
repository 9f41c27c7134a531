// The spawn's quick answer to "is this point inside a rock" against the
// plain test of every rock.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "sim/obstacle_cover.hpp"

using namespace mirofish;

namespace {

bool insideAnyPlainly(const std::vector<Obstacle>& obstacles, float x, float y, float w, float h, bool wrap) {
    for (const Obstacle& o : obstacles)
        if (insideObstacle(o, x, y, w, h, wrap)) return true;
    return false;
}

}  // namespace

TEST_CASE("the obstacle cover answers as the plain test of every obstacle, in fields of every size and at the seams") {
    std::mt19937 random(45);
    int partlyCovered = 0;  // scenes
    for (int scene = 0; scene < 60; ++scene) {
        const bool wrap = scene % 2 == 0;
        const float w = std::uniform_real_distribution<float>(1.0f, 3000.0f)(random);
        const float h = std::uniform_real_distribution<float>(1.0f, 3000.0f)(random);
        // From a few large rocks, some wider than the world, to hundreds of small ones.
        const int count = 1 + scene * 7;
        const float largest = std::max(w, h) * (scene % 5 == 0 ? 1.2f : 0.8f / std::sqrt(static_cast<float>(count)));
        // Some rocks worlds away: wrapping, their copies reach into the world.
        const float out = scene % 4 == 1 ? 6.0f : 0.3f;
        std::uniform_real_distribution<float> x(-out * w, (1 + out) * w), y(-out * h, (1 + out) * h), r(0.0f, largest);
        std::vector<Obstacle> rocks;
        for (int i = 0; i < count; ++i) rocks.push_back({Vec2{{x(random), y(random)}}, r(random)});
        const ObstacleCover cover(rocks, w, h, wrap);
        std::uniform_real_distribution<float> px(0.0f, w), py(0.0f, h);
        int inside = 0;  // of the points
        for (int i = 0; i < 4000; ++i) {
            const float qx = px(random), qy = py(random);
            const bool plain = insideAnyPlainly(rocks, qx, qy, w, h, wrap);
            inside += plain ? 1 : 0;
            if (cover.contains(qx, qy) != plain) {
                INFO("scene " << scene << " point " << qx << ", " << qy);
                CHECK(cover.contains(qx, qy) == plain);
            }
        }
        if (inside > 0 && inside < 4000) ++partlyCovered;
    }
    CHECK(partlyCovered >= 40);  // the points fall both inside and outside
}

TEST_CASE("the obstacle cover of no obstacles contains nothing") {
    const ObstacleCover cover({}, 800, 600, true);
    CHECK_FALSE(cover.contains(0, 0));
    CHECK_FALSE(cover.contains(799.9f, 599.9f));
}

TEST_CASE("in a wrapping world a rock worlds away covers where its copy in the world lies") {
    // A rock five worlds out covered one column of cells: fish spawned inside its copy.
    const std::vector<Obstacle> far = {{Vec2{{7040, 360}}, 300}, {Vec2{{-5000, -3000}}, 100}};
    const ObstacleCover cover(far, 1280, 720, true);
    std::mt19937 random(7);
    std::uniform_real_distribution<float> x(0.0f, 1280.0f), y(0.0f, 720.0f);
    int inside = 0, wrong = 0;
    for (int i = 0; i < 20000; ++i) {
        const float qx = x(random), qy = y(random);
        const bool plain = insideAnyPlainly(far, qx, qy, 1280, 720, true);
        inside += plain ? 1 : 0;
        wrong += cover.contains(qx, qy) != plain ? 1 : 0;
    }
    REQUIRE(inside > 1000);
    CHECK(wrong == 0);
}
