#include "math/noise_field.hpp"

#include <algorithm>
#include <cmath>

#include "math/hash.hpp"

namespace mirofish {

namespace {

Vec2 latticeValue(std::uint64_t seed, int col, int row, std::int64_t tick) {
    const std::uint64_t cell = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(row)) << 32) |
                               static_cast<std::uint32_t>(col);
    const std::uint64_t h = hashKey(seed, cell, static_cast<std::uint64_t>(tick), RandomStream::NoiseLattice);
    return Vec2{{signedUnitFloat(h), signedUnitFloat(mix64(h))}};
}
}  // namespace

void NoiseField::configure(float worldWidth, float worldHeight, float spacing) {
    const float w = std::max(worldWidth, 1.0f);
    const float h = std::max(worldHeight, 1.0f);
    float s = std::max(spacing, 1.0f);
    // Coarsen the lattice until it fits the point budget.
    while ((w / s + 1.0f) * (h / s + 1.0f) > static_cast<float>(kMaxPoints)) s *= 1.5f;
    // A whole number of cells across the world, so the field tiles seamlessly
    // in wrap mode, and at least two: the lattice repeats after its last
    // cell, so a single cell would make the currents the same all across.
    cols_ = std::max(2, static_cast<int>(std::lround(w / s)));
    rows_ = std::max(2, static_cast<int>(std::lround(h / s)));
    invCellW_ = static_cast<float>(cols_) / w;
    invCellH_ = static_cast<float>(rows_) / h;
    lattice_.assign(static_cast<std::size_t>(cols_ + 1) * static_cast<std::size_t>(rows_ + 1), Vec2{});
    tickBefore_.assign(lattice_.size(), Vec2{});
    tickAfter_.assign(lattice_.size(), Vec2{});
    ticksKnown_ = false;
}

void NoiseField::hashTick(std::vector<Vec2>& into, std::uint64_t seed, std::int64_t tick) const {
    const auto at = [&](int c, int r) -> Vec2& { return into[pointIndex(c, r)]; };
    for (int r = 0; r < rows_; ++r) {
        for (int c = 0; c < cols_; ++c) at(c, r) = latticeValue(seed, c, r, tick);
        at(cols_, r) = at(0, r);
    }
    for (int c = 0; c <= cols_; ++c) at(c, rows_) = at(c, 0);
}

void NoiseField::update(std::uint64_t seed, double ticks) {
    const double tick0 = std::floor(ticks);
    const float f = noise_detail::smoothstep(static_cast<float>(ticks - tick0));
    const auto k = static_cast<std::int64_t>(tick0);
    const bool sameSeed = ticksKnown_ && seed == ticksSeed_;
    if (sameSeed && k == tickBeforeIndex_ + 1) {
        // The next tick, as time runs: its start is the last tick's end.
        std::swap(tickBefore_, tickAfter_);
        hashTick(tickAfter_, seed, k + 1);
    } else if (!(sameSeed && k == tickBeforeIndex_)) {
        hashTick(tickBefore_, seed, k);
        hashTick(tickAfter_, seed, k + 1);
    }
    ticksKnown_ = true;
    ticksSeed_ = seed;
    tickBeforeIndex_ = k;
    // The padding copies blend to copies of the same values.
    for (std::size_t i = 0; i < lattice_.size(); ++i) {
        const Vec2 a = tickBefore_[i], b = tickAfter_[i];
        lattice_[i] = a + (b - a) * f;
    }
}

Vec2 NoiseField::sample(float x, float y) const {
    const noise_detail::LatticePoint<float> q = noise_detail::locate(x, y, invCellW_, invCellH_, cols_, rows_);
    const int c0 = static_cast<int>(q.c0), r0 = static_cast<int>(q.r0);
    const int c1 = c0 + 1, r1 = r0 + 1;  // the padding repeats column and row 0
    const auto at = [&](int c, int r) { return lattice_[pointIndex(c, r)]; };
    const Vec2 top = at(c0, r0) + (at(c1, r0) - at(c0, r0)) * q.tx;
    const Vec2 bottom = at(c0, r1) + (at(c1, r1) - at(c0, r1)) * q.tx;
    return top + (bottom - top) * q.ty;
}

}  // namespace mirofish
