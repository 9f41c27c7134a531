// The headless command line: what a script or a CI job sees (stdout lines,
// the exit code, one line of reason on stderr).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <sched.h>
#include <csignal>
#include <sys/resource.h>

#include "bench_scenes.hpp"
#include "cli/commands.hpp"
#include "cli/preset_paths.hpp"
#include "io/preset.hpp"
#include "sim/fish_kernel.hpp"
#include "support/cli_run.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::cli;
using namespace mirofish::test;

namespace {

// Ordered: the key order of the lines is part of what is checked.
std::vector<nlohmann::ordered_json> jsonLines(const std::string& text) {
    std::vector<nlohmann::ordered_json> out;
    for (const std::string& l : lines(text)) out.push_back(nlohmann::ordered_json::parse(l));
    return out;
}

// The lines of `mirofish bench --json` between the clock lines it starts and
// ends with: its rows, then its speed-ups.
std::vector<nlohmann::ordered_json> benchLines(const std::string& text) {
    const auto js = jsonLines(text);
    REQUIRE(js.size() >= 2);
    CHECK(js.front().value("cpu_clock_at", "") == "start");
    CHECK(js.back().value("cpu_clock_at", "") == "end");
    return {js.begin() + 1, js.end() - 1};
}

// The table rows of a bench run that succeeded, `expected` of them.
std::vector<nlohmann::ordered_json> benchRows(const Run& r, std::size_t expected) {
    REQUIRE(r.code == 0);
    auto rows = benchLines(r.out);
    REQUIRE(rows.size() == expected);
    return rows;
}

std::string hashOf(const Run& r) {
    REQUIRE(r.code == 0);
    const auto js = jsonLines(r.out);
    REQUIRE_FALSE(js.empty());
    return js.back().at("state_hash").get<std::string>();
}

// Bad input: exit 2, nothing on stdout, exactly one line on stderr that
// names the command.
void requireRefused(const Run& r, const std::string& command, const std::string& reason) {
    INFO("stderr: " << r.err);
    CHECK(r.code == kExitBadInput);
    CHECK(r.out.empty());
    CHECK(lines(r.err).size() == 1);
    CHECK(!r.err.empty());
    CHECK(r.err.back() == '\n');
    CHECK_THAT(r.err, Catch::StartsWith("mirofish " + command + ": "));
    CHECK_THAT(r.err, Catch::Contains(reason));
}

const std::vector<std::string> kMetricKeys = {
    "step",           "time",           "fish",          "mean_neighbours",
    "mean_speed",     "polarisation",   "milling",       "mean_nn_distance",
    "force_separation", "force_alignment", "force_cohesion", "nonfinite"};

std::vector<std::string> keysOf(const nlohmann::ordered_json& j) {
    std::vector<std::string> k;
    for (const auto& [key, value] : j.items()) k.push_back(key);
    return k;
}

}  // namespace

TEST_CASE("simulate prints one JSON line of metrics every M steps and a last line with the state hash") {
    const Run r = run(runSimulate, {"--preset", "gentle-cruise", "--steps", "120", "--metrics-every", "30", "--threads", "1"});
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    const auto js = jsonLines(r.out);
    REQUIRE(js.size() == 4);  // steps 30, 60, 90 and the last line at 120
    for (std::size_t i = 0; i < js.size(); ++i) {
        INFO(js[i].dump());
        std::vector<std::string> expected = kMetricKeys;
        if (i + 1 == js.size()) expected.push_back("state_hash");
        CHECK(keysOf(js[i]) == expected);
        CHECK(js[i]["step"] == 30 * (i + 1));
        CHECK(js[i]["time"].get<double>() == 0.5 * static_cast<double>(i + 1));  // not 1.0000000000000013
        CHECK(js[i]["fish"] == 200);
        CHECK(js[i]["nonfinite"] == 0);
        CHECK(js[i]["mean_speed"].get<double>() > 0.0);
    }
    const std::string hash = js.back()["state_hash"];
    CHECK(hash.size() == 16);
    CHECK(hash.find_first_not_of("0123456789abcdef") == std::string::npos);
}

TEST_CASE("simulate leaves out what it has not measured: a lone fish's nearest neighbour, the counts before a step") {
    // 0 px read as fish on top of each other, 0 neighbours as fish that see nobody.
    const Run lone = run(runSimulate, {"--fish", "1", "--steps", "10", "--metrics-every", "10"});
    REQUIRE(lone.code == 0);
    const auto js = jsonLines(lone.out);
    REQUIRE(js.size() == 1);
    CHECK(js[0]["mean_nn_distance"].is_null());
    const Run unstepped = run(runSimulate, {"--steps", "0"});
    REQUIRE(unstepped.code == 0);
    const auto first = jsonLines(unstepped.out).at(0);
    for (const char* key : {"mean_neighbours", "force_separation", "force_alignment", "force_cohesion"}) {
        INFO(key);
        CHECK(first[key].is_null());
    }
    CHECK(first["mean_nn_distance"].get<double>() > 0.0);
}

TEST_CASE("simulate gives the same hash for the same arguments, whatever the thread count") {
    const std::vector<std::string> base = {"--preset", "gentle-cruise", "--fish", "1100", "--steps", "40",
                                           "--metrics-every", "1000"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = base;
        a.insert(a.end(), extra.begin(), extra.end());
        return hashOf(run(runSimulate, a));
    };
    const std::string one = with({"--threads", "1"});
    CHECK(with({"--threads", "1"}) == one);
    CHECK(with({"--threads", "2"}) == one);
    CHECK(with({"--threads", "4"}) == one);
    CHECK(with({"--threads", "2", "--seed", "8"}) != one);
    // --fish and --seed really override the preset.
    const auto js = jsonLines(run(runSimulate, {"--fish", "33", "--steps", "1"}).out);
    CHECK(js.back()["fish"] == 33);
}

TEST_CASE("simulate --save-state then --load-state continues exactly like an uninterrupted run") {
    TempDir dir;
    const std::string state = (dir / "state.bin").string();
    const Run first = run(runSimulate, {"--steps", "50", "--threads", "2", "--save-state", state});
    REQUIRE(first.code == 0);
    const Run resumed = run(runSimulate, {"--steps", "30", "--threads", "1", "--load-state", state});
    const Run whole = run(runSimulate, {"--steps", "80", "--threads", "2"});
    CHECK(hashOf(resumed) == hashOf(whole));
    CHECK(jsonLines(resumed.out).back()["step"] == 80);
    // Every figure of the last line, the simulated time's last bits included.
    CHECK(jsonLines(resumed.out).back() == jsonLines(whole.out).back());
    // The resumed run's intermediate lines fall on the same steps as the uninterrupted one.
    CHECK(jsonLines(resumed.out).front()["step"] == 60);
    // The state is the whole run: a default preset that no longer loads does not matter.
    TempDir presets;
    writeText(presets / "gentle-cruise.json", R"({"format": "mirofish-preset", "version": 1, "name": "G", "fish": 0})");
    const ScopedEnv broken("MIROFISH_PRESETS", presets.path().string());
    const Run withoutDefault = run(runSimulate, {"--steps", "30", "--threads", "1", "--load-state", state});
    CHECK(withoutDefault.err == "");
    CHECK(hashOf(withoutDefault) == hashOf(whole));
}

TEST_CASE("simulate refuses bad arguments with exit code 2 and a one-line reason") {
    TempDir dir;
    writeText(dir / "broken.json", "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"B\", \"fish\": -4}");
    writeText(dir / "junk.bin", "this is not a state file at all, not even close");
    requireRefused(run(runSimulate, {"--bogus"}), "simulate", "unknown option '--bogus'");
    requireRefused(run(runSimulate, {"--steps", "many"}), "simulate", "--steps");
    requireRefused(run(runSimulate, {"--steps", "-5"}), "simulate", "--steps");
    requireRefused(run(runSimulate, {"--steps"}), "simulate", "needs a value");
    requireRefused(run(runSimulate, {"--fish", "--steps", "3"}), "simulate", "'--fish' needs a value");
    requireRefused(run(runSimulate, {"--save-state", ""}), "simulate", "'--save-state' needs a value");
    requireRefused(run(runSimulate, {"--load-state", dir.path().string()}), "simulate", "a folder, not a state file");
    requireRefused(run(runSimulate, {"--threads", "0"}), "simulate", "--threads");
    requireRefused(run(runSimulate, {"--metrics-every", "0"}), "simulate", "--metrics-every");
    requireRefused(run(runSimulate, {"--fish", "0"}), "simulate", "--fish");
    requireRefused(run(runSimulate, {"--seed", "x1"}), "simulate", "--seed");
    // Too long for 64 bits is out of range, not malformed.
    requireRefused(run(runSimulate, {"--steps", "99999999999999999999"}), "simulate",
                   "'--steps' is 99999999999999999999, allowed 0 to 1000000000");
    // A file given bare is a newcomer's first try: the refusal says how it
    // is given. Any other word gets no advice that does not fit.
    requireRefused(run(runSimulate, {"extra"}), "simulate", "unexpected argument 'extra'\n");
    requireRefused(run(runSimulate, {"--steps", "10", "20"}), "simulate", "unexpected argument '20'\n");
    requireRefused(run(runSimulate, {"Mine.JSON"}), "simulate",
                   "unexpected argument 'Mine.JSON' (give a preset as --preset FILE)");
    requireRefused(run(runSimulate, {"song.flac"}), "simulate",
                   "unexpected argument 'song.flac' (give an audio file as --audio FILE)");
    requireRefused(run(runAnalyze, {"song.mp3"}), "analyze",
                   "unexpected argument 'song.mp3' (give an audio file as --audio FILE)");
    requireRefused(run(runSimulate, {"--preset", "no-such-preset"}), "simulate", "no-such-preset");
    // A path is the file alone, never the shipped preset of its name.
    requireRefused(run(runSimulate, {"--preset", (dir / "gentle-cruise").string()}), "simulate",
                   "no preset file '" + (dir / "gentle-cruise").string() + "'\n");
    requireRefused(run(runSimulate, {"--preset", (dir / "broken").string()}), "simulate",
                   "no preset file '" + (dir / "broken").string() + "' (there is '" + (dir / "broken.json").string() +
                       "')\n");
    requireRefused(run(runSimulate, {"--preset", (dir / "broken.json").string()}), "simulate", "'fish'");
    requireRefused(run(runSimulate, {"--load-state", (dir / "missing.bin").string()}), "simulate", "missing.bin");
    requireRefused(run(runSimulate, {"--load-state", (dir / "junk.bin").string()}), "simulate", "junk.bin");
    // Names what to drop: only what was given.
    requireRefused(run(runSimulate, {"--load-state", (dir / "junk.bin").string(), "--fish", "3"}), "simulate",
                   "--load-state restores the fish and the seed; drop --fish\n");
    requireRefused(run(runSimulate, {"--load-state", (dir / "junk.bin").string(), "--seed", "3"}), "simulate",
                   "--load-state restores the fish and the seed; drop --seed\n");
    requireRefused(run(runSimulate, {"--load-state", (dir / "junk.bin").string(), "--seed", "3", "--fish", "3"}),
                   "simulate", "drop --fish and --seed\n");
    // The state brings its own parameters: a preset beside it would be ignored.
    requireRefused(run(runSimulate, {"--load-state", (dir / "junk.bin").string(), "--preset", "gentle-cruise"}),
                   "simulate", "drop --preset");
    // Before the run, not after it (no metrics printed).
    requireRefused(run(runSimulate, {"--steps", "5", "--save-state", dir.path().string()}), "simulate", "is a folder");
    requireRefused(run(runSimulate, {"--steps", "5", "--save-state", "/dev/null"}), "simulate", "a character device");
    // A path longer than the system takes: said as any folder not there, not as a library's error.
    std::string deep = dir.path().string();
    while (deep.size() < 5000) deep += "/d";
    requireRefused(run(runSimulate, {"--steps", "5", "--save-state", deep + "/s.bin"}), "simulate",
                   "does not exist or is not writable");
    // Through a link, the folder checked is the one the link leads into.
    std::filesystem::create_symlink(dir / "absent" / "s.bin", dir / "link.bin");
    requireRefused(run(runSimulate, {"--steps", "5", "--save-state", (dir / "link.bin").string()}), "simulate",
                   "folder '" + (dir / "absent").string() + "' does not exist");
    // Resumed with audio, the run needs the preset it started from: the
    // state holds the parameters as the audio last set them.
    requireRefused(run(runSimulate, {"--load-state", (dir / "junk.bin").string(), "--audio", "any.wav"}), "simulate",
                   "--audio beside --load-state needs --preset");
    // A typo that names an input as the state file would replace it.
    const std::string mine = "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"Mine\"}";
    writeText(dir / "mine.json", mine);
    requireRefused(run(runSimulate, {"--steps", "2", "--preset", (dir / "mine.json").string(), "--save-state",
                                     (dir / "mine.json").string()}),
                   "simulate", "it is the --preset file");
    CHECK(readText(dir / "mine.json") == mine);
    requireRefused(run(runSimulate, {"--steps", "2", "--audio", (dir / "junk.bin").string(), "--save-state",
                                     (dir / "junk.bin").string()}),
                   "simulate", "it is the --audio file");
    CHECK(readText(dir / "junk.bin") == "this is not a state file at all, not even close");
    // Also when the preset is named by its id, and when it is the default one.
    const ScopedEnv presets("MIROFISH_PRESETS", dir.path().string());
    requireRefused(run(runSimulate, {"--steps", "2", "--preset", "mine", "--save-state", (dir / "mine.json").string()}),
                   "simulate", "it is the --preset file");
    CHECK(readText(dir / "mine.json") == mine);
    std::filesystem::rename(dir / "mine.json", dir / "gentle-cruise.json");
    requireRefused(run(runSimulate, {"--steps", "2", "--save-state", (dir / "gentle-cruise.json").string()}),
                   "simulate", "it is the default preset's file");
    CHECK(readText(dir / "gentle-cruise.json") == mine);
}

TEST_CASE("simulate exits 1, keeping nothing, when the state cannot be written at the end, as on a full disk") {
    TempDir dir;
    // Files may not grow past 4 KiB, and the write fails (instead of the signal ending the process).
    rlimit before{};
    REQUIRE(::getrlimit(RLIMIT_FSIZE, &before) == 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    const rlimit small{4096, before.rlim_max};
    REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
    const Run r = run(runSimulate, {"--fish", "500", "--steps", "2", "--save-state", (dir / "s.bin").string()});
    ::setrlimit(RLIMIT_FSIZE, &before);
    std::signal(SIGXFSZ, previousHandler);
    INFO(r.err);
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("s.bin"));
    CHECK_FALSE(std::filesystem::exists(dir / "s.bin"));
}

TEST_CASE("simulate runs a preset given as a file") {
    TempDir dir;
    Preset p;
    p.name = "Tiny";
    p.scene.fishCount = 12;
    p.scene.width = 300;
    p.scene.height = 200;
    savePreset(p, dir / "tiny.json");
    const Run r = run(runSimulate, {"--preset", (dir / "tiny.json").string(), "--steps", "5"});
    REQUIRE(r.code == 0);
    CHECK(jsonLines(r.out).back()["fish"] == 12);
}

TEST_CASE("a preset, state or audio file through a link to a drive not mounted is named so, not as missing") {
    // "no such file" sent the user looking for a file that sat on an
    // unplugged drive.
    TempDir dir;
    std::filesystem::create_directory_symlink(dir / "unmounted", dir / "drive");
    const std::string drive = "'" + (dir / "drive").string() + "' is a link to '" + (dir / "unmounted").string() +
                              "', which is not there (a drive not mounted?)";
    requireRefused(run(runSimulate, {"--preset", (dir / "drive" / "school.json").string()}), "simulate", drive);
    requireRefused(run(runValidate, {(dir / "drive" / "school.json").string()}), "validate", drive);
    requireRefused(run(runSimulate, {"--load-state", (dir / "drive" / "run.state").string()}), "simulate", drive);
    requireRefused(run(runSimulate, {"--audio", (dir / "drive" / "song.wav").string()}), "simulate", drive);
    // Through a link to that link: the one that leads nowhere is named.
    std::filesystem::create_directory_symlink(dir / "drive", dir / "alias");
    requireRefused(run(runSimulate, {"--audio", (dir / "alias" / "song.wav").string()}), "simulate", drive);
    // "./" in front names the link as it is.
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    const Run local = run(runSimulate, {"--audio", "./drive/song.wav"});
    // A bare name, here or among your presets, whose file is such a link.
    std::filesystem::create_symlink(dir / "unmounted" / "school.json", dir / "school.json");
    const Run bare = run(runSimulate, {"--preset", "school.json"});
    std::filesystem::current_path(before);
    requireRefused(local, "simulate", drive);
    requireRefused(bare, "simulate", "no preset or file named 'school.json': '" + (dir / "school.json").string() +
                                         "' is a link to '" + (dir / "unmounted" / "school.json").string() +
                                         "', which is not there (a drive not mounted?)");
    TempDir yours;
    const ScopedEnv user("MIROFISH_USER_PRESETS", yours.path().string());
    std::filesystem::create_symlink(dir / "unmounted" / "mine.json", yours / "mine.json");
    const std::string mine = "'" + (yours / "mine.json").string() + "' is a link to '" +
                             (dir / "unmounted" / "mine.json").string() + "', which is not there";
    requireRefused(run(runSimulate, {"--preset", "mine"}), "simulate", "no preset or file named 'mine': " + mine);
    requireRefused(run(runValidate, {"mine"}), "validate", "mine: " + mine);
    // Your folder itself such a link: a typo is still told with the presets there are.
    const ScopedEnv unplugged("MIROFISH_USER_PRESETS", (dir / "drive" / "presets").string());
    requireRefused(run(runSimulate, {"--preset", "gentle-cruse"}), "simulate",
                   "no preset or file named 'gentle-cruse' (known presets: ");
}

TEST_CASE("validate accepts a good preset and refuses a broken one") {
    TempDir dir;
    const std::string good = shippedPreset("gentle-cruise").string();
    const Run ok = run(runValidate, {good});
    CHECK(ok.code == 0);
    CHECK_THAT(ok.out, Catch::Contains("ok"));
    CHECK(ok.err.empty());

    writeText(dir / "bad.json",
              "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"B\", \"params\": {\"maxSpeed\": -1}}");
    const Run bad = run(runValidate, {(dir / "bad.json").string()});
    requireRefused(bad, "validate", "bad.json");
    CHECK_THAT(bad.err, Catch::Contains("maxSpeed") && Catch::Contains("1 to 5000"));

    // Several files: every one is reported; one bad file fails the run.
    const Run mixed = run(runValidate, {good, (dir / "bad.json").string()});
    CHECK(mixed.code == kExitBadInput);
    CHECK_THAT(mixed.out, Catch::Contains("gentle-cruise.json: ok"));
    CHECK(lines(mixed.err).size() == 1);

    requireRefused(run(runValidate, {}), "validate", "preset file");
    requireRefused(run(runValidate, {(dir / "absent.json").string()}), "validate", "absent.json");
    requireRefused(run(runValidate, {dir.path().string()}), "validate", "a folder, not a preset file");
    requireRefused(run(runValidate, {"--strict"}), "validate", "unknown option");
}

TEST_CASE("validate takes a preset's id where no file has that name, as the other commands do") {
    // "validate my-school" said only that there was no such file, where
    // `edit --preset my-school` opened it.
    TempDir dir;
    const ScopedEnv user("MIROFISH_USER_PRESETS", dir.path().string());
    writeText(dir / "my-school.json", R"({"format": "mirofish-preset", "version": 1, "name": "My school", "fish": 40})");
    const Run ok = run(runValidate, {"my-school", "gentle-cruise"});
    INFO(ok.err);
    CHECK(ok.code == 0);
    CHECK_THAT(ok.out, Catch::Contains("my-school (" + (dir / "my-school.json").string() + "): ok (My school, 40 fish)"));
    CHECK_THAT(ok.out, Catch::Contains("gentle-cruise (") && Catch::Contains("gentle-cruise.json): ok (Gentle cruise"));
    requireRefused(run(runValidate, {"no-such-school"}), "validate", "no such file, nor a preset of that id");
    // Where your own presets are read from, which `presets` does not print: it lists ids, not files.
    requireRefused(run(runValidate, {"no-such-school"}), "validate", "your own presets are read from " + dir.path().string());
    // A path is the file alone, said as --preset says it.
    requireRefused(run(runValidate, {(dir / "my-school").string()}), "validate",
                   "no preset file '" + (dir / "my-school").string() + "' (there is '" +
                       (dir / "my-school.json").string() + "')\n");
    // A folder of frames rendered from it, here, named as it: the preset still, as --preset takes it.
    std::filesystem::create_directories(dir / "frames" / "my-school");
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(dir / "frames");
    const Run beside = run(runValidate, {"my-school"});
    std::filesystem::current_path(before);
    INFO(beside.err);
    CHECK(beside.code == 0);
}

TEST_CASE("validate reports a preset with a number out of range by name and goes on with the other files") {
    TempDir dir;
    writeText(dir / "a.json", R"({"format": "mirofish-preset", "version": 1, "name": "A", "fish": 1e400})");
    const std::string good = shippedPreset("gentle-cruise").string();
    const Run r = run(runValidate, {(dir / "a.json").string(), good});
    CHECK(r.code == kExitBadInput);
    CHECK_THAT(r.out, Catch::Contains("gentle-cruise.json: ok"));
    CHECK(lines(r.err).size() == 1);
    CHECK_THAT(r.err, Catch::StartsWith("mirofish validate: " + (dir / "a.json").string() + ": number out of range"));
}

TEST_CASE("presets lists the others and names the one skipped when a preset folder holds a number out of range") {
    TempDir dir;
    writeText(dir / "overflowing.json", R"({"format": "mirofish-preset", "version": 1, "name": "O", "fish": 1e400})");
    const ScopedEnv presets("MIROFISH_PRESETS", dir.path().string());
    const Run r = run(runPresets, {});
    CHECK(r.code == kExitOk);
    CHECK_THAT(r.out, Catch::Contains("gentle-cruise  ("));
    CHECK_THAT(r.err, Catch::Contains("skipped " + (dir / "overflowing.json").string() + ": number out of range"));
}

TEST_CASE("a preset's key, value or file name holding an escape sequence reaches the terminal written out, not obeyed") {
    // "\u001b[2J" in a key cleared the terminal of whoever ran validate.
    TempDir dir;
    writeText(dir / "key.json", "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"K\", \"\\u001b[2Jkey\": 1}");
    writeText(dir / "value.json",
              "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"V\", \"params\": {\"boundaryMode\": \"\\u009b31mX\"}}");
    const Preset shipped = loadPreset(shippedPreset("gentle-cruise"));
    savePreset(shipped, dir / "red\x1b[31mX.json");
    const auto raw = [](const std::string& text) {
        return text.find('\x1b') != std::string::npos || text.find("\xc2\x9b") != std::string::npos;
    };
    const Run key = run(runValidate, {(dir / "key.json").string()});
    requireRefused(key, "validate", "'U+001B[2Jkey' is not a known key here");
    const Run value = run(runValidate, {(dir / "value.json").string()});
    requireRefused(value, "validate", "is 'U+009B31mX', allowed:");
    const Run named = run(runValidate, {(dir / "red\x1b[31mX.json").string()});
    CHECK(named.code == kExitOk);
    CHECK_THAT(named.out, Catch::Contains("redU+001B[31mX.json: ok"));
    const ScopedEnv presets("MIROFISH_PRESETS", dir.path().string());
    const Run listed = run(runPresets, {});
    CHECK_THAT(listed.out, Catch::Contains("redU+001B[31mX  (Gentle cruise)"));
    CHECK_THAT(listed.err, Catch::Contains("U+001B[2Jkey") && Catch::Contains("U+009B31mX"));
    for (const Run* r : {&key, &value, &named, &listed}) {
        CHECK_FALSE(raw(r->out));
        CHECK_FALSE(raw(r->err));
    }
}

TEST_CASE("your preset folder set as ~/NAME is in your home, and set as a relative name it is said whole") {
    // Set in quotes, ~ named a folder "~" in the working folder, where the
    // presets saved were not found from any other folder.
    TempDir dir;
    {
        const ScopedEnv home("HOME", dir.path().string());
        const ScopedEnv user("MIROFISH_USER_PRESETS", "~/mine");
        CHECK(userPresetDirectory() == dir / "mine");
    }
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(dir.path());
    const ScopedEnv user("MIROFISH_USER_PRESETS", "relative");
    const std::filesystem::path relative = userPresetDirectory();
    std::filesystem::current_path(before);
    CHECK(relative == dir / "relative");
}

TEST_CASE("preset folders that cannot be read are named by presets and validate, and ~ in $MIROFISH_PRESETS is the home") {
    // A folder misspelt in $MIROFISH_PRESETS, or set as '~/team', was
    // skipped without a word: its presets seemed lost.
    TempDir dir;
    std::filesystem::create_directory(dir / "team");
    Preset team = loadPreset(shippedPreset("gentle-cruise"));
    team.name = "Team school";
    savePreset(team, dir / "team" / "team-school.json");
    const ScopedEnv home("HOME", dir.path().string());
    {
        const ScopedEnv shared("MIROFISH_PRESETS", "~/team:" + (dir / "absent").string());
        const Run listed = run(runPresets, {});
        CHECK_THAT(listed.out, Catch::Contains("team-school  (Team school)"));
        CHECK_THAT(listed.err, Catch::Contains("mirofish presets: $MIROFISH_PRESETS names '" + (dir / "absent").string() +
                                               "': '" + (dir / "absent").string() + "' is not there"));
        requireRefused(run(runValidate, {"no-such-school"}), "validate",
                       "$MIROFISH_PRESETS names '" + (dir / "absent").string() + "'");
    }
    // Your own folder a link to a drive not mounted: your presets seemed gone.
    std::filesystem::create_directory_symlink(dir / "unmounted", dir / "mine");
    {
        const ScopedEnv user("MIROFISH_USER_PRESETS", (dir / "mine").string());
        CHECK_THAT(run(runPresets, {}).err, Catch::Contains("your presets folder: '" + (dir / "mine").string() +
                                                            "' is a link to '" + (dir / "unmounted").string() +
                                                            "', which is not there"));
    }
    // ~ without a home: no folder named ~ in the working folder, and said so.
    const ScopedEnv user("MIROFISH_USER_PRESETS", "~/mine");
    ::unsetenv("HOME");
    const std::filesystem::path yours = userPresetDirectory();
    const Run listed = run(runPresets, {});
    ::setenv("HOME", dir.path().string().c_str(), 1);
    CHECK(yours.empty());
    CHECK_THAT(listed.err, Catch::Contains("$MIROFISH_USER_PRESETS is '~/mine', which starts with ~, the home folder, "
                                           "and HOME is not set"));
}

TEST_CASE("a preset saved in your folder opens by its id from the command line, and presets lists it as yours") {
    TempDir yours;
    const ScopedEnv user("MIROFISH_USER_PRESETS", yours.path().string() + "/");
    Preset mine = loadPreset(shippedPreset("gentle-cruise"));
    mine.name = "My show";
    mine.scene.fishCount = 37;
    savePreset(mine, yours / "my-show.json");

    const Run listed = run(runPresets, {});
    CHECK_THAT(listed.out, Catch::Contains("my-show  (My show)  yours"));
    CHECK_THAT(listed.out, Catch::Contains("gentle-cruise  (Gentle cruise)\n"));
    const Run simulated = run(runSimulate, {"--preset", "my-show", "--steps", "1"});
    REQUIRE(simulated.code == kExitOk);
    CHECK_THAT(simulated.out, Catch::Contains("\"fish\":37"));

    // One with a shipped preset's id never opens by it: presets says why it is missing.
    savePreset(mine, yours / "gentle-cruise.json");
    const Run shadowed = run(runPresets, {});
    CHECK(shadowed.code == kExitOk);
    CHECK_THAT(shadowed.err, Catch::Contains("skipped " + (yours / "gentle-cruise.json").string() + ": ") &&
                                 Catch::Contains(" has the same id 'gentle-cruise' and comes first; rename the file to open it"));
    CHECK_THAT(shadowed.out, Catch::Contains("gentle-cruise  (Gentle cruise)\n"));
}

TEST_CASE("presets indents every line of a description of several lines") {
    // A line at the margin looked like a preset's id.
    TempDir dir;
    Preset lined = loadPreset(shippedPreset("gentle-cruise"));
    lined.name = "Lined";
    lined.description = "line one\nline two\n\nline four";
    savePreset(lined, dir / "lined.json");
    const ScopedEnv presets("MIROFISH_PRESETS", dir.path().string());
    const Run listed = run(runPresets, {});
    CHECK_THAT(listed.out, Catch::Contains("lined  (Lined)\n    line one\n    line two\n\n    line four\n"));
}

TEST_CASE("presets lists the shipped presets with their descriptions, and the parameters") {
    const Run r = run(runPresets, {});
    REQUIRE(r.code == 0);
    for (const PresetInfo& p : listPresets({MIROFISH_PRESET_DIR})) {
        CHECK_THAT(r.out, Catch::Contains(p.id + "  (" + p.name + ")"));
        CHECK_THAT(r.out, Catch::Contains(p.description));
    }
    const Run params = run(runPresets, {"--params"});
    REQUIRE(params.code == 0);
    for (const ParamDef& d : paramRegistry()) CHECK_THAT(params.out, Catch::Contains(std::string(d.key)));
    const Run md = run(runPresets, {"--params", "--markdown"});
    REQUIRE(md.code == 0);
    CHECK(lines(md.out).size() == kParamCount + 2);
    CHECK_THAT(md.out, Catch::Contains("| `maxSpeed` | px/s | 1 to 5000 px/s | 160 | log |"));
    requireRefused(run(runPresets, {"--all"}), "presets", "unknown option");
    requireRefused(run(runPresets, {"--markdown"}), "presets", "--markdown goes with --params");
}

TEST_CASE("a command whose output cannot be written, as on a full disk, exits 1 and says so on stderr") {
    const std::string good = shippedPreset("gentle-cruise").string();
    const std::vector<std::pair<Command, std::vector<std::string>>> commands = {
        {runSimulate, {"--preset", "gentle-cruise", "--fish", "20", "--steps", "0"}},
        {runPresets, {"--params"}},
        {runPresets, {}},
        {runValidate, {good}},
        {runSimulate, {"--help"}},
    };
    for (const auto& [command, args] : commands) {
        INFO((args.empty() ? std::string("(no arguments)") : args.front()));
        const Run r = runToFullDisk(command, args);
        CHECK(r.code == kExitFailed);
        CHECK_THAT(r.err, Catch::EndsWith("could not write the output: " + std::string(std::strerror(ENOSPC)) + "\n"));
    }
    // A command that failed already keeps its own exit code.
    CHECK(runToFullDisk(runSimulate, {"--steps", "x"}).code == kExitBadInput);
}

TEST_CASE("simulate stops at its first line that cannot be written, not after every step asked for") {
    // `simulate --steps 1000000 | head -1` with SIGPIPE ignored ran every step.
    TempDir dir;
    const Run r = runToFullDisk(runSimulate, {"--preset", "gentle-cruise", "--fish", "20", "--steps", "100000000",
                                              "--metrics-every", "1", "--save-state", (dir / "end.state").string()});
    CHECK(r.code == kExitFailed);
    CHECK_THAT(r.err, Catch::Contains("could not write the output"));
    CHECK_FALSE(std::filesystem::exists(dir / "end.state"));  // the run's end was never reached
    // Fewer steps than --metrics-every: the last line is the first, and the same holds.
    const Run few = runToFullDisk(runSimulate, {"--preset", "gentle-cruise", "--fish", "20", "--steps", "5",
                                                "--save-state", (dir / "few.state").string()});
    CHECK(few.code == kExitFailed);
    CHECK_THAT(few.err, Catch::EndsWith("could not write the output: " + std::string(std::strerror(ENOSPC)) + "\n"));
    CHECK_FALSE(std::filesystem::exists(dir / "few.state"));
}

TEST_CASE("every command explains itself with --help or -h and exits 0") {
    for (Command c : {runSimulate, runBench, runValidate, runPresets})
        for (const char* help : {"--help", "-h"}) {
            const Run r = run(c, {help});
            CHECK(r.code == 0);
            CHECK_THAT(r.out, Catch::StartsWith("usage: mirofish "));
            CHECK_THAT(r.out, Catch::Contains("--help"));
            CHECK(r.err.empty());
        }
}

TEST_CASE("after -- every word is a file, one named like an option too") {
    TempDir dir;
    const std::filesystem::path odd = dir / "--odd.json";
    std::filesystem::copy_file(shippedPreset("gentle-cruise"), odd);
    const Run r = run(runValidate, {"--", odd.string()});
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("--odd.json: ok"));
    CHECK(r.err.empty());
}

TEST_CASE("a value given as --name=~/FILE is in the home folder, as the shell reads --name ~/FILE") {
    // Bash leaves ~ after '=' as it is: a folder named ~ appeared in the
    // working folder, and a later "rm -rf ~" meant for it is the home's.
    TempDir home, work;
    const ScopedEnv setHome("HOME", home.path().string());
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(work.path());
    const Run saved = run(runSimulate, {"--steps", "2", "--fish", "5", "--save-state=~/run.state"});
    const Run loaded = run(runSimulate, {"--steps", "1", "--load-state=~/run.state"});
    ::unsetenv("HOME");
    const Run homeless = run(runSimulate, {"--steps", "1", "--load-state=~/run.state"});
    ::setenv("HOME", home.path().string().c_str(), 1);
    std::filesystem::current_path(before);
    CHECK(saved.code == 0);
    CHECK(std::filesystem::is_regular_file(home / "run.state"));
    CHECK_FALSE(std::filesystem::exists(work / "~"));
    CHECK(loaded.code == 0);
    requireRefused(homeless, "simulate", "option '--load-state' is '~/run.state', which starts with ~, the home "
                                         "folder, and HOME is not set");
}

TEST_CASE("bench's help names the separation scan it takes when none is chosen") {
    const Run r = run(runBench, {"--help"});
    CHECK_THAT(r.out, Catch::Contains(std::string("(default: ") + separationScanName(bestSeparationScan()) + ")"));
}

TEST_CASE("bench refuses bad arguments with exit code 2") {
    requireRefused(run(runBench, {"--fish", "0"}), "bench", "--fish");
    requireRefused(run(runBench, {"--fish", "10,x"}), "bench", "--fish");
    requireRefused(run(runBench, {"--fish", "1000,"}), "bench", "needs numbers separated by commas, got '1000,'");
    requireRefused(run(runBench, {"--threads", "0"}), "bench", "--threads");
    requireRefused(run(runBench, {"--fast"}), "bench", "unknown option");
    requireRefused(run(runBench, {"--seconds", "0"}), "bench", "'--seconds' is 0, allowed 0.01 to 3600");
    requireRefused(run(runBench, {"--seconds", "2", "--steps", "5"}), "bench", "give --seconds or --steps, not both");
}

TEST_CASE("an option given twice is refused by name, not silently the last one") {
    requireRefused(run(runSimulate, {"--steps", "5", "--seed", "3", "--steps", "50"}), "simulate",
                   "option '--steps' is given twice; give it once");
    requireRefused(run(runBench, {"--json", "--json"}), "bench", "option '--json' is given twice");
}

TEST_CASE("a number just outside its range is shown with the digits that tell it from the bound") {
    requireRefused(run(runBench, {"--seconds", "3600.0000001"}), "bench", "'--seconds' is 3600.0000001, allowed 0.01 to 3600");
}

TEST_CASE("bench --repeat measures every row several times and reports their spread") {
    const Run r = run(runBench, {"--fish", "2000", "--threads", "1,2", "--steps", "12", "--repeat", "3", "--pairs", "0",
                                 "--json"});
    const auto rows = benchRows(r, 6);  // one summary per row, not one line per run
    for (const auto& row : rows) {
        INFO(row.dump());
        CHECK(row.at("runs") == 3);
        CHECK(row.at("steps") == 12);
        const double fastest = row.at("ns_per_fish_step_fastest").get<double>();
        CHECK(fastest > 0);
        CHECK(fastest <= row.at("ns_per_fish_step").get<double>());
        CHECK(row.at("ns_per_fish_step").get<double>() <= row.at("ns_per_fish_step_slowest").get<double>());
        // Which build of the kernel ran (sim/fish_kernel.hpp).
        CHECK(row.at("kernel_build") == kernelBuildName(kernelBuild()));
    }
    // Progress: one line per run on the error stream.
    CHECK_THAT(r.err, Catch::Contains("round 3 of 3: article-000, 3000 fish, 2 threads"));
    requireRefused(run(runBench, {"--repeat", "0"}), "bench", "--repeat");
}

TEST_CASE("bench times article 000's scenes over the same steps on every machine, whatever --seconds asks") {
    // How dense their school is changes over minutes: a count of steps set by
    // the host's speed would time another school on a faster or slower machine.
    const Run r = run(runBench, {"--fish", "2000", "--threads", "1", "--seconds", "1", "--pairs", "0", "--json"});
    const auto rows = benchRows(r, 3);
    for (const auto& row : rows) {
        INFO(row.dump());
        const std::string scene = row.at("scene");
        const auto steps = row.at("steps").get<std::uint64_t>();
        if (scene == bench::kArticle000Name)
            CHECK(steps == bench::kArticle000TimedSteps);
        else if (scene == bench::kArticle000AppName)
            CHECK(steps == bench::kArticle000AppTimedSteps);
        else  // the constant-density scene: as many steps as fill the second asked for
            CHECK(static_cast<double>(steps) / row.at("steps_per_second").get<double>() >= 1.0);
    }
}

TEST_CASE("bench times the speed-up over 1 thread of every scene in pairs of runs of the same steps") {
    const Run r = run(runBench, {"--fish", "2000", "--threads", "1,2", "--steps", "12", "--pairs", "2", "--json"});
    REQUIRE(r.code == 0);
    const auto lines = benchLines(r.out);
    REQUIRE(lines.size() == 9);  // the six rows, then one speed-up per scene on 2 threads
    for (std::size_t k = 0; k < 6; ++k) CHECK_FALSE(lines[k].contains("speed_up_vs_1_thread"));
    for (std::size_t k = 6; k < 9; ++k) {
        const auto& s = lines[k];
        INFO(s.dump());
        CHECK(s.at("scene") == lines[k - 6].at("scene"));
        CHECK(s.at("threads") == 2);
        CHECK(s.at("pairs") == 2);
        CHECK(s.at("steps_per_run").get<int>() >= 1);
        const double median = s.at("speed_up_vs_1_thread").get<double>();
        CHECK(median > 0);
        CHECK(s.at("speed_up_lowest").get<double>() <= median);
        CHECK(median <= s.at("speed_up_highest").get<double>());
#ifdef __linux__
        // Each CPU's time alone and beside the others, and the bound they give.
        const auto cpus = s.at("cpus").size();
        CHECK(cpus >= 1);
        CHECK(s.at("seconds_per_run_on_each_cpu").size() == cpus);
        CHECK(s.at("seconds_per_run_on_each_cpu_together").size() == cpus);
        for (const auto& t : s.at("seconds_per_run_on_each_cpu_together")) CHECK(t.get<double>() > 0);
        CHECK(s.at("speed_up_bound").get<double>() > 0);
#endif
    }
    // Progress: one line per pair on the error stream.
    CHECK_THAT(r.err, Catch::Contains("pair 2 of 2: article-000, 3000 fish"));
    // Without a 1-thread row there is nothing to compare with.
    const Run alone = run(runBench, {"--fish", "2000", "--threads", "2", "--steps", "12", "--pairs", "2", "--json"});
    REQUIRE(alone.code == 0);
    CHECK(benchLines(alone.out).size() == 3);
    CHECK_THAT(alone.err, Catch::Contains("no speed-ups over 1 thread: --threads has no 1"));
    requireRefused(run(runBench, {"--pairs", "-1"}), "bench", "--pairs");
}

TEST_CASE("bench --kernel times the build asked for, and the AVX2 and AVX-512 builds find the same neighbours") {
    const KernelBuild before = kernelBuild();
    std::vector<nlohmann::ordered_json> fused;
    for (KernelBuild build : kKernelBuilds) {
        const std::string name = kernelBuildName(build);
        const Run r = run(runBench, {"--fish", "2000", "--threads", "1", "--steps", "12", "--pairs", "0", "--kernel",
                                     name, "--json"});
        if (!cpuRuns(build)) {
            requireRefused(r, "bench", "this CPU cannot run the " + name + " kernel");
            continue;
        }
        REQUIRE(r.code == 0);
        const auto rows = benchLines(r.out);
        REQUIRE(rows.size() == 3);
        // The same work: the same neighbours where the arithmetic is the same.
        if (fused.empty() && kernelBuildFuses(build)) fused = rows;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            INFO(rows[i].dump());
            CHECK(rows[i].at("kernel_build") == name);
            CHECK(rows[i].contains("separation") == (build == KernelBuild::Avx512));  // the only build with a choice
            if (kernelBuildFuses(build)) CHECK(rows[i].at("mean_neighbours") == fused[i].at("mean_neighbours"));
        }
        // The choice lasts for the command only.
        CHECK(kernelBuild() == before);
    }
    requireRefused(run(runBench, {"--kernel", "sse9"}), "bench", "--kernel must be generic, avx2 or avx512");
}

TEST_CASE("bench --separation times the way asked for, with the same neighbours, for the command only") {
    // A build without the choice refuses it rather than label its rows with it.
    requireRefused(run(runBench, {"--kernel", "generic", "--separation", "together"}), "bench",
                   "--separation concerns the avx512 build's scan; this run times the generic build");
    if (!cpuRuns(KernelBuild::Avx512)) return;
    const SeparationScan before = separationScan();
    std::vector<nlohmann::ordered_json> first;
    for (const char* name : {"together", "apart"}) {
        const Run r = run(runBench, {"--fish", "2000", "--threads", "1", "--steps", "12", "--pairs", "0", "--kernel",
                                     "avx512", "--separation", name, "--json"});
        REQUIRE(r.code == 0);
        const auto rows = benchLines(r.out);
        REQUIRE(rows.size() == 3);
        if (first.empty()) first = rows;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            INFO(rows[i].dump());
            CHECK(rows[i].at("separation") == name);
            CHECK(rows[i].at("mean_neighbours") == first[i].at("mean_neighbours"));
            CHECK(rows[i].at("mean_candidates") == first[i].at("mean_candidates"));
        }
        CHECK(separationScan() == before);
    }
    requireRefused(run(runBench, {"--separation", "alone"}), "bench", "--separation must be apart or together");
}

TEST_CASE("bench notes how far apart the cores were for every run on more than one thread") {
    cpu_set_t allowed;
    REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
    const bool twoCpus = CPU_COUNT(&allowed) >= 2;
    const Run r = run(runBench, {"--fish", "2000", "--threads", "1,2", "--steps", "12", "--pairs", "0", "--json"});
    const auto rows = benchRows(r, 6);
    for (const auto& row : rows) {
        INFO(row.dump());
        if (row.at("threads") == 1 || !twoCpus) {
            CHECK_FALSE(row.contains("cores_round_trip_ns"));
            continue;
        }
        // An atomic's trip there and back: more than nothing, far less than a millisecond.
        const double ns = row.at("cores_round_trip_ns").get<double>();
        CHECK(ns > 1.0);
        CHECK(ns < 1e6);
    }
    // The table's last column, a dash where it was not measured.
    const Run table = run(runBench, {"--fish", "2000", "--threads", "1,2", "--steps", "12", "--pairs", "0"});
    REQUIRE(table.code == 0);
    const std::vector<std::string> text = lines(table.out);
    REQUIRE(text.size() == 10);  // the CPU and build, the clock, the header, six rows, the clock
    CHECK_THAT(text[2], Catch::EndsWith("round trip ns"));
    for (std::size_t i = 3; i < 6; ++i) CHECK_THAT(text[i], Catch::EndsWith(" -"));
    if (twoCpus)
        for (std::size_t i = 6; i < 9; ++i) CHECK_THAT(text[i], !Catch::EndsWith(" -"));
    // Repeated, each run's progress line gives its own, where it was measured.
    const Run repeated = run(runBench, {"--fish", "2000", "--threads", "1,2", "--steps", "6", "--repeat", "2",
                                        "--pairs", "0", "--json"});
    REQUIRE(repeated.code == 0);
    int apart = 0, oneThread = 0;
    for (const std::string& line : lines(repeated.err)) {
        if (line.rfind("round ", 0) != 0) continue;
        INFO(line);
        if (line.find(" 1 thread:") != std::string::npos) {
            ++oneThread;
            CHECK_THAT(line, Catch::EndsWith("ns/fish-step"));
        } else if (twoCpus) {
            CHECK_THAT(line, Catch::Matches(".*ns/fish-step, the CPUs [0-9]+ ns apart"));
            ++apart;
        }
    }
    CHECK(oneThread == 6);  // three scenes, two rounds
    CHECK(apart == (twoCpus ? 6 : 0));
}

TEST_CASE("bench names the CPU and the clock each CPU ran at, before the table and at the end") {
    cpu_set_t allowed;
    REQUIRE(sched_getaffinity(0, sizeof allowed, &allowed) == 0);
    const Run r = run(runBench, {"--fish", "2000", "--threads", "1", "--steps", "3", "--pairs", "0", "--json"});
    REQUIRE(r.code == 0);
    const auto js = jsonLines(r.out);
    REQUIRE(js.size() == 5);  // the clock, three rows, the clock
    for (const auto& clock : {js.front(), js.back()}) {
        INFO(clock.dump());
        CHECK(clock.at("cpu_model").is_string());
        // One figure per CPU this process may run on, each pinned in turn.
        REQUIRE(clock.at("cpus").size() == static_cast<std::size_t>(CPU_COUNT(&allowed)));
        for (std::size_t i = 0; i < clock.at("cpus").size(); ++i) {
            CHECK(CPU_ISSET(clock.at("cpus")[i].get<int>(), &allowed));
            const double fastest = clock.at("fastest_ghz")[i].get<double>(), mean = clock.at("mean_ghz")[i].get<double>();
            // A real chain of additions: no CPU adds in a chain at 20 GHz, and
            // none of these runs below 50 MHz on the whole.
            CHECK(fastest < 20.0);
            CHECK(mean > 0.05);
            CHECK(mean <= fastest);
        }
    }
    const Run table = run(runBench, {"--fish", "2000", "--threads", "1", "--steps", "3", "--pairs", "0"});
    REQUIRE(table.code == 0);
    const std::vector<std::string> text = lines(table.out);
    REQUIRE(text.size() == 7);  // the CPU and build, the clock, the header, three rows, the clock
    CHECK_THAT(text[0], Catch::StartsWith("CPU: ") && Catch::Contains("; kernel build: " + std::string(kernelBuildName(kernelBuild()))));
    CHECK_THAT(text[1], Catch::StartsWith("clock at the start (") && Catch::EndsWith(" GHz"));
    CHECK_THAT(text[6], Catch::StartsWith("clock at the end (") && Catch::EndsWith(" GHz"));
}

TEST_CASE("bench times the same steps for every thread count, so the rows compare the same work") {
    const Run r = run(runBench, {"--fish", "2000", "--threads", "1,2", "--seconds", "1", "--pairs", "0", "--json"});
    const auto rows = benchRows(r, 6);  // {constant-density, article-000, article-000-app} x {1, 2} threads
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& one = rows[i];
        const auto& two = rows[i + 3];
        INFO(one.dump() << "\n" << two.dump());
        CHECK(one.at("threads") == 1);
        CHECK(two.at("threads") == 2);
        CHECK(one.at("scene") == two.at("scene"));
        CHECK(one.at("steps").get<int>() >= 10);
        CHECK(one.at("steps") == two.at("steps"));
        // Deterministic runs: the very same candidates and neighbours.
        CHECK(one.at("mean_candidates") == two.at("mean_candidates"));
        CHECK(one.at("mean_neighbours") == two.at("mean_neighbours"));
        CHECK(one.at("mean_neighbours").get<double>() > 1.0);
    }
}
