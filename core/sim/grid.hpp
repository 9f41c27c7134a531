#pragma once
// Uniform grid over the world, rebuilt every step by a counting sort: count
// fish per cell, prefix-sum to start offsets, scatter indices. Flat int arrays,
// no per-cell containers, no allocation once reserved. Cells are at least the
// largest perception radius wide and tall (taller where the simulation
// stretches the rows: sim/row_stretch.hpp), so the 3x3 block around a fish's
// cell holds every fish it can perceive.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "math/lanes.hpp"
#include "sched/scheduler.hpp"
#include "sim/cache_line_vector.hpp"

namespace mirofish {

class UniformGrid {
public:
    // Allocates for up to maxFish fish (cells are capped at a multiple of it).
    void reserve(std::size_t maxFish);

    // Lays out cells of at least minCellSize over [0,width]x[0,height], and
    // at least rowStretch (1 or more) times that tall.
    // periodic: the world wraps (cell sizes then divide the world exactly).
    // sortedFish: how many fish the builds will sort. Where an even spread of
    // them puts kCrowdedCell or more in a cell, each cell lists its fish by
    // subcolumn, eighths of its width from west to east, then by index (see
    // kSubcolumns); otherwise by index alone.
    // Returns whether the layout differs from the one before.
    bool configure(float width, float height, float minCellSize, bool periodic, std::size_t sortedFish = 0,
                   float rowStretch = 1.0f);
    // Whether the world of the last configure, laid out with rows stretched
    // this much for this many fish, would have crowded cells.
    bool crowdedWith(float rowStretch, std::size_t sortedFish) const;
    // The cell width and height configure() would lay out for these,
    // without changing this grid.
    std::pair<float, float> cellSizeFor(float width, float height, float minCellSize, float rowStretch) const;

    // Sorts fish 0..n-1 into cells; order() lists fish indices cell by cell,
    // stable (by index within a cell, or within a subcolumn of a crowded one).
    // In parallel, one part of the fish per thread (see grid.cpp).
    void build(const float* px, const float* py, std::size_t n, Scheduler& scheduler);
    void build(const float* px, const float* py, std::size_t n) {
        SerialScheduler serial;
        build(px, py, n, serial);
    }
    // The same for fish whose keys are already in cells(), in this layout:
    // the kernel writes them for the positions it moves the fish to, which
    // saves the next build a pass over the positions.
    void buildFromCells(std::size_t n, Scheduler& scheduler);
    // Each fish's key (keyOf: its cell, and subcolumn), read by the next
    // buildFromCells; written by build, or by the caller between builds.
    // Room for whole groups of eight.
    std::uint32_t* cells() { return cellOf_.data(); }
    // 1, or kSubcolumns where the cells are crowded (configure).
    int subcolumns() const { return 1 << subcolumnShift_; }
    // Of the last build: the mean over the fish of how many fish share its
    // key (its cell, or its subcolumn where they are crowded), itself
    // included; 0 without fish.
    double meanFishSharingKey() const { return meanFishSharingKey_; }

    int cols() const { return cols_; }
    int rows() const { return rows_; }
    float cellWidth() const { return cellW_; }
    float cellHeight() const { return cellH_; }
    bool periodic() const { return periodic_; }

    // Cell of a position; positions outside the world go to the nearest edge
    // cell (clamping keeps neighbouring positions in neighbouring cells, so
    // no neighbour is missed).
    int cellX(float x) const { return clampCell(x * invCellW_, cols_); }
    int cellY(float y) const { return clampCell(y * invCellH_, rows_); }
    int cellIndex(int cx, int cy) const { return cy * cols_ + cx; }
    // The same for eight or sixteen positions at once (lane for lane equal to the above).
    template <FloatLanes F>
    MaskOf<F> cellX(F x) const { return clampCell(x * invCellW_, cols_); }
    template <FloatLanes F>
    MaskOf<F> cellY(F y) const { return clampCell(y * invCellH_, rows_); }
    template <MaskLanes I>
    I cellIndex(I cx, I cy) const { return cy * cols_ + cx; }
    // The subcolumn's index across the world, clamped like the cell's, for
    // one position or lanes of them: the cell's times the subcolumns plus
    // the subcolumn. The cell's column is it divided by the subcolumns (a
    // power of two, so x / cellWidth scaled by it is exact and rounds to the
    // same column).
    template <typename T>
    auto subcolumnOf(T x) const {
        return clampCell(x * invCellW_ * static_cast<float>(subcolumns()), cols_ << subcolumnShift_);
    }
    // What the counting sort sorts a position by (cells() holds it): its
    // cell, then its subcolumn.
    std::uint32_t keyOf(float x, float y) const { return static_cast<std::uint32_t>(keyFrom(subcolumnOf(x), cellY(y))); }
    template <FloatLanes F>
    MaskOf<F> keyOf(F x, F y) const {
        return keyFrom(subcolumnOf(x), cellY(y));
    }

    const std::uint32_t* order() const { return order_.data(); }
    // Fish of cell c (in sorted order) are order()[cellStart(c) .. cellStart(c+1)).
    std::uint32_t cellStart(int c) const { return start_[static_cast<std::size_t>(c) << subcolumnShift_]; }

    // Up to 2 column intervals [first,last] that cover columns cxFirst-1 ..
    // cxLast+1 (cxFirst <= cxLast), in increasing column order: clamped to
    // the grid, or wrapped when periodic (split at the seam, the whole row
    // when the range reaches around it).
    int neighbourColumns(int cxFirst, int cxLast, int (&first)[2], int (&last)[2]) const;
    // Up to 3 distinct rows around cy.
    int neighbourRows(int cy, int (&rows)[3]) const;

    // The contiguous spans of sorted fish that hold every fish of the cells
    // around cells cxFirst .. cxLast of row cy (the union of their 3x3
    // blocks): one per row (two at a wrapping seam). Rows in the order of
    // neighbourRows, and in each row the spans in increasing column order, so
    // every fish of the block of any one of those cells is met in the same
    // order whatever the range.
    struct Spans {
        int count = 0;
        std::uint32_t total = 0;  // fish in all spans together
        std::uint32_t begin[6], end[6];
    };
    // Always inlined: the kernel's AVX2 and AVX-512 objects call it, and must
    // not leave a copy of their own for the linker (sim/fish_kernel_body.hpp).
    [[gnu::always_inline]] Spans neighbourSpans(int cxFirst, int cxLast, int cy) const;
    // The 3x3 block around cell (cx, cy).
    Spans neighbourSpans(int cx, int cy) const { return neighbourSpans(cx, cx, cy); }

    // Whether a scan of those spans, for fish in cells cxFirst .. cxLast of
    // row cy, must measure to the nearest image of a candidate (a wrapping
    // world). Not where the spans stay clear of the seams and span at most
    // half the world less a cell along each axis: a fish's offset to any of
    // their candidates (fewer than cxLast - cxFirst + 2 cells across, 2 cells
    // up or down, whatever the rounding of the cells) is then within half
    // the world, where the nearest image is the candidate itself, and the
    // plain offset is the minimum image's, bit for bit.
    bool needsNearestImage(int cxFirst, int cxLast, int cy) const {
        const bool clearOfSeams = cxFirst >= 1 && cxLast + 1 < cols_ && cy >= 1 && cy + 1 < rows_;
        return periodic_ && !(clearOfSeams && 2 * (cxLast - cxFirst + 3) <= cols_ && 2 * 3 <= rows_);
    }

    // Crowded cells are sorted by subcolumn: a group of the kernel's sixteen
    // consecutive fish then lies in a strip of a cell or two, not anywhere in
    // them, and the reach cull (sim/reach_cull.hpp) keeps fewer candidates.
    // In article 000's formed school (step 7407, where an even spread would
    // put 11.4 fish in a cell) 182.5 candidates a fish instead of 204.4, and the
    // step took 0.968 of the time (lock-step, 1 thread; 0.974 on 2); with the
    // app's defaults 0.959-0.966 (0.982 on 2). Intel Xeon, 2026-12-03. At the
    // bench's constant density (4.7 fish a cell) subcolumns saved 4-5 % of
    // the candidates but none of the time (1.011): they stay off there.
    static constexpr int kSubcolumns = 8;
    static constexpr std::size_t kCrowdedCell = 8;

private:
    struct Layout {
        int cols = 1, rows = 1;
        float cellW = 1.0f, cellH = 1.0f;
        int subcolumnShift = 0;
    };
    // The cell size asked for, enlarged until the cells fit the budget.
    float fittedCell(float width, float height, float minCellSize) const;
    Layout layoutFor(float width, float height, float cell, std::size_t sortedFish, float rowStretch) const;
    template <typename I>
    I keyFrom(I subcolumn, I cy) const {
        return ((cy * cols_) << subcolumnShift_) + subcolumn;
    }
    static int clampCell(float g, int n) {
        if (!(g >= 0.0f)) return 0;  // also catches NaN
        return g >= static_cast<float>(n) ? n - 1 : static_cast<int>(g);
    }
    template <FloatLanes F>
    static MaskOf<F> clampCell(F g, int n) {
        using I = MaskOf<F>;
        // Lanes at or past n and NaN lanes convert to garbage that is not selected.
        const I truncated = __builtin_convertvector(g, I);
        return g >= 0.0f ? (g >= static_cast<float>(n) ? I{} + (n - 1) : truncated) : I{};
    }

    std::size_t maxCells_ = 0;
    int cols_ = 1;
    int rows_ = 1;
    float cellW_ = 1.0f;
    float cellH_ = 1.0f;
    float invCellW_ = 1.0f;
    float invCellH_ = 1.0f;
    bool periodic_ = false;
    int subcolumnShift_ = 0;  // log2 of subcolumns()
    struct {
        float width = 1.0f, height = 1.0f, cell = 1.0f;
    } fitted_;  // the world and the fitted cell size of the last configure
    static constexpr std::size_t kMaxParts = 8;              // of the counting sort
    // Fewer fish a part are not worth a thread. Two parts of 1500 fish (article
    // 000's scene on 2 threads) took the step 0.956 of the time of one part:
    // each thread counts and scatters fish its kernel chunks just wrote.
    static constexpr std::size_t kMinFishPerPart = 1024;
    std::unique_ptr<std::uint32_t[]> start_;       // cells + 1 offsets
    std::unique_ptr<std::uint32_t[]> partCursor_;  // per part and cell: count, then next slot
    // Each part's cursors a whole cache line apart from the next part's: the
    // threads count and scatter their parts at the same time.
    static std::size_t partStride(std::size_t cells) {
        constexpr std::size_t kPerLine = kCacheLine / sizeof(std::uint32_t);
        return (cells + kPerLine - 1) / kPerLine * kPerLine + kPerLine;
    }
    static constexpr std::size_t kPrefixGrain = 16384;  // cells per range of the prefix sum
    std::vector<std::uint32_t> rangeStart_;         // per range: its total, then its first slot
    std::vector<std::uint64_t> rangeSquares_;       // per range: the sum of its keys' squared counts
    double meanFishSharingKey_ = 0;
    CacheLineVector<std::uint32_t> cellOf_;  // per fish (and kLanes more)
    CacheLineVector<std::uint32_t> order_;   // fish indices sorted by cell
};


inline int UniformGrid::neighbourColumns(int cxFirst, int cxLast, int (&first)[2], int (&last)[2]) const {
    const int a = cxFirst - 1, z = cxLast + 1;
    if (!periodic_) {
        first[0] = std::max(a, 0);
        last[0] = std::min(z, cols_ - 1);
        return 1;
    }
    if (z - a + 1 >= cols_) {
        first[0] = 0;
        last[0] = cols_ - 1;
        return 1;
    }
    if (a < 0) {
        first[0] = 0, last[0] = z;
        first[1] = a + cols_, last[1] = cols_ - 1;
        return 2;
    }
    if (z >= cols_) {
        first[0] = 0, last[0] = z - cols_;
        first[1] = a, last[1] = cols_ - 1;
        return 2;
    }
    first[0] = a;
    last[0] = z;
    return 1;
}

inline int UniformGrid::neighbourRows(int cy, int (&rows)[3]) const {
    if (!periodic_) {
        int k = 0;
        for (int r = std::max(cy - 1, 0); r <= std::min(cy + 1, rows_ - 1); ++r) rows[k++] = r;
        return k;
    }
    if (rows_ <= 3) {
        for (int r = 0; r < rows_; ++r) rows[r] = r;
        return rows_;
    }
    rows[0] = (cy + rows_ - 1) % rows_;
    rows[1] = cy;
    rows[2] = (cy + 1) % rows_;
    return 3;
}

inline UniformGrid::Spans UniformGrid::neighbourSpans(int cxFirst, int cxLast, int cy) const {
    Spans s;
    if (cxFirst >= 1 && cxLast + 1 < cols_ && cy >= 1 && cy + 1 < rows_) {
        // Away from the edges (the common case), in either mode: three rows,
        // the own row in the middle.
        for (int r = 0; r < 3; ++r) {
            s.begin[r] = cellStart(cellIndex(cxFirst - 1, cy - 1 + r));
            s.end[r] = cellStart(cellIndex(cxLast + 1, cy - 1 + r) + 1);
            s.total += s.end[r] - s.begin[r];
        }
        s.count = 3;
        return s;
    }
    int colFirst[2], colLast[2], rowList[3];
    const int nc = neighbourColumns(cxFirst, cxLast, colFirst, colLast);
    const int nr = neighbourRows(cy, rowList);
    for (int r = 0; r < nr; ++r) {
        for (int c = 0; c < nc; ++c) {
            s.begin[s.count] = cellStart(cellIndex(colFirst[c], rowList[r]));
            s.end[s.count] = cellStart(cellIndex(colLast[c], rowList[r]) + 1);
            s.total += s.end[s.count] - s.begin[s.count];
            ++s.count;
        }
    }
    return s;
}

}  // namespace mirofish
