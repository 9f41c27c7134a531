// The grid's rows stretched taller than its cells are wide where a school is
// sparse (sim/row_stretch.hpp): the same neighbours for fewer candidates,
// never in crowded cells, steady while the density only wavers, and part of
// the saved state, since it decides the order of the sums.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench_scenes.hpp"
#include "io/state_hash.hpp"
#include "sched/scheduler.hpp"
#include "sim/grid.hpp"
#include "sim/row_stretch.hpp"
#include "sim/simulation.hpp"

using namespace mirofish;

namespace {

constexpr float kCell = 50.0f;

// A grid with cells of at least kCell over a world of w x h px, built for
// `fish` fish spread evenly at random, or packed into a disc of the given
// radius at the world's centre.
struct SpreadGrid {
    UniformGrid grid;
    std::size_t fish;
    SpreadGrid(float w, float h, std::size_t count, float discRadius = 0.0f, float rowStretch = 1.0f) : fish(count) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(0.0f, 1.0f);
        std::vector<float> px, py;
        while (px.size() < count) {
            if (discRadius > 0.0f) {
                const float x = (2.0f * u(rng) - 1.0f) * discRadius, y = (2.0f * u(rng) - 1.0f) * discRadius;
                if (x * x + y * y > discRadius * discRadius) continue;
                px.push_back(w / 2 + x), py.push_back(h / 2 + y);
            } else {
                px.push_back(u(rng) * w), py.push_back(u(rng) * h);
            }
        }
        grid.reserve(count);
        grid.configure(w, h, kCell, false, count, rowStretch);
        grid.build(px.data(), py.data(), count);
    }
    // cols x rows cells of kCell.
    static SpreadGrid cells(int cols, int rows, std::size_t count, float discRadius = 0.0f, float rowStretch = 1.0f) {
        return SpreadGrid(cols * kCell, rows * kCell, count, discRadius, rowStretch);
    }
};

}  // namespace

TEST_CASE("a sparse school's rows are stretched, the sparser the taller, up to a limit") {
    // About 4.7 fish a cell, as in the bench's constant-density scene:
    // sixteen fish then fill three or four cells of a row, and rows half as
    // tall again make their box squarer (sqrt(32 / (3 x 4.7)) = 1.5).
    const SpreadGrid bench = SpreadGrid::cells(60, 60, 60 * 60 * 47 / 10);
    CHECK(bench.grid.meanFishSharingKey() == Approx(5.7).epsilon(0.02));  // itself and 4.7 others
    CHECK(nextRowStretch(bench.grid, bench.fish, 1.0f) == 1.5f);
    // Two fish a cell: taller (sqrt(32 / 6) = 2.3); a fish in every fourth
    // cell: the tallest.
    const SpreadGrid sparse = SpreadGrid::cells(60, 60, 60 * 60 * 2);
    const float two = nextRowStretch(sparse.grid, sparse.fish, 1.0f);
    CHECK(two >= 2.125f);
    CHECK(two < kMaxRowStretch);
    const SpreadGrid lonely = SpreadGrid::cells(60, 60, 60 * 60 / 4);
    CHECK(nextRowStretch(lonely.grid, lonely.fish, 1.0f) == kMaxRowStretch);
}

TEST_CASE("where a school packs many fish into each cell, the rows stay square") {
    // Crowded cells are sorted by subcolumn: sixteen fish already fill a
    // narrow strip of one cell.
    const SpreadGrid crowded = SpreadGrid::cells(30, 30, 30 * 30 * 12);
    REQUIRE(crowded.grid.subcolumns() > 1);
    CHECK(nextRowStretch(crowded.grid, crowded.fish, 1.0f) == 1.0f);
    CHECK(nextRowStretch(crowded.grid, crowded.fish, 2.0f) == 1.0f);
    // A dense school in a big, mostly empty world is not crowded on average,
    // but its fish share their cells with many others.
    const SpreadGrid school = SpreadGrid::cells(80, 80, 3000, 6 * kCell);
    REQUIRE(school.grid.subcolumns() == 1);
    CHECK(nextRowStretch(school.grid, school.fish, 1.0f) == 1.0f);
}

TEST_CASE("the stretch never crowds the cells of an even spread") {
    // Taller rows hold more fish a cell; past kCrowdedCell the cells would
    // be sorted by subcolumn, and the rows then made square again, step
    // after step.
    // From square cells, and from the tallest rows (a sparse school that
    // drew together).
    for (const float before : {1.0f, kMaxRowStretch}) {
        for (int tenths = 40; tenths <= 79; ++tenths) {
            const std::size_t fish = 40 * 40 * static_cast<std::size_t>(tenths) / 10;
            const SpreadGrid square = SpreadGrid::cells(40, 40, fish);
            const float stretch = nextRowStretch(square.grid, fish, before);
            INFO(tenths / 10.0 << " fish a cell, rows stretched " << before << ", then " << stretch);
            const SpreadGrid stretched = SpreadGrid::cells(40, 40, fish, 0.0f, stretch);
            CHECK(stretched.grid.subcolumns() == 1);
            CHECK(nextRowStretch(stretched.grid, fish, stretch) == stretch);
        }
    }
}

TEST_CASE("the stretch settles in any world, and never switches back and forth") {
    // Each step lays out its grid with the stretch the step before chose,
    // and chooses the next one from it. In a world narrower than a cell, one
    // that is not a whole number of cells, or one so large that its cells
    // are coarsened to the budget, the stretch must settle within a couple
    // of steps, never crowding the cells (which would turn the stretch off,
    // and the next step on again).
    struct World {
        float w, h;
        std::size_t fish;
    };
    const World world = GENERATE(World{20, 2000, 200}, World{45, 2000, 200}, World{20, 2000, 40},
                                 World{1013, 707, 1500}, World{2000, 100, 300}, World{130, 130, 20},
                                 World{100000, 100000, 3000}, World{2000, 2000, 9000});
    std::vector<float> chosen{1.0f};
    std::vector<int> subcolumns;
    for (int step = 0; step < 8; ++step) {
        const SpreadGrid g(world.w, world.h, world.fish, 0.0f, chosen.back());
        subcolumns.push_back(g.grid.subcolumns());
        chosen.push_back(nextRowStretch(g.grid, g.fish, chosen.back()));
    }
    std::ostringstream seen;
    for (std::size_t i = 0; i < chosen.size(); ++i) seen << chosen[i] << (i < subcolumns.size() ? "/" + std::to_string(subcolumns[i]) : "") << " ";
    INFO("world " << world.w << " x " << world.h << ", " << world.fish << " fish: stretch/subcolumns " << seen.str());
    for (std::size_t i = 3; i < chosen.size(); ++i) CHECK(chosen[i] == chosen[2]);
    for (std::size_t i = 2; i < subcolumns.size(); ++i) CHECK(subcolumns[i] == subcolumns[1]);
}

TEST_CASE("the stretch holds while the density wavers, and follows a real change") {
    // Each change of the stretch re-sorts every fish: a school whose density
    // drifts by a few per cent around a boundary must not cause one a step.
    const SpreadGrid before = SpreadGrid::cells(60, 60, 60 * 60 * 2);
    const float stretch = nextRowStretch(before.grid, before.fish, 1.0f);
    REQUIRE(stretch > 2.0f);
    REQUIRE(stretch < kMaxRowStretch);
    for (const double factor : {0.9, 0.95, 1.05, 1.1}) {
        const auto fish = static_cast<std::size_t>(60 * 60 * 2 * factor);
        const SpreadGrid wavered = SpreadGrid::cells(60, 60, fish, 0.0f, stretch);
        INFO("density times " << factor);
        CHECK(nextRowStretch(wavered.grid, fish, stretch) == stretch);
    }
    // Three times as dense: rows nearly square.
    const SpreadGrid denser = SpreadGrid::cells(60, 60, 60 * 60 * 6, 0.0f, stretch);
    CHECK(nextRowStretch(denser.grid, denser.fish, stretch) == 1.0f);
}

TEST_CASE("only the stretches this program chooses count as valid") {
    for (const float s : {1.0f, 1.125f, 1.5f, kMaxRowStretch}) CHECK(validRowStretch(s));
    for (const float s : {0.0f, 0.875f, 1.3f, 2.625f, std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN()})
        CHECK_FALSE(validRowStretch(s));
    // A stretch that is not one is replaced, never kept.
    const SpreadGrid bench = SpreadGrid::cells(60, 60, 60 * 60 * 47 / 10);
    CHECK(nextRowStretch(bench.grid, bench.fish, std::numeric_limits<float>::quiet_NaN()) == 1.5f);
}

TEST_CASE("stretched rows find the very same neighbours among fewer candidates") {
    // The bench's constant-density school: the same fish stepped once with
    // square cells and once with the rows it chose.
    SerialScheduler serial;
    Simulation sim(bench::constantDensityScene(20000), serial);
    for (int i = 0; i < 20; ++i) sim.step();
    const Simulation::SavedState chosen = sim.save();
    REQUIRE(chosen.rowStretch == 1.5f);
    Simulation::SavedState square = chosen;
    square.rowStretch = 1.0f;

    sim.restore(square);
    sim.step();
    const double squareNeighbours = sim.lastMeanNeighbours(), squareCandidates = sim.lastMeanCandidates();
    CHECK(sim.grid().cellHeight() < 1.2f * sim.grid().cellWidth());
    sim.restore(chosen);
    sim.step();
    CHECK(sim.grid().cellHeight() >= 1.5f * sim.grid().cellWidth() * 0.95f);
    CHECK(sim.lastMeanNeighbours() == squareNeighbours);
    INFO("candidates a fish: " << squareCandidates << " with square cells, " << sim.lastMeanCandidates()
                               << " with stretched rows");
    CHECK(sim.lastMeanCandidates() < 0.97 * squareCandidates);
}

TEST_CASE("the stretch is saved with the state: a restored run goes on as the uninterrupted one") {
    SerialScheduler serial;
    const Scene scene = bench::constantDensityScene(4000);
    Simulation uninterrupted(scene, serial);
    for (int i = 0; i < 30; ++i) uninterrupted.step();
    const Simulation::SavedState atStep10 = [&] {
        Simulation first(scene, serial);
        for (int i = 0; i < 10; ++i) first.step();
        return first.save();
    }();
    REQUIRE(atStep10.rowStretch > 1.0f);

    Simulation resumed(bench::constantDensityScene(100), serial);
    resumed.restore(atStep10);
    for (int i = 0; i < 20; ++i) resumed.step();
    CHECK(stateHash(resumed) == stateHash(uninterrupted));

    // The control: without its stretch the same state goes on otherwise.
    Simulation::SavedState square = atStep10;
    square.rowStretch = 1.0f;
    resumed.restore(square);
    for (int i = 0; i < 20; ++i) resumed.step();
    CHECK(stateHash(resumed) != stateHash(uninterrupted));
}
