// Files written whole or not at all: what a preset or state file's target
// is left as when it is a link, a FIFO or a folder, and the permissions a
// replaced file keeps.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "io/atomic_file.hpp"
#include "support/sim_fixtures.hpp"

using namespace mirofish;
using namespace mirofish::test;
namespace fs = std::filesystem;

namespace {

void writeNew(const fs::path& file) {
    writeFileAtomically(file, [](std::ostream& out) { out << "new"; });
}

std::size_t entriesIn(const fs::path& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

}  // namespace

TEST_CASE("writing through a symbolic link writes the linked file and keeps the link") {
    TempDir dir;
    fs::create_directory(dir / "real");
    writeText(dir / "real" / "preset.json", "old");
    fs::create_symlink(fs::path("real") / "preset.json", dir / "preset.json");
    fs::create_symlink("preset.json", dir / "link-to-link.json");

    writeNew(dir / "preset.json");
    CHECK(fs::is_symlink(dir / "preset.json"));
    CHECK(readText(dir / "real" / "preset.json") == "new");

    writeFileAtomically(dir / "link-to-link.json", [](std::ostream& out) { out << "newer"; });
    CHECK(fs::is_symlink(dir / "link-to-link.json"));
    CHECK(fs::is_symlink(dir / "preset.json"));
    CHECK(readText(dir / "real" / "preset.json") == "newer");
    // No temporary left behind, beside the link or beside the file.
    CHECK(entriesIn(dir.path()) == 3);
    CHECK(entriesIn(dir / "real") == 1);
}

TEST_CASE("a link to a file not there yet creates the file and keeps the link") {
    TempDir dir;
    fs::create_directory(dir / "real");
    fs::create_symlink(dir / "real" / "state.bin", dir / "state.bin");
    writeNew(dir / "state.bin");
    CHECK(fs::is_symlink(dir / "state.bin"));
    CHECK(readText(dir / "real" / "state.bin") == "new");
}

TEST_CASE("a link into a folder that cannot be written names that folder, not the link's") {
    // Its own folder was writable, and the message sent the user there.
    TempDir dir;
    writeText(dir / "not-a-folder", "");
    fs::create_symlink(dir / "not-a-folder" / "preset.json", dir / "preset.json");
    CHECK_THROWS_WITH(writeFileAtomically(dir / "preset.json", [](std::ostream& out) { out << "new"; }),
                      Catch::Equals((dir / "preset.json").string() + ": cannot write in " +
                                    (dir / "not-a-folder").string() + ", where its link leads (" + std::strerror(ENOTDIR) +
                                    ")"));
    CHECK(fs::is_symlink(dir / "preset.json"));
    // A link named from the working folder, to a name beside it.
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());
    fs::create_directory(dir / ("b.bin.tmp-" + std::to_string(::getpid())));  // where the copy is written first
    fs::create_symlink("b.bin", "a.bin");
    const auto write = [] { writeFileAtomically("a.bin", [](std::ostream& out) { out << "state"; }); };
    CHECK_THROWS_WITH(write(), Catch::Equals("a.bin: cannot write in " + dir.path().string() + ", where its link leads (" +
                                             std::strerror(EISDIR) + ")"));
    fs::current_path(before);
}

TEST_CASE("a FIFO or a folder in the target's place, or behind a link, is refused by name and left as it is") {
    TempDir dir;
    REQUIRE(::mkfifo((dir / "pipe").c_str(), 0600) == 0);
    CHECK_THROWS_WITH(writeNew(dir / "pipe"), Catch::Contains((dir / "pipe").string()) &&
                                                  Catch::Contains("a FIFO") && Catch::Contains("nothing was written"));
    CHECK(fs::is_fifo(fs::symlink_status(dir / "pipe")));

    fs::create_symlink("pipe", dir / "link-to-pipe");
    CHECK_THROWS_WITH(writeNew(dir / "link-to-pipe"),
                      Catch::Contains((dir / "link-to-pipe").string()) && Catch::Contains("a FIFO"));
    CHECK(fs::is_symlink(dir / "link-to-pipe"));
    CHECK(fs::is_fifo(fs::symlink_status(dir / "pipe")));

    fs::create_directory(dir / "folder.json");
    CHECK_THROWS_WITH(writeNew(dir / "folder.json"),
                      Catch::Contains((dir / "folder.json").string()) && Catch::Contains("a folder"));
    CHECK(fs::is_directory(dir / "folder.json"));
    CHECK(entriesIn(dir.path()) == 3);
}

TEST_CASE("a file replaced keeps its permissions: a preset made private stays private") {
    TempDir dir;
    const fs::path file = dir / "private.json";
    writeText(file, "old");
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
    writeNew(file);
    CHECK(readText(file) == "new");
    CHECK(fs::status(file).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    CHECK(entriesIn(dir.path()) == 1);
}

TEST_CASE("a name too long for its copy written first is refused before anything is written, and one within it is written") {
    // A 252-byte state file name passed the check and failed after the whole
    // run: its copy, ".tmp-PID" longer, went past the system's 255 bytes.
    TempDir dir;
    const fs::path tooLong = dir / (std::string(kLongestOutputName + 1 - 4, 's') + ".bin");
    CHECK_FALSE(fileTarget(tooLong).refusal.empty());
    CHECK_THROWS_WITH(writeFileAtomically(tooLong, [](std::ostream& out) { out << "state"; }),
                      Catch::Contains("has a name of 241 bytes, longer than the 240"));
    CHECK(fs::is_empty(dir.path()));
    const fs::path longest = dir / (std::string(kLongestOutputName - 4, 's') + ".bin");
    CHECK(fileTarget(longest).refusal.empty());
    writeFileAtomically(longest, [](std::ostream& out) { out << "state"; });
    CHECK(readText(longest) == "state");
}
