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
    SpawnVariation,
    SpawnPhase,
    Jitter,
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

// Uniform floats in [-1, 1) from the top 24 bits of each lane (exactly representable).
[[gnu::always_inline]] inline v8f signedUnitFloats(v8u h) {
    return __builtin_convertvector((v8i)(h >> 8), v8f) * (2.0f / 16777216.0f) - 1.0f;
}

}  // namespace mirofish
