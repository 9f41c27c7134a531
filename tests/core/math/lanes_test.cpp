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
