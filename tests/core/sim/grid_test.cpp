// The uniform grid: enumerating the 3x3 cells around a fish and filtering by
// distance must give exactly the neighbour set an all-pairs search gives.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "sched/thread_pool.hpp"
#include "sim/grid.hpp"
#include "sim/row_stretch.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;

namespace {

struct Layout {
    std::vector<float> px, py, radius;
};

float minImage(float d, float size, bool periodic) {
    return periodic ? d - size * std::nearbyint(d / size) : d;
}

bool within(const Layout& l, std::size_t i, std::size_t j, float w, float h, bool periodic) {
    const float dx = minImage(l.px[j] - l.px[i], w, periodic);
    const float dy = minImage(l.py[j] - l.py[i], h, periodic);
    return dx * dx + dy * dy < l.radius[i] * l.radius[i];
}

// What the kernel examines for fish i: the column runs of neighbourColumns
// in each row of neighbourRows, each run a contiguous span of the order.
std::vector<std::uint32_t> gridCandidates(const UniformGrid& g, float x, float y) {
    int first[2], last[2], rows[3];
    const int cx = g.cellX(x);
    const int nc = g.neighbourColumns(cx, cx, first, last);
    const int nr = g.neighbourRows(g.cellY(y), rows);
    std::vector<std::uint32_t> out;
    for (int r = 0; r < nr; ++r)
        for (int c = 0; c < nc; ++c)
            for (std::uint32_t s = g.cellStart(g.cellIndex(first[c], rows[r]));
                 s < g.cellStart(g.cellIndex(last[c], rows[r]) + 1); ++s)
                out.push_back(g.order()[s]);
    return out;
}

// The sorted slots the spans list, in their order.
std::vector<std::uint32_t> slotsOf(const UniformGrid::Spans& spans) {
    std::vector<std::uint32_t> out;
    for (int k = 0; k < spans.count; ++k)
        for (std::uint32_t s = spans.begin[k]; s < spans.end[k]; ++s) out.push_back(s);
    return out;
}

// The same, through neighbourSpans: the spans the kernel actually scans.
std::vector<std::uint32_t> spanCandidates(const UniformGrid& g, float x, float y) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t s : slotsOf(g.neighbourSpans(g.cellX(x), g.cellY(y)))) out.push_back(g.order()[s]);
    return out;
}

struct Comparison {
    std::size_t missing = 0, extra = 0, duplicates = 0, pairs = 0, spanMismatch = 0, selfNotOnce = 0,
                wrongTotal = 0;
};

Comparison compareWithAllPairs(const Layout& l, float w, float h, float cell, bool periodic, float rowStretch = 1.0f) {
    const std::size_t n = l.px.size();
    UniformGrid g;
    g.reserve(n);
    g.configure(w, h, cell, periodic, 0, rowStretch);
    g.build(l.px.data(), l.py.data(), n);
    Comparison c;
    for (std::size_t i = 0; i < n; ++i) {
        const auto cand = gridCandidates(g, l.px[i], l.py[i]);
        auto viaSpans = spanCandidates(g, l.px[i], l.py[i]);
        auto sortedCand = cand;
        std::sort(sortedCand.begin(), sortedCand.end());
        std::sort(viaSpans.begin(), viaSpans.end());
        c.spanMismatch += sortedCand != viaSpans;
        // The kernel takes the fish itself out of its sums once, and counts
        // the candidates by total.
        const UniformGrid::Spans spans = g.neighbourSpans(g.cellX(l.px[i]), g.cellY(l.py[i]));
        const auto slot = static_cast<std::uint32_t>(std::find(g.order(), g.order() + n, i) - g.order());
        int holdingSelf = 0;
        for (int s = 0; s < spans.count; ++s) holdingSelf += spans.begin[s] <= slot && slot < spans.end[s];
        c.selfNotOnce += holdingSelf != 1;
        c.wrongTotal += spans.total != cand.size();
        const std::set<std::uint32_t> unique(cand.begin(), cand.end());
        c.duplicates += cand.size() - unique.size();
        std::set<std::uint32_t> viaGrid, allPairs;
        for (std::uint32_t j : unique)
            if (j != i && within(l, i, j, w, h, periodic)) viaGrid.insert(j);
        for (std::size_t j = 0; j < n; ++j)
            if (j != i && within(l, i, j, w, h, periodic)) allPairs.insert(static_cast<std::uint32_t>(j));
        c.pairs += allPairs.size();
        for (std::uint32_t j : allPairs) c.missing += viaGrid.count(j) == 0;
        for (std::uint32_t j : viaGrid) c.extra += allPairs.count(j) == 0;
    }
    return c;
}

// Random fish, fish exactly on every cell border and on the world edges,
// each with its own perception radius R * (1 + variation * draw).
Layout awkwardLayout(std::size_t n, float w, float h, float r, float variation, bool periodic, bool outside,
                     unsigned seed, float rowStretch = 1.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> ux(0, w), uy(0, h), draw(-1, 1);
    Layout l;
    auto add = [&](float x, float y) {
        l.px.push_back(x);
        l.py.push_back(y);
        l.radius.push_back(r * (1.0f + variation * draw(rng)));
    };
    UniformGrid probe;
    probe.reserve(n);
    probe.configure(w, h, r * (1.0f + variation), periodic, 0, rowStretch);
    const float xMax = periodic ? std::nextafter(w, 0.0f) : w;
    const float yMax = periodic ? std::nextafter(h, 0.0f) : h;
    for (int c = 0; c <= probe.cols(); ++c)
        for (int k = 0; k < 3; ++k) add(std::min(static_cast<float>(c) * probe.cellWidth(), xMax), uy(rng));
    for (int c = 0; c <= probe.rows(); ++c)
        for (int k = 0; k < 3; ++k) add(ux(rng), std::min(static_cast<float>(c) * probe.cellHeight(), yMax));
    add(0, 0), add(xMax, 0), add(0, yMax), add(xMax, yMax), add(0.5f, h / 2), add(xMax - 0.5f, h / 2);
    if (outside) add(-25.0f, h / 2), add(w + 30.0f, h / 3), add(w / 2, -10.0f), add(w / 3, h + 40.0f), add(-5, -5);
    while (l.px.size() < n) add(ux(rng), uy(rng));
    return l;
}

}  // namespace

TEST_CASE("the grid finds exactly the neighbours an all-pairs search finds") {
    struct World {
        float w, h, r;
    };
    const World world = GENERATE(World{640, 360, 40}, World{1000, 700, 75}, World{100, 90, 40}, World{130, 130, 40},
                                 World{50, 40, 80}, World{2000, 100, 30});
    const bool periodic = GENERATE(true, false);
    const float variation = GENERATE(0.0f, 0.15f, 0.5f);
    // Rows as tall as the cells are wide, or taller (sim/row_stretch.hpp).
    const float rowStretch = GENERATE(1.0f, 1.5f, kMaxRowStretch);
    INFO("world " << world.w << "x" << world.h << ", radius " << world.r << ", variation " << variation
                  << (periodic ? ", wrapping" : ", walled") << ", rows stretched " << rowStretch);
    const Layout l = awkwardLayout(400, world.w, world.h, world.r, variation, periodic, !periodic, 3, rowStretch);
    // The cell must cover the largest radius: R * (1 + variation).
    const Comparison c =
        compareWithAllPairs(l, world.w, world.h, world.r * (1.0f + variation), periodic, rowStretch);
    INFO(c.pairs << " neighbour pairs");
    CHECK(c.pairs > 0);
    CHECK(c.missing == 0);
    CHECK(c.extra == 0);
    CHECK(c.duplicates == 0);  // a fish examined twice would count twice in the sums
    CHECK(c.spanMismatch == 0);  // the kernel's spans hold the same candidates
    CHECK(c.selfNotOnce == 0);  // else a fish would perceive itself, or take itself out twice
    CHECK(c.wrongTotal == 0);
}

TEST_CASE("the spans around a run of cells hold every fish of their blocks once, each block in its own order") {
    // The kernel scans eight fish against the spans of their cells' range
    // (sim/neighbour_scan.hpp): missing a fish of any block would lose a
    // neighbour, a fish twice would count twice, and a block's fish met in
    // another order would make a fish's sums depend on its lane-mates.
    struct World {
        float w, h, cell;
    };
    const World world = GENERATE(World{800, 600, 45}, World{130, 130, 40}, World{2000, 100, 30});
    const bool periodic = GENERATE(true, false);
    const float rowStretch = GENERATE(1.0f, 2.0f);
    INFO("world " << world.w << "x" << world.h << (periodic ? ", wrapping" : ", walled") << ", rows stretched "
                  << rowStretch);
    const Layout l = awkwardLayout(600, world.w, world.h, world.cell, 0.0f, periodic, !periodic, 5, rowStretch);
    UniformGrid g;
    g.reserve(l.px.size());
    g.configure(world.w, world.h, world.cell, periodic, 0, rowStretch);
    g.build(l.px.data(), l.py.data(), l.px.size());
    std::size_t ranges = 0, wrong = 0;
    for (int cy = 0; cy < g.rows(); ++cy) {
        for (int cx = 0; cx < g.cols(); ++cx) {
            for (int width = 1; width <= 5 && cx + width <= g.cols(); ++width) {
                const UniformGrid::Spans run = g.neighbourSpans(cx, cx + width - 1, cy);
                const std::vector<std::uint32_t> scanned = slotsOf(run);
                std::set<std::uint32_t> expected;
                bool inOrder = true;
                for (int c = cx; c < cx + width; ++c) {
                    const std::vector<std::uint32_t> block = slotsOf(g.neighbourSpans(c, cy));
                    expected.insert(block.begin(), block.end());
                    const std::set<std::uint32_t> inBlock(block.begin(), block.end());
                    std::vector<std::uint32_t> met;
                    for (std::uint32_t s : scanned)
                        if (inBlock.count(s)) met.push_back(s);
                    inOrder = inOrder && met == block;
                }
                const std::set<std::uint32_t> unique(scanned.begin(), scanned.end());
                wrong += !(unique.size() == scanned.size() && unique == expected && inOrder &&
                           run.total == scanned.size());
                ++ranges;
            }
        }
    }
    INFO(ranges << " ranges of 1 to 5 cells");
    CHECK(ranges > 0);
    CHECK(wrong == 0);
}

TEST_CASE("a grid whose cells are smaller than the largest perception radius misses neighbours") {
    // The control for the test above: fish i in column 2 sees up to 1.15 R,
    // fish j sits 1.06 R away in column 0, outside the 3x3 block of cells of
    // size R. Sizing cells by the base radius alone would lose j.
    const float r = 50.0f;
    Layout l;
    l.px = {2 * r + 0.5f, 0.95f * r - 0.5f};
    l.py = {100.0f, 100.0f};
    l.radius = {1.15f * r, 0.85f * r};
    const Comparison tooSmall = compareWithAllPairs(l, 10 * r, 4 * r, r, false);
    CHECK(tooSmall.missing == 1);
    const Comparison right = compareWithAllPairs(l, 10 * r, 4 * r, 1.15f * r, false);
    CHECK(right.missing == 0);
}

TEST_CASE("the grid's counting sort lists every fish once, cell by cell, stable within a cell") {
    const bool periodic = GENERATE(true, false);
    // A few hundred cells, and 41 500: more than one range of the prefix sum;
    // and crowded cells (70 of them, 70 fish each), sorted by subcolumn.
    struct World {
        std::size_t fish;
        float width, height, cell;
    };
    const World w = GENERATE(World{1000, 800, 600, 45}, World{20000, 3000, 2000, 12}, World{5000, 400, 300, 40});
    const Layout l = awkwardLayout(w.fish, w.width, w.height, w.cell, 0.0f, periodic, !periodic, 9);
    const std::size_t n = l.px.size();
    UniformGrid g;
    g.reserve(n);
    g.configure(w.width, w.height, w.cell, periodic, n);
    const bool crowded = n >= UniformGrid::kCrowdedCell * static_cast<std::size_t>(g.cols() * g.rows());
    REQUIRE(g.subcolumns() == (crowded ? UniformGrid::kSubcolumns : 1));
    ThreadPool pool(2);
    g.build(l.px.data(), l.py.data(), n, pool);

    // The subcolumn of a position within its cell: eighths of the cell's
    // width from the west (the grid's arithmetic: a product with the
    // reciprocal width), clamped like the cells to the world.
    const auto subcolumn = [&](float x) {
        if (!crowded) return 0;
        const float fine = std::clamp(std::floor(x * (1.0f / g.cellWidth()) * UniformGrid::kSubcolumns), 0.0f,
                                      static_cast<float>(g.cols() * UniformGrid::kSubcolumns - 1));
        return static_cast<int>(fine) - g.cellX(x) * UniformGrid::kSubcolumns;
    };
    const int cells = g.cols() * g.rows();
    REQUIRE(g.cellStart(0) == 0);
    REQUIRE(g.cellStart(cells) == n);
    std::vector<int> seen(n, 0);
    for (int c = 0; c < cells; ++c) {
        REQUIRE(g.cellStart(c) <= g.cellStart(c + 1));
        for (std::uint32_t s = g.cellStart(c); s < g.cellStart(c + 1); ++s) {
            const std::uint32_t i = g.order()[s];
            ++seen[i];
            REQUIRE(g.cellIndex(g.cellX(l.px[i]), g.cellY(l.py[i])) == c);
            REQUIRE(subcolumn(l.px[i]) >= 0);
            REQUIRE(subcolumn(l.px[i]) < g.subcolumns());
            if (s > g.cellStart(c)) {
                const std::uint32_t before = g.order()[s - 1];
                const int a = subcolumn(l.px[before]), b = subcolumn(l.px[i]);
                REQUIRE((a < b || (a == b && before < i)));
            }
        }
    }
    REQUIRE(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }));
}

TEST_CASE("where the grid says a wrapping world's scan needs no nearest image, every offset is already the nearest") {
    // The kernel scans such runs with plain offsets (sim/fish_kernel_body.hpp):
    // its result is that of the minimum image, bit for bit, only if the scan's
    // own shift test (sim/neighbour_scan.hpp perceive) would shift nothing.
    // Fish on every cell border and a float step below the world's far edges
    // (awkwardLayout), in worlds from three cells across to many.
    struct World {
        float w, h, cell;
    };
    const World world = GENERATE(World{800, 600, 45}, World{130, 130, 40}, World{2000, 100, 30}, World{270, 270, 45},
                                 World{300, 170, 30});
    const float rowStretch = GENERATE(1.0f, 2.0f);
    INFO("world " << world.w << "x" << world.h << ", rows stretched " << rowStretch);
    const Layout l = awkwardLayout(900, world.w, world.h, world.cell, 0.0f, true, false, 7, rowStretch);
    UniformGrid g;
    g.reserve(l.px.size());
    g.configure(world.w, world.h, world.cell, true, 0, rowStretch);
    g.build(l.px.data(), l.py.data(), l.px.size());
    const auto shifted = [](float d, float size) { return d > 0.5f * size || d < -0.5f * size; };
    std::size_t plain = 0, images = 0, wrong = 0, nearSeam = 0;
    for (int cy = 0; cy < g.rows(); ++cy) {
        for (int cx = 0; cx < g.cols(); ++cx) {
            for (int width = 1; width <= 2 * kRunColumns && cx + width <= g.cols(); ++width) {
                const int last = cx + width - 1;
                bool anyShift = false;
                const std::vector<std::uint32_t> candidates = slotsOf(g.neighbourSpans(cx, last, cy));
                for (std::uint32_t s = g.cellStart(g.cellIndex(cx, cy)); s < g.cellStart(g.cellIndex(last, cy) + 1); ++s) {
                    const std::uint32_t i = g.order()[s];
                    for (std::uint32_t c : candidates) {
                        const std::uint32_t j = g.order()[c];
                        anyShift = anyShift || shifted(l.px[j] - l.px[i], world.w) || shifted(l.py[j] - l.py[i], world.h);
                    }
                }
                if (g.needsNearestImage(cx, last, cy)) {
                    ++images;
                    nearSeam += anyShift;
                } else {
                    ++plain;
                    wrong += anyShift;
                }
            }
        }
    }
    INFO(plain << " ranges scanned plain, " << images << " with images, " << nearSeam << " of them needing them");
    CHECK(wrong == 0);
    // The test means something: the awkward fish do reach across the seam.
    CHECK(nearSeam > 0);
    // A world of fewer than six columns or rows always takes the images.
    if (g.cols() < 6 || g.rows() < 6)
        CHECK(plain == 0);
    else
        CHECK(plain > 0);
}

TEST_CASE("grid cells are never narrower than asked and tile a wrapping world exactly") {
    UniformGrid g;
    g.reserve(1000);
    g.configure(1920, 1080, 86.25f, true);
    CHECK(g.cellWidth() >= 86.25f);
    CHECK(g.cellHeight() >= 86.25f);
    CHECK(static_cast<float>(g.cols()) * g.cellWidth() == Approx(1920.0f));
    CHECK(static_cast<float>(g.rows()) * g.cellHeight() == Approx(1080.0f));
    // Stretched rows: at least that many times as tall, and still a tiling.
    g.configure(1920, 1080, 86.25f, true, 0, 1.5f);
    CHECK(g.cellWidth() >= 86.25f);
    CHECK(g.cellHeight() >= 1.5f * 86.25f);
    CHECK(static_cast<float>(g.rows()) * g.cellHeight() == Approx(1080.0f));
    // A cell size that would need millions of cells is coarsened to the budget.
    g.configure(100000, 100000, 0.001f, false);
    CHECK(static_cast<std::size_t>(g.cols()) * static_cast<std::size_t>(g.rows()) <= 4096);
    // Positions outside the world (soft boundary) and NaN land in edge cells.
    g.configure(1000, 1000, 100, false);
    CHECK(g.cellX(-50.0f) == 0);
    CHECK(g.cellX(1e9f) == g.cols() - 1);
    CHECK(g.cellY(std::nanf("")) == 0);
}

TEST_CASE("the kernel's cells of eight positions at once are the cells of each position") {
    UniformGrid g;
    g.reserve(1000);
    g.configure(1000, 700, 100, false);
    const float nan = std::nanf("");
    const float xs[] = {-50.0f, 0.0f, 99.999f, 100.0f, 999.99f, 1000.0f, 1e9f, nan,
                        -1e9f,  550.5f, -0.0f, 3e38f, 1e-30f, 899.0f, 300.0f, 650.0f};
    for (int start = 0; start < 16; start += 8) {
        v8f lanes;
        for (int k = 0; k < kLanes; ++k) lanes[k] = xs[start + k];
        const v8i cx = g.cellX(lanes), cy = g.cellY(lanes);
        for (int k = 0; k < kLanes; ++k) {
            INFO("position " << lanes[k]);
            CHECK(cx[k] == g.cellX(lanes[k]));
            CHECK(cy[k] == g.cellY(lanes[k]));
        }
    }
}

TEST_CASE("the grid sorted by several threads lists the fish in the same order as one thread") {
    // Enough fish that the counting sort splits them into parts (one per
    // thread), and enough cells (250 x 166) that its prefix sum runs in
    // ranges of cells.
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> ux(-20, 3020), uy(-20, 2020);
    const std::size_t n = 200'000;
    std::vector<float> px(n), py(n);
    for (std::size_t i = 0; i < n; ++i) px[i] = ux(rng), py[i] = uy(rng);
    UniformGrid serial, parallel;
    for (UniformGrid* g : {&serial, &parallel}) {
        g->reserve(n);
        g->configure(3000, 2000, 12, false);
    }
    REQUIRE(serial.cols() * serial.rows() > 2 * 16384);
    serial.build(px.data(), py.data(), n);
    ThreadPool pool(4);
    parallel.build(px.data(), py.data(), n, pool);
    const int cells = serial.cols() * serial.rows();
    for (int c = 0; c <= cells; ++c) REQUIRE(parallel.cellStart(c) == serial.cellStart(c));
    CHECK(std::equal(serial.order(), serial.order() + n, parallel.order()));
}

TEST_CASE("every step sorts the fish by the cells of the positions it starts from, whatever changed before it") {
    // The step takes each fish's cell from the kernel of the step before
    // (UniformGrid::buildFromCells) unless something else moved the fish or
    // changed the layout since: then it must sort from the positions again.
    SerialScheduler serial;
    Simulation sim(test::sceneWith(Params{}, 2000, 1600, 900, 7), serial);
    const auto stepAndCompare = [&](const char* after) {
        INFO("after " << after);
        const StepConstants k = sim.stepConstants();
        const std::size_t n = sim.fishCount();
        UniformGrid fresh;
        fresh.reserve(sim.capacity());
        fresh.configure(k.width, k.height, k.largestRadius(), k.boundary == BoundaryMode::Wrap, n, sim.rowStretch());
        fresh.build(sim.fish().px.data(), sim.fish().py.data(), n);
        sim.step();
        const UniformGrid& used = sim.grid();
        REQUIRE(used.cols() == fresh.cols());
        REQUIRE(used.rows() == fresh.rows());
        REQUIRE(used.subcolumns() == fresh.subcolumns());
        for (int c = 0; c <= used.cols() * used.rows(); ++c) REQUIRE(used.cellStart(c) == fresh.cellStart(c));
        REQUIRE(std::equal(fresh.order(), fresh.order() + n, used.order()));
    };
    for (int i = 0; i < 3; ++i) stepAndCompare("a step");
    const Simulation::SavedState early = sim.save();
    sim.setParam(ParamId::PerceptionRadius, sim.params().get(ParamId::PerceptionRadius) * 1.5f);
    stepAndCompare("a larger perception radius");
    stepAndCompare("a step");
    sim.setWorldSize(1200, 700);
    stepAndCompare("a smaller world");
    sim.setFishCount(2500);
    stepAndCompare("more fish");
    sim.setFishCount(1500);
    stepAndCompare("fewer fish");
    // Cells crowded enough to be sorted by subcolumn, then not, then again.
    REQUIRE(sim.grid().subcolumns() > 1);
    sim.setFishCount(200);
    stepAndCompare("far fewer fish");
    REQUIRE(sim.grid().subcolumns() == 1);
    sim.setFishCount(1500);
    stepAndCompare("as many fish as before");
    REQUIRE(sim.grid().subcolumns() > 1);
    sim.setParam(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
    stepAndCompare("a wrapping world");
    stepAndCompare("a step");
    sim.restore(early);
    stepAndCompare("a restored state");
    sim.reset(8);
    stepAndCompare("a new seed");
    const Simulation::SavedState late = sim.save();
    stepAndCompare("a step");
    sim.restore(late);
    stepAndCompare("a restored state in the same layout");
    // A school spread thin: the rows grow taller (sim/row_stretch.hpp).
    sim.setWorldSize(4000, 3000);
    sim.reset(9);
    stepAndCompare("a sparse new school");
    REQUIRE(sim.rowStretch() > 1.0f);
    stepAndCompare("taller rows");
    REQUIRE(sim.grid().cellHeight() > 1.2f * sim.grid().cellWidth());
    sim.restore(late);
    stepAndCompare("a restored state with square rows");
}

TEST_CASE("the grid counts how many fish share each fish's cell, the same on any number of threads") {
    // The measure the grid's row stretch follows (sim/row_stretch.hpp):
    // the mean over the fish of the fish in its cell, itself included, or
    // in its subcolumn where the cells are crowded. More cells than one
    // range of the prefix sum (16 384) and a clump of fish among a spread.
    const float w = 1300, h = 1300;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> ux(0, w), uy(0, h), clump(600, 640);
    std::vector<float> px, py;
    for (int i = 0; i < 30000; ++i) px.push_back(ux(rng)), py.push_back(uy(rng));
    for (int i = 0; i < 3000; ++i) px.push_back(clump(rng)), py.push_back(clump(rng));
    const std::size_t n = px.size();
    for (const float cell : {10.0f, 40.0f}) {
        UniformGrid serial, parallel;
        serial.reserve(n);
        parallel.reserve(n);
        serial.configure(w, h, cell, false, n);
        parallel.configure(w, h, cell, false, n);
        INFO("cells of " << cell << ": " << serial.cols() * serial.rows() << " cells, " << serial.subcolumns()
                         << " subcolumns");
        // Several ranges of the prefix sum; crowded cells.
        REQUIRE((cell == 10.0f ? serial.cols() * serial.rows() > 16384 : serial.subcolumns() > 1));
        std::vector<std::uint64_t> perKey(static_cast<std::size_t>(serial.cols() * serial.rows() * serial.subcolumns()));
        for (std::size_t i = 0; i < n; ++i) ++perKey[serial.keyOf(px[i], py[i])];
        std::uint64_t squares = 0;
        for (const std::uint64_t k : perKey) squares += k * k;
        serial.build(px.data(), py.data(), n);
        ThreadPool pool(4);
        parallel.build(px.data(), py.data(), n, pool);
        CHECK(serial.meanFishSharingKey() == static_cast<double>(squares) / static_cast<double>(n));
        CHECK(parallel.meanFishSharingKey() == serial.meanFishSharingKey());
    }
}
