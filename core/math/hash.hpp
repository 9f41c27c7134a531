#pragma once
// Counter-based randomness: every random number is a pure function of
// (seed, fish id, step, stream). No shared generator, so results do not
// depend on thread count or evaluation order.
#include <cstdint>

#include "math/lanes.hpp"

namespace mirofish {

// Independent random streams, so that e.g. spawn positions and per-step
// noise of one fish are uncorrelated.
enum class RandomStream : std::uint32_t {
    SpawnPosition = 1,
    SpawnVelocity,
    Variation,
    // 4 drew each fish's wander phase, now a variation draw (variationDraws).
    Jitter = 5,
    NoiseLattice,
};

// SplitMix64's finaliser: a bijective 64-bit mix with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

std::uint64_t hashKey(std::uint64_t seed, std::uint64_t a, std::uint64_t b, RandomStream stream);

// Uniform float in [0, 1) from the top 24 bits (exactly representable).
constexpr float unitFloat(std::uint64_t h) {
    return static_cast<float>(h >> 40) * (1.0f / 16777216.0f);
}

// Uniform float in [-1, 1).
constexpr float signedUnitFloat(std::uint64_t h) { return unitFloat(h) * 2.0f - 1.0f; }

// A 32-bit mix (Wellons' lowbias32, bijective, near-ideal avalanche) for the
// random numbers drawn every step: only shifts, xors and 32-bit multiplies,
// so eight lanes (U = v8u) take a few vector instructions where mix64 would
// take a scalar loop.
template <typename U>
[[gnu::always_inline]] inline U mix32(U x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// The first hash of a fish's stream with this key (chain mix32 for more):
// the id times the golden ratio, so that neighbouring ids differ in many bits.
template <typename U>
[[gnu::always_inline]] inline U idHash(U id, std::uint32_t key) {
    return mix32((id * 0x9e3779b9u) ^ key);
}

// Uniform floats in [-1, 1) from the top 24 bits of each lane (exactly
// representable), and the same for one 32-bit hash, bit for bit.
template <typename U>
    requires std::is_same_v<U, v8u> || std::is_same_v<U, v16u>
[[gnu::always_inline]] inline auto signedUnitFloats(U h) {
    using F = std::conditional_t<std::is_same_v<U, v8u>, v8f, v16f>;
    return __builtin_convertvector((MaskOf<F>)(h >> 8), F) * (2.0f / 16777216.0f) - 1.0f;
}
[[gnu::always_inline]] inline float signedUnitFloats(std::uint32_t h) {
    return static_cast<float>(static_cast<std::int32_t>(h >> 8)) * (2.0f / 16777216.0f) - 1.0f;
}

// Two uniform floats in [-1, 1) from one hash: from its high and from its
// low sixteen bits, in steps of 2^-15 (exactly representable). Enough for a
// per-fish factor or a jitter, and a hash (two 32-bit multiplies, each
// waiting on the one before) serves two draws.
template <typename U>
[[gnu::always_inline]] inline auto highHalfDraw(U h) {
    return signedUnitFloats(h & 0xffff0000u);
}
template <typename U>
[[gnu::always_inline]] inline auto lowHalfDraw(U h) {
    return signedUnitFloats(h << 16);
}

// A fish's fixed draws in [-1, 1): the five of its per-fish variation
// (maxSpeed, perception radius, the separation, alignment and cohesion
// weights; the factor used is 1 + variation * draw) and the phase of its
// wander direction (rules::wanderDirection). A pure function of the fish id
// and the seed's key (variationKey), so the same at every step, for one fish
// (U = std::uint32_t) or eight (U = v8u) alike; recomputed where needed
// instead of stored, which saves reordering seven arrays by cell every step.
// Three independent hashes of the id (keys apart by fixed bit patterns),
// two draws from each: the five draws were once a chain of five hashes,
// each of the one before, and their multiplies, one after the other, held
// up the start of every group of fish (lock-step on 1 thread, 2026-12-05:
// 0.97-0.98 of the time at the bench's constant density with the jitter's
// two draws from one hash too).
template <typename F>
struct VariationDraws {
    F speed, radius, separation, alignment, cohesion;
    F wanderPhase;
};
template <typename U>
[[gnu::always_inline]] inline auto variationDraws(U id, std::uint32_t key) {
    const U a = idHash(id, key), b = idHash(id, key ^ 0x68e31da4u), c = idHash(id, key ^ 0xb5297a4du);
    using F = decltype(signedUnitFloats(a));
    return VariationDraws<F>{highHalfDraw(a), lowHalfDraw(a), highHalfDraw(b),
                             lowHalfDraw(b),  highHalfDraw(c), lowHalfDraw(c)};
}

// A 64-bit hash folded to the 32-bit key of mix32's streams.
constexpr std::uint32_t foldKey(std::uint64_t h) { return static_cast<std::uint32_t>(h ^ (h >> 32)); }

}  // namespace mirofish
