#include "math/hash.hpp"

namespace mirofish {

std::uint64_t hashKey(std::uint64_t seed, std::uint64_t a, std::uint64_t b, RandomStream stream) {
    // Chained mixing: each field goes through a full avalanche before the next
    // is folded in, so nearby counters (fish 7 step 3 vs fish 3 step 7) differ.
    std::uint64_t h = mix64(seed ^ 0x9e3779b97f4a7c15ull);
    h = mix64(h ^ (a * 0xd6e8feb86659fd93ull));
    h = mix64(h ^ (b * 0xa0761d6478bd642full) ^ (static_cast<std::uint64_t>(stream) << 56));
    return h;
}

}  // namespace mirofish
