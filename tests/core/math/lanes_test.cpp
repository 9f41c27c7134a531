// The eight-lane helpers the kernel is built from: they must give bit for bit
// what the one-at-a-time forms give, or thread counts and builds would differ.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
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
