// Metrics on scenes whose values are known exactly: the per-preset character
// tests rely on these numbers meaning what they say.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "sched/scheduler.hpp"
#include "sim/metrics.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

Metrics metricsOf(const std::vector<FishInit>& fish, float w = 1000, float h = 1000,
                  BoundaryMode mode = BoundaryMode::Bounce) {
    static SerialScheduler serial;
    Params p = quietParams();
    p.set(ParamId::BoundaryMode, static_cast<float>(mode));
    p.set(ParamId::PerceptionRadius, 50.0f);
    Simulation sim(sceneWith(p, static_cast<std::uint32_t>(fish.size()), w, h), serial);
    placeFish(sim, fish);
    return computeMetrics(sim);
}

// The mean distance to the nearest other fish, by a search of all pairs.
double allPairsMeanNearest(const std::vector<FishInit>& fish, float w, float h, BoundaryMode mode) {
    StepConstants k;
    k.boundary = mode, k.width = w, k.height = h;
    double sum = 0;
    for (std::size_t i = 0; i < fish.size(); ++i) {
        float best2 = std::numeric_limits<float>::infinity();
        for (std::size_t j = 0; j < fish.size(); ++j)
            if (j != i) best2 = std::min(best2, lengthSquared(displacement(k, fish[i].position, fish[j].position)));
        sum += std::sqrt(static_cast<double>(best2));
    }
    return sum / static_cast<double>(fish.size());
}

}  // namespace

TEST_CASE("polarisation and milling never read above 1, whatever the rounding of a lone or parallel school") {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> component(-200.0f, 200.0f);
    double highestPolarisation = 0.0, highestMilling = 0.0;
    for (int trial = 0; trial < 500; ++trial) {
        const Vec2 v{{component(rng), component(rng)}};
        highestPolarisation = std::max(highestPolarisation, metricsOf({{Vec2{{640, 360}}, v}}).polarisation);
        // Two fish circling their centre the same way: milling 1.
        const Vec2 across{{v[1], -v[0]}};
        highestMilling = std::max(highestMilling, metricsOf({{Vec2{{640, 360}} + across, v}, {Vec2{{640, 360}} - across, v * -1.0f}}).milling);
    }
    CHECK(highestPolarisation == Approx(1.0));
    CHECK(highestPolarisation <= 1.0);
    CHECK(highestMilling == Approx(1.0));
    CHECK(highestMilling <= 1.0);
}

TEST_CASE("polarisation is 1 for a parallel school and near 0 for opposite headings") {
    std::vector<FishInit> parallel, opposed;
    for (int i = 0; i < 50; ++i) {
        const Vec2 p{{100.0f + 10.0f * static_cast<float>(i), 500}};
        parallel.push_back({p, Vec2{{30, 40}}});
        opposed.push_back({p, Vec2{{i % 2 ? 50.0f : -50.0f, 0}}});
    }
    const Metrics a = metricsOf(parallel);
    CHECK(a.polarisation == Approx(1.0));
    CHECK(a.meanSpeed == Approx(50.0));
    CHECK(a.fish == 50);
    CHECK(metricsOf(opposed).polarisation == Approx(0.0).margin(1e-9));
}

TEST_CASE("milling is 1 for fish circling a common centre and 0 for a parallel school") {
    std::vector<FishInit> ring;
    for (int i = 0; i < 60; ++i) {
        const double a = 2 * std::numbers::pi * i / 60;
        ring.push_back({Vec2{{static_cast<float>(500 + 200 * std::cos(a)), static_cast<float>(500 + 200 * std::sin(a))}},
                        Vec2{{static_cast<float>(-50 * std::sin(a)), static_cast<float>(50 * std::cos(a))}}});
    }
    const Metrics m = metricsOf(ring);
    CHECK(m.milling == Approx(1.0).epsilon(1e-4));
    CHECK(m.polarisation == Approx(0.0).margin(1e-4));
    std::vector<FishInit> parallel;
    for (int i = 0; i < 60; ++i) parallel.push_back({Vec2{{100.0f + 7.0f * static_cast<float>(i), 300}}, Vec2{{0, 40}}});
    // A line moving sideways: half the fish spin one way, half the other.
    CHECK(metricsOf(parallel).milling == Approx(0.0).margin(1e-6));
}

TEST_CASE("in a wrapping world a school across the seam mills as it does anywhere else") {
    // A parallel school 40 px wide across the seam, three quarters of it at
    // the right edge, the rest at the left.
    std::vector<FishInit> parallel;
    for (int column = 0; column < 40; ++column)
        for (int row = 0; row < 10; ++row) {
            const float x = std::fmod(970.5f + static_cast<float>(column), 1000.0f);
            parallel.push_back({Vec2{{x, 300.0f + 10.0f * static_cast<float>(row)}}, Vec2{{0, 40}}});
        }
    CHECK(metricsOf(parallel, 1000, 1000, BoundaryMode::Wrap).milling == Approx(0.0).margin(1e-4));
    // A mill centred on the corner where the seams cross.
    std::vector<FishInit> ring;
    for (int i = 0; i < 60; ++i) {
        const double a = 2 * std::numbers::pi * i / 60;
        const auto wrapped = [](double v) { return static_cast<float>(std::fmod(v + 1000.0, 1000.0)); };
        ring.push_back({Vec2{{wrapped(150 * std::cos(a)), wrapped(150 * std::sin(a))}},
                        Vec2{{static_cast<float>(-50 * std::sin(a)), static_cast<float>(50 * std::cos(a))}}});
    }
    CHECK(metricsOf(ring, 1000, 1000, BoundaryMode::Wrap).milling == Approx(1.0).epsilon(1e-4));
    // Walled, the same fish are two groups a world apart, circling their
    // centroid in the middle as far as the measure can tell: what the
    // wrapping world read before.
    CHECK(metricsOf(parallel).milling > 0.3);
}

TEST_CASE("the mean nearest-neighbour distance is found even beyond the perception radius") {
    // A row with 120 px spacing (more than twice the 50 px perception), and
    // a lattice with 10 px spacing.
    std::vector<FishInit> sparse, dense;
    for (int i = 0; i < 8; ++i) sparse.push_back({Vec2{{50.0f + 120.0f * static_cast<float>(i), 500}}, Vec2{{1, 0}}});
    for (int i = 0; i < 100; ++i)
        dense.push_back({Vec2{{300.0f + 10.0f * static_cast<float>(i % 10), 300.0f + 10.0f * static_cast<float>(i / 10)}},
                         Vec2{{1, 0}}});
    CHECK(metricsOf(sparse).meanNearestNeighbour == Approx(120.0));
    CHECK(metricsOf(dense).meanNearestNeighbour == Approx(10.0));
    // Across the seam of a wrapping world: 4 px, not 992.
    CHECK(metricsOf({{Vec2{{2, 500}}, Vec2{{1, 0}}}, {Vec2{{998, 500}}, Vec2{{1, 0}}}}, 1000, 1000, BoundaryMode::Wrap)
              .meanNearestNeighbour == Approx(4.0));
}

TEST_CASE("the mean nearest-neighbour distance of a random school is that of an all-pairs search") {
    // Clumps and fish on one spot (distance 0), walled and wrapping, in a
    // world of many cells: each fish's nearest neighbour found by the grid's
    // rings is the one a search of all pairs finds.
    for (const BoundaryMode mode : {BoundaryMode::Bounce, BoundaryMode::Wrap}) {
        INFO((mode == BoundaryMode::Wrap ? "wrapping" : "walled"));
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> x(0.0f, 800.0f), y(0.0f, 600.0f), near(-15.0f, 15.0f);
        std::vector<FishInit> fish;
        for (int i = 0; i < 400; ++i) {
            const Vec2 p = i % 4 == 0 || fish.empty() ? Vec2{{x(rng), y(rng)}}
                                                      : Vec2{{fish.back().position[0] + near(rng), fish.back().position[1] + near(rng)}};
            fish.push_back({Vec2{{std::clamp(p[0], 0.0f, 799.0f), std::clamp(p[1], 0.0f, 599.0f)}}, Vec2{{1, 0}}});
        }
        fish.push_back(fish[7]);  // two fish on one spot
        CHECK(metricsOf(fish, 800, 600, mode).meanNearestNeighbour ==
              Approx(allPairsMeanNearest(fish, 800, 600, mode)).epsilon(1e-12));
    }
}

TEST_CASE("the mean nearest-neighbour distance of a school packed tight, with stragglers, is that of an all-pairs search") {
    // 1500 fish within 40 px of one spot in a 1000x1000 world, where an even
    // spread would put four in a cell 46 px wide: the search sorts them into
    // smaller cells too. The stragglers' nearest fish lie many of those cells
    // away; a fish of the halo around the ball may have its nearest outside
    // its block.
    for (const BoundaryMode mode : {BoundaryMode::Bounce, BoundaryMode::Wrap}) {
        INFO((mode == BoundaryMode::Wrap ? "wrapping" : "walled"));
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> unit(-1.0f, 1.0f), anywhere(0.0f, 999.0f);
        std::vector<FishInit> fish;
        // Across the seam when wrapping: part of the ball lies at the far edge.
        const Vec2 centre = mode == BoundaryMode::Wrap ? Vec2{{20, 600}} : Vec2{{600, 400}};
        while (fish.size() < 1500) {
            const Vec2 d{{40.0f * unit(rng), 40.0f * unit(rng)}};
            if (lengthSquared(d) > 1600.0f) continue;
            Vec2 p = centre + d;
            if (p[0] < 0.0f) p[0] += 1000.0f;
            fish.push_back({p, Vec2{{1, 0}}});
        }
        // A halo around the ball, whose fish see one another across a few small cells.
        while (fish.size() < 1700) {
            const Vec2 d{{150.0f * unit(rng), 150.0f * unit(rng)}};
            if (lengthSquared(d) < 1600.0f || lengthSquared(d) > 22500.0f) continue;
            Vec2 p = centre + d;
            if (p[0] < 0.0f) p[0] += 1000.0f;
            fish.push_back({p, Vec2{{1, 0}}});
        }
        // Stragglers a few small cells apart, all over the world.
        for (int i = 0; i < 400; ++i) fish.push_back({Vec2{{anywhere(rng), anywhere(rng)}}, Vec2{{1, 0}}});
        fish.push_back(fish[100]);  // two fish on one spot
        CHECK(metricsOf(fish, 1000, 1000, mode).meanNearestNeighbour ==
              Approx(allPairsMeanNearest(fish, 1000, 1000, mode)).epsilon(1e-12));
    }
}

TEST_CASE("non-finite positions and velocities are counted") {
    SerialScheduler serial;
    Simulation sim(sceneWith(quietParams(), 10), serial);
    CHECK(computeMetrics(sim).nonFinite == 0);
    Simulation::SavedState st = sim.save();
    st.fish.px[3] = std::nanf("");
    st.fish.vy[5] = std::numeric_limits<float>::infinity();
    sim.restore(std::move(st));
    CHECK(computeMetrics(sim).nonFinite == 2);
}

TEST_CASE("the neighbour count and rule forces are means over fish, forces over the last 300 steps") {
    SerialScheduler serial;
    Params p = quietParams();
    p.set(ParamId::PerceptionRadius, 50.0f);
    Simulation sim(sceneWith(p, 4), serial);
    // Three fish within 50 px of each other, one far away: 2+2+2+0 neighbours.
    placeFish(sim, {{Vec2{{500, 500}}, Vec2{{10, 0}}},
                    {Vec2{{520, 500}}, Vec2{{10, 0}}},
                    {Vec2{{510, 515}}, Vec2{{10, 0}}},
                    {Vec2{{100, 100}}, Vec2{{10, 0}}}});
    sim.step();
    CHECK(sim.lastMeanNeighbours() == Approx(1.5));
    CHECK(computeMetrics(sim).meanNeighbours == Approx(1.5));
    const Metrics m = computeMetrics(sim);
    CHECK(m.forceSeparation > 0.0);
    CHECK(m.forceCohesion > 0.0);
    // The window is 300 steps long; after more, only the last 300 count.
    RuleForceHistory h;
    for (int i = 0; i < 300; ++i) h.push(100, 0, 0);
    for (int i = 0; i < 300; ++i) h.push(1, 2, 3);
    CHECK(h.mean() == std::array<double, 3>{1, 2, 3});
    RuleForceHistory partial;
    partial.push(2, 4, 6);
    partial.push(4, 8, 10);
    CHECK(partial.mean() == std::array<double, 3>{3, 6, 8});
}

TEST_CASE("the mean nearest-neighbour distance in a world a million px wide and 2 px high is that of an all-pairs search") {
    // A preset may ask for such a world: the search's grid is then one row of
    // thousands of cells 2 px high, and every fish's nearest neighbour lies
    // hundreds of those cells away. (Its rings once walked the whole square
    // around each fish, cell by cell: minutes for these 40 fish.)
    for (const BoundaryMode mode : {BoundaryMode::Bounce, BoundaryMode::Wrap}) {
        INFO((mode == BoundaryMode::Wrap ? "wrapping" : "walled"));
        std::mt19937 rng(5);
        std::uniform_real_distribution<float> x(0.0f, 999'999.0f), y(0.0f, 1.9f);
        std::vector<FishInit> fish;
        for (int i = 0; i < 40; ++i) fish.push_back({Vec2{{x(rng), y(rng)}}, Vec2{{1, 0}}});
        fish.push_back({Vec2{{3, 1}}, Vec2{{1, 0}}});  // 6 px apart across the seam when wrapping
        fish.push_back({Vec2{{999'997, 1}}, Vec2{{1, 0}}});
        CHECK(metricsOf(fish, 1e6f, 2, mode).meanNearestNeighbour ==
              Approx(allPairsMeanNearest(fish, 1e6f, 2, mode)).epsilon(1e-12));
    }
}
