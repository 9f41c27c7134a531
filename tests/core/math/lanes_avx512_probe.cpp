#include "lanes_avx512_probe.hpp"

#include <cstring>

#include "math/lanes.hpp"

namespace mirofish::test {

void probeLanesAvx512(LanesProbe& p) {
    v16f a16, b16;
    v8f a8, b8;
    std::memcpy(&a16, p.a, sizeof a16);
    std::memcpy(&b16, p.b, sizeof b16);
    std::memcpy(&a8, p.a, sizeof a8);
    std::memcpy(&b8, p.b, sizeof b8);
    const v16i below16 = belowLimit(a16, b16);
    const v8i below8 = belowLimit(a8, b8);
    std::memcpy(p.below16, &below16, sizeof below16);
    std::memcpy(p.below8, &below8, sizeof below8);
    v16i count16{};
    v8i count8{};
    for (const auto& mask : p.masks) {
        v16i m16;
        v8i m8;
        std::memcpy(&m16, mask, sizeof m16);
        std::memcpy(&m8, mask, sizeof m8);
        count16 = countDownWhere(count16, m16);
        count8 = countDownWhere(count8, m8);
    }
    std::memcpy(p.count16, &count16, sizeof count16);
    std::memcpy(p.count8, &count8, sizeof count8);
}

}  // namespace mirofish::test
