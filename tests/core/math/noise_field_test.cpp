// The coherent noise (water currents): the kernel samples it for eight fish
// at once, the reference and the inspector for one; both must agree, and the
// periodic field must have no seam.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "math/noise_field.hpp"

using namespace mirofish;

namespace {

NoiseField fieldOver(float width, float height, float spacing) {
    NoiseField f;
    f.configure(width, height, spacing);
    f.update(99, 12.3 / 4.0);
    return f;
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("eight points sampled at once give the field at each point, bit for bit") {
    const float width = 1000, height = 600;
    const NoiseField field = fieldOver(width, height, 90);
    std::mt19937 rng(5);
    // The world, a margin around it (soft walls let fish out a little), and
    // the lattice's last cells, whose right and lower corners are the seam.
    std::uniform_real_distribution<float> ux(-150, width + 150), uy(-150, height + 150);
    for (int round = 0; round < 200; ++round) {
        v8f x, y;
        for (int l = 0; l < kLanes; ++l) x[l] = ux(rng), y[l] = uy(rng);
        if (round % 2 == 0) x[3] = std::nextafter(width, 0.0f), y[5] = std::nextafter(height, 0.0f);
        const VecLanes<2> lanes = field.sample(x, y);
        for (int l = 0; l < kLanes; ++l) {
            const Vec2 one = field.sample(x[l], y[l]);
            INFO("point " << x[l] << ", " << y[l]);
            CHECK(sameBits(lanes[0][l], one[0]));
            CHECK(sameBits(lanes[1][l], one[1]));
        }
    }
}

TEST_CASE("the periodic field joins at its seams") {
    const float width = 1000, height = 600;
    const NoiseField field = fieldOver(width, height, 90);
    // Just before the right (lower) edge and just past the left (upper) one
    // are a hair apart on the torus: their values differ by a hair too.
    for (float along = 0; along < 600; along += 37) {
        const Vec2 beforeX = field.sample(std::nextafter(width, 0.0f), along), afterX = field.sample(0.0f, along);
        CHECK(std::abs(beforeX[0] - afterX[0]) < 1e-3f);
        CHECK(std::abs(beforeX[1] - afterX[1]) < 1e-3f);
        const Vec2 beforeY = field.sample(along, std::nextafter(height, 0.0f)), afterY = field.sample(along, 0.0f);
        CHECK(std::abs(beforeY[0] - afterY[0]) < 1e-3f);
        CHECK(std::abs(beforeY[1] - afterY[1]) < 1e-3f);
    }
}

TEST_CASE("currents larger than the world still vary across it, along both axes") {
    // "Current size" goes up to 10000 px; a 1280x720 world holds fewer than
    // one such cell each way. The field must not turn into stripes or one
    // uniform drift: it changes along a row and down a column.
    for (const float spacing : {500.0f, 900.0f, 10000.0f}) {
        const NoiseField field = fieldOver(1280, 720, spacing);
        double alongRow = 0, downColumn = 0;
        for (float t = 0; t < 1; t += 0.05f) {
            alongRow = std::max(alongRow, double(length(field.sample(1280 * t, 200) - field.sample(0, 200))));
            downColumn = std::max(downColumn, double(length(field.sample(400, 720 * t) - field.sample(400, 0))));
        }
        INFO("current size " << spacing << " px");
        CHECK(alongRow > 0.05);
        CHECK(downColumn > 0.05);
    }
}

TEST_CASE("the field at a time is the same whether its ticks ran up to it or jumped there") {
    const float width = 1000, height = 600;
    NoiseField running;
    running.configure(width, height, 90);
    // Steps across several ticks (at a time scale of 4 s), then a jump
    // back, a new seed, another tick, and a jump far ahead.
    struct Moment {
        std::uint64_t seed;
        double ticks;
    };
    std::vector<Moment> moments;
    for (int step = 0; step < 700; ++step) moments.push_back({99, step / 60.0 / 4.0});
    moments.push_back({99, 0.25});
    moments.push_back({7, 0.25});
    moments.push_back({7, 2.0});
    moments.push_back({7, 2.0 + 1 / 30.0});
    moments.push_back({7, 10000.0});
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> ux(0, width), uy(0, height);
    for (const Moment& m : moments) {
        running.update(m.seed, m.ticks);
        NoiseField fresh;
        fresh.configure(width, height, 90);
        fresh.update(m.seed, m.ticks);
        for (int k = 0; k < 20; ++k) {
            const float x = ux(rng), y = uy(rng);
            const Vec2 a = running.sample(x, y), b = fresh.sample(x, y);
            INFO("seed " << m.seed << ", ticks " << m.ticks << ", point " << x << ", " << y);
            REQUIRE(sameBits(a[0], b[0]));
            REQUIRE(sameBits(a[1], b[1]));
        }
    }
}
