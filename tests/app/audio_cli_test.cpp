// `mirofish analyze` and `mirofish simulate --audio`: what a performer
// scripting renders sees on the command line.
#include <catch2/catch.hpp>

#include <charconv>
#include <nlohmann/json.hpp>

#include "audio/wav_file.hpp"
#include "cli/commands.hpp"
#include "core/audio/audio_signals.hpp"
#include "support/cli_run.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
// 2 s: silence, then a 60 Hz "kick" burst of 0.1 s every half second from 0.5 s.
std::filesystem::path kickFile(const TempDir& dir) {
    MonoAudio a;
    a.sampleRate = kRate;
    a.samples.assign(samplesFor(2.0), 0.0f);
    for (double t0 = 0.5; t0 < 2.0; t0 += 0.5) {
        const auto kick = sine(60, 0.1, 0.8);
        std::copy(kick.begin(), kick.end(), a.samples.begin() + static_cast<std::ptrdiff_t>(samplesFor(t0)));
    }
    writeWav(dir / "kick.wav", a);
    return dir / "kick.wav";
}
}  // namespace

TEST_CASE("analyze --csv prints a header and one row per frame with the documented columns", "[audio]") {
    TempDir dir;
    const auto file = kickFile(dir).string();
    const Run r = run(cli::runAnalyze, {"--audio", file, "--csv", "--bands", "5", "--fps", "30"});
    REQUIRE(r.code == 0);
    const auto rows = split(r.out, '\n');
    CHECK(rows.front() == "frame,time,low,mid,high,band0,band1,band2,band3,band4,level,onset,bpm");
    CHECK(rows.size() == 1 + 61);  // frames 0..60 of 2 s at 30 fps
    for (std::size_t i = 1; i < rows.size(); ++i) CHECK(split(rows[i], ',').size() == 13);
    // The kicks are onsets and light the low band; the first half second is silent.
    int onsets = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const auto cols = split(rows[i], ',');
        if (i <= 14) CHECK(std::stod(cols[2]) == 0.0);
        onsets += cols[11] == "1";
    }
    CHECK(onsets == 3);
    // Deterministic: the same bytes twice.
    CHECK(run(cli::runAnalyze, {"--audio", file, "--csv", "--bands", "5", "--fps", "30"}).out == r.out);
}

TEST_CASE("analyze takes a frame rate such as 29.97, as render does, and times each frame by it", "[audio]") {
    TempDir dir;
    const Run r = run(cli::runAnalyze, {"--audio", kickFile(dir).string(), "--csv", "--fps", "29.97"});
    REQUIRE(r.code == 0);
    const auto rows = split(r.out, '\n');
    REQUIRE(rows.size() > 11);
    CHECK(std::stod(split(rows[11], ',')[1]) == Approx(10 / 29.97).margin(1e-4));  // frame 10
}

TEST_CASE("analyze exits 1 and says so when its output cannot be written, as on a full disk", "[audio]") {
    TempDir dir;
    const Run r = runToFullDisk(cli::runAnalyze, {"--audio", kickFile(dir).string(), "--csv"});
    CHECK(r.code == cli::kExitFailed);
    CHECK_THAT(r.err, Catch::Contains("mirofish analyze: could not write the output: No space left on device"));
    CHECK_THAT(r.err, !Catch::Contains("frames of"));  // the line that says all went well
}

TEST_CASE("one absurd sample in a float WAV neither breaks the analysis nor silences the rest of the file", "[audio]") {
    TempDir dir;
    MonoAudio a;
    a.sampleRate = kRate;
    a.samples = sine(100, 2.0, 0.3);
    a.samples[samplesFor(1.0)] = 3e38f;  // legal in a float file
    writeWav(dir / "spike.wav", a);
    const Run r = run(cli::runAnalyze, {"--audio", (dir / "spike.wav").string(), "--fps", "30"});
    REQUIRE(r.code == 0);
    std::vector<double> low;
    for (const std::string& line : split(r.out, '\n')) {
        INFO(line);
        const auto j = nlohmann::json::parse(line);  // "nan" is no JSON
        low.push_back(j["low"].get<double>());
    }
    REQUIRE(low.size() == 61);
    // The tone reads as loud after the spike as before it.
    CHECK(low[45] > 0.5 * low[15]);
    CHECK(low[55] > 0.5 * low[15]);
}

TEST_CASE("analyze and simulate read a WAV cut short as far as it goes, and warn that the rest is missing", "[audio]") {
    TempDir dir;
    std::string bytes = readText(kickFile(dir));
    bytes.resize(bytes.size() / 4);  // half a second of the two
    writeText(dir / "cut.wav", bytes);
    const std::string cut = (dir / "cut.wav").string();
    const Run analysed = run(cli::runAnalyze, {"--audio", cut, "--fps", "30"});
    CHECK(analysed.code == 0);
    CHECK(split(analysed.out, '\n').size() == 15);  // frames 0..14 within the half second read
    CHECK_THAT(analysed.err, Catch::Contains("mirofish analyze: warning: " + cut + ": the file ends before its audio does") &&
                                 Catch::Contains("s of 2.000 s)"));
    const Run simulated = run(cli::runSimulate, {"--audio", cut, "--steps", "2", "--preset", "gentle-cruise"});
    CHECK(simulated.code == 0);
    CHECK_THAT(simulated.err, Catch::Contains("mirofish simulate: warning: ") && Catch::Contains("ends before its audio"));
    // A whole file warns of nothing.
    CHECK_THAT(run(cli::runAnalyze, {"--audio", kickFile(dir).string()}).err, !Catch::Contains("warning"));
}

TEST_CASE("simulate --audio with a preset whose routes are empty still gives every line its params, empty", "[audio]") {
    TempDir dir;
    nlohmann::json preset = nlohmann::json::parse(readText(shippedPreset("gentle-cruise")));
    preset["audioRoutes"] = nlohmann::json::array();
    writeText(dir / "unrouted.json", preset.dump());
    const Run r = run(cli::runSimulate, {"--preset", (dir / "unrouted.json").string(), "--audio", kickFile(dir).string(),
                                         "--steps", "3", "--metrics-every", "1", "--threads", "1"});
    REQUIRE(r.code == 0);
    const auto lines = split(r.out, '\n');
    CHECK(lines.size() == 3);
    for (const std::string& line : lines) {
        const auto j = nlohmann::json::parse(line);
        REQUIRE(j.contains("params"));
        CHECK(j["params"] == nlohmann::json::object());
    }
}

TEST_CASE("simulate --audio resumed from a saved state goes on exactly as the uninterrupted run", "[audio]") {
    TempDir dir;
    const std::string kick = kickFile(dir).string(), state = (dir / "state.bin").string();
    // A route that blends (amount below 1: the base counts) and one that
    // follows the onsets' decaying envelope (its past counts).
    nlohmann::json preset = nlohmann::json::parse(readText(shippedPreset("gentle-cruise")));
    preset["audioRoutes"] = nlohmann::json::parse(R"([
        {"source": "low", "target": "separationWeight", "min": 1, "max": 4, "amount": 0.5},
        {"source": "onset", "target": "noise", "min": 0, "max": 0.5}])");
    writeText(dir / "blend.json", preset.dump());
    const auto simulate = [&](std::vector<std::string> more) {
        std::vector<std::string> args{"--preset", (dir / "blend.json").string(), "--audio", kick, "--threads", "1"};
        args.insert(args.end(), more.begin(), more.end());
        return run(cli::runSimulate, args);
    };
    const Run whole = simulate({"--steps", "100"});
    // Saved during the kick at 0.5 s, its modulated values in the state.
    REQUIRE(simulate({"--steps", "33", "--save-state", state}).code == 0);
    const Run resumed = simulate({"--steps", "67", "--load-state", state});
    REQUIRE(resumed.code == 0);
    // The audio goes on from the state's step and modulates the preset's own values.
    CHECK(split(resumed.out, '\n').back() == split(whole.out, '\n').back());
}

TEST_CASE("simulate --audio past the file's end hears silence, as a render's padded sound, not the preset's values",
          "[audio]") {
    // The parameters jumped back to the preset's in one frame where the
    // sound ended, while a longer render's video went on in silence.
    TempDir dir;
    const std::string kick = kickFile(dir).string(), state = (dir / "state.bin").string();
    MonoAudio padded = readWav(kick);
    padded.samples.resize(padded.samples.size() + samplesFor(14.0), 0.0f);
    writeWav(dir / "padded.wav", padded);
    const auto simulate = [&](const std::string& file, std::vector<std::string> more) {
        std::vector<std::string> args{"--preset", "gentle-cruise", "--audio", file, "--threads", "1",
                                      "--metrics-every", "1"};
        args.insert(args.end(), more.begin(), more.end());
        return run(cli::runSimulate, args);
    };
    // 15 s: the 2 s file, its silence, and on past the 11 s analysed.
    const Run past = simulate(kick, {"--steps", "900"});
    REQUIRE(past.code == 0);
    CHECK(past.out == simulate((dir / "padded.wav").string(), {"--steps", "900"}).out);
    const auto last = nlohmann::json::parse(split(past.out, '\n').back());
    CHECK(last["params"]["separationWeight"] == Approx(1.2));  // the route's value in silence
    // Resumed past the frames analysed, it goes on as the uninterrupted run.
    REQUIRE(simulate(kick, {"--steps", "750", "--save-state", state}).code == 0);
    const Run resumed = simulate(kick, {"--steps", "150", "--load-state", state});
    CHECK(split(resumed.out, '\n').back() == split(past.out, '\n').back());
}

TEST_CASE("analyze refuses a missing or corrupt file with its name and exit code 2", "[audio]") {
    TempDir dir;
    const Run missing = run(cli::runAnalyze, {"--audio", (dir / "gone.flac").string()});
    CHECK(missing.code == 2);
    CHECK_THAT(missing.err, Catch::Contains("gone.flac"));
    writeText(dir / "bad.wav", "RIFF....WAVEjunk");
    const Run bad = run(cli::runAnalyze, {"--audio", (dir / "bad.wav").string()});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("bad.wav"));
    const Run folder = run(cli::runAnalyze, {"--audio", dir.path().string()});
    CHECK(folder.code == 2);
    CHECK_THAT(folder.err, Catch::Contains("a folder, not an audio file"));
    CHECK(run(cli::runAnalyze, {}).code == 2);
}

TEST_CASE("simulate --audio drives the default routes and reports the modulated values", "[audio]") {
    TempDir dir;
    const Run r = run(cli::runSimulate, {"--preset", "gentle-cruise", "--audio", kickFile(dir).string(), "--steps",
                                         "120", "--metrics-every", "1", "--threads", "1"});
    REQUIRE(r.code == 0);
    double quiet = 1e9, loud = 0;
    for (const std::string& line : split(r.out, '\n')) {
        const auto j = nlohmann::json::parse(line);
        REQUIRE(j.contains("params"));
        const double sep = j["params"]["separationWeight"];
        // Each value as the shortest decimal of its float: 1.2, not 1.2000000476837158.
        for (const auto& [key, value] : j["params"].items()) {
            char shortest[32];
            const auto end = std::to_chars(shortest, shortest + sizeof shortest, value.get<float>()).ptr;
            INFO(key << " printed as " << value.dump());
            CHECK(value.dump().size() <= static_cast<std::size_t>(end - shortest) + 2);  // "3" may print as "3.0"
        }
        if (j["step"] < 30) quiet = std::min(quiet, sep);
        else loud = std::max(loud, sep);
        CHECK(j["nonfinite"] == 0);
    }
    // Silence sits at the route's min (1.2); the kicks push towards its max (3.5).
    CHECK(quiet == Approx(1.2));
    CHECK(loud > 2.5);
}
