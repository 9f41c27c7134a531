// Snapshots: a saved and reloaded simulation continues exactly as if it had
// never stopped; anything that is not an intact state file is refused with
// an error that says what is wrong.
#include <catch2/catch.hpp>
#include <cerrno>

#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>

#include "io/snapshot.hpp"
#include "io/state_hash.hpp"
#include "sched/scheduler.hpp"
#include "sched/thread_pool.hpp"
#include "sim/simulation.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;
namespace fs = std::filesystem;

namespace {

Scene richScene() {
    Scene s = loadPreset(shippedPreset("gentle-cruise")).scene;
    s.fishCount = 700;
    s.params.set(ParamId::ReactionLag, 0.5f);  // the lag memory must survive the round trip
    s.fields.push_back(ForceField{0, Vec2{{640, 360}}, 200, 1.5f, FieldKind::Attract});
    s.predators.push_back(Predator{Vec2{{100, 100}}, Vec2{}, PredatorBehaviour::ChaseNearest, {}, 0});
    s.predators.push_back(Predator{Vec2{{1200, 100}}, Vec2{}, PredatorBehaviour::FollowPath,
                                   {Vec2{{1200, 100}}, Vec2{{1200, 600}}, Vec2{{100, 600}}}, 0});
    s.obstacles.push_back(Obstacle{Vec2{{900, 400}}, 60});
    s.leader = Leader{{Vec2{{200, 200}}, Vec2{{1000, 500}}}, Vec2{{200, 200}}, 0};
    return s;
}

// The same, small enough for tests that read or rewrite the file's bytes.
Scene smallRichScene() {
    Scene s = richScene();
    s.fishCount = 40;
    return s;
}

// That small school, stepped a few times on one thread.
struct SmallRun {
    SerialScheduler serial;
    Simulation sim;
    explicit SmallRun(int steps) : sim(smallRichScene(), serial) {
        for (int i = 0; i < steps; ++i) sim.step();
    }
};

std::string messageOf(Simulation& sim, const fs::path& file) {
    try {
        loadSnapshot(sim, file);
    } catch (const SnapshotError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("a snapshot saved at step K and loaded into a fresh simulation continues like an uninterrupted run") {
    TempDir dir;
    ThreadPool pool(2);
    const int k = 75, more = 60;

    Simulation uninterrupted(richScene(), pool);
    for (int i = 0; i < k + more; ++i) uninterrupted.step();

    Simulation first(richScene(), pool);
    for (int i = 0; i < k; ++i) first.step();
    const std::uint64_t atK = stateHash(first);
    saveSnapshot(first, dir / "state.bin");

    // Start from something quite different: the load must replace it all.
    Scene other = loadPreset(shippedPreset("seed-locked")).scene;
    other.fishCount = 50;
    Simulation resumed(other, pool);
    loadSnapshot(resumed, dir / "state.bin");
    CHECK(stateHash(resumed) == atK);
    CHECK(resumed.stepIndex() == static_cast<std::uint64_t>(k));
    CHECK(resumed.scene().fishCount == 700);
    CHECK(resumed.params() == first.params());
    CHECK(resumed.time() == first.time());  // the sum of K steps' lengths, to the last bit
    for (int i = 0; i < more; ++i) resumed.step();
    CHECK(stateHash(resumed) == stateHash(uninterrupted));
    CHECK(resumed.time() == uninterrupted.time());
    CHECK(resumed.ruleForces().mean() == uninterrupted.ruleForces().mean());

    // The interaction layer continues too: the next field gets the same id.
    CHECK(resumed.addForceField(ForceField{}) == uninterrupted.addForceField(ForceField{}));
}

constexpr std::size_t kHeader = 40;  // the payload, which the checksum covers, starts here

// A state file's bytes with the header's version, size and checksum made to
// match its payload: a file as intact as any, of that version.
std::string resealed(std::string bytes, std::uint32_t version) {
    constexpr std::size_t kVersionAt = 16, kSizeAt = 24, kChecksumAt = 32;
    const std::uint64_t size = bytes.size() - kHeader;
    Hasher64 checksum;
    checksum.bytes(bytes.data() + kHeader, size);
    const std::uint64_t digest = checksum.digest();
    std::memcpy(bytes.data() + kVersionAt, &version, 4);
    std::memcpy(bytes.data() + kSizeAt, &size, 8);
    std::memcpy(bytes.data() + kChecksumAt, &digest, 8);
    return bytes;
}

template <typename T>
std::string bytesOf(T value) {
    std::string b(sizeof value, '\0');
    std::memcpy(b.data(), &value, sizeof value);
    return b;
}

// Where the step count and the simulated time of sim lie in its saved bytes.
std::size_t stepAt(const Simulation& sim, const std::string& bytes) {
    const std::size_t at = bytes.find(bytesOf(sim.stepIndex()) + bytesOf(sim.time()), kHeader);
    REQUIRE(at != std::string::npos);
    return at;
}

// The state file of sim, saved, with the 8 bytes of its simulated time
// (right after the step) replaced by `time` (removed where it is empty),
// resealed as `version`.
std::string withTime(const Simulation& sim, const fs::path& file, const std::string& time, std::uint32_t version) {
    saveSnapshot(sim, file);
    std::string bytes = readText(file);
    bytes.replace(stepAt(sim, bytes) + 8, 8, time);
    return resealed(bytes, version);
}

// Where the grid's row stretch lies in the saved bytes of sim: after the
// step, the time, the next field id and the two last means.
std::size_t rowStretchAt(const Simulation& sim, const std::string& bytes) {
    return stepAt(sim, bytes) + 8 + 8 + 4 + 8 + 8;
}

// The state file of sim as a program of an older version saved it: version 5
// has no noise time, version 4 no wander phase either but every fish's
// wander direction, in two arrays before the alarms (here each fish's, as
// such a program left it), version 3 no row stretch either, version 2 no
// time either.
std::string olderFile(const Simulation& sim, const fs::path& file, std::uint32_t version) {
    saveSnapshot(sim, file);
    std::string bytes = readText(file);
    const std::size_t noiseAt = rowStretchAt(sim, bytes) + 4 + 8;
    REQUIRE(bytes.substr(noiseAt, 8) == bytesOf(sim.noiseTicks()));
    bytes.erase(noiseAt, 8);
    if (version == 5) return resealed(bytes, version);
    const std::size_t n = sim.fishCount();
    const std::string directions = bytesOf(0.6f) + bytesOf(-0.8f);
    std::string wander;
    for (std::size_t i = 0; i < n; ++i) wander += directions.substr(0, 4);
    for (std::size_t i = 0; i < n; ++i) wander += directions.substr(4, 4);
    bytes.insert(bytes.size() - 2 * n * sizeof(float), wander);  // before the alarms and the ids
    const std::size_t phaseAt = rowStretchAt(sim, bytes) + 4;
    REQUIRE(bytes.substr(phaseAt, 8) == bytesOf(sim.wanderPhase()));
    bytes.erase(phaseAt, 8);
    REQUIRE(bytes.substr(rowStretchAt(sim, bytes), 4) == bytesOf(sim.save().rowStretch));
    if (version <= 3) bytes.erase(rowStretchAt(sim, bytes), 4);
    if (version == 2) bytes.erase(stepAt(sim, bytes) + 8, 8);
    return resealed(bytes, version);
}

// Whether two simulations hold the same step and the same fish, bit for bit:
// all the state hash covers but the wander phase, which files older than
// version 5 lack.
bool sameStepAndFish(const Simulation& a, const Simulation& b) {
    const std::size_t n = a.fishCount();
    if (b.fishCount() != n || a.stepIndex() != b.stepIndex()) return false;
    for (FishArrays::FloatField m : FishArrays::kFloatFields)
        if (std::memcmp((a.fish().*m).data(), (b.fish().*m).data(), n * sizeof(float)) != 0) return false;
    return std::memcmp(a.fish().id.data(), b.fish().id.data(), n * sizeof(std::uint32_t)) == 0;
}

TEST_CASE("a state file of the version before the noise time was stored loads with the time over the time scale") {
    // As the programs of version 5 computed it: their runs continue as they would have.
    TempDir dir;
    SmallRun run(40);
    const Simulation& sim = run.sim;
    writeText(dir / "v5.bin", olderFile(sim, dir / "v6.bin", 5));
    Simulation resumed(smallRichScene(), run.serial);
    loadSnapshot(resumed, dir / "v5.bin");
    CHECK(sameStepAndFish(resumed, sim));
    CHECK(resumed.wanderPhase() == sim.wanderPhase());
    CHECK(resumed.noiseTicks() == sim.time() / noiseTimeScale(sim.params()));
}

TEST_CASE("a state file of the version before the wander phase was stored still loads, the phase at 0") {
    // Each fish's wander direction then jumps once, to where its fixed phase
    // puts it (rules::wanderDirection), and turns on from there.
    TempDir dir;
    SmallRun run(40);
    const Simulation& sim = run.sim;
    REQUIRE(sim.wanderPhase() > 0.0);
    writeText(dir / "v4.bin", olderFile(sim, dir / "v6.bin", 4));

    Simulation resumed(smallRichScene(), run.serial);
    loadSnapshot(resumed, dir / "v4.bin");
    CHECK(sameStepAndFish(resumed, sim));
    CHECK(resumed.wanderPhase() == 0.0);
    CHECK(resumed.time() == sim.time());
    CHECK(resumed.save().rowStretch == sim.save().rowStretch);
    resumed.step();
    CHECK(resumed.wanderPhase() > 0.0);
}

TEST_CASE("a state file of the version before the time was stored still loads, at the step's time") {
    TempDir dir;
    SmallRun run(75);
    const Simulation& sim = run.sim;
    writeText(dir / "v2.bin", olderFile(sim, dir / "v6.bin", 2));
    const std::uint64_t step = sim.stepIndex();

    Simulation resumed(smallRichScene(), run.serial);
    loadSnapshot(resumed, dir / "v2.bin");
    CHECK(sameStepAndFish(resumed, sim));
    CHECK(resumed.stepIndex() == step);
    CHECK(resumed.time() == static_cast<double>(step) * Simulation::kStepSeconds);
    CHECK(resumed.save().rowStretch == 1.0f);
}

TEST_CASE("a state file of the version before the grid's rows were stretched still loads, with square cells") {
    // Programs of version 3 never stretched the rows: their runs continue as
    // they would have, with rows as tall as the cells are wide, until the
    // school asks for others.
    TempDir dir;
    SmallRun run(30);
    const Simulation& sim = run.sim;
    REQUIRE(sim.save().rowStretch > 1.0f);  // the small school is sparse
    writeText(dir / "v3.bin", olderFile(sim, dir / "v6.bin", 3));

    Simulation resumed(smallRichScene(), run.serial);
    loadSnapshot(resumed, dir / "v3.bin");
    CHECK(sameStepAndFish(resumed, sim));
    CHECK(resumed.time() == sim.time());
    CHECK(resumed.save().rowStretch == 1.0f);
    resumed.step();
    CHECK(resumed.grid().cellHeight() < 1.5f * resumed.grid().cellWidth());
}

TEST_CASE("files that are not intact state files are refused with a clear error") {
    TempDir dir;
    SmallRun run(5);
    const fs::path good = dir / "good.bin";
    saveSnapshot(run.sim, good);
    const std::string bytes = readText(good);
    REQUIRE(bytes.size() > 200);

    Simulation target(smallRichScene(), run.serial);
    const std::uint64_t untouched = stateHash(target);
    const fs::path bad = dir / "bad.bin";

    SECTION("truncated") {
        writeText(bad, bytes.substr(0, bytes.size() / 2));
        const std::string msg = messageOf(target, bad);
        CHECK_THAT(msg, Catch::Contains("truncated"));
        CHECK_THAT(msg, Catch::Contains("bad.bin"));
        writeText(bad, bytes.substr(0, 20));
        CHECK_THAT(messageOf(target, bad), Catch::Contains("truncated"));
        writeText(bad, bytes.substr(0, 8));
        CHECK_THAT(messageOf(target, bad), Catch::Contains("too short"));
        writeText(bad, "");
        CHECK_THAT(messageOf(target, bad), Catch::Contains("too short"));
    }
    SECTION("a payload of gigabytes, which no state holds") {
        // Read whole, it ended in "std::bad_alloc".
        std::string huge = bytes.substr(0, 40);
        const std::uint64_t size = 5ull << 30;
        std::memcpy(huge.data() + 24, &size, 8);  // the payload's size follows the signature and two words
        writeText(bad, huge);
        fs::resize_file(bad, 40 + size);  // sparse: nothing written
        CHECK_THAT(messageOf(target, bad), Catch::Contains("holds 5120 MB, more than any state MiroFish writes"));
        fs::remove(bad);
    }
    SECTION("another kind of file") {
        std::filesystem::copy_file(shippedPreset("gentle-cruise"), bad);
        CHECK_THAT(messageOf(target, bad), Catch::Contains("different kind of file"));
    }
    SECTION("a corrupted byte") {
        for (std::size_t at : {bytes.size() / 2, bytes.size() - 1, std::size_t{40}}) {
            std::string broken = bytes;
            broken[at] = static_cast<char>(broken[at] ^ 0x10);
            writeText(bad, broken);
            INFO("byte " << at);
            CHECK_THAT(messageOf(target, bad), Catch::Contains("corrupted"));
        }
    }
    SECTION("a newer format version") {
        std::string newer = bytes;
        newer[16] = static_cast<char>(kSnapshotVersion + 1);  // the version follows the 16-byte signature
        writeText(bad, newer);
        const std::string msg = messageOf(target, bad);
        CHECK_THAT(msg, Catch::Contains("version " + std::to_string(kSnapshotVersion + 1)));
        CHECK_THAT(msg, Catch::Contains("reads versions " + std::to_string(kOldestSnapshotVersion) + " to " +
                                        std::to_string(kSnapshotVersion)));
    }
    SECTION("a simulated time that is not a number, or below 0") {
        for (const double time : {std::numeric_limits<double>::quiet_NaN(), -1.0, std::numeric_limits<double>::infinity()}) {
            std::string eight(8, '\0');
            std::memcpy(eight.data(), &time, 8);
            writeText(bad, withTime(run.sim, dir / "scratch.bin", eight, kSnapshotVersion));
            INFO("time " << time);
            CHECK_THAT(messageOf(target, bad), Catch::Contains("bad simulated time"));
        }
    }
    SECTION("numbers out of range in a file otherwise intact (its checksum made to match)") {
        const auto edited = [&](std::size_t at, const std::string& value) {
            std::string b = bytes;
            b.replace(at, value.size(), value);
            writeText(bad, resealed(b, kSnapshotVersion));
            return messageOf(target, bad);
        };
        // The world's width comes first in the payload.
        CHECK_THAT(edited(kHeader, bytesOf(std::numeric_limits<float>::quiet_NaN())), Catch::Contains("world size"));
        CHECK_THAT(edited(kHeader, bytesOf(0.0f)), Catch::Contains("world size 0 x"));
        // The fish count follows the world: none, or more than a preset takes.
        CHECK_THAT(edited(kHeader + 8, bytesOf(std::uint32_t{0})), Catch::Contains("fish count 0, outside 1 to 2000000"));
        CHECK_THAT(edited(kHeader + 8, bytesOf(std::uint32_t{2'000'001})), Catch::Contains("fish count 2000001"));
        // Each parameter's value follows its key.
        const std::size_t maxSpeed = bytes.find("maxSpeed", kHeader) + std::string("maxSpeed").size();
        CHECK_THAT(edited(maxSpeed, bytesOf(-50.0f)), Catch::Contains("'maxSpeed' is -50, outside the allowed range"));
        CHECK_THAT(edited(maxSpeed, bytesOf(std::numeric_limits<float>::infinity())), Catch::Contains("'maxSpeed'"));
        const std::size_t boundary = bytes.find("boundaryMode", kHeader) + std::string("boundaryMode").size();
        CHECK_THAT(edited(boundary, bytesOf(7.0f)), Catch::Contains("'boundaryMode' is 7"));
        // A step count this large would wrap around before a run's end.
        CHECK_THAT(edited(stepAt(run.sim, bytes), bytesOf(~std::uint64_t{0})), Catch::Contains("step count"));
        // Rows stretched by an amount this program never chooses.
        for (const float stretch : {1.3f, 0.5f, 3.0f, std::numeric_limits<float>::quiet_NaN()}) {
            INFO("stretch " << stretch);
            CHECK_THAT(edited(rowStretchAt(run.sim, bytes), bytesOf(stretch)),
                       Catch::Contains("grid row stretch") && Catch::Contains("not a multiple of 0.125 from 1 to 2.5"));
        }
        // A wander phase outside a turn, or not a number.
        for (const double phase : {-0.5, 6.5, std::numeric_limits<double>::quiet_NaN()}) {
            INFO("phase " << phase);
            CHECK_THAT(edited(rowStretchAt(run.sim, bytes) + 4, bytesOf(phase)),
                       Catch::Contains("wander phase") && Catch::Contains("not in [0, 2 pi)"));
        }
    }
    SECTION("extra bytes after the end") {
        writeText(bad, bytes + "x");
        CHECK_THAT(messageOf(target, bad), Catch::Contains("unexpected bytes"));
    }
    SECTION("a missing file") {
        CHECK_THAT(messageOf(target, dir / "nope.bin"), Catch::Contains("cannot open") && Catch::Contains(std::strerror(ENOENT)));
    }
    // Whatever was refused, the simulation it was loaded into is unchanged.
    CHECK(stateHash(target) == untouched);
    // And the good file still loads.
    loadSnapshot(target, good);
    CHECK(stateHash(target) == stateHash(run.sim));
}

TEST_CASE("a device named as a state file is refused at once, not read until memory runs out") {
    SerialScheduler serial;
    Simulation sim(richScene(), serial);
    CHECK_THROWS_WITH(loadSnapshot(sim, "/dev/zero"), Catch::Contains("/dev/zero: a device, pipe or socket, not a state file"));
}

TEST_CASE("a failed save leaves no file behind, not even a temporary one") {
    TempDir dir;
    SerialScheduler serial;
    Scene scene = richScene();
    scene.fishCount = 30;
    Simulation sim(scene, serial);

    SECTION("into a folder that does not exist") {
        const fs::path target = dir / "missing" / "state.bin";
        CHECK_THROWS_WITH(saveSnapshot(sim, target), Catch::Contains("state.bin"));
        CHECK_FALSE(fs::exists(target));
        CHECK_FALSE(fs::exists(dir / "missing"));
    }
    SECTION("over something that cannot be replaced (a folder)") {
        const fs::path target = dir / "state.bin";
        fs::create_directory(target);
        CHECK_THROWS_WITH(saveSnapshot(sim, target), Catch::Contains("state.bin"));
        CHECK(fs::is_directory(target));
        CHECK(fs::is_empty(target));
    }
    // Nothing but what the test made itself.
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        INFO(entry.path());
        CHECK(entry.path().filename() == "state.bin");
    }
}

TEST_CASE("saving over an existing snapshot replaces it completely") {
    TempDir dir;
    SerialScheduler serial;
    Scene scene = richScene();
    scene.fishCount = 30;
    Simulation sim(scene, serial);
    saveSnapshot(sim, dir / "s.bin");
    for (int i = 0; i < 10; ++i) sim.step();
    saveSnapshot(sim, dir / "s.bin");
    Simulation other(scene, serial);
    loadSnapshot(other, dir / "s.bin");
    CHECK(other.stepIndex() == 10);
    CHECK(stateHash(other) == stateHash(sim));
}
