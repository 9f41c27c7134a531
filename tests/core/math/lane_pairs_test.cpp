// Thirty-two lanes as a pair of sixteen (the kernel's AVX-512 build steers
// two groups of sixteen fish at once): each lane must get the bits it gets
// in a vector of sixteen, or the builds and thread counts would disagree.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

#include "math/hash.hpp"
#include "math/lane_pairs.hpp"
#include "math/vec.hpp"
#include "sim/rules.hpp"

using namespace mirofish;

namespace {

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A formula through every kind of operation the kernel's steering uses:
// arithmetic with scalars on either side, comparisons and masks, selects
// with lanes or scalars, square roots and divisions, hashes, lane indices,
// and the vector helpers built on them (with their branches on whole masks).
// Lanes from firstOutside on are left out of one select.
template <typename F>
Vec<2, F> formula(const F& x, const F& y, const UnsignedOf<F>& ids, int firstOutside) {
    using I = MaskOf<F>;
    const I inGroup = iotaLanes<I>() < firstOutside;
    const F draw = signedUnitFloats(idHash(ids, 0x1234u));
    const Vec<2, F> v{{x * 3.0f - y, 2.0f - y / (absOf(x) + 1.0f)}};
    const Vec<2, F> steer = rules::steerTowards(Vec<2, F>{{y, x}}, v, 10.0f * (1.0f + 0.1f * draw));
    const Vec<2, F> limited = limitLength(v + steer, splat<F>(40.0f));
    const Vec<2, F> moved = rules::applyAcceleration(v, limited, 0.016f, splat<F>(2.0f), splat<F>(50.0f));
    const F wrapped = x - floorOf(x / 7.0f) * 7.0f;
    const F picked = select(inGroup & (wrapped > 3.0f), sqrtOf(absOf(y)), maxOf(minOf(x, y), splat<F>(-5.0f)));
    const F masked = keepWhere(!(x < y) | (y >= 0.5f), mulAdd(x, y, picked));
    const F sideways = select(x > 0.0f, 1.5f, -0.25f) + select(y > x, splat<F>(1.0f), 2.0f);
    return rules::turnTowards(normalizedOrZero(moved), normalizedOrZero(Vec<2, F>{{masked, sideways}}), 0.9f, 0.4f);
}

}  // namespace

TEST_CASE("thirty-two lanes as a pair give every lane the bits sixteen lanes give it") {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> any(-60.0f, 60.0f);
    const float awkward[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 3.0f, 7.0f, -7.0f, 1e20f, -1e20f, FLT_MAX};
    for (int round = 0; round < 200; ++round) {
        v32f x, y;
        v32u ids;
        for (int l = 0; l < 32; ++l) {
            v16f& xh = l < 16 ? x.lo : x.hi;
            v16f& yh = l < 16 ? y.lo : y.hi;
            const bool odd = round % 4 == 0 && l % 5 == 0;
            xh[l % 16] = odd ? awkward[(round / 4 + l) % 10] : any(rng);
            yh[l % 16] = any(rng);
            (l < 16 ? ids.lo : ids.hi)[l % 16] = static_cast<std::uint32_t>(round * 32 + l);
        }
        // Lanes 29 to 31 are left out: lanes 13 to 15 of the high half.
        const Vec<2, v32f> pair = formula(x, y, ids, 29);
        const Vec<2, v16f> lo = formula(x.lo, y.lo, ids.lo, 29), hi = formula(x.hi, y.hi, ids.hi, 13);
        for (int c = 0; c < 2; ++c)
            for (int l = 0; l < 16; ++l) {
                INFO("round " << round << ", component " << c << ", lane " << l);
                CHECK(sameBits(pair[c].lo[l], lo[c][l]));
                CHECK(sameBits(pair[c].hi[l], hi[c][l]));
            }
    }
}
