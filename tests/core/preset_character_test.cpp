// Every shipped preset shows the character its description promises.
//
// Each preset is loaded from the presets folder, run for its warm-up, then
// sampled every kSampleEvery steps; the metrics are averaged over the samples
// (single frames fluctuate) and compared against the ranges in kCharacters.
// The presets run two at a time on their own threads (each simulation on a
// SerialScheduler, so the results do not depend on the machine), and the
// checks happen afterwards on the test thread.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "io/preset.hpp"
#include "sched/scheduler.hpp"
#include "sim/metrics.hpp"
#include "sim/simulation.hpp"

namespace {

using namespace mirofish;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kSampleEvery = 60;  // one sample a second

struct Range {
    double lo = -kInf, hi = kInf;
    bool contains(double v) const { return v >= lo && v <= hi; }
};

// What a preset must show after its warm-up; unset ranges are not checked.
struct Character {
    const char* id;
    int warmupSteps;
    int samples;
    // Seeds run and averaged over: the preset's own, then 1, 2, ... For a
    // claim about chance (a small school's neighbour count swings from seed
    // to seed more than any tuning moves it).
    int seeds = 1;
    Range neighbours{};      // mean perceived neighbours per fish
    Range polarisation{};    // mean |mean unit heading|
    Range polarisationMax{}; // largest single sample
    Range milling{};         // mean normalised angular momentum
    Range nearest{};         // mean nearest-neighbour distance, px
    Range speedShare{};      // mean speed / maxSpeed
    Range largestGroup{};    // share of the fish in the largest group (linked within the perception radius)
    Range alarmed{};         // share of fish alarmed by a predator
    Range holeDensity{};     // fish density within kHoleRadius of a predator / density in the rest of its range
    Range nearRocks{};       // share of fish within kRockClearance of an obstacle's surface
    Range leaderDistance{};  // mean distance from a fish to the leader, px
};

// The table: id -> expected character. The comments give what the tuning
// measured for the preset's own seed and 11 other seeds (means over the same
// window), to show the margins.
const std::vector<Character> kCharacters = {
    // One school drifting on a wrapped world: polarisation 0.92 (11 others 0.74-0.94), largest group 0.77-0.99.
    // Dense, as its description says: over 40 s after 20 s, seeds 7 and 1-4 read 19.6-27.4 neighbours.
    {.id = "gentle-cruise", .warmupSteps = 1200, .samples = 20,
     .neighbours = {12, kInf}, .polarisation = {0.45, 1.0}, .speedShare = {0.8, 1.0}, .largestGroup = {0.6, 1.0}},
    // Fast and packed below the separation radius (22 px): nn 16.4 (others 16-20) px, speed 0.86 maxSpeed.
    {.id = "compact-rush", .warmupSteps = 1200, .samples = 20,
     .neighbours = {8, kInf}, .nearest = {0, 20}, .speedShare = {0.8, 1.0}},
    // Spread out (nn 27.4 px, others 24.5-28.7: above the 24 px separation radius) and seldom
    // agreeing (polarisation 0.46, others 0.13-0.63).
    {.id = "loose-drift", .warmupSteps = 1200, .samples = 20,
     .polarisation = {0, 0.65}, .nearest = {22, kInf}, .speedShare = {0.9, 1.1}, .largestGroup = {0.4, 1.0}},
    // Article 001: about 6 neighbours with clear gaps. When tuned: 6.4 (others 5.2-8.0). After the
    // kernel's sums changed order (one padded run of candidates per cell): 7.9 on its own seed,
    // 6.25-8.18 on seeds 1-11, two of them above 8 (the mean of 24 seeds: 7.1, before 7.2); so the
    // check is on the mean of 8 seeds: 7.0.
    {.id = "dense-sardines", .warmupSteps = 1800, .samples = 20, .seeds = 8,
     .neighbours = {5, 8}, .nearest = {14, kInf}},
    // Article 000's table and rules: 5-8 neighbours. 65 fish make one or two
    // loose groups. With the app's speed floor, wander and jitter, which the
    // article does not have, single seeds spread widely (40 seeds: mean 6.5,
    // standard deviation about 2) and packed over minutes (seeds 1-8 over
    // 5 min: 6.5-25.9); with its rules alone, seeds 1-8 read 5.6-7.1 after
    // 20 s and 7.0-8.6 over 5 min. The check is on the mean of 8 seeds: 6.4.
    {.id = "seed-locked", .warmupSteps = 1200, .samples = 30, .seeds = 8,
     .neighbours = {5, 8}},
    // Couzin's swarm: together, but no common heading and no rotation (both 0.03-0.07 on 10 seeds, largest group 0.65-1.0).
    // Its own seed's largest group came to 0.53 after the kernel's sums changed order (the mean of 24 seeds
    // stayed 0.71-0.73), so the check is on the mean of 8 seeds: 0.61.
    {.id = "loose-swarm", .warmupSteps = 1200, .samples = 20, .seeds = 8,
     .polarisation = {0, 0.3}, .milling = {0, 0.3}, .largestGroup = {0.5, 1.0}},
    // Couzin's torus: milling 0.98 on its own seed, one group. The school
    // settles either into the mill or into parallel swimming, and a change of
    // rounding anywhere can flip a seed (see the test of several seeds below).
    {.id = "milling-torus", .warmupSteps = 2400, .samples = 15,
     .polarisation = {0, 0.3}, .milling = {0.5, 1.0}, .largestGroup = {0.9, 1.0}},
    // Couzin's dynamic parallel: polarisation 0.73-0.77 on 6 seeds, its samples never above 0.83.
    {.id = "dynamic-parallel", .warmupSteps = 1200, .samples = 20,
     .polarisation = {0.5, 0.9}, .polarisationMax = {0, 0.95}},
    // Couzin's highly parallel: polarisation 0.95-0.98 on every seed.
    {.id = "highly-parallel", .warmupSteps = 1200, .samples = 20,
     .polarisation = {0.9, 1.0}},
    // Predators clear a hole around themselves and alarm part of the school. Chasing the single
    // nearest fish, they could sit on one straggler for the whole window (alarmed 0.01-0.46 on 12
    // seeds, its own seed 0.01); going for the middle of the twelve nearest, every one of 12 seeds
    // alarms 0.16-0.42 of the school over 40 s, its own seed 0.40, so its own seed is checked.
    {.id = "predator-attack", .warmupSteps = 1200, .samples = 20,
     .alarmed = {0.15, 0.6}, .holeDensity = {0, 0.5}},
    // The school parts around the rocks: 0-2.6 % of the fish near a rock (8.6 % if they ignored them).
    // It streams, as its description says: on seed 1 it wound up within 20 s into a mill far from
    // every rock (polarisation 0.07-0.13 over 10-60 s), as on seed 6; seeds 2-5, 7 and 8 stream
    // (0.59-0.93), and its seed, 7, at 0.82-0.92 every 10 s over 3 min.
    {.id = "obstacle-reef", .warmupSteps = 1200, .samples = 20,
     .polarisation = {0.6, 1.0}, .largestGroup = {0.6, 1.0}, .nearRocks = {0, 0.04}},
    // The school trails the leader by 290-320 px on average (410-600 px when it ignores it), polarised.
    {.id = "follow-the-leader", .warmupSteps = 1200, .samples = 20,
     .polarisation = {0.8, 1.0}, .largestGroup = {0.9, 1.0}, .leaderDistance = {0, 380}},
};

constexpr float kHoleRadius = 40.0f;
constexpr float kRockClearance = 20.0f;

const Character* findCharacter(const std::string& id) {
    for (const Character& c : kCharacters)
        if (id == c.id) return &c;
    return nullptr;
}

std::filesystem::path presetFile(const std::string& id) {
    return std::filesystem::path(MIROFISH_PRESET_DIR "/") / (id + ".json");
}

struct Summary {
    std::string error;  // non-empty if the preset failed to load
    double neighbours = 0, polarisation = 0, polarisationMax = 0, milling = 0, nearest = 0, speedShare = 0;
    double largestGroup = 0, alarmed = 0, holeDensity = 0, nearRocks = 0, leaderDistance = 0;
    std::size_t nonFinite = 0;
    int samples = 0;
};

// Shortest offset from a to b, minimum image on a wrapped world.
struct World {
    float width, height;
    bool wrap;
    void offset(float ax, float ay, float bx, float by, float& dx, float& dy) const {
        dx = bx - ax;
        dy = by - ay;
        if (wrap) {
            dx -= width * std::nearbyint(dx / width);
            dy -= height * std::nearbyint(dy / height);
        }
    }
};

// Share of the fish in the largest group, fish linked when closer than `link`.
double largestGroupShare(const Simulation& sim, const World& w, float link) {
    const FishArrays& f = sim.fish();
    const std::size_t n = sim.fishCount();
    std::vector<std::size_t> parent(n);
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    const auto root = [&parent](std::size_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    const float link2 = link * link;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i + 1; j < n; ++j) {
            float dx, dy;
            w.offset(f.px[i], f.py[i], f.px[j], f.py[j], dx, dy);
            if (dx * dx + dy * dy < link2) parent[root(i)] = root(j);
        }
    }
    std::map<std::size_t, std::size_t> sizes;
    std::size_t largest = 0;
    for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, ++sizes[root(i)]);
    return n > 0 ? static_cast<double>(largest) / static_cast<double>(n) : 0.0;
}

Summary measure(const std::string& id, const Character& c) {
    Summary s;
    Preset preset;
    try {
        preset = loadPreset(presetFile(id));
    } catch (const std::exception& e) {
        s.error = e.what();
        return s;
    }
    const Params& p = preset.scene.params;
    const World world{preset.scene.width, preset.scene.height, p.boundaryMode() == BoundaryMode::Wrap};
    const double maxSpeed = p.get(ParamId::MaxSpeed);
    const float perception = p.get(ParamId::PerceptionRadius);
    const float predatorRange = p.get(ParamId::PredatorRadius);
    double holeIn = 0, holeRing = 0;
    for (int run = 0; run < c.seeds; ++run) {
        Scene scene = preset.scene;
        if (run > 0) scene.seed = static_cast<std::uint64_t>(run);
        SerialScheduler scheduler;
        Simulation sim(scene, scheduler);
        for (int t = 0; t < c.warmupSteps; ++t) sim.step();
        for (int k = 0; k < c.samples; ++k) {
            for (int t = 0; t < kSampleEvery; ++t) sim.step();
            const Metrics m = computeMetrics(sim);
            s.neighbours += m.meanNeighbours;
            s.polarisation += m.polarisation;
            s.polarisationMax = std::max(s.polarisationMax, m.polarisation);
            s.milling += m.milling;
            s.nearest += m.meanNearestNeighbour;
            s.speedShare += m.meanSpeed / maxSpeed;
            s.nonFinite += m.nonFinite;
            s.largestGroup += largestGroupShare(sim, world, perception);

            const FishArrays& f = sim.fish();
            const std::size_t n = sim.fishCount();
            std::size_t alarmed = 0;
            for (std::size_t i = 0; i < n; ++i) alarmed += f.alarm[i] > 0.0f ? 1 : 0;
            s.alarmed += static_cast<double>(alarmed) / static_cast<double>(n);
            for (const Predator& pred : sim.scene().predators) {
                for (std::size_t i = 0; i < n; ++i) {
                    float dx, dy;
                    world.offset(pred.position[0], pred.position[1], f.px[i], f.py[i], dx, dy);
                    const float d = std::sqrt(dx * dx + dy * dy);
                    if (d < kHoleRadius)
                        holeIn += 1;
                    else if (d < predatorRange)
                        holeRing += 1;
                }
            }
            std::size_t nearRocks = 0;
            for (std::size_t i = 0; i < n; ++i) {
                for (const Obstacle& o : sim.scene().obstacles) {
                    float dx, dy;
                    world.offset(o.centre[0], o.centre[1], f.px[i], f.py[i], dx, dy);
                    if (std::sqrt(dx * dx + dy * dy) < o.radius + kRockClearance) {
                        ++nearRocks;
                        break;
                    }
                }
            }
            s.nearRocks += static_cast<double>(nearRocks) / static_cast<double>(n);
            if (const auto& leader = sim.scene().leader) {
                double sum = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    float dx, dy;
                    world.offset(leader->position[0], leader->position[1], f.px[i], f.py[i], dx, dy);
                    sum += std::sqrt(dx * dx + dy * dy);
                }
                s.leaderDistance += sum / static_cast<double>(n);
            }
            ++s.samples;
        }
    }
    const double k = std::max(s.samples, 1);
    s.neighbours /= k;
    s.polarisation /= k;
    s.milling /= k;
    s.nearest /= k;
    s.speedShare /= k;
    s.largestGroup /= k;
    s.alarmed /= k;
    s.nearRocks /= k;
    s.leaderDistance /= k;
    // Fish per unit area near the predators against the rest of their range.
    const double areaIn = kHoleRadius * kHoleRadius;
    const double areaRing = static_cast<double>(predatorRange) * predatorRange - areaIn;
    s.holeDensity = holeRing > 0 ? (holeIn / areaIn) / (holeRing / areaRing) : kInf;
    return s;
}

// Runs every preset of the table once (two at a time) and keeps the results.
const std::map<std::string, Summary>& summaries() {
    static const std::map<std::string, Summary> all = [] {
        std::vector<Summary> results(kCharacters.size());
        std::mutex mutex;
        std::size_t next = 0;
        const auto worker = [&] {
            for (;;) {
                std::size_t i;
                {
                    std::lock_guard lock(mutex);
                    if (next >= kCharacters.size()) return;
                    i = next++;
                }
                results[i] = measure(kCharacters[i].id, kCharacters[i]);
            }
        };
        std::thread helper(worker);
        worker();
        helper.join();
        std::map<std::string, Summary> byId;
        for (std::size_t i = 0; i < kCharacters.size(); ++i) byId[kCharacters[i].id] = results[i];
        return byId;
    }();
    return all;
}

std::vector<std::string> shippedPresetIds() {
    std::vector<std::string> ids;
    for (const auto& entry : std::filesystem::directory_iterator(MIROFISH_PRESET_DIR))
        if (entry.is_regular_file() && entry.path().extension() == ".json") ids.push_back(entry.path().stem().string());
    std::sort(ids.begin(), ids.end());
    return ids;
}

void checkRange(const char* what, const Range& r, double value) {
    if (r.lo == -kInf && r.hi == kInf) return;
    INFO(what << " = " << value << ", expected " << r.lo << " to " << r.hi);
    CHECK(r.contains(value));
}

}  // namespace

TEST_CASE("every preset in the presets folder has a stated character", "[presets]") {
    const std::vector<std::string> ids = shippedPresetIds();
    REQUIRE_FALSE(ids.empty());
    for (const std::string& id : ids) {
        INFO("presets/" << id << ".json has no entry in kCharacters");
        CHECK(findCharacter(id) != nullptr);
    }
    // And the table names no preset that is not shipped.
    const std::set<std::string> shipped(ids.begin(), ids.end());
    for (const Character& c : kCharacters) {
        INFO("kCharacters names " << c.id << " but presets/" << c.id << ".json does not exist");
        CHECK(shipped.count(c.id) == 1);
    }
}

TEST_CASE("every shipped preset loads and describes what it shows", "[presets]") {
    for (const std::string& id : shippedPresetIds()) {
        INFO("preset " << id);
        Preset p;
        REQUIRE_NOTHROW(p = loadPreset(presetFile(id)));
        CHECK_FALSE(p.name.empty());
        CHECK(p.description.size() >= 20);  // a sentence, not a placeholder
        CHECK(p.scene.fishCount > 0);
    }
}

TEST_CASE("every shipped preset shows its character after warm-up", "[presets][slow]") {
    const auto& all = summaries();
    for (const Character& c : kCharacters) {
        const Summary& s = all.at(c.id);
        INFO("preset " << c.id << " (" << s.samples << " samples after " << c.warmupSteps << " steps)");
        INFO("means: neighbours " << s.neighbours << ", polarisation " << s.polarisation << " (max "
                                  << s.polarisationMax << "), milling " << s.milling << ", nn " << s.nearest
                                  << " px, speed " << s.speedShare << " x maxSpeed, largest group "
                                  << s.largestGroup << ", alarmed " << s.alarmed << ", hole density "
                                  << s.holeDensity << ", near rocks " << s.nearRocks << ", leader distance "
                                  << s.leaderDistance);
        REQUIRE(s.error.empty());
        CHECK(s.nonFinite == 0);
        checkRange("mean neighbours", c.neighbours, s.neighbours);
        checkRange("mean polarisation", c.polarisation, s.polarisation);
        checkRange("largest polarisation", c.polarisationMax, s.polarisationMax);
        checkRange("mean milling", c.milling, s.milling);
        checkRange("mean nearest-neighbour distance", c.nearest, s.nearest);
        checkRange("mean speed / maxSpeed", c.speedShare, s.speedShare);
        checkRange("largest group share", c.largestGroup, s.largestGroup);
        checkRange("alarmed share", c.alarmed, s.alarmed);
        checkRange("hole density", c.holeDensity, s.holeDensity);
        checkRange("share near rocks", c.nearRocks, s.nearRocks);
        checkRange("mean distance to the leader", c.leaderDistance, s.leaderDistance);
    }
}

TEST_CASE("the milling preset's torus is a lasting state of its school, not a fluke of its seed", "[presets][slow]") {
    // Its school ends up either milling (0.85-0.98) or swimming in parallel
    // (milling 0.25-0.63): 7 of these 12 seeds mill after 40 s. The count
    // moves with any change of the fish's random draws (7, then 5, before two
    // changes of the hashes; 4, then 7 once a forward push at the speed floor
    // stopped turning the fish left). A preset that cannot mill mills on none.
    const Preset preset = loadPreset(presetFile("milling-torus"));
    int milling = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        Scene scene = preset.scene;
        scene.seed = seed;
        SerialScheduler scheduler;
        Simulation sim(scene, scheduler);
        for (int t = 0; t < 2400; ++t) sim.step();
        double mean = 0;
        for (int k = 0; k < 15; ++k) {
            for (int t = 0; t < kSampleEvery; ++t) sim.step();
            mean += computeMetrics(sim).milling / 15.0;
        }
        milling += mean > 0.8 ? 1 : 0;
    }
    CHECK(milling >= 3);
}
