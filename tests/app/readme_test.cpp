// The README is the newcomer's manual: its parameter table is generated from
// the registry, and it must not fall behind the code.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/preset_paths.hpp"
#include "params/registry.hpp"
#include "support/shell.hpp"
#include "support/sim_fixtures.hpp"

namespace {
std::string readme() {
    std::ifstream in(std::filesystem::path(MIROFISH_SOURCE_DIR) / "README.md");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
}  // namespace

TEST_CASE("the README documents every parameter with its range and description") {
    const std::string text = readme();
    REQUIRE(!text.empty());
    for (const mirofish::ParamDef& d : mirofish::paramRegistry()) {
        INFO("parameter " << d.key << " (run scripts/update-readme-params.sh)");
        CHECK(text.find("`" + std::string(d.key) + "` | " + std::string(d.unit) + " | " + d.rangeText()) !=
              std::string::npos);
        CHECK(text.find(std::string(d.description)) != std::string::npos);
    }
}

TEST_CASE("the README names every shipped preset") {
    const std::string text = readme();
    for (const mirofish::PresetInfo& p : mirofish::listPresets({MIROFISH_PRESET_DIR})) {
        INFO("preset " << p.id);
        CHECK(text.find("`" + p.id + "`") != std::string::npos);
    }
}

TEST_CASE("the README opens with the two set-up commands that CI runs") {
    const std::string text = readme();
    const auto run = text.find("scripts/run.sh");
    const auto test = text.find("scripts/test.sh");
    REQUIRE(run != std::string::npos);
    REQUIRE(test != std::string::npos);
    CHECK(run < 200);
    CHECK(test < 300);
    std::ifstream ci(std::filesystem::path(MIROFISH_SOURCE_DIR) / ".ci" / "run");
    std::stringstream s;
    s << ci.rdbuf();
    CHECK(s.str().find("scripts/test.sh") != std::string::npos);
}

TEST_CASE("scripts/run.sh takes relative file names from the folder it is run in, not the repository") {
    // It went to the repository first: "--audio track.mp3" from ~/Music
    // found no file there, and "--preset ./mine.json" opened the default.
    const mirofish::test::TempDir here;
    std::filesystem::copy_file(std::filesystem::path(MIROFISH_PRESET_DIR) / "gentle-cruise.json", here / "mine.json");
    const auto r = mirofish::test::shell("cd '" + here.path().string() + "' && '" + MIROFISH_SOURCE_DIR +
                                         "/scripts/run.sh' validate mine.json");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK(r.output.find("mine.json: ok") != std::string::npos);
}

namespace {
// The cells of a table row: "| a | b |" has 2 (an escaped \| is not a border).
std::size_t cellsOf(const std::string& row) {
    std::size_t bars = 0;
    for (std::size_t i = 0; i < row.size(); ++i) bars += row[i] == '|' && (i == 0 || row[i - 1] != '\\');
    return bars - 1;
}
}  // namespace

TEST_CASE("every table in the README renders: its separator row has as many cells as its header") {
    std::istringstream lines(readme());
    std::string previous, line;
    int tables = 0;
    for (int number = 1; std::getline(lines, line); ++number, previous = line) {
        if (!line.starts_with("|---")) continue;
        ++tables;
        INFO("README.md line " << number << ": " << line << "\nheader: " << previous);
        CHECK(cellsOf(line) == cellsOf(previous));
    }
    CHECK(tables >= 5);
}
