#include "sim/grid.hpp"

#include <algorithm>
#include <bit>
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
    partCursor_ = std::make_unique_for_overwrite<std::uint32_t[]>(kMaxParts * partStride(maxCells_));
    rangeStart_.assign(chunkCount(maxCells_, kPrefixGrain), 0);
    rangeSquares_.assign(chunkCount(maxCells_, kPrefixGrain), 0);
    cellOf_.assign(maxFish + kLanes, 0);
    order_.assign(maxFish, 0);
}

float UniformGrid::fittedCell(float width, float height, float minCellSize) const {
    float cell = std::max(minCellSize, 1e-3f);
    auto fits = [&](float c) {
        const double cx = std::max(1.0, std::floor(static_cast<double>(width) / c));
        const double cy = std::max(1.0, std::floor(static_cast<double>(height) / c));
        return cx * cy <= static_cast<double>(maxCells_);
    };
    while (!fits(cell)) cell *= 1.25f;
    return cell;
}

UniformGrid::Layout UniformGrid::layoutFor(float width, float height, float cell, std::size_t sortedFish,
                                           float rowStretch) const {
    Layout l;
    // floor: cells are never narrower than requested (a NaN stretch counts as 1).
    l.cols = std::max(1, static_cast<int>(std::floor(width / cell)));
    l.rows = std::max(1, static_cast<int>(std::floor(height / (cell * std::max(1.0f, rowStretch)))));
    l.cellW = width / static_cast<float>(l.cols);
    l.cellH = height / static_cast<float>(l.rows);
    // Subcolumns count against the budget: kCrowdedCell fish a cell or more
    // keep them within one key per fish.
    const std::size_t cells = static_cast<std::size_t>(l.cols) * static_cast<std::size_t>(l.rows);
    const bool crowded = sortedFish >= kCrowdedCell * cells && cells * kSubcolumns <= maxCells_;
    l.subcolumnShift = crowded ? std::countr_zero(static_cast<unsigned>(kSubcolumns)) : 0;
    return l;
}

bool UniformGrid::configure(float width, float height, float minCellSize, bool periodic, std::size_t sortedFish,
                            float rowStretch) {
    const int oldCols = cols_, oldRows = rows_, oldShift = subcolumnShift_;
    const float oldCellW = cellW_, oldCellH = cellH_;
    const bool oldPeriodic = periodic_;
    periodic_ = periodic;
    const float w = std::max(width, 1.0f);
    const float h = std::max(height, 1.0f);
    fitted_ = {w, h, fittedCell(w, h, minCellSize)};
    const Layout l = layoutFor(w, h, fitted_.cell, sortedFish, rowStretch);
    cols_ = l.cols;
    rows_ = l.rows;
    cellW_ = l.cellW;
    cellH_ = l.cellH;
    invCellW_ = 1.0f / cellW_;
    invCellH_ = 1.0f / cellH_;
    subcolumnShift_ = l.subcolumnShift;
    return cols_ != oldCols || rows_ != oldRows || cellW_ != oldCellW || cellH_ != oldCellH ||
           periodic_ != oldPeriodic || subcolumnShift_ != oldShift;
}

std::pair<float, float> UniformGrid::cellSizeFor(float width, float height, float minCellSize, float rowStretch) const {
    const float w = std::max(width, 1.0f);
    const float h = std::max(height, 1.0f);
    const Layout l = layoutFor(w, h, fittedCell(w, h, minCellSize), 0, rowStretch);
    return {l.cellW, l.cellH};
}

bool UniformGrid::crowdedWith(float rowStretch, std::size_t sortedFish) const {
    return layoutFor(fitted_.width, fitted_.height, fitted_.cell, sortedFish, rowStretch).subcolumnShift > 0;
}

void UniformGrid::build(const float* px, const float* py, std::size_t n, Scheduler& scheduler) {
    scheduler.parallelFor(n, 8192, [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) cellOf_[i] = keyOf(px[i], py[i]);
    });
    buildFromCells(n, scheduler);
}

void UniformGrid::buildFromCells(std::size_t n, Scheduler& scheduler) {
    // The sort's "cells" below are its keys (keyOf): a cell's subcolumns, or the cell.
    const std::size_t cells = static_cast<std::size_t>(cols_) * static_cast<std::size_t>(rows_) << subcolumnShift_;
    // Counting sort in parts of consecutive fish, one per thread: each part
    // counts its fish per cell, a prefix sum over the cells (below) turns the counts
    // into each part's first slot in each cell (parts in order, so a cell
    // still lists its fish by index), and the parts scatter in parallel. The
    // order is the same for any number of parts.
    const std::size_t parts = std::clamp<std::size_t>(
        std::min<std::size_t>(static_cast<std::size_t>(scheduler.threadCount()), n / kMinFishPerPart), 1, kMaxParts);
    const auto partBegin = [&](std::size_t p) { return n * p / parts; };
    const auto cursor = [&](std::size_t p) { return partCursor_.get() + p * partStride(cells); };
    scheduler.parallelFor(parts, 1, [&](std::size_t b, std::size_t e) {
        for (std::size_t p = b; p < e; ++p) {
            std::uint32_t* count = cursor(p);
            std::fill_n(count, cells, 0u);
            for (std::size_t i = partBegin(p); i < partBegin(p + 1); ++i) ++count[cellOf_[i]];
        }
    });
    // The prefix sum over the cells in ranges: each range's total (in
    // parallel), the totals summed in order into each range's first slot,
    // then each range's slots (in parallel). At 1 000 000 fish there are
    // about 200 000 cells, too many for one thread while the other waits.
    const std::size_t ranges = chunkCount(cells, kPrefixGrain);
    rangeStart_[0] = 0;
    if (ranges > 1) {
        scheduler.parallelFor(cells, kPrefixGrain, [&](std::size_t b, std::size_t e) {
            std::uint32_t total = 0;
            for (std::size_t c = b; c < e; ++c)
                for (std::size_t p = 0; p < parts; ++p) total += cursor(p)[c];
            rangeStart_[b / kPrefixGrain] = total;
        });
        std::uint32_t next = 0;
        for (std::size_t r = 0; r < ranges; ++r) {
            const std::uint32_t total = rangeStart_[r];
            rangeStart_[r] = next;
            next += total;
        }
    }
    start_[cells] = static_cast<std::uint32_t>(n);
    scheduler.parallelFor(cells, kPrefixGrain, [&](std::size_t b, std::size_t e) {
        std::uint32_t* const start = start_.get();
        // Each cell's fish in all parts, then the prefix sum in place.
        std::copy(cursor(0) + b, cursor(0) + e, start + b);
        for (std::size_t p = 1; p < parts; ++p) {
            const std::uint32_t* const count = cursor(p);
            for (std::size_t c = b; c < e; ++c) start[c] += count[c];
        }
        std::uint32_t slot = rangeStart_[b / kPrefixGrain];
        std::uint64_t squares = 0;
        for (std::size_t c = b; c < e; ++c) {
            const std::uint32_t total = start[c];
            start[c] = slot;
            slot += total;
            squares += std::uint64_t{total} * total;
        }
        rangeSquares_[b / kPrefixGrain] = squares;
        // Part p's first slot in a cell: the cell's start and the counts of
        // the parts before it, the start advanced past each part in turn (one
        // pass per part). That leaves each cell's start at the next cell's, so
        // the starts move back one cell after.
        for (std::size_t p = 0; p < parts; ++p) {
            std::uint32_t* const cell = cursor(p);
            for (std::size_t c = b; c < e; ++c) {
                const std::uint32_t count = cell[c];
                cell[c] = start[c];
                start[c] += count;
            }
        }
        std::copy_backward(start + b, start + e - 1, start + e);
        start[b] = rangeStart_[b / kPrefixGrain];
    });
    std::uint64_t squares = 0;
    for (std::size_t r = 0; r < ranges; ++r) squares += rangeSquares_[r];
    meanFishSharingKey_ = n > 0 ? static_cast<double>(squares) / static_cast<double>(n) : 0.0;
    scheduler.parallelFor(parts, 1, [&](std::size_t b, std::size_t e) {
        for (std::size_t p = b; p < e; ++p) {
            std::uint32_t* slot = cursor(p);
            for (std::size_t i = partBegin(p); i < partBegin(p + 1); ++i)
                order_[slot[cellOf_[i]]++] = static_cast<std::uint32_t>(i);
        }
    });
}

}  // namespace mirofish
