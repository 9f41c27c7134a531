// `mirofish render` as a script runs it: options, errors, and no display.
#include <catch2/catch.hpp>

#include "render_fixture.hpp"

using namespace mirofish::test;

namespace {
const std::string kMirofish = MIROFISH_BINARY;
}

TEST_CASE("mirofish render without a display runs itself inside Xvfb", "[render][cli]") {
    TempDir dir;
    const Shell r = shell("env -u DISPLAY " + kMirofish + " render --frames 3 --size 64x64 --fish 50 --out '" +
                          (dir / "frames").string() + "'");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK(std::filesystem::exists(framePath(dir / "frames", 2)));
    CHECK_THAT(r.output, Catch::Contains("render: frame 3/3"));
}

TEST_CASE("mirofish render without a display and without Xvfb says what to install", "[render][cli]") {
    TempDir dir;
    // Only the mirofish executable is reachable: no xvfb-run on the PATH.
    std::filesystem::create_symlink(kMirofish, dir / "mirofish");
    const Shell r = shell("env -u DISPLAY PATH='" + dir.path().string() + "' '" + (dir / "mirofish").string() +
                          "' render --frames 3 --out '" + (dir / "frames").string() + "'");
    CHECK(r.code == 2);
    CHECK_THAT(r.output, Catch::Contains("xvfb") && Catch::Contains("install"));
    CHECK_FALSE(std::filesystem::exists(dir / "frames"));
}

TEST_CASE("mirofish render refuses a missing length or output and bad values with a reason", "[render][cli]") {
    TempDir dir;
    const auto out = " --out '" + (dir / "f").string() + "'";
    CHECK_THAT(shell(kMirofish + " render --frames 3").output, Catch::Contains("--out is required"));
    CHECK_THAT(shell(kMirofish + " render" + out).output, Catch::Contains("--frames N or --seconds S"));
    CHECK_THAT(shell(kMirofish + " render --frames 3 --size 100 " + out).output, Catch::Contains("WIDTHxHEIGHT"));
    CHECK_THAT(shell(kMirofish + " render --frames 3 --trails maybe" + out).output, Catch::Contains("on or off"));
    const Shell odd = shell(kMirofish + " render --frames 3 --size 101x100 --out '" + (dir / "o.mp4").string() + "'");
    CHECK(odd.code == 2);
    CHECK_THAT(odd.output, Catch::Contains("even width and height"));
    CHECK_THAT(shell(kMirofish + " render --frames 3 --fps 0" + out).output, Catch::Contains("--fps"));
}
