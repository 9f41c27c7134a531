// The AVX-512 build's own forms of two lane operations the neighbour scan
// decides and counts with (math/lanes.hpp belowLimit, countDownWhere),
// against plain float and integer arithmetic. The generic build that every
// other test compiles runs neither form.
#include <catch2/catch.hpp>

#ifdef MIROFISH_LANES_AVX512_PROBE

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

#include "core/math/lanes_avx512_probe.hpp"
#include "sim/fish_kernel.hpp"

using namespace mirofish;

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
}  // namespace

TEST_CASE("the AVX-512 build finds a squared distance below a radius exactly where floats do") {
    if (!cpuRuns(KernelBuild::Avx512)) return;
    // Squared distances are +0 or more, never NaN; a radius may be anything,
    // NaN and negative ones included (a fish that perceives nothing).
    const float distances[16] = {0.0f,    FLT_TRUE_MIN, FLT_MIN, 1.0f,    2499.9998f, 2500.0f, 2500.0002f, 5625.0f,
                                 1e-3f,   7.0f,         28.0f,   784.0f,  1e30f,      FLT_MAX, kInf,       0.5f};
    const float radii[16] = {kNaN,  -kNaN,  -kInf, -1.0f,   -0.0f,   0.0f,   FLT_TRUE_MIN, 1.0f,
                             2500.0f, 2500.0f, 784.0f, 5625.0f, FLT_MAX, kInf, 2500.0002f, -FLT_MIN};
    for (int shift = 0; shift < 16; ++shift) {
        test::LanesProbe p{};
        for (int l = 0; l < 16; ++l) p.a[l] = distances[l], p.b[l] = radii[(l + shift) % 16];
        test::probeLanesAvx512(p);
        for (int l = 0; l < 16; ++l) {
            INFO(p.a[l] << " < " << p.b[l]);
            const std::int32_t expected = p.a[l] < p.b[l] ? -1 : 0;
            CHECK(p.below16[l] == expected);
            if (l < 8) CHECK(p.below8[l] == expected);
        }
    }
}

TEST_CASE("the AVX-512 build counts each lane's neighbours once per set mask") {
    if (!cpuRuns(KernelBuild::Avx512)) return;
    std::mt19937 rng(9);
    for (int trial = 0; trial < 200; ++trial) {
        test::LanesProbe p{};
        std::int32_t expected[16] = {};
        for (auto& mask : p.masks)
            for (int l = 0; l < 16; ++l)
                if (rng() & 1) mask[l] = -1, --expected[l];
        test::probeLanesAvx512(p);
        for (int l = 0; l < 16; ++l) {
            CHECK(p.count16[l] == expected[l]);
            if (l < 8) CHECK(p.count8[l] == expected[l]);
        }
    }
}

#endif  // MIROFISH_LANES_AVX512_PROBE
