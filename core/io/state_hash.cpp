#include "io/state_hash.hpp"

#include <cstdio>
#include <cstring>

#include "math/hash.hpp"

namespace mirofish {

void Hasher64::bytes(const void* data, std::size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        h_ = mix64(h_ ^ w) + 0x9e3779b97f4a7c15ull;
    }
    if (i < size) {
        std::uint64_t w = 0;
        std::memcpy(&w, p + i, size - i);
        h_ = mix64(h_ ^ w ^ (static_cast<std::uint64_t>(size - i) << 56));
    }
    length_ += size;
}

std::uint64_t Hasher64::digest() const { return mix64(h_ ^ length_); }

std::uint64_t stateHash(const Simulation& sim) {
    Hasher64 h;
    const std::size_t n = sim.fishCount();
    h.value(sim.stepIndex());
    h.value(static_cast<std::uint64_t>(n));
    const FishArrays& f = sim.fish();
    for (FishArrays::FloatField m : FishArrays::kFloatFields) h.bytes((f.*m).data(), n * sizeof(float));
    h.bytes(f.id.data(), n * sizeof(std::uint32_t));
    h.value(sim.wanderPhase());
    // And all else the next step depends on: a resume that got any of it
    // wrong printed the same hash and only drifted apart later.
    const Scene& scene = sim.scene();
    h.value(sim.time()), h.value(sim.noiseTicks()), h.value(scene.seed), h.value(scene.width), h.value(scene.height);
    for (std::size_t i = 0; i < kParamCount; ++i) h.value(scene.params.get(static_cast<ParamId>(i)));
    h.value(sim.rowStretch());  // the grid's rows: the sums' order
    for (const Predator& p : scene.predators) h.value(p.position), h.value(p.velocity), h.value(p.nextWaypoint);
    if (scene.leader) h.value(scene.leader->position), h.value(scene.leader->nextWaypoint);
    return h.digest();
}

std::string toHex(std::uint64_t value) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
    return buf;
}

}  // namespace mirofish
