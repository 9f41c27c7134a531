#include "sim/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

namespace mirofish {

namespace {

// The length of a vector whose components lie within float's range (fish
// velocities, offsets between positions), in double: their squares cannot
// overflow a double, so std::hypot's scaling (a fifth of the whole
// computation's time at 200 000 fish) buys nothing.
double lengthOf(double x, double y) { return std::sqrt(x * x + y * y); }

struct Partial {
    double speed = 0, ux = 0, uy = 0, cx = 0, cy = 0, nn = 0;
    // A wrapping world's centroid: each axis as an angle round its circle.
    double cosX = 0, sinX = 0, cosY = 0, sinY = 0;
    std::size_t nonFinite = 0, moving = 0, withNeighbour = 0;
};

// The fish sorted into the cells of one grid: their positions in the grid's
// order, and each fish's slot in it. The search then reads each cell's fish
// as one contiguous run instead of jumping through order() to wherever they
// lie (at 1 000 000 fish, a cache miss a candidate).
struct SearchGrid {
    UniformGrid grid;
    std::vector<float> x, y;  // padded for the search's groups of four (nearestInSlots)
    std::vector<std::uint32_t> slotOf;
};

// The squared length of the offset (dx, dy) to a candidate, or, where the
// world wraps, to its nearest image: one conditional shift, as in the
// kernel's scan. Positions in a wrapping world lie in [0, size), so that is
// the image displacement() picks (it rounds d / size), without a division
// per candidate.
template <bool Wrap>
v4f squaredOffset(v4f dx, v4f dy, float width, float height) {
    if constexpr (Wrap) {
        dx = dx > 0.5f * width ? dx - width : dx;
        dx = dx < -0.5f * width ? dx + width : dx;
        dy = dy > 0.5f * height ? dy - height : dy;
        dy = dy < -0.5f * height ? dy + height : dy;
    }
    return dx * dx + dy * dy;
}

// The squared distances from `self` (at x, y) to the nearest of the sorted
// fish in slots [b, e), lane by lane, if nearer than best2: four candidates
// at a time (the sorted arrays are padded).
template <bool Wrap>
v4f nearestInSlots(const SearchGrid& sorted, std::uint32_t b, std::uint32_t e, std::uint32_t self, float x,
                   float y, float width, float height, v4f best2) {
    const v4i lane{0, 1, 2, 3};
    const v4f inf = v4f{} + std::numeric_limits<float>::infinity();
    for (std::uint32_t j = b; j < e; j += 4) {
        v4f cx, cy;
        std::memcpy(&cx, &sorted.x[j], sizeof cx);
        std::memcpy(&cy, &sorted.y[j], sizeof cy);
        const v4i slot = static_cast<std::int32_t>(j) + lane;
        const v4f d2 = ((slot < static_cast<std::int32_t>(e)) & (slot != static_cast<std::int32_t>(self)))
                           ? squaredOffset<Wrap>(cx - x, cy - y, width, height)
                           : inf;
        best2 = d2 < best2 ? d2 : best2;
    }
    return best2;
}

// The cells of the nearest-neighbour search: about four fish per cell where
// the fish were spread evenly, whatever the perception radius. Cells as wide
// as the perception radius held a whole school: 200 000 fish in the editor's
// 1280x720 world with perception 80 px put some 1 400 fish in a cell, and
// one computation took 1.4 s; with perception 2000 px every fish shared one
// cell and the search compared all pairs. (One fish per cell made the
// counting sort's cells outnumber the fish and took 1.2 times as long at
// constant density, 1 000 000 fish; four take 0.8-0.9 times the
// perception-wide cells' time there, 0.55-0.6 in article 000's school.)
float evenSpreadCell(float width, float height, std::size_t fish) {
    const double area = std::max(static_cast<double>(width), 1.0) * std::max(static_cast<double>(height), 1.0);
    return static_cast<float>(std::max(2.0 * std::sqrt(area / static_cast<double>(fish)), 1.0));
}

// Sorts the fish into cells of the given size (the grid reserved for them).
void sortInto(SearchGrid& s, const FishArrays& f, std::size_t n, float cell, const StepConstants& k,
              Scheduler& scheduler) {
    s.grid.configure(k.width, k.height, cell, k.boundary == BoundaryMode::Wrap);
    s.grid.build(f.px.data(), f.py.data(), n, scheduler);
    s.x.resize(n + 4);
    s.y.resize(n + 4);
    s.slotOf.resize(n);
    scheduler.parallelFor(n, 8192, [&](std::size_t b, std::size_t e) {
        for (std::size_t slot = b; slot < e; ++slot) {
            const std::uint32_t i = s.grid.order()[slot];
            s.x[slot] = f.px[i];
            s.y[slot] = f.py[i];
            s.slotOf[i] = static_cast<std::uint32_t>(slot);
        }
    });
}

// How many fish share a fish's cell, itself included, on average over the
// fish: what one 3x3 block costs the search, about nine times this. Fish
// spread at random at four a cell give 5.
double meanCellmates(const UniformGrid& g, std::size_t n) {
    double sum = 0;
    const int cells = g.cols() * g.rows();
    for (int c = 0; c < cells; ++c) {
        const double count = g.cellStart(c + 1) - g.cellStart(c);
        sum += count * count;
    }
    return sum / static_cast<double>(n);
}

// A school packed far denser than an even spread (the app's defaults pack
// 3000 fish into a ball with 300-900 neighbours each) fills the even
// spread's cells with dozens of fish (180 cellmates at step 1709): one
// computation took 1.3-2.0 ms there on 1 thread, more than a step's 1.1-1.4
// ms, four times a second in the app. A second grid's smaller cells, for
// about four fish a cell where the fish are, cut it to 0.36-0.52 ms (Intel
// Xeon, 2026-12-03), with the same distances. n fish at density d in cells
// of side c put 1 + d c^2 in a fish's cell, which gives d from the even
// spread's count. (The grid's budget of cells, four per fish, keeps those
// cells 15 px wide in a 1920x1080 world, with 19 cellmates.)
// Beyond this many cellmates the search is worth the second grid.
constexpr double kCrowdedCellmates = 16;

float crowdedCell(float evenCell, double cellmates) {
    return evenCell * static_cast<float>(std::sqrt(4.0 / (cellmates - 1.0)));
}

// Whether ring `ring` around cell `centre` of an axis of `cells` cells holds
// cells not seen in a smaller ring along that axis: within the grid, or,
// where it wraps, no further than half way round.
bool ringReaches(int centre, int ring, int cells, bool periodic) {
    if (periodic) return 2 * ring <= cells;
    return centre - ring >= 0 || centre + ring < cells;
}

// The cells [first, last] of an axis around `centre` that a ring's side
// spans (`reach` either way): clamped to the grid, or, where it wraps, at
// most once round it (wrapped where used).
std::pair<int, int> sideSpan(int centre, int reach, int cells, bool periodic) {
    if (periodic) return {centre - reach, centre - reach + std::min(2 * reach + 1, cells) - 1};
    return {std::max(centre - reach, 0), std::min(centre + reach, cells - 1)};
}

int wrapped(int cell, int cells) { return ((cell % cells) + cells) % cells; }

// The squared distance from the fish in `slot` to the nearest other fish:
// the 3x3 block of cells around it first, then rings of cells further out
// (ring r: the cells r cells across from its own) until no closer fish can
// exist, every cell searched four fish at a time. Infinite where it found no
// other fish. For the fish whose block does not settle it (settleInBlocks).
// A ring visits only its sides that lie in the grid (or once round a
// wrapping one), and its distance bound counts only the axes it still
// reaches along: in a world one cell high and thousands wide, a ring is two
// cells, r - 1 cells wide away.
float nearestSquared(const SearchGrid& s, std::uint32_t slot, const StepConstants& k) {
    const UniformGrid& g = s.grid;
    const Vec2 self{{s.x[slot], s.y[slot]}};
    const int cx = g.cellX(self[0]);
    const int cy = g.cellY(self[1]);
    v4f nearest = v4f{} + std::numeric_limits<float>::infinity();
    const auto search = [&](std::uint32_t b, std::uint32_t e) {
        nearest = g.periodic() ? nearestInSlots<true>(s, b, e, slot, self[0], self[1], k.width, k.height, nearest)
                               : nearestInSlots<false>(s, b, e, slot, self[0], self[1], k.width, k.height, nearest);
    };
    const auto searchCell = [&](int x, int y) {
        const int c = g.cellIndex(wrapped(x, g.cols()), wrapped(y, g.rows()));
        search(g.cellStart(c), g.cellStart(c + 1));
    };
    const auto best2 = [&] { return std::min(std::min(nearest[0], nearest[1]), std::min(nearest[2], nearest[3])); };
    const UniformGrid::Spans block = g.neighbourSpans(cx, cy);
    for (int b = 0; b < block.count; ++b) search(block.begin[b], block.end[b]);
    const auto inGrid = [&](int cell, int cells) { return g.periodic() || (cell >= 0 && cell < cells); };
    for (int ring = 2;; ++ring) {
        const bool columns = ringReaches(cx, ring, g.cols(), g.periodic());
        const bool rows = ringReaches(cy, ring, g.rows(), g.periodic());
        if (!columns && !rows) break;  // every cell has been searched
        // Anything in ring r or beyond is at least r - 1 cells away along an axis it still reaches.
        const float cell = columns && rows ? std::min(g.cellWidth(), g.cellHeight()) : columns ? g.cellWidth() : g.cellHeight();
        const float reach = static_cast<float>(ring - 1) * cell;
        if (reach * reach >= best2()) break;
        if (columns) {
            const auto [y0, y1] = sideSpan(cy, ring, g.rows(), g.periodic());
            for (const int x : {cx - ring, cx + ring})
                if (inGrid(x, g.cols()))
                    for (int y = y0; y <= y1; ++y) searchCell(x, y);
        }
        if (rows) {
            const auto [x0, x1] = sideSpan(cx, ring - 1, g.cols(), g.periodic());
            for (const int y : {cy - ring, cy + ring})
                if (inGrid(y, g.rows()))
                    for (int x = x0; x <= x1; ++x) searchCell(x, y);
        }
    }
    return best2();
}

// For every fish of cells [cb, ce) of s's grid, into best2[slot]: the
// squared distance to the nearest other fish of its cell's block where
// nothing beyond the block can be nearer (what nearestSquared finds),
// otherwise infinite. A cell's fish share their block, so four of them at a
// time go against each of its candidates, lanes over fish: the same
// distances as nearestInSlots computes (squaredOffset), and the minimum of
// the same set.
// Fish by fish (nearestSquared), each walked its block alone and then
// reduced its lanes: one computation took 1.25-1.45 times as long at the
// bench's constant density (200 000 and 1 000 000 fish) and in article
// 000's school, and about as long in the app's defaults' packed ball (best
// of 8-100 computations, alternating; Intel Xeon, 2026-12-03).
template <bool Wrap>
void settleInBlocks(const SearchGrid& s, std::size_t cb, std::size_t ce, const StepConstants& k, float* best2) {
    const UniformGrid& g = s.grid;
    const v4i lane{0, 1, 2, 3};
    const v4f inf = v4f{} + std::numeric_limits<float>::infinity();
    const float minCell = std::min(g.cellWidth(), g.cellHeight());
    // Nothing beyond the block (ring 2 on) lies nearer than a cell.
    const float settled = minCell * minCell;
    for (std::size_t c = cb; c < ce; ++c) {
        const std::uint32_t b = g.cellStart(static_cast<int>(c)), e = g.cellStart(static_cast<int>(c) + 1);
        if (b == e) continue;
        const int cx = static_cast<int>(c) % g.cols(), cy = static_cast<int>(c) / g.cols();
        const UniformGrid::Spans block = g.neighbourSpans(cx, cy);
        for (std::uint32_t f = b; f < e; f += 4) {
            v4f x, y;
            std::memcpy(&x, &s.x[f], sizeof x);  // the arrays are padded
            std::memcpy(&y, &s.y[f], sizeof y);
            const v4i self = static_cast<std::int32_t>(f) + lane;
            v4f best = inf;
            for (int r = 0; r < block.count; ++r)
                for (std::uint32_t j = block.begin[r]; j < block.end[r]; ++j) {
                    const v4f d2 = self != static_cast<std::int32_t>(j)
                                       ? squaredOffset<Wrap>(s.x[j] - x, s.y[j] - y, k.width, k.height)
                                       : inf;
                    best = d2 < best ? d2 : best;
                }
            for (std::uint32_t l = 0; l < 4 && f + l < e; ++l) best2[f + l] = settled >= best[l] ? best[l] : inf[l];
        }
    }
}

}  // namespace

Metrics computeMetrics(const Simulation& sim) {
    const FishArrays& f = sim.fish();
    const std::size_t n = sim.fishCount();
    const StepConstants k = sim.stepConstants();
    Metrics m;
    m.fish = n;
    m.meanNeighbours = sim.lastMeanNeighbours();
    m.meanCandidates = sim.lastMeanCandidates();
    const auto forces = sim.ruleForces().mean();
    m.forceSeparation = forces[0];
    m.forceAlignment = forces[1];
    m.forceCohesion = forces[2];
    if (n == 0) return m;

    SearchGrid even, crowded;
    const float evenCell = evenSpreadCell(k.width, k.height, n);
    even.grid.reserve(n);
    sortInto(even, f, n, evenCell, k, sim.scheduler());
    const double cellmates = meanCellmates(even.grid, n);
    const bool isCrowded = cellmates > kCrowdedCellmates;
    if (isCrowded) {
        crowded.grid.reserve(n);
        sortInto(crowded, f, n, crowdedCell(evenCell, cellmates), k, sim.scheduler());
    }

    // Each fish's distance to the nearest other fish: in its block of the
    // first grid (the crowded grid's small cells where there is one, else the
    // even spread's) where that settles it; otherwise in the even spread's
    // grid, as far out as it takes (nearestSquared). Both compute every
    // distance alike, so the result does not depend on which grid found it.
    // (In the app's defaults' school about 130 of the 3000 fish, at its edge,
    // are left to the even spread's grid; searching two rings of small cells
    // around the block before that took as long.)
    const SearchGrid& first = isCrowded ? crowded : even;
    std::vector<float> blockBest2(n);
    const auto cells = static_cast<std::size_t>(first.grid.cols()) * static_cast<std::size_t>(first.grid.rows());
    sim.scheduler().parallelFor(cells, 1024, [&](std::size_t cb, std::size_t ce) {
        if (first.grid.periodic())
            settleInBlocks<true>(first, cb, ce, k, blockBest2.data());
        else
            settleInBlocks<false>(first, cb, ce, k, blockBest2.data());
    });
    const auto nearestNeighbourDistance = [&](std::size_t i) {
        float best2 = blockBest2[first.slotOf[i]];
        if (std::isinf(best2)) best2 = nearestSquared(even, even.slotOf[i], k);
        return std::isfinite(best2) ? std::sqrt(static_cast<double>(best2)) : -1.0;
    };

    constexpr std::size_t kChunk = Simulation::kChunk;
    constexpr double kTurn = 2.0 * std::numbers::pi;
    const bool wrap = k.boundary == BoundaryMode::Wrap;
    std::vector<Partial> parts(chunkCount(n, kChunk));
    // First pass: speeds, headings, centroid, nearest neighbours, NaN scan.
    sim.scheduler().parallelFor(n, kChunk, [&](std::size_t b, std::size_t e) {
        Partial& p = parts[b / kChunk];
        for (std::size_t i = b; i < e; ++i) {
            for (float v : {f.px[i], f.py[i], f.vx[i], f.vy[i]})
                if (!std::isfinite(v)) ++p.nonFinite;
            const double speed = lengthOf(f.vx[i], f.vy[i]);
            p.speed += speed;
            if (speed > 1e-9) {
                p.ux += f.vx[i] / speed;
                p.uy += f.vy[i] / speed;
                ++p.moving;
            }
            p.cx += f.px[i];
            p.cy += f.py[i];
            if (wrap) {
                const double ax = kTurn * f.px[i] / k.width, ay = kTurn * f.py[i] / k.height;
                p.cosX += std::cos(ax), p.sinX += std::sin(ax), p.cosY += std::cos(ay), p.sinY += std::sin(ay);
            }
            const double nn = n > 1 ? nearestNeighbourDistance(i) : -1.0;
            if (nn >= 0.0) {
                p.nn += nn;
                ++p.withNeighbour;
            }
        }
    });
    Partial t;
    for (const Partial& p : parts) {
        t.speed += p.speed, t.ux += p.ux, t.uy += p.uy, t.cx += p.cx, t.cy += p.cy, t.nn += p.nn;
        t.cosX += p.cosX, t.sinX += p.sinX, t.cosY += p.cosY, t.sinY += p.sinY;
        t.nonFinite += p.nonFinite, t.moving += p.moving, t.withNeighbour += p.withNeighbour;
    }
    const double dn = static_cast<double>(n);
    m.nonFinite = t.nonFinite;
    m.meanSpeed = t.speed / dn;
    // A sum of n unit vectors can round past n: a lone fish read 1.0000000000000002.
    m.polarisation = std::min(std::hypot(t.ux, t.uy) / dn, 1.0);
    m.meanNearestNeighbour = t.withNeighbour > 0 ? t.nn / static_cast<double>(t.withNeighbour) : 0.0;

    // Second pass: normalised angular momentum about the centroid. In a
    // wrapping world the centroid is the circular mean of each axis and a
    // fish's offset from it the shortest way round: a parallel school across
    // the seam, averaged plainly, had its centre a world away and read as
    // milling 0.5.
    const auto circularMean = [](double c, double s, double side) {
        return std::fmod(side * std::atan2(s, c) / kTurn + side, side);
    };
    const double cx = wrap ? circularMean(t.cosX, t.sinX, k.width) : t.cx / dn;
    const double cy = wrap ? circularMean(t.cosY, t.sinY, k.height) : t.cy / dn;
    const auto offset = [wrap](double d, double side) { return wrap ? d - side * std::round(d / side) : d; };
    std::vector<double> spin(parts.size(), 0.0);
    sim.scheduler().parallelFor(n, kChunk, [&](std::size_t b, std::size_t e) {
        double s = 0.0;
        for (std::size_t i = b; i < e; ++i) {
            const double rx = offset(f.px[i] - cx, k.width), ry = offset(f.py[i] - cy, k.height);
            const double r = lengthOf(rx, ry), v = lengthOf(f.vx[i], f.vy[i]);
            if (r > 1e-9 && v > 1e-9) s += (rx * f.vy[i] - ry * f.vx[i]) / (r * v);
        }
        spin[b / kChunk] = s;
    });
    double totalSpin = 0.0;
    for (double s : spin) totalSpin += s;
    m.milling = std::min(std::fabs(totalSpin) / dn, 1.0);
    return m;
}

}  // namespace mirofish
