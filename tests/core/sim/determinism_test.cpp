// Determinism: the same preset, seed and inputs give a bit-identical state
// whatever the thread count, with every build of the kernel, and on every
// run; the AVX2 and AVX-512 builds give the same state as each other.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "bench_scenes.hpp"
#include "io/preset.hpp"
#include "io/state_hash.hpp"
#include "sched/scheduler.hpp"
#include "sched/thread_pool.hpp"
#include "sim/fish_kernel.hpp"
#include "sim/metrics.hpp"
#include "sim/rules.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {

// Article 000's scene with more fish than one parallel chunk (128) holds, so
// that several threads really share the work, plus every kind of agent and
// interaction object so that they are covered too, and the app's speed
// floor, wander and jitter (which seed-locked, true to the article, leaves
// out) so that their random draws are.
Scene busyScene(std::uint64_t seed) {
    Scene s = loadPreset(shippedPreset("seed-locked")).scene;
    for (const ParamId id : {ParamId::MinSpeed, ParamId::WanderWeight, ParamId::Jitter})
        s.params.set(id, static_cast<float>(paramDef(id).defaultValue));
    REQUIRE(s.params.get(ParamId::WanderWeight) > 0.0f);
    s.fishCount = 1700;
    s.seed = seed;
    s.fields.push_back(ForceField{0, Vec2{{500, 500}}, 300, 2.0f, FieldKind::Vortex});
    s.predators.push_back(Predator{Vec2{{900, 500}}, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0});
    s.predators.push_back(
        Predator{Vec2{{100, 100}}, Vec2{}, PredatorBehaviour::FollowPath, {Vec2{{100, 100}}, Vec2{{1800, 900}}}, 0});
    s.obstacles.push_back(Obstacle{Vec2{{1400, 300}}, 80});
    s.leader = Leader{{Vec2{{300, 800}}, Vec2{{1600, 200}}}, Vec2{{300, 800}}, 0};
    return s;
}

std::uint64_t runAndHash(const Scene& scene, Scheduler& scheduler, int steps) {
    Simulation sim(scene, scheduler);
    for (int i = 0; i < steps; ++i) sim.step();
    return stateHash(sim);
}

std::unique_ptr<Scheduler> makeScheduler(int threads) {
    if (threads == 0) return std::make_unique<SerialScheduler>();
    return std::make_unique<ThreadPool>(threads);
}

}  // namespace

TEST_CASE("the same preset and seed give a bit-identical state for 1, 2 and 4 threads") {
    const Scene scene = busyScene(42);
    const int steps = 90;
    SerialScheduler serial;
    const std::uint64_t reference = runAndHash(scene, serial, steps);
    for (int threads : {1, 2, 4}) {
        ThreadPool pool(threads);
        INFO(threads << " threads");
        CHECK(runAndHash(scene, pool, steps) == reference);
    }
}

TEST_CASE("every build of the kernel gives one state on any number of threads, the AVX2 and AVX-512 builds the same") {
    // Article 000's density with every agent; a wrapping world; a world so
    // crowded that every block holds the whole school, and one of many cells
    // of about thirty fish, where groups of sixteen fish span one or two
    // cells; walled and wrapping.
    const auto wrapped = [](Scene s) {
        s.params.set(ParamId::BoundaryMode, static_cast<float>(BoundaryMode::Wrap));
        return s;
    };
    const Scene wrapping = wrapped(busyScene(7));
    Scene crowded = busyScene(8);
    crowded.width = 200, crowded.height = 150;
    crowded.fields.clear(), crowded.predators.clear(), crowded.obstacles.clear(), crowded.leader.reset();
    Scene packed = crowded;
    packed.width = 700, packed.height = 610;  // 8 x 7 cells
    // The constant density of the bench (about 7 neighbours a fish), where
    // the AVX-512 build scans most pairs of groups together; 4013 fish end on
    // a group of sixteen lanes with three of them empty, 4029 on a pair of
    // groups of sixteen steered together (math/lane_pairs.hpp) with three
    // lanes of the second empty.
    const Scene sparse = bench::constantDensityScene(4013), sparsePair = bench::constantDensityScene(4029);
    const BestKernelBuildAtExit restore;
    ThreadPool one(1), two(2);
    for (const Scene& scene :
         {busyScene(42), wrapping, crowded, wrapped(crowded), packed, wrapped(packed), sparse, sparsePair}) {
        INFO(scene.width << "x" << scene.height << ", boundary mode " << scene.params.get(ParamId::BoundaryMode));
        std::optional<std::uint64_t> fused;
        for (KernelBuild build : kKernelBuilds) {
            if (!cpuRuns(build)) continue;
            INFO("the " << kernelBuildName(build) << " build");
            REQUIRE(useKernelBuild(build) == build);
            const std::uint64_t state = runAndHash(scene, two, 60);
            CHECK(runAndHash(scene, one, 60) == state);
            if (!kernelBuildFuses(build)) continue;
            if (fused)
                CHECK(state == *fused);
            else
                fused = state;
        }
    }
    if (bestKernelBuild() != KernelBuild::Avx512)
        WARN("this CPU has no AVX-512: the AVX2 and AVX-512 builds were not compared");
}

TEST_CASE("the separation summed apart or together gives the same state, on any CPU") {
    // Which way the scan takes is chosen from the CPU (sim/fish_kernel.hpp
    // SeparationScan): the school must not depend on it. Article 000's scene
    // and the app's defaults, whose separation radius is well inside the
    // perception radius, and the busy scene with every agent.
    const BestSeparationScanAtExit restore;
    ThreadPool two(2);
    for (const Scene& scene : {bench::article000Scene(), bench::article000AppScene(), busyScene(5)}) {
        INFO(scene.fishCount << " fish");
        useSeparationScan(SeparationScan::Together);
        const std::uint64_t together = runAndHash(scene, two, 240);
        useSeparationScan(SeparationScan::Apart);
        CHECK(runAndHash(scene, two, 240) == together);
    }
    if (bestKernelBuild() != KernelBuild::Avx512)
        WARN("this CPU has no AVX-512: only the sixteen-lane scan can take the separation apart, and none ran");
}

namespace {

// A fish's memory, taken by id.
struct Memory {
    float hx, hy, alarm;
};

std::vector<Memory> memoryById(const Simulation& sim) {
    const FishArrays& f = sim.fish();
    std::vector<Memory> m(sim.fishCount());
    for (std::size_t i = 0; i < sim.fishCount(); ++i) m[f.id[i]] = {f.hx[i], f.hy[i], f.alarm[i]};
    return m;
}

}  // namespace

TEST_CASE("each fish's memory follows it through every step's sort, in every build, small schools too") {
    // The step sorts the fish by cell, memory and all (Simulation::reorderByCell),
    // and the kernel updates each fish's memory: its alarm must run down (or
    // restart near a predator), its drawn heading turn towards its own new
    // velocity.
    Scene small = busyScene(3);
    small.fishCount = 20;  // arrays shorter than the AVX-512 build's window of 32 (sim/cell_order_gather.cpp)
    const BestKernelBuildAtExit restore;
    ThreadPool two(2);
    for (const Scene& scene : {busyScene(5), small, bench::constantDensityScene(4013)})
        for (KernelBuild build : kKernelBuilds) {
            if (!cpuRuns(build)) continue;
            INFO(scene.fishCount << " fish, the " << kernelBuildName(build) << " build");
            REQUIRE(useKernelBuild(build) == build);
            Simulation sim(scene, two);
            std::size_t wrong = 0, scaredAgain = 0;
            for (int t = 0; t < 40; ++t) {
                const StepConstants k = sim.stepConstants();
                const std::vector<Memory> before = memoryById(sim);
                sim.step();
                const std::vector<Memory> after = memoryById(sim);
                const FishArrays& f = sim.fish();
                for (std::size_t i = 0; i < sim.fishCount(); ++i) {
                    const Memory &b = before[f.id[i]], &a = after[f.id[i]];
                    const Vec2 v{{f.vx[i], f.vy[i]}};
                    const Vec2 dir = v * (1.0f / std::sqrt(v[0] * v[0] + v[1] * v[1]));
                    const Vec2 heading = rules::turnTowards(Vec2{{b.hx, b.hy}}, dir, k.turnCos, k.turnSin);
                    const bool runsDown = a.alarm == std::max(b.alarm - k.dt, 0.0f);
                    scaredAgain += !runsDown && a.alarm == k.alarmDuration;
                    wrong += a.hx != heading[0] || a.hy != heading[1] ||
                             !(runsDown || a.alarm == k.alarmDuration);
                }
            }
            CHECK(wrong == 0);
            if (!scene.predators.empty()) CHECK(scaredAgain > 0);  // the alarms were in use
        }
}

TEST_CASE("the same preset and seed give the same state on every run") {
    const Scene scene = busyScene(42);
    ThreadPool pool(4);
    const std::uint64_t first = runAndHash(scene, pool, 60);
    CHECK(runAndHash(scene, pool, 60) == first);
    ThreadPool other(4);
    CHECK(runAndHash(scene, other, 60) == first);
}

TEST_CASE("different seeds give different schools") {
    SerialScheduler serial;
    const std::uint64_t a = runAndHash(busyScene(42), serial, 30);
    const std::uint64_t b = runAndHash(busyScene(43), serial, 30);
    CHECK(a != b);
    // Not just the hash: the fish are elsewhere.
    Simulation s1(busyScene(42), serial), s2(busyScene(43), serial);
    CHECK(std::memcmp(s1.fish().px.data(), s2.fish().px.data(), s1.fishCount() * sizeof(float)) != 0);
}

// 2000 fish on 400x400 px: hundreds of candidates per fish from the first
// step, so the kernel runs in its smaller chunks for dense schools.
Scene crowdedScene() {
    Scene s;
    s.fishCount = 2000;
    s.width = s.height = 400;
    s.seed = 7;
    return s;
}

TEST_CASE("metrics do not depend on the thread count either") {
    const bool crowded = GENERATE(false, true);
    const Scene scene = crowded ? crowdedScene() : busyScene(7);
    INFO((crowded ? "crowded" : "busy") << " scene");
    Metrics m[3];
    int t = 0;
    for (int threads : {0, 2, 4}) {
        const auto scheduler = makeScheduler(threads);
        Simulation sim(scene, *scheduler);
        for (int i = 0; i < 40; ++i) sim.step();
        if (crowded) REQUIRE(sim.lastMeanCandidates() >= Simulation::kDenseCandidates);
        m[t++] = computeMetrics(sim);
    }
    for (int i = 1; i < 3; ++i) {
        CHECK(m[i].meanNeighbours == m[0].meanNeighbours);
        CHECK(m[i].meanSpeed == m[0].meanSpeed);
        CHECK(m[i].polarisation == m[0].polarisation);
        CHECK(m[i].milling == m[0].milling);
        CHECK(m[i].meanNearestNeighbour == m[0].meanNearestNeighbour);
        CHECK(m[i].forceSeparation == m[0].forceSeparation);
        CHECK(m[i].forceAlignment == m[0].forceAlignment);
        CHECK(m[i].forceCohesion == m[0].forceCohesion);
    }
}

TEST_CASE("the state hash notices a one-bit change in any fish") {
    SerialScheduler serial;
    Simulation sim(busyScene(1), serial);
    sim.step();
    const std::uint64_t before = stateHash(sim);
    for (FishArrays::FloatField field : {&FishArrays::px, &FishArrays::vy, &FishArrays::alarm, &FishArrays::ax}) {
        Simulation::SavedState st = sim.save();
        float& v = (st.fish.*field)[1234];
        v = std::nextafter(v, 1e9f);
        Simulation copy(busyScene(1), serial);
        copy.restore(std::move(st));
        CHECK(stateHash(copy) != before);
    }
}

TEST_CASE("fish added later land exactly where they would in a fresh run") {
    SerialScheduler serial;
    Scene small = busyScene(3);
    small.fishCount = 600;
    Simulation grown(small, serial);
    grown.setFishCount(1700);
    Simulation fresh(busyScene(3), serial);
    CHECK(stateHash(grown) == stateHash(fresh));
    for (int i = 0; i < 20; ++i) grown.step(), fresh.step();
    CHECK(stateHash(grown) == stateHash(fresh));
    // Dropping fish keeps ids 0..n-1.
    grown.setFishCount(1000);
    std::vector<int> seen(1000, 0);
    for (std::size_t i = 0; i < grown.fishCount(); ++i) ++seen.at(grown.fish().id[i]);
    CHECK(std::all_of(seen.begin(), seen.end(), [](int k) { return k == 1; }));
}

TEST_CASE("a school runs the same in arrays allocated for more fish, and resumes exactly into a larger preset") {
    // A sparse world: 2000 fish in 4K with a small perception need more cells
    // than the smallest budget, so a budget taken from the arrays' capacity
    // would lay out other cells and sum each fish's neighbours in another order.
    SerialScheduler serial;
    Scene scene = busyScene(5);
    scene.width = 3840;
    scene.height = 2160;
    scene.params.set(ParamId::PerceptionRadius, 24);
    scene.fishCount = 2000;
    Simulation exact(scene, serial);
    Simulation roomy(scene, serial, 3000);
    for (int i = 0; i < 30; ++i) exact.step(), roomy.step();
    CHECK(stateHash(roomy) == stateHash(exact));

    // simulate --preset P --load-state S: the state goes into a simulation
    // built from the preset, here one of 3000 fish.
    Scene larger = scene;
    larger.fishCount = 3000;
    Simulation resumed(larger, serial);
    resumed.restore(exact.save());
    for (int i = 0; i < 30; ++i) exact.step(), resumed.step();
    CHECK(stateHash(resumed) == stateHash(exact));
}
