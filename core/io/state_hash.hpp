#pragma once
// A 64-bit fingerprint of the whole simulation state (fish arrays in their
// current order, step, time, the noise's and the wander's phases, seed,
// world, parameters, the grid's row stretch, agents). Two runs
// agree bit for bit iff (with overwhelming probability) their hashes agree.
#include <cstdint>
#include <string>

#include "sim/simulation.hpp"

namespace mirofish {

std::uint64_t stateHash(const Simulation& sim);
std::string toHex(std::uint64_t value);

// Word-wise 64-bit hash of a byte range, used for the state hash and as the
// snapshot checksum.
class Hasher64 {
public:
    void bytes(const void* data, std::size_t size);
    template <typename T>
    void value(const T& v) { bytes(&v, sizeof v); }
    std::uint64_t digest() const;

private:
    std::uint64_t h_ = 0x6a09e667f3bcc909ull;
    std::uint64_t length_ = 0;
};

}  // namespace mirofish
