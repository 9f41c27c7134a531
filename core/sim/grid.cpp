#include "sim/grid.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish {

namespace {
// Enough cells for a sparse world, but never so many that the prefix sum
// over empty cells dominates the step.
constexpr std::size_t kCellsPerFish = 4;
constexpr std::size_t kMinCellBudget = 4096;
}  // namespace

void UniformGrid::reserve(std::size_t maxFish) {
    maxCells_ = std::max(kMinCellBudget, maxFish * kCellsPerFish);
    // Left uninitialised: build() writes only the cells in use, so the pages
    // of a budget sized for a sparse world never count against memory.
    start_ = std::make_unique_for_overwrite<std::uint32_t[]>(maxCells_ + 1);
    cellOf_.assign(maxFish, 0);
    order_.assign(maxFish, 0);
}

void UniformGrid::configure(float width, float height, float minCellSize, bool periodic) {
    periodic_ = periodic;
    const float w = std::max(width, 1.0f);
    const float h = std::max(height, 1.0f);
    float cell = std::max(minCellSize, 1e-3f);
    auto fits = [&](float c) {
        const double cx = std::max(1.0, std::floor(static_cast<double>(w) / c));
        const double cy = std::max(1.0, std::floor(static_cast<double>(h) / c));
        return cx * cy <= static_cast<double>(maxCells_);
    };
    while (!fits(cell)) cell *= 1.25f;
    // floor: cells are never narrower than requested.
    cols_ = std::max(1, static_cast<int>(std::floor(w / cell)));
    rows_ = std::max(1, static_cast<int>(std::floor(h / cell)));
    cellW_ = w / static_cast<float>(cols_);
    cellH_ = h / static_cast<float>(rows_);
    invCellW_ = 1.0f / cellW_;
    invCellH_ = 1.0f / cellH_;
}

void UniformGrid::build(const float* px, const float* py, std::size_t n, Scheduler& scheduler) {
    const std::size_t cells = static_cast<std::size_t>(cols_) * static_cast<std::size_t>(rows_);
    scheduler.parallelFor(n, 8192, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) cellOf_[i] = static_cast<std::uint32_t>(cellIndex(cellX(px[i]), cellY(py[i])));
    });
    std::fill_n(start_.get(), cells + 1, 0u);
    for (std::size_t i = 0; i < n; ++i) ++start_[cellOf_[i] + 1];
    for (std::size_t c = 0; c < cells; ++c) start_[c + 1] += start_[c];
    // Scatter, using cellOf_ as the running cursor source: start_[c] is
    // advanced while scattering and restored afterwards by shifting.
    for (std::size_t i = 0; i < n; ++i) order_[start_[cellOf_[i]]++] = static_cast<std::uint32_t>(i);
    for (std::size_t c = cells; c > 0; --c) start_[c] = start_[c - 1];
    start_[0] = 0;
}

}  // namespace mirofish
