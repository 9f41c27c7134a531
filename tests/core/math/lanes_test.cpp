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

TEST_CASE("a multiply-add on lanes rounds as the one-fish form of its kind does, once when fused") {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: rounded alone, the product loses its
    // last 2^-24 (a tie, to even); fused, that is exactly what is left.
    const float a = 1.0f + 0x1p-12f, c = -(1.0f + 0x1p-11f);
    CHECK(mulAdd(a, a, c, true) == 0x1p-24f);
    CHECK(mulAdd(a, a, c, false) == 0.0f);
    // The lanes: fused where this file was compiled with FMA, as kFusedMulAdd says.
    const v8f lanes = mulAdd(splat(a), splat(a), splat(c));
    for (int k = 0; k < kLanes; ++k) CHECK(sameBits(lanes[k], mulAdd(a, a, c, kFusedMulAdd)));
}

TEST_CASE("the power of two under a float scales it exactly to at least 1 and under 4, in lanes as for one float") {
    // normalizedOrZero scales by it instead of dividing: the product must be
    // exact (so the direction is untouched) and never overflow when squared.
    const float max = std::numeric_limits<float>::max(), min = std::numeric_limits<float>::min();
    std::vector<float> all = {min, 1e-6f, 0.75f, 1.0f, 1.5f, 2.0f, 3.9999998f, 1e20f, 0x1p126f, 0x1p127f, 3e38f, max};
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> exponent(-126.0f, 127.9f);
    for (int i = 0; i < 4000; ++i) all.push_back(std::exp2(exponent(rng)));
    for (std::size_t start = 0; start + kLanes <= all.size(); start += kLanes) {
        v8f lanes;
        for (int k = 0; k < kLanes; ++k) lanes[k] = all[start + static_cast<std::size_t>(k)];
        const v8f scales = inversePowerOfTwo(lanes);
        for (int k = 0; k < kLanes; ++k) {
            const float x = lanes[k], scale = inversePowerOfTwo(x);
            INFO("x = " << x << ", scale = " << scale);
            CHECK(sameBits(scales[k], scale));
            CHECK(scale >= min);
            CHECK(std::exp2(std::round(std::log2(scale))) == scale);  // a power of two
            const float scaled = x * scale;
            CHECK(scaled >= 1.0f);
            CHECK(scaled < (x >= 0x1p127f ? 4.0f : 2.0f));
            CHECK(static_cast<double>(scaled) == static_cast<double>(x) * static_cast<double>(scale));
        }
    }
}

TEST_CASE("a load of the first lanes gives those floats and +0 in the rest") {
    // The cull's last pass over a span reads only the span's fish: the
    // floats past them may lie past the end of the array.
    std::vector<float> data(2 * kLanes);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = -1.5f - static_cast<float>(i);
    for (int count = 0; count <= 2 * kLanes; ++count) {
        const float* start = data.data() + data.size() - static_cast<std::size_t>(count);
        const v16f v = loadLanesWhere<v16f>(iotaLanes<v16i>() < count, start);
        INFO(count << " lanes");
        for (int l = 0; l < 2 * kLanes; ++l) CHECK(sameBits(v[l], l < count ? start[l] : 0.0f));
    }
}
