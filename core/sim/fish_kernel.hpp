#pragma once
// The per-fish work of one step: perceive -> rule forces -> weight and sum
// (plus boundary, wander, noise, interaction) -> limit the sum to maxForce ->
// reaction lag -> add to velocity -> limit speed -> move.
//
// Two phases in one pass: every fish reads only the old state (positions and
// velocities in `cur`) and writes its new position and velocity to `next`, so
// no fish ever sees a neighbour that has already moved this step.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "math/exact_sum.hpp"
#include "math/noise_field.hpp"
#include "params/params.hpp"
#include "sim/fish_arrays.hpp"
#include "sim/grid.hpp"
#include "sim/scene.hpp"

namespace mirofish {

// Everything derived from the parameters once per step, not per fish.
struct StepConstants {
    float dt = 1.0f / 60.0f;
    float width = 0, height = 0;
    BoundaryMode boundary = BoundaryMode::Soft;
    float perception = 0, separationRadius2 = 0, minDistance2 = 0;
    float cosHalfFov = -1.0f;
    float fovLimit = -1.0f;  // rules::coneLimit(cosHalfFov)
    bool fovEverywhere = true;  // half angle 180: the cone test is skipped
    float wSep = 0, wAli = 0, wCoh = 0;
    float maxSpeed = 0, minSpeedShare = 0, maxForce = 0, lag = 0, variation = 0;
    float noiseAmp = 0, jitterAmp = 0;
    float wanderAmp = 0;
    // The cosine and sine of the school's wander phase at this step (rules::wanderDirection).
    float wanderPhaseCos = 1, wanderPhaseSin = 0;
    float turnCos = 1, turnSin = 0;
    float boundaryMargin = 0, boundaryWeight = 0;
    float predatorRadius = 0, predatorRepulsion = 0, alarmDuration = 0, alarmSpeedBoost = 0, alarmCohesion = 1;
    float obstacleMargin = 0, obstacleWeight = 0;
    float goalWeight = 0, goalRadius = 0;
    std::uint64_t seed = 0;
    std::uint64_t step = 0;
    // hashKey(seed, 0, step, Jitter) folded to 32 bits: the per-step part of
    // every fish's jitter hash, so a fish costs two 32-bit mixes.
    std::uint32_t jitterKey = 0;
    // foldKey(hashKey(seed, 0, 0, Variation)): the key of every fish's
    // variationDraws (math/hash.hpp).
    std::uint32_t variationKey = 0;

    // The farthest any fish looks: the perception radius as per-fish
    // variation enlarges it, or the separation radius. The grid's cells are
    // at least this wide.
    float largestRadius() const { return std::max(perception * (1.0f + variation), std::sqrt(separationRadius2)); }
    // Whether the scan may sum the separation in a pass of its own
    // (sim/neighbour_scan.hpp Pass): where its radius is at most half the
    // largest perception radius (every preset's is at most 0.4 of its
    // perception radius). Larger, the close lists would seldom be short
    // enough to pay for themselves (scan::separateCloseList), and the
    // bench's constant-density scene, whose separation covers the whole
    // perception disc, skips making them.
    bool separationApart() const {
        const float largest = perception * (1.0f + variation);
        return separationRadius2 <= 0.25f * largest * largest;
    }
};

// Sums over a chunk of fish.
struct ChunkStats {
    double neighbours = 0, candidates = 0;
    double separation = 0, alignment = 0, cohesion = 0;  // |weighted acceleration|, px/s^2
    bool alarmsLeft = false;  // a fish's new alarm is not +0 (where the kernel wrote them)
};

// The same over a step's chunks, added in any order (each thread adds its
// own chunks, then the threads' sums are added): the same sums on any number
// of threads (math/exact_sum.hpp).
struct StepStats {
    ExactSum neighbours, candidates, separation, alignment, cohesion;
    bool alarmsLeft = false;

    // A chunk's sums (ChunkStats) or another thread's (StepStats).
    template <typename Sums>
    void add(const Sums& s) {
        neighbours.add(s.neighbours);
        candidates.add(s.candidates);
        separation.add(s.separation);
        alignment.add(s.alignment);
        cohesion.add(s.cohesion);
        alarmsLeft = alarmsLeft || s.alarmsLeft;
    }
};

struct KernelInput {
    const StepConstants* k;
    const UniformGrid* grid;
    const NoiseField* noise;
    FishArrays* cur;   // sorted by cell; positions/velocities read, per-fish memory updated in place
    FishArrays* next;  // receives the new positions and velocities
    // Receives the key of each fish's cell at its new position, in this
    // step's layout (UniformGrid::keyOf, buildFromCells); whole groups of eight.
    std::uint32_t* cellsAfter;
    std::span<const ForceField> fields;
    std::span<const Predator> predators;
    std::span<const Obstacle> obstacles;
    const Vec2* leader;  // nullptr when there is none
    // Every fish's alarm is +0 and no predator is about, so every alarm stays
    // +0: the kernel neither reads nor writes them (Simulation::alarmsClear_).
    bool alarmsStayClear;
    // The sixteen-lane scan sums the separation in a pass of its own
    // (StepConstants::separationApart, where this CPU's scan gains by it:
    // separationScan).
    bool separationApart;
};

// The neighbour scan (sim/neighbour_scan.hpp). Eight consecutive fish share
// one scan while they lie in one row of cells and within kRunColumns
// columns: the union of their cells' blocks then spans at most kRunColumns +
// 2 columns. Eight fish in cell order at 7 neighbours per fish span about
// three cells, and a longer run would scan more than it shares.
inline constexpr int kRunColumns = 4;

// Fish [begin, end); begin must be a multiple of 16: whole groups of sixteen
// fish (the AVX-512 build's) and of eight, whose lanes sum the chunk's
// statistics in the same order in every build.
// Returns the chunk's sums. Runs the build of the kernel chosen below.
ChunkStats runFishKernel(const KernelInput& in, std::size_t begin, std::size_t end);

// The kernel is built for any x86-64 (Generic) and, on x86-64, for AVX2 and
// for AVX-512 too, both with FMA. Those two give bit-identical results; the
// generic build, which has no fused multiply-add, differs from them in the
// last bits (math/lanes.hpp mulAdd). Each gives the same results on any
// number of threads. The best build the CPU has runs, unless a test or a
// benchmark asks for another. In order: a CPU that runs one runs those
// before it.
enum class KernelBuild { Generic, Avx2, Avx512 };
inline constexpr KernelBuild kKernelBuilds[] = {KernelBuild::Generic, KernelBuild::Avx2, KernelBuild::Avx512};
// The fastest build this program has and this CPU runs.
KernelBuild bestKernelBuild();
bool cpuRuns(KernelBuild build);
// Chooses the build for every later step of every simulation; a build the
// CPU cannot run falls back to the generic one. Returns the build now in use.
KernelBuild useKernelBuild(KernelBuild build);
KernelBuild kernelBuild();
// Whether the build's scan fuses its multiply-adds (rules::scanDot).
constexpr bool kernelBuildFuses(KernelBuild build) { return build != KernelBuild::Generic; }
const char* kernelBuildName(KernelBuild build);
// The build of that name (generic, avx2, avx512), if there is one.
std::optional<KernelBuild> kernelBuildNamed(std::string_view name);

// How the AVX-512 build's sixteen-lane scan sums the separation where its
// radius allows it to be taken apart (StepConstants::separationApart):
// Apart, in a pass of its own over the candidates close enough for it, beside
// the pass of the other sums (scan::scanListsApart), or Together, one pass
// over every candidate. Both give the same results, bit for bit. Apart spares
// the separation's 512-bit division for two thirds of the candidates, which
// pays where that division keeps the divider busy for most of a candidate's
// time; it costs a second list of candidates (the fill took a third longer
// in article 000 on the Zen 5) and a second pass. Lock-step, 1 thread, Apart
// against Together: on the Intel Xeon host (2026-12-05) 0.980 of the time in
// article 000's formed school (step 7407) and 0.914 with the app's defaults
// (step 600). On the AMD Zen 5 host, whose divider is fast, Apart first took
// longer (1.016-1.06 in article 000), until the scan compared distances as
// integers (math/lanes.hpp belowLimit), which sped the separation's own pass
// most: then 0.971-0.990 in article 000 (2 threads: 0.975) and 0.924-0.955
// with the app's defaults (2026-12-05). So Apart on every CPU, unless a test
// or a benchmark asks for Together.
enum class SeparationScan { Together, Apart };
SeparationScan bestSeparationScan();
// Chooses for every later step of every simulation; returns it.
SeparationScan useSeparationScan(SeparationScan scan);
SeparationScan separationScan();
const char* separationScanName(SeparationScan scan);  // "together" or "apart"
std::optional<SeparationScan> separationScanNamed(std::string_view name);

namespace detail {
// The builds' entry points (sim/fish_kernel_generic.cpp, sim/fish_kernel_avx2.cpp,
// sim/fish_kernel_avx512.cpp).
ChunkStats runFishKernelGeneric(const KernelInput& in, std::size_t begin, std::size_t end);
ChunkStats runFishKernelAvx2(const KernelInput& in, std::size_t begin, std::size_t end);
ChunkStats runFishKernelAvx512(const KernelInput& in, std::size_t begin, std::size_t end);
}  // namespace detail

// Shortest displacement from a to b (minimum image when the world wraps).
// Always inlined, as the kernel's objects need (UniformGrid::neighbourSpans).
template <typename T>
[[gnu::always_inline]] inline Vec<2, T> displacement(const StepConstants& k, const Vec<2, T>& a, const Vec<2, T>& b) {
    Vec<2, T> d = b - a;
    if (k.boundary == BoundaryMode::Wrap) {
        d[0] -= roundOf(d[0] / k.width) * k.width;
        d[1] -= roundOf(d[1] / k.height) * k.height;
    }
    return d;
}

}  // namespace mirofish
