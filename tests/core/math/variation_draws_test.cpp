// The per-fish variation (SPEC: maxSpeed, perception radius and the three
// weights each times a fixed factor in [0.85, 1.15]) and the phase of each
// fish's wander direction come from draws that are recomputed from the fish
// id every step instead of stored: they must be fixed per fish, spread
// evenly, independent of each other, and the same for one fish as for eight
// at once. Two draws come from each hash, its high and its low sixteen bits.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>

#include "math/hash.hpp"

using namespace mirofish;

namespace {

constexpr int kDraws = 6;

std::array<float, kDraws> drawsOf(std::uint32_t id, std::uint32_t key) {
    const VariationDraws<float> d = variationDraws(id, key);
    return {d.speed, d.radius, d.separation, d.alignment, d.cohesion, d.wanderPhase};
}

}  // namespace

TEST_CASE("eight fish at once get the draws each gets alone, bit for bit") {
    const std::uint32_t key = foldKey(hashKey(77, 0, 0, RandomStream::Variation));
    for (std::uint32_t first = 0; first < 4096; first += 8) {
        v8u ids;
        for (int l = 0; l < kLanes; ++l) ids[l] = first + static_cast<std::uint32_t>(l);
        const VariationDraws<v8f> lanes = variationDraws(ids, key);
        for (int l = 0; l < kLanes; ++l) {
            const std::array<float, kDraws> one = drawsOf(first + static_cast<std::uint32_t>(l), key);
            const std::array<float, kDraws> fromLanes = {lanes.speed[l],     lanes.radius[l],    lanes.separation[l],
                                                         lanes.alignment[l], lanes.cohesion[l], lanes.wanderPhase[l]};
            CHECK(std::memcmp(one.data(), fromLanes.data(), sizeof one) == 0);
        }
    }
}

TEST_CASE("variation draws are spread evenly from -1 to 1, uncorrelated, and differ between seeds") {
    const std::uint32_t key = foldKey(hashKey(5, 0, 0, RandomStream::Variation));
    const std::uint32_t otherKey = foldKey(hashKey(6, 0, 0, RandomStream::Variation));
    constexpr int kFish = 20000;
    std::array<double, kDraws> sum{}, sumSquares{};
    std::array<std::array<double, kDraws>, kDraws> products{};
    std::array<int, 10> speedBins{};
    int sameAsOtherSeed = 0, outOfRange = 0;
    for (std::uint32_t id = 0; id < kFish; ++id) {
        const std::array<float, kDraws> d = drawsOf(id, key);
        for (int k = 0; k < kDraws; ++k) {
            outOfRange += !(d[k] >= -1.0f && d[k] < 1.0f);
            sum[k] += d[k];
            sumSquares[k] += d[k] * d[k];
        }
        for (int a = 0; a < kDraws; ++a)
            for (int b = a + 1; b < kDraws; ++b) products[a][b] += d[a] * d[b];
        ++speedBins[static_cast<std::size_t>((d[0] + 1.0f) * 5.0f)];
        sameAsOtherSeed += drawsOf(id, otherKey)[0] == d[0];
    }
    CHECK(outOfRange == 0);
    for (int k = 0; k < kDraws; ++k) {
        INFO("draw " << k);
        CHECK(std::abs(sum[k] / kFish) < 0.02);                // uniform on [-1, 1): mean 0
        CHECK(std::abs(sumSquares[k] / kFish - 1.0 / 3) < 0.02);  // and variance 1/3
    }
    // No draw follows another: a fast fish does not also see further, nor
    // weigh separation more, nor wander the same way, and so on for every pair.
    for (int a = 0; a < kDraws; ++a)
        for (int b = a + 1; b < kDraws; ++b) {
            INFO("draws " << a << " and " << b);
            CHECK(std::abs(products[a][b] / kFish) < 0.02);
        }
    for (int count : speedBins) CHECK(std::abs(count - kFish / 10) < kFish / 50);
    CHECK(sameAsOtherSeed < 10);
}

TEST_CASE("a hash's two draws are its two halves, in steps of 2^-15 from -1 to just below 1") {
    CHECK(highHalfDraw(0x00000000u) == -1.0f);
    CHECK(lowHalfDraw(0x00000000u) == -1.0f);
    CHECK(highHalfDraw(0x8000ffffu) == 0.0f);
    CHECK(lowHalfDraw(0xffff8000u) == 0.0f);
    CHECK(highHalfDraw(0xffff0000u) == 1.0f - 0x1p-15f);
    CHECK(lowHalfDraw(0x0000ffffu) == 1.0f - 0x1p-15f);
    CHECK(highHalfDraw(0x00010000u) == -1.0f + 0x1p-15f);
    CHECK(lowHalfDraw(0x00000001u) == -1.0f + 0x1p-15f);
    // The same bits for a lane as alone.
    v8u hashes;
    for (int l = 0; l < kLanes; ++l) hashes[l] = mix32(static_cast<std::uint32_t>(l) + 1u);
    const v8f high = highHalfDraw(hashes), low = lowHalfDraw(hashes);
    for (int l = 0; l < kLanes; ++l) {
        CHECK(high[l] == highHalfDraw(hashes[l]));
        CHECK(low[l] == lowHalfDraw(hashes[l]));
    }
}
