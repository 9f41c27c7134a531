#include "sim/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
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
    std::size_t nonFinite = 0, moving = 0, withNeighbour = 0;
};

// The positions in the grid's order, and each fish's slot in it: the search
// then reads each cell's fish as one contiguous run instead of jumping
// through order() to wherever they lie (at 1 000 000 fish, a cache miss a
// candidate).
struct SortedPositions {
    std::vector<float> x, y;
    std::vector<std::uint32_t> slotOf;
};

// The squared distances from `self` (at x, y) to the nearest of the sorted
// fish in slots [b, e), lane by lane, if nearer than best2: four candidates
// at a time (the sorted arrays are padded). The offset to a candidate's
// nearest image is one conditional shift, as in the kernel's scan: positions
// in a wrapping world lie in [0, size), so that is the image displacement()
// picks (it rounds d / size), without a division per candidate.
template <bool Wrap>
v4f nearestInSlots(const SortedPositions& sorted, std::uint32_t b, std::uint32_t e, std::uint32_t self, float x,
                   float y, float width, float height, v4f best2) {
    const v4i lane{0, 1, 2, 3};
    const v4f inf = v4f{} + std::numeric_limits<float>::infinity();
    for (std::uint32_t j = b; j < e; j += 4) {
        v4f cx, cy;
        std::memcpy(&cx, &sorted.x[j], sizeof cx);
        std::memcpy(&cy, &sorted.y[j], sizeof cy);
        v4f dx = cx - x, dy = cy - y;
        if constexpr (Wrap) {
            dx = dx > 0.5f * width ? dx - width : dx;
            dx = dx < -0.5f * width ? dx + width : dx;
            dy = dy > 0.5f * height ? dy - height : dy;
            dy = dy < -0.5f * height ? dy + height : dy;
        }
        const v4i slot = static_cast<std::int32_t>(j) + lane;
        const v4f d2 = (slot < static_cast<std::int32_t>(e)) & (slot != static_cast<std::int32_t>(self))
                           ? dx * dx + dy * dy
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
float nearestSearchCell(float width, float height, std::size_t fish) {
    const double area = std::max(static_cast<double>(width), 1.0) * std::max(static_cast<double>(height), 1.0);
    return static_cast<float>(std::max(2.0 * std::sqrt(area / static_cast<double>(fish)), 1.0));
}

// Distance from the fish in `slot` to the nearest other fish: the 3x3 block
// of cells around it first, then rings of cells further out until no closer
// fish can exist (in a school the block usually settles it), every cell
// searched four fish at a time.
double nearestNeighbourDistance(const UniformGrid& g, const SortedPositions& sorted, std::uint32_t slot,
                                const StepConstants& k) {
    const Vec2 self{{sorted.x[slot], sorted.y[slot]}};
    const int cx = g.cellX(self[0]);
    const int cy = g.cellY(self[1]);
    v4f nearest = v4f{} + std::numeric_limits<float>::infinity();
    const auto search = [&](std::uint32_t b, std::uint32_t e) {
        nearest = g.periodic() ? nearestInSlots<true>(sorted, b, e, slot, self[0], self[1], k.width, k.height, nearest)
                               : nearestInSlots<false>(sorted, b, e, slot, self[0], self[1], k.width, k.height, nearest);
    };
    const auto best2 = [&] { return std::min(std::min(nearest[0], nearest[1]), std::min(nearest[2], nearest[3])); };
    const UniformGrid::Spans block = g.neighbourSpans(cx, cy);
    for (int s = 0; s < block.count; ++s) search(block.begin[s], block.end[s]);
    const float minCell = std::min(g.cellWidth(), g.cellHeight());
    const int maxRing = g.periodic() ? std::max(g.cols(), g.rows()) / 2 + 1 : std::max(g.cols(), g.rows());
    for (int ring = 2; ring <= maxRing; ++ring) {
        // Anything in ring r or beyond is at least r - 1 cells away.
        const float reach = static_cast<float>(ring - 1) * minCell;
        if (reach * reach > best2()) break;
        for (int dy = -ring; dy <= ring; ++dy) {
            for (int dx = -ring; dx <= ring; ++dx) {
                if (std::max(std::abs(dx), std::abs(dy)) != ring) continue;
                int x = cx + dx, y = cy + dy;
                if (g.periodic()) {
                    // Rings wider than the world revisit cells; harmless for a minimum.
                    x = ((x % g.cols()) + g.cols()) % g.cols();
                    y = ((y % g.rows()) + g.rows()) % g.rows();
                } else if (x < 0 || y < 0 || x >= g.cols() || y >= g.rows()) {
                    continue;
                }
                const int c = g.cellIndex(x, y);
                search(g.cellStart(c), g.cellStart(c + 1));
            }
        }
    }
    const float best = best2();
    return std::isfinite(best) ? std::sqrt(static_cast<double>(best)) : -1.0;
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

    UniformGrid grid;
    grid.reserve(n);
    grid.configure(k.width, k.height, nearestSearchCell(k.width, k.height, n), k.boundary == BoundaryMode::Wrap);
    grid.build(f.px.data(), f.py.data(), n, sim.scheduler());
    // Padded for the search's groups of four (nearestInSlots).
    SortedPositions sorted{std::vector<float>(n + 4), std::vector<float>(n + 4), std::vector<std::uint32_t>(n)};
    sim.scheduler().parallelFor(n, 8192, [&](std::size_t b, std::size_t e) {
        for (std::size_t s = b; s < e; ++s) {
            const std::uint32_t i = grid.order()[s];
            sorted.x[s] = f.px[i];
            sorted.y[s] = f.py[i];
            sorted.slotOf[i] = static_cast<std::uint32_t>(s);
        }
    });

    constexpr std::size_t kChunk = Simulation::kChunk;
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
            const double nn = n > 1 ? nearestNeighbourDistance(grid, sorted, sorted.slotOf[i], k) : -1.0;
            if (nn >= 0.0) {
                p.nn += nn;
                ++p.withNeighbour;
            }
        }
    });
    Partial t;
    for (const Partial& p : parts) {
        t.speed += p.speed, t.ux += p.ux, t.uy += p.uy, t.cx += p.cx, t.cy += p.cy, t.nn += p.nn;
        t.nonFinite += p.nonFinite, t.moving += p.moving, t.withNeighbour += p.withNeighbour;
    }
    const double dn = static_cast<double>(n);
    m.nonFinite = t.nonFinite;
    m.meanSpeed = t.speed / dn;
    m.polarisation = std::hypot(t.ux, t.uy) / dn;
    m.meanNearestNeighbour = t.withNeighbour > 0 ? t.nn / static_cast<double>(t.withNeighbour) : 0.0;

    // Second pass: normalised angular momentum about the centroid.
    const double cx = t.cx / dn, cy = t.cy / dn;
    std::vector<double> spin(parts.size(), 0.0);
    sim.scheduler().parallelFor(n, kChunk, [&](std::size_t b, std::size_t e) {
        double s = 0.0;
        for (std::size_t i = b; i < e; ++i) {
            const double rx = f.px[i] - cx, ry = f.py[i] - cy;
            const double r = lengthOf(rx, ry), v = lengthOf(f.vx[i], f.vy[i]);
            if (r > 1e-9 && v > 1e-9) s += (rx * f.vy[i] - ry * f.vx[i]) / (r * v);
        }
        spin[b / kChunk] = s;
    });
    double totalSpin = 0.0;
    for (double s : spin) totalSpin += s;
    m.milling = std::fabs(totalSpin) / dn;
    return m;
}

}  // namespace mirofish
