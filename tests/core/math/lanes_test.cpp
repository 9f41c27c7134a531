// The eight-lane helpers the kernel is built from: they must give bit for bit
// what the one-at-a-time forms give, or thread counts and builds would differ.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>
#include <random>

#include "math/lanes.hpp"

using namespace mirofish;

namespace {
bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

TEST_CASE("reducing eight vectors at once sums each in the same order as one at a time") {
    // Magnitudes from 1e-3 to 1e5 and both signs, so that any other order
    // of the additions rounds differently somewhere.
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-10, 17);
    int orderSensitive = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        v8f v[kLanes];
        for (auto& vector : v)
            for (int k = 0; k < kLanes; ++k) vector[k] = std::ldexp(mantissa(rng), exponent(rng));
        const v8f all = sumLanesOfEach(v);
        for (int l = 0; l < kLanes; ++l) {
            REQUIRE(sameBits(all[l], sumLanes(v[l])));
            float leftToRight = 0;
            for (int k = 0; k < kLanes; ++k) leftToRight += v[l][k];
            orderSensitive += !sameBits(leftToRight, sumLanes(v[l]));
        }
    }
    // The control: these inputs do tell summation orders apart.
    CHECK(orderSensitive > 1000);
}

TEST_CASE("rounding eight lanes down gives what std::floor gives for every kind of float") {
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> values = {0.0f,       -0.0f,       0.5f,       -0.5f,      1.0f,        -1.0f,
                                       2.999999f,  -2.000001f,  1e-40f,     -1e-40f,    8388607.5f,  -8388607.5f,
                                       8388608.0f, -8388609.0f, 3e9f,       -3e9f,      1e30f,       -1e30f,
                                       inf,        -inf,        std::nanf(""), 123.456f, -98765.43f, 0.99999994f};
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> any(-1e5f, 1e5f);
    std::vector<float> all = values;
    for (int i = 0; i < 4000; ++i) all.push_back(any(rng));
    for (std::size_t start = 0; start + kLanes <= all.size(); start += kLanes) {
        v8f lanes;
        for (int k = 0; k < kLanes; ++k) lanes[k] = all[start + static_cast<std::size_t>(k)];
        const v8f down = floorOf(lanes);
        for (int k = 0; k < kLanes; ++k) {
            INFO("floor of " << lanes[k]);
            CHECK(sameBits(down[k], std::floor(lanes[k])));
        }
    }
}
