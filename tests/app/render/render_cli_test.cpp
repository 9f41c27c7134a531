// `mirofish render` as a script runs it: options, errors, and no display.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "render_fixture.hpp"

using namespace mirofish::test;

namespace {
const std::string kMirofish = MIROFISH_BINARY;

// A small render (64x64, 50 fish) with more options, to `out`; `env` (words
// for env(1)) changes its environment.
Shell renderSmall(const std::string& options, const std::filesystem::path& out, const std::string& env = "") {
    return shell((env.empty() ? "" : "env " + env + " ") + kMirofish + " render --size 64x64 --fish 50 " + options +
                 " --out '" + out.string() + "'");
}
}

TEST_CASE("mirofish render without a display, or with a Wayland display it cannot use, runs itself inside Xvfb",
          "[render][cli]") {
    // With a Wayland display and no plugin for it, or nothing listening
    // there, Qt aborted (exit 134); the render says why it uses Xvfb.
    for (const std::string env : {"-u DISPLAY", "-u DISPLAY WAYLAND_DISPLAY=mirofish-test-none"}) {
        INFO(env);
        TempDir dir;
        const Shell r = renderSmall("--frames 3", dir / "frames", env);
        INFO(r.output);
        CHECK(r.code == 0);
        CHECK(std::filesystem::exists(framePath(dir / "frames", 2)));
        CHECK_THAT(r.output, Catch::Contains("render: frame 3/3"));
        if (env.find("WAYLAND") != std::string::npos)
            CHECK_THAT(r.output, Catch::Contains("the Wayland display mirofish-test-none ") &&
                                     Catch::Contains("; rendering in Xvfb instead"));
    }
}

TEST_CASE("mirofish render inside Xvfb exits with its own code when xvfb-run's cleanup fails after it", "[render][cli]") {
    TempDir dir;
    // As xvfb-run whose cleanup failed ("problem while cleaning up temporary directory": exit 5).
    writeProgram(dir / "xvfb-run",
                 "#!/bin/sh\n"
                 "shift 3\n"  // -a -s "-screen ..."
                 "/usr/bin/xvfb-run -a \"$@\"\n"
                 "echo 'xvfb-run: error: problem while cleaning up temporary directory' >&2\n"
                 "exit 5\n");
    const Shell r = renderSmall("--frames 2", dir / "frames", "-u DISPLAY PATH='" + dir.path().string() + ":'\"$PATH\"");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK(std::filesystem::exists(framePath(dir / "frames", 1)));
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

TEST_CASE("mirofish render without a display, with xvfb-run but no xauth, says what to install and exits 2",
          "[render][cli]") {
    TempDir dir;
    // xvfb-run is there (Debian's xvfb only recommends xauth), xauth is not.
    std::filesystem::create_symlink(kMirofish, dir / "mirofish");
    std::filesystem::create_symlink("/usr/bin/xvfb-run", dir / "xvfb-run");
    const Shell r = shell("env -u DISPLAY PATH='" + dir.path().string() + "' '" + (dir / "mirofish").string() +
                          "' render --frames 3 --out '" + (dir / "frames").string() + "'");
    INFO(r.output);
    CHECK(r.code == 2);
    CHECK_THAT(r.output, Catch::Contains("install the packages xvfb and xauth"));
    CHECK_FALSE(std::filesystem::exists(dir / "frames"));
}

TEST_CASE("mirofish render without a display and with a TMPDIR that is no folder says so and exits 2", "[render][cli]") {
    // xvfb-run's mktemp failed, and that was all it said, with exit 1.
    TempDir dir;
    writeText(dir / "file", "not a folder");
    for (const std::filesystem::path tmp : {dir / "absent", dir / "file"}) {
        const Shell r = shell("env -u DISPLAY -u WAYLAND_DISPLAY TMPDIR='" + tmp.string() + "' " + kMirofish +
                              " render --frames 3 --out '" + (dir / "frames").string() + "'");
        INFO(r.output);
        CHECK(r.code == 2);
        CHECK_THAT(r.output, Catch::Contains("$TMPDIR, and '" + tmp.string() + "' is no folder it can write in"));
        CHECK_FALSE(std::filesystem::exists(dir / "frames"));
    }
}

TEST_CASE("the editor without a display says so in one line and exits 2, instead of Qt aborting", "[render][cli]") {
    // A Wayland display without Qt's plugin, or where nothing listens (a
    // multiplexer's session from a desktop, reattached over ssh), too.
    for (const std::string env : {"-u DISPLAY", "DISPLAY=:9999", "-u DISPLAY WAYLAND_DISPLAY=mirofish-test-none"}) {
        const Shell r = shell("env -u WAYLAND_DISPLAY " + env + " " + kMirofish + " --quit-after 1");
        INFO(r.output);
        CHECK(r.code == 2);
        CHECK_THAT(r.output, Catch::StartsWith("mirofish: the editor needs a display") && Catch::Contains("mirofish render"));
        CHECK_THAT(r.output, !Catch::Contains("platform plugin"));
    }
}

TEST_CASE("a screenshot that cannot be written whole, as on a full disk, leaves no cut-off PNG", "[render][cli]") {
    TempDir dir;
    // Files may not grow past 8 KiB: the write fails part way, as on a full disk.
    const Shell r = shell("bash -c \"trap '' XFSZ; ulimit -f 8; exec " + kMirofish + " --quit-after 1 --screenshot '" +
                          (dir / "shot.png").string() + "'\"");
    INFO(r.output);
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::Contains("could not write the screenshot") && Catch::Contains("too large"));
    CHECK_FALSE(std::filesystem::exists(dir / "shot.png"));
    CHECK_FALSE(partialLeftBeside(dir / "shot.png"));
}

TEST_CASE("edit --report-fps into a full disk says so and exits 1, as every command's output does", "[render][cli]") {
    // The lines were lost without a word, with exit 0.
    const Shell r = shell("bash -c \"exec " + kMirofish + " --quit-after 1 --report-fps 2>&1 >/dev/full\"");
    INFO(r.output);
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::StartsWith("mirofish edit: could not write the output"));
}

TEST_CASE("edit --overlays shows exactly the overlays listed, none for a bare view, and the stats panel without it",
          "[render][cli]") {
    // "stats" was listed but the panel showed whatever was asked: no start
    // option opened the window without it, as a stage wants.
    TempDir dir;
    // The light text pixels where the stats panel sits, at the view's top left under the tool bar.
    const auto statsText = [&](const std::string& overlays, const std::string& name) {
        const Shell r = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish +
                              " edit --size 1280x720 --fish 1 --paused --quit-after 1 " + overlays + " --screenshot '" +
                              (dir / name).string() + "'");
        INFO(r.output);
        REQUIRE(r.code == 0);
        const QImage shot(QString::fromStdString((dir / name).string()));
        REQUIRE(shot.size() == QSize(1280, 720));
        int light = 0;
        for (int y = 35; y < 125; ++y)
            for (int x = 10; x < 380; ++x) light += qGray(shot.pixel(x, y)) > 150;
        return light;
    };
    CHECK(statsText("", "plain.png") > 300);
    CHECK(statsText("--overlays stats", "stats.png") > 300);
    CHECK(statsText("--overlays none", "none.png") < 50);
    CHECK_THAT(shell(kMirofish + " edit --overlays none,grid").output, Catch::Contains("'none' stands alone"));
}

TEST_CASE("a screenshot named by a link goes to the file it leads to, and one named like a FIFO is refused",
          "[render][cli]") {
    TempDir dir;
    writeText(dir / "real.png", "keep");
    std::filesystem::create_symlink("real.png", dir / "shot.png");
    const Shell linked = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish + " edit --fish 20 --quit-after 0.5 --screenshot '" + (dir / "shot.png").string() + "'");
    INFO(linked.output);
    CHECK(linked.code == 0);
    CHECK(std::filesystem::is_symlink(dir / "shot.png"));
    CHECK(fileBytes(dir / "real.png").substr(1, 3) == "PNG");
    REQUIRE(::mkfifo((dir / "pipe.png").c_str(), 0600) == 0);
    const Shell fifo = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish + " edit --fish 20 --quit-after 0.5 --screenshot '" + (dir / "pipe.png").string() + "'");
    INFO(fifo.output);
    CHECK(fifo.code == 2);  // refused before the window opens
    CHECK_THAT(fifo.output, Catch::Contains("cannot write the screenshot") && Catch::Contains("a FIFO") &&
                                Catch::Contains("left as it is"));
    CHECK(std::filesystem::is_fifo(dir / "pipe.png"));
    CHECK_FALSE(partialLeftBeside(dir / "pipe.png"));
    // PNG data under another image's name would not open as that kind.
    const Shell jpeg = shell(kMirofish + " edit --quit-after 0.5 --screenshot '" + (dir / "shot.jpg").string() + "'");
    CHECK(jpeg.code == 2);
    CHECK_THAT(jpeg.output, Catch::Contains("--screenshot writes a PNG: name it FILE.png"));
    CHECK_FALSE(std::filesystem::exists(dir / "shot.jpg"));
}

TEST_CASE("simulate --save-state /dev/stdout is refused before the run, into a pipe and into the file the lines or the warnings go to",
          "[render][cli]") {
    // Into a pipe, /proc/self/fd/1 reads "pipe:[N]", taken for a file not
    // there: the whole run went ahead and its save failed at the end (exit 1).
    // Into a file, the snapshot replaced it and the lines written were gone.
    TempDir dir;
    const Shell piped = shell("bash -c '" + kMirofish +
                              " simulate --steps 1000000 --save-state /dev/stdout | cat; exit ${PIPESTATUS[0]}'");
    INFO(piped.output);
    CHECK(piped.code == 2);
    CHECK_THAT(piped.output, Catch::Contains("is a FIFO (named pipe), not a regular file"));
    const Shell toFile = shell("bash -c '" + kMirofish + " simulate --steps 1000000 --save-state /dev/stdout > \"" +
                               (dir / "out.txt").string() + "\"'");
    INFO(toFile.output);
    CHECK(toFile.code == 2);
    CHECK_THAT(toFile.output, Catch::Contains("it is the file standard output goes to"));
    // Into the file standard error goes to, the snapshot replaced the warnings.
    const std::filesystem::path log = dir / "log.txt";
    const Shell toLog = shell("bash -c '" + kMirofish + " simulate --steps 1000000 --save-state \"" + log.string() +
                              "\" > /dev/null 2> \"" + log.string() + "\"'");
    CHECK(toLog.code == 2);
    CHECK_THAT(readText(log), Catch::Contains("it is the file standard error goes to"));
}

TEST_CASE("a signal to the editor closes its window, asking first about unsaved changes, and a second ends it", "[render][cli]") {
    // kill, Ctrl+C in its terminal or the terminal closed ended it on the
    // spot: the changes lost without a question, an export's .part left.
    TempDir dir;
    writeText(dir / "run.sh", "export MIROFISH_USER_PRESETS='" + dir.path().string() + "'\n" + kMirofish +
                                  " edit --fish 20 --quit-after 60 & pid=$!\n"
                                  // Signals at once (a closed terminal sends SIGHUP twice, the
                                  // shell's and the kernel's): one request. Two of one kind sent
                                  // at once arrive as one, so two kinds stand for them here.
                                  "sleep 4; kill -HUP $pid; kill -INT $pid; sleep 2\n"
                                  "kill -0 $pid && echo still-asking\n"
                                  "kill -TERM $pid; wait $pid; echo rc=$?\n" +
                                  kMirofish + " edit --quit-after 60 & pid=$!\n"
                                  "sleep 4; kill -HUP $pid; wait $pid; echo unchanged-rc=$?\n");
    const Shell r = shell("bash '" + (dir / "run.sh").string() + "'");
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("still-asking"));  // the --fish change is not saved
    CHECK_THAT(r.output, Catch::Contains("rc=143"));
    CHECK_THAT(r.output, Catch::Contains("unchanged-rc=129"));
}

TEST_CASE("the editor started on a preset it cannot open says why and opens the default preset, as the README says",
          "[render][cli]") {
    // A typo in --preset opened the default school with exit 0 while the
    // README promised exit 2 for every bad input; the fallback is kept (a
    // show starts with a school on the screen) and written down.
    TempDir dir;
    writeText(dir / "broken.json", "{ \"name\": ");
    for (const std::string& preset : {std::string("no-such-preset"), (dir / "broken.json").string()}) {
        const Shell r = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish + " edit --preset '" +
                              preset + "' --fish 20 --quit-after 0.5 --screenshot '" + (dir / "shot.png").string() + "'");
        INFO(r.output);
        CHECK(r.code == 0);
        CHECK_THAT(r.output, Catch::Contains(preset) && Catch::Contains("opening the default preset instead"));
        CHECK(std::filesystem::exists(dir / "shot.png"));
        std::filesystem::remove(dir / "shot.png");
    }
    CHECK(fileBytes(dir / "broken.json") == "{ \"name\": ");
    // A path is the file alone, said as the other commands say it.
    const Shell path = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish + " edit --preset '" +
                             (dir / "broken").string() + "' --fish 20 --quit-after 0.5");
    CHECK_THAT(path.output, Catch::Contains("no preset file '" + (dir / "broken").string() + "' (there is '" +
                                            (dir / "broken.json").string() + "'); opening the default preset instead"));
    // A reason quoting the file's text writes its control characters out.
    writeText(dir / "key.json", "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"K\", \"\\u001b[2Jkey\": 1}");
    const Shell key = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish + " edit --preset '" +
                            (dir / "key.json").string() + "' --quit-after 0.5");
    CHECK_THAT(key.output, Catch::Contains("'U+001B[2Jkey' is not a known key"));
    CHECK(key.output.find('\x1b') == std::string::npos);
    // One of yours that is a link to a drive not mounted is named so.
    std::filesystem::create_symlink(dir / "unmounted" / "mine.json", dir / "mine.json");
    const Shell link = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish +
                             " edit --preset mine --quit-after 0.5");
    CHECK_THAT(link.output, Catch::Contains("no preset or file named 'mine': '" + (dir / "mine.json").string() +
                                            "' is a link to '" + (dir / "unmounted" / "mine.json").string() +
                                            "', which is not there (a drive not mounted?); opening the default preset "
                                            "instead"));
}

TEST_CASE("the editor started with --fullscreen covers the screen, with no window manager to do it", "[render][cli]") {
    TempDir dir;
    const Shell r = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish +
                          " edit --fullscreen --fish 20 --quit-after 1 --screenshot '" + (dir / "shot.png").string() + "'");
    INFO(r.output);
    REQUIRE(r.code == 0);
    // The tests' X server is 1920x1080 (run-under-xvfb.sh); the window opens at 1280x720.
    CHECK(QImage(QString::fromStdString((dir / "shot.png").string())).size() == QSize(1920, 1080));
}

TEST_CASE("mirofish render writes a video named like one of ffmpeg's protocols to that very file", "[render][cli]") {
    TempDir dir;
    // ffmpeg would read "pipe:1.mp4" as its standard output.
    const Shell r = shell("cd '" + dir.path().string() + "' && " + kMirofish +
                          " render --frames 3 --size 64x64 --fish 20 --out pipe:1.mp4");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK(std::filesystem::file_size(dir / "pipe:1.mp4") > 0);
    CHECK_FALSE(partialLeftBeside(dir / "pipe:1.mp4"));
}

TEST_CASE("mirofish render says what is wrong with an output that is a file, or an ffmpeg that is no program or stops",
          "[render][cli]") {
    TempDir dir;
    writeText(dir / "notes.txt", "mine");
    const Shell file = renderSmall("--frames 3", dir / "notes.txt");
    CHECK(file.code == 2);
    CHECK_THAT(file.output, Catch::Contains("'" + (dir / "notes.txt").string() + "' is a file; PNG frames go into a folder"));
    CHECK(fileBytes(dir / "notes.txt") == "mine");
    const Shell notProgram = renderSmall("--frames 3 --ffmpeg /etc/passwd", dir / "v.mp4");
    CHECK(notProgram.code == 2);
    CHECK_THAT(notProgram.output, Catch::Contains("'/etc/passwd' is not a program that can be run"));
    const Shell stops = renderSmall("--frames 30 --ffmpeg /bin/true", dir / "v.mp4");
    CHECK(stops.code == 1);
    CHECK_THAT(stops.output, Catch::Contains("it ended before the video was complete (exit code 0)"));
    CHECK_FALSE(std::filesystem::exists(dir / "v.mp4"));
}

TEST_CASE("the editor says on stderr, as for a preset, when the --audio file it opens with cannot be read", "[render][cli]") {
    TempDir dir;
    const std::string missing = (dir / "missing.wav").string();
    const Shell r = shell(kMirofish + " --audio '" + missing + "' --quit-after 2");
    INFO(r.output);
    CHECK(r.code == 0);  // the editor still opened
    CHECK_THAT(r.output, Catch::Contains("mirofish: " + missing + ": no such audio file"));
    // Without a sound server (as here), Qt's own line about it is not passed on.
    CHECK_THAT(r.output, !Catch::Contains("PulseAudioService"));
}

TEST_CASE("mirofish help COMMAND and COMMAND -h give that command's help", "[render][cli]") {
    for (const std::string command : {"render", "simulate", "edit"}) {
        for (const std::string asked : {" help " + command, " " + command + " -h", " help " + command + " --fps"}) {
            const Shell r = shell(kMirofish + asked);
            CHECK(r.code == 0);
            CHECK_THAT(r.output, Catch::Contains("usage: mirofish ") && Catch::Contains("--help"));
            CHECK_THAT(r.output, Catch::Contains(command == "edit" ? "--fullscreen" : "mirofish " + command));
        }
    }
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
    const Shell dash = shell("cd '" + dir.path().string() + "' && " + kMirofish + " render --frames 3 --out -");
    CHECK(dash.code == 2);
    CHECK_THAT(dash.output, Catch::Contains("--out cannot be '-'"));
    CHECK_FALSE(std::filesystem::exists(dir / "-"));
    CHECK_THAT(shell(kMirofish + " render --seconds 86400 --fps 240" + out).output,
               Catch::Contains("makes 20736000 frames; at most 10000000"));
    // An option of another kind of output did nothing, without a word.
    const Shell crfMov = shell(kMirofish + " render --frames 3 --crf 0 --out '" + (dir / "c.mov").string() + "'");
    CHECK(crfMov.code == 2);
    CHECK_THAT(crfMov.output, Catch::Contains("--crf sets an MP4's quality; ProRes 4444 has a quality of its own"));
    CHECK_THAT(shell(kMirofish + " render --frames 3 --crf 40" + out).output,
               Catch::Contains("--crf sets an MP4's quality; a PNG sequence is lossless"));
    // CRF 0 is lossless H.264, in a profile few players open.
    const Shell lossless = shell(kMirofish + " render --frames 3 --crf 0 --out '" + (dir / "c.mp4").string() + "'");
    CHECK(lossless.code == 2);
    CHECK_THAT(lossless.output, Catch::Contains("few players open") && Catch::Contains("1 is the best quality"));
    CHECK_THAT(shell(kMirofish + " render --frames 3 --crf 52 --out '" + (dir / "c.mp4").string() + "'").output,
               Catch::Contains("1 to 51"));
    const Shell levelMp4 = shell(kMirofish + " render --frames 3 --png-compression 9 --out '" + (dir / "c.mp4").string() + "'");
    CHECK(levelMp4.code == 2);
    CHECK_THAT(levelMp4.output, Catch::Contains("--png-compression is for a PNG sequence"));
    CHECK_FALSE(std::filesystem::exists(dir / "c.mov"));
    CHECK_FALSE(std::filesystem::exists(dir / "c.mp4"));
    CHECK_FALSE(std::filesystem::exists(dir / "f"));
}

namespace {
// Starts `launch` (a shell command line that renders a long video to
// DIR/v.mp4 in the background), waits until the video has begun, sends
// a signal with `kill killArgs`, and prints the exit code ("rc=N"), the
// files in DIR and the processes of the render still running at that
// moment ("running at exit: NAME"), the processes still alive a few seconds
// later ("alive: PID"; a zombie is not) and the files left in DIR then.
// xvfb-run makes its folder in DIR ($TMPDIR), Qt its runtime folder in DIR/run.
std::string stopRenderScript(const TempDir& dir, const std::string& launch, const std::string& killArgs) {
    const std::string d = "'" + dir.path().string() + "'";
    return "d=" + d + "; mkdir -m 700 $d/run; export TMPDIR=$d XDG_RUNTIME_DIR=$d/run; " + launch +
           " & pid=$!; "
           "for i in $(seq 1 600); do ls $d/v.mp4.part-* >/dev/null 2>&1 && break; sleep 0.05; done; sleep 0.3; "
           "kids=''; level=$pid; for i in 1 2 3; do next=''; for k in $level; do next=\"$next $(pgrep -P $k)\"; done; "
           "kids=\"$kids $next\"; level=$next; done; "
           "kill " + killArgs + "; wait $pid; echo \"rc=$?\"; echo files at exit: $(ls $d); "
           "for k in $kids; do kill -0 $k 2>/dev/null && echo \"running at exit: $(cat /proc/$k/comm)\"; done; "
           "for i in $(seq 1 100); do alive=''; for k in $kids; do kill -0 $k 2>/dev/null && "
           "[ \"$(cut -d' ' -f3 /proc/$k/stat 2>/dev/null)\" != Z ] && alive=\"$alive $k\"; done; "
           "[ -z \"$alive\" ] && break; sleep 0.05; done; [ -n \"$alive\" ] && echo \"alive:$alive\"; "
           "echo files: $(ls $d); cat $d/err";
}

const std::string kLongVideo = " render --frames 100000 --size 160x96 --fish 50 --out \"$d/v.mp4\" 2>$d/err";

// The render started by `launch` and stopped by `kill killArgs` exits with
// `code` once the render and ffmpeg have ended and the unfinished video is
// gone, and leaves no process (Xvfb included) and no file but its log (and
// Qt's runtime folder).
void requireStoppedCleanly(const std::string& launch, const std::string& killArgs, int code) {
    TempDir dir;
    const Shell r = shell(stopRenderScript(dir, launch + kLongVideo, killArgs));
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("rc=" + std::to_string(code) + "\n"));
    CHECK_THAT(r.output, Catch::Contains("files at exit: err run\n"));
    CHECK_THAT(r.output, !Catch::Contains("running at exit: mirofish") && !Catch::Contains("running at exit: ffmpeg"));
    CHECK_THAT(r.output, !Catch::Contains("alive:"));
    CHECK_THAT(r.output, Catch::Contains("files: err run\n"));
    CHECK_THAT(r.output, Catch::Contains("stopped by a signal after") && Catch::Contains("no video was kept"));
}
}  // namespace

TEST_CASE("a kill stops a render inside Xvfb with its X server and keeps no unfinished video", "[render][cli]") {
    requireStoppedCleanly("env -u DISPLAY " + kMirofish, "-TERM $pid", 143);
}

TEST_CASE("a render inside Xvfb whose own process is killed outright stops too, with its X server, and keeps no video",
          "[render][cli]") {
    TempDir dir;
    const Shell r = shell(stopRenderScript(dir, "env -u DISPLAY " + kMirofish + kLongVideo, "-KILL $pid"));
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("rc=137\n"));
    CHECK_THAT(r.output, !Catch::Contains("alive:"));
    CHECK_THAT(r.output, Catch::Contains("files: err run\n"));
    CHECK_THAT(r.output, Catch::Contains("stopped by a signal after") && Catch::Contains("no video was kept"));
}

TEST_CASE("Ctrl+Z pauses a render inside Xvfb, the render and its X server with it, and fg goes on", "[render][cli]") {
    // The terminal's Ctrl+Z stopped only the outer render: the one inside
    // Xvfb, in the wrapper's own process group, went on writing frames.
    // bash's job control (set -m) gives the render a process group of its own,
    // which the shell's keeps from being orphaned, as a terminal's job is:
    // an orphaned group is not stopped by SIGTSTP, wherever this test runs.
    TempDir dir;
    writeProgram(dir / "job.sh", "set -m; d='" + dir.path().string() + "'; mkdir -m 700 $d/run; export TMPDIR=$d XDG_RUNTIME_DIR=$d/run\n" +
                                     "env -u DISPLAY " + kMirofish + R"sh( render --frames 100000 --size 64x64 --fish 50 --out $d/frames 2>$d/err &
pid=$!
frames() { ls $d/frames 2>/dev/null | grep -c 'png$'; }
for i in $(seq 1 600); do [ "$(frames)" -gt 5 ] && break; sleep 0.05; done
kill -TSTP $pid; sleep 1; paused=$(frames); sleep 1; still=$(frames)
echo "outer $(cut -d' ' -f3 /proc/$pid/stat)"
level=$pid; for i in 1 2 3; do next=''; for k in $level; do next="$next $(pgrep -P $k)"; done; level=$next
  for k in $next; do echo "inner $(cat /proc/$k/comm) $(cut -d' ' -f3 /proc/$k/stat)"; done; done
kill -CONT $pid
for i in $(seq 1 200); do [ "$(frames)" -gt "$still" ] && break; sleep 0.05; done
echo "paused $paused still $still then $(frames)"
[ "$paused" = "$still" ] && echo held
[ "$(frames)" -gt "$still" ] && echo resumed
kill -INT $pid; wait $pid; echo "rc=$?"
)sh");
    const Shell r = shell("bash '" + (dir / "job.sh").string() + "' </dev/null");
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("outer T\n"));
    // xvfb-run, Xvfb and the render inside.
    CHECK_THAT(r.output, Catch::Contains("inner xvfb-run T\n") && Catch::Contains("inner Xvfb T\n") &&
                             Catch::Contains("inner mirofish T\n"));
    CHECK_THAT(r.output, !Catch::Contains(" R\n") && !Catch::Contains(" S\n"));
    CHECK_THAT(r.output, Catch::Contains("held\n") && Catch::Contains("resumed\n"));
    CHECK_THAT(r.output, Catch::Contains("rc=130\n"));
}

TEST_CASE("a closed terminal stops a render inside Xvfb and leaves no X server running", "[render][cli]") {
    requireStoppedCleanly("env -u DISPLAY " + kMirofish, "-HUP $pid", 129);
}

TEST_CASE("a render started with nohup, inside Xvfb or not, goes on when the terminal closes", "[render][cli]") {
    // nohup sets SIGHUP to be ignored; the render must leave it so.
    for (const std::string launch : {std::string("nohup "), std::string("env -u DISPLAY nohup ")}) {
        TempDir dir;
        const Shell r = shell("d='" + dir.path().string() + "'; mkdir -m 700 $d/run; export TMPDIR=$d XDG_RUNTIME_DIR=$d/run; " +
                              launch + kMirofish +
                              " render --frames 240 --size 160x96 --fish 50 --out \"$d/v.mp4\" >$d/out 2>$d/err & pid=$!; "
                              "for i in $(seq 1 600); do ls $d/v.mp4.part-* >/dev/null 2>&1 && break; sleep 0.05; done; "
                              "kill -HUP $pid; wait $pid; echo \"rc=$?\"; cat $d/err");
        INFO(launch << r.output);
        CHECK_THAT(r.output, Catch::Contains("rc=0\n"));
        CHECK(std::filesystem::exists(dir / "v.mp4"));
    }
}

TEST_CASE("Ctrl+C stops simulate between two steps: the last line and the state saved are the step reached",
          "[render][cli]") {
    // Killed outright, a long run kept nothing, and a kill during the save left FILE.tmp-PID.
    TempDir dir;
    const Shell r = shell("d='" + dir.path().string() + "'; " + kMirofish +
                          " simulate --fish 2000 --steps 100000000 --metrics-every 1 --threads 1 --save-state "
                          "$d/run.state >$d/out 2>$d/err & pid=$!; "
                          // Once it runs (its stop handlers set), however slow the start on a loaded machine.
                          "for i in $(seq 1 600); do [ -s $d/out ] && break; sleep 0.05; done; sleep 1; "
                          "kill -INT $pid; wait $pid; "
                          "echo \"rc=$?\"; cat $d/err; tail -1 $d/out; ls $d; "
                          "echo \"steps in the last two lines: $(tail -2 $d/out | grep -o '\"step\":[0-9]*' | sort -u | wc -l)\"");
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("rc=130"));
    CHECK_THAT(r.output, Catch::Contains("stopped by a signal at step ") && Catch::Contains(" of 100000000; the state at that step is in "));
    CHECK_THAT(r.output, Catch::Contains("\"state_hash\""));
    CHECK_THAT(r.output, !Catch::Contains(".tmp-"));
    // A line every step: the last line is the step reached, not a second copy of the one before.
    CHECK_THAT(r.output, Catch::Contains("steps in the last two lines: 2"));
    // The state saved at the stop loads.
    const Shell resumed = shell(kMirofish + " simulate --load-state '" + (dir / "run.state").string() + "' --steps 0");
    INFO(resumed.output);
    CHECK(resumed.code == 0);
}

TEST_CASE("Ctrl+C stops simulate while its output waits for a reader that does not read, and saves the state",
          "[render][cli]") {
    // The stop cut the waiting write short: taken for a failed output, the
    // run exited 1 with no state saved.
    TempDir dir;
    const Shell r = shell("d='" + dir.path().string() + "'; mkfifo $d/pipe; sleep 60 <$d/pipe & reader=$!; " + kMirofish +
                          " simulate --fish 200 --steps 100000000 --metrics-every 1 --threads 1 --save-state "
                          "$d/run.state >$d/pipe 2>$d/err & pid=$!; sleep 2; kill -INT $pid; wait $pid; "
                          "echo \"rc=$?\"; kill $reader; cat $d/err; ls $d");
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("rc=130"));
    CHECK_THAT(r.output, Catch::Contains("nothing was reading the output, so its last line was not written; the state "
                                         "at that step is in "));
    CHECK_THAT(r.output, !Catch::Contains("could not write the output"));
    const Shell resumed = shell(kMirofish + " simulate --load-state '" + (dir / "run.state").string() + "' --steps 0");
    INFO(resumed.output);
    CHECK(resumed.code == 0);
}

TEST_CASE("Ctrl+C stops a render inside Xvfb and exits 130", "[render][cli]") {
    requireStoppedCleanly("env -u DISPLAY setsid " + kMirofish, "-INT -$pid", 130);
}

TEST_CASE("Ctrl+C stops a render and its ffmpeg and keeps no unfinished video", "[render][cli]") {
    // Ctrl+C signals the whole foreground process group: the render and ffmpeg.
    requireStoppedCleanly("setsid " + kMirofish, "-INT -$pid", 130);
}

namespace {
// Runs `mirofish render ARGS 2>$d/err` in the background, $d being `dir`,
// waits for `ready` (a shell command), sends the render a TERM, and prints
// "rc=CODE after N s" (secondsAfter) and the render's stderr.
Shell renderTermedWhen(const TempDir& dir, const std::string& args, const std::string& ready) {
    return shell("d='" + dir.path().string() + "'; start=$(date +%s); " + kMirofish + " render " + args +
                 " 2>$d/err & pid=$!; " + ready + "; kill -TERM $pid; wait $pid; " +
                 "echo \"rc=$? after $(( $(date +%s) - start )) s\"; cat $d/err");
}

// A render of `args` into $d/v.mp4, TERMed once `ready`: it ends within
// `withinSeconds`, saying `said`, and leaves neither the video nor its
// partial file.
void requireTermedWithoutVideo(const TempDir& dir, const std::string& args, const std::string& ready,
                               int withinSeconds, const std::string& said) {
    const Shell r = renderTermedWhen(dir, args + " --out \"$d/v.mp4\"", ready);
    INFO(r.output);
    CHECK(secondsAfter(r.output, "143") >= 0);
    CHECK(secondsAfter(r.output, "143") < withinSeconds);
    CHECK_THAT(r.output, Catch::Contains(said) && Catch::Contains("no video was kept"));
    CHECK_FALSE(std::filesystem::exists(dir / "v.mp4"));
    CHECK_FALSE(partialLeftBeside(dir / "v.mp4"));
}
}  // namespace

TEST_CASE("mirofish --version prints the version, not the editor's refusal of an option", "[render][cli]") {
    const Shell r = shell(kMirofish + " --version");
    CHECK(r.code == 0);
    CHECK_THAT(r.output, Catch::Matches("mirofish [0-9]+\\.[0-9]+\\.[0-9]+\n"));
}

TEST_CASE("a command or an audio file named with an escape sequence reaches the terminal written out, not obeyed, warnings too",
          "[render][cli]") {
    // "\e[2J" cleared the terminal of whoever mistyped it.
    TempDir dir;
    const Shell command = shell(kMirofish + " $(printf 'bad\\033[2J')");
    CHECK_THAT(command.output, Catch::Contains("unknown command 'badU+001B[2J'"));
    const Shell audio = shell("cd '" + dir.path().string() + "' && " + kMirofish +
                              " render --frames 1 --size 64x64 --audio \"$(printf 'e\\033[31m.wav')\" --out frames");
    CHECK_THAT(audio.output, Catch::Contains("render: reading the audio file eU+001B[31m.wav"));
    // A WAV cut short is read with a warning that names it.
    const Shell cut = shell("(cd '" + dir.path().string() + "' && ffmpeg -nostdin -v error -f lavfi -i sine=d=1 " +
                            "-c:a pcm_s16le full.wav && head -c 20000 full.wav > \"$(printf 'e\\033[31m').wav\" && " +
                            kMirofish + " analyze --audio \"$(printf 'e\\033[31m').wav\" > /dev/null)");
    CHECK_THAT(cut.output, Catch::Contains("warning: eU+001B[31m.wav: the file ends before its audio does"));
    for (const Shell* r : {&command, &audio, &cut}) {
        INFO(r->output);
        CHECK(r->output.find('\x1b') == std::string::npos);
    }
}

TEST_CASE("while the audio file is decoded the render says so, and a kill stops it at once, before any frame",
          "[render][cli]") {
    TempDir dir;
    // An ffmpeg that takes long and prints nothing, as one decoding hours of audio does before its first output.
    writeProgram(dir / "slow-ffmpeg", "#!/bin/sh\nexec sleep 30\n");
    writeText(dir / "song.mp3", "not decoded here");
    const Shell r = renderTermedWhen(
        dir, "--frames 10 --size 160x96 --audio \"$d/song.mp3\" --ffmpeg \"$d/slow-ffmpeg\" --out \"$d/frames\"",
        "sleep 1.5");
    INFO(r.output);
    CHECK(secondsAfter(r.output, "143") >= 0);
    CHECK(secondsAfter(r.output, "143") < 10);
    // Hours of audio take minutes to read, which the terminal showed as nothing at all.
    CHECK_THAT(r.output, Catch::Contains("render: reading the audio file " + (dir / "song.mp3").string() + "\n"));
    CHECK_THAT(r.output, Catch::Contains("stopped by a signal before the first frame; nothing was written"));
    CHECK_FALSE(std::filesystem::exists(dir / "frames"));
}

TEST_CASE("a kill while analyze or simulate reads an audio file stops them and their ffmpeg", "[render][cli]") {
    // Their ffmpeg, in a process group of its own, ran on alone for minutes
    // on a file it took long to read. Here a wrapper script runs it as its
    // child: a kill of the script alone left that child decoding, and the
    // command waited for it to the end.
    TempDir dir;
    writeProgram(dir / "slow-ffmpeg", "#!/bin/sh\nsleep 30 &\necho $! > \"$(dirname \"$0\")/ffmpeg.pid\"\nwait\n");
    writeText(dir / "song.mp3", "not decoded here");
    for (const std::string command : {"analyze", "simulate --steps 5"}) {
        INFO(command);
        std::filesystem::remove(dir / "ffmpeg.pid");
        const Shell r = shell("d='" + dir.path().string() + "'; MIROFISH_FFMPEG=$d/slow-ffmpeg " + kMirofish + " " +
                              command + " --audio $d/song.mp3 >$d/out 2>$d/err & pid=$!; " +
                              "for i in $(seq 1 600); do [ -s $d/ffmpeg.pid ] && break; sleep 0.05; done; " +
                              "start=$(date +%s); kill -TERM $pid; wait $pid; " +
                              "echo \"rc=$? after $(( $(date +%s) - start )) s\"; sleep 0.5; " +
                              // Killed, it may stay a zombie a while: the
                              // container's first process reaps it late.
                              "s=$(cut -d' ' -f3 /proc/$(cat $d/ffmpeg.pid)/stat 2>/dev/null); " +
                              "[ -n \"$s\" ] && [ \"$s\" != Z ] && echo 'ffmpeg runs on'; cat $d/err $d/out");
        INFO(r.output);
        CHECK(secondsAfter(r.output, "143") >= 0);
        CHECK(secondsAfter(r.output, "143") < 10);
        CHECK_THAT(r.output, Catch::Contains("stopped by a signal while reading the audio file"));
        CHECK_THAT(r.output, !Catch::Contains("ffmpeg runs on"));
    }
}

TEST_CASE("a kill while ffmpeg completes the video stops the render and keeps no video", "[render][cli]") {
    TempDir dir;
    // An ffmpeg that takes every frame, then needs long to complete the
    // file, as the real one moving a long video's index to its front.
    writeProgram(dir / "slow-ffmpeg", "#!/bin/sh\ncat > /dev/null\ntouch \"$(dirname \"$0\")/finishing\"\nexec sleep 30\n");
    requireTermedWithoutVideo(dir, "--frames 3 --size 160x96 --fish 50 --ffmpeg \"$d/slow-ffmpeg\"",
                              "for i in $(seq 1 600); do [ -e $d/finishing ] && break; sleep 0.05; done; sleep 0.5",
                              25, "stopped by a signal after 3 of 3 frames; no video was kept");
}

TEST_CASE("a kill while ffmpeg takes no more frames stops the render at once and keeps no video", "[render][cli]") {
    // An ffmpeg stuck on a stalled share: the render waited up to a minute
    // for it to take a frame before it looked at the signal.
    TempDir dir;
    writeProgram(dir / "stuck-ffmpeg", "#!/bin/sh\ntouch \"$(dirname \"$0\")/started\"\nexec sleep 90\n");
    requireTermedWithoutVideo(dir, "--frames 200 --size 640x360 --fish 5 --ffmpeg \"$d/stuck-ffmpeg\"",
                              "for i in $(seq 1 600); do [ -e $d/started ] && break; sleep 0.05; done; sleep 3", 20,
                              "stopped by a signal after");
}

TEST_CASE("an ffmpeg that closes its input and stays is named as the fault at once", "[render][cli]") {
    // Waited for as if it were slow (up to its exit or a minute), then told
    // as "Process operation timed out".
    TempDir dir;
    // At once, and after taking all frames but the last (640x360 RGBA: 921 600 bytes a frame).
    for (const std::string before : {"", "head -c $((49 * 921600)) > /dev/null\n"}) {
        INFO(before);
        writeProgram(dir / "closing-ffmpeg", "#!/bin/sh\n" + before + "exec 0<&-\nsleep 60\n");
        const Shell r = shell("d='" + dir.path().string() + "'; start=$(date +%s); " + kMirofish +
                              " render --frames 50 --size 640x360 --fish 5 --ffmpeg $d/closing-ffmpeg --out $d/v.mp4 "
                              "2>&1; echo \"rc=$? after $(( $(date +%s) - start )) s\"");
        INFO(r.output);
        CHECK(secondsAfter(r.output, "1") >= 0);
        CHECK(secondsAfter(r.output, "1") < 30);
        CHECK_THAT(r.output, Catch::Contains("it stopped taking the frames (closed its input), without a message; "
                                             "nothing was kept"));
        CHECK_FALSE(std::filesystem::exists(dir / "v.mp4"));
        CHECK_FALSE(partialLeftBeside(dir / "v.mp4"));
    }
}

TEST_CASE("two renders to one video name each write their own partial file, and the name ends as one whole video",
          "[render][cli]") {
    // Both wrote into one FILE.part: the first to finish renamed it, and the
    // other, still writing into it, left a broken video under the name.
    TempDir dir;
    const Shell r = shell("d='" + dir.path().string() + "'; " + kMirofish +
                          " render --frames 200 --size 64x64 --fish 20 --out $d/same.mp4 >/dev/null 2>$d/long.err & "
                          "long=$!; for i in $(seq 1 600); do ls $d/same.mp4.part-* >/dev/null 2>&1 && break; "
                          "sleep 0.05; done; " +
                          kMirofish +
                          " render --frames 5 --size 64x64 --fish 20 --out $d/same.mp4 >/dev/null; "
                          "echo \"short rc=$?\"; wait $long; echo \"long rc=$?\"; cat $d/long.err");
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("short rc=0") && Catch::Contains("long rc=0"));
    // Whichever finished last, whole: every frame of it decodes.
    const std::string frames = shell("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                     "stream=nb_read_frames -of default=noprint_wrappers=1:nokey=1 '" +
                                     (dir / "same.mp4").string() + "'")
                                   .output;
    CHECK((frames == "200\n" || frames == "5\n"));
    CHECK_FALSE(partialLeftBeside(dir / "same.mp4"));
}

TEST_CASE("two renders into one PNG folder at once do not both say they are complete over a mixed sequence",
          "[render][cli]") {
    // Each replaced the other's frames, and both exited 0: frames 0-79 of one
    // school and 80-119 of the other, with no word.
    TempDir dir;
    const std::string render = kMirofish + " render --size 160x90 --fish 30 --out '" + (dir / "seq").string() + "'";
    const Shell r = shell(render + " --frames 200 --seed 1 >/dev/null 2>'" + (dir / "a.err").string() + "' & a=$!; " +
                          render + " --frames 200 --seed 2 >/dev/null 2>'" + (dir / "b.err").string() +
                          "' & b=$!; wait $a; echo \"a rc=$?\"; wait $b; echo \"b rc=$?\"");
    const std::string errors = readText(dir / "a.err") + readText(dir / "b.err");
    INFO(r.output << errors);
    CHECK_THAT(r.output, !(Catch::Contains("a rc=0") && Catch::Contains("b rc=0")));
    CHECK_THAT(errors, Catch::Contains("is another export writing into this folder?") ||
                           Catch::Contains("already holds frames"));
}

TEST_CASE("while ffmpeg completes the video, the render says so once, not a falling rate with 0 s left every second",
          "[render][cli]") {
    TempDir dir;
    // An ffmpeg that takes every frame, then needs 3 s to complete the file.
    writeProgram(dir / "slow-ffmpeg",
                 "#!/bin/sh\ncat > /dev/null\nsleep 3\nfor a; do out=$a; done\ntouch \"${out#file:}\"\n");
    const Shell r = shell("d='" + dir.path().string() + "'; " + kMirofish +
                          " render --frames 3 --size 160x96 --fish 50 --ffmpeg \"$d/slow-ffmpeg\" --out \"$d/v.mp4\" "
                          "2>$d/err; echo \"rc=$?\"; cat $d/err; echo \"lines of the last frame: $(grep -c 'frame 3/3' $d/err)\"");
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("rc=0\n"));
    CHECK_THAT(r.output, Catch::Contains("render: every frame rendered; ffmpeg is completing the video\n"));
    CHECK_THAT(r.output, Catch::Contains("lines of the last frame: 1\n"));
    CHECK(std::filesystem::exists(dir / "v.mp4"));
}

TEST_CASE("a stopped PNG render counts the frames it wrote", "[render][cli]") {
    TempDir dir;
    // Slow PNG writers keep frames queued, which a stop drops.
    const Shell r = shell("d='" + dir.path().string() + "'; setsid " + kMirofish +
                          " render --frames 100000 --size 1280x720 --png-compression 9 --out \"$d/seq\" 2>$d/err & pid=$!; "
                          "for i in $(seq 1 600); do [ -e $d/seq/frame_000003.png ] && break; sleep 0.05; done; "
                          "kill -INT -$pid; wait $pid; echo \"rc=$?\"; cat $d/err");
    INFO(r.output);
    CHECK_THAT(r.output, Catch::Contains("rc=130\n"));
    std::size_t frames = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "seq"))
        frames += entry.path().extension() == ".png";
    CHECK(frames >= 4);
    CHECK_THAT(r.output, Catch::Contains("stopped by a signal after " + std::to_string(frames) + " of 100000 frames"));
}

TEST_CASE("mirofish render with a DISPLAY that does not open renders inside Xvfb instead", "[render][cli]") {
    TempDir dir;
    const Shell r = renderSmall("--frames 2", dir / "frames", "DISPLAY=:9999");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK_THAT(r.output, Catch::Contains("mirofish render: the display :9999 cannot be opened; rendering in Xvfb instead"));
    CHECK(std::filesystem::exists(framePath(dir / "frames", 1)));
}

TEST_CASE("mirofish render says how long it warms up, and counts progress from the first frame written", "[render][cli]") {
    TempDir dir;
    const Shell r = renderSmall("--frames 3 --warmup 2", dir / "frames");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK_THAT(r.output, Catch::Contains("render: warming up: 2 s of simulation before the first frame") &&
                             !Catch::Contains("frame 0/") && Catch::Contains("render: frame 3/3"));
}

TEST_CASE("mirofish render says where it rounds the warm-up to whole frames, and where it drops one under half a frame",
          "[render][cli]") {
    // 0.01 s at 30 fps ran no warm-up without a word, and 0.02 s ran 1/30 s.
    TempDir dir;
    const Shell dropped = renderSmall("--frames 1 --fps 30 --warmup 0.01", dir / "dropped");
    INFO(dropped.output);
    CHECK(dropped.code == 0);
    CHECK_THAT(dropped.output, Catch::Contains("no warm-up: the 0.01 s asked for is under half a frame (1/30 s)"));
    const Shell rounded = renderSmall("--frames 1 --fps 30 --warmup 0.02", dir / "rounded");
    INFO(rounded.output);
    CHECK(rounded.code == 0);
    CHECK_THAT(rounded.output, Catch::Contains("warming up: 0.0333333 s of simulation before the first frame (the 0.02 s "
                                               "asked for, rounded to whole frames of 1/30 s)"));
}

TEST_CASE("mirofish render prints only its own lines where the login set no XDG_RUNTIME_DIR, and a rate once it has one",
          "[render][cli]") {
    TempDir dir;
    const Shell r = renderSmall("--frames 1", dir / "frames", "-u XDG_RUNTIME_DIR");
    INFO(r.output);
    CHECK(r.code == 0);
    CHECK_THAT(r.output, !Catch::Contains("XDG_RUNTIME_DIR") && Catch::Contains("render: 1 frame in"));
    // A single frame has no rate ("frame 1/1, 12048192.8 fps" was printed).
    CHECK_THAT(r.output, Catch::Contains("render: frame 1/1\n"));
}

TEST_CASE("mirofish render exits 1 when ffmpeg fails while writing the video and keeps nothing", "[render][cli]") {
    TempDir dir;
    const Shell r = renderSmall("--frames 60 --ffmpeg /bin/false", dir / "v.mp4");
    INFO(r.output);
    CHECK(r.code == 1);
    CHECK_THAT(r.output, Catch::Contains("mirofish render: ffmpeg failed writing"));
    CHECK_THAT(r.output, Catch::Contains("it exited with code 1, without a message"));  // no guess at a full disk
    CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("mirofish render refuses a folder holding an earlier render's frames, before rendering", "[render][cli]") {
    TempDir dir;
    const std::string render = kMirofish + " render --fish 50 --size 160x90 --out '" + (dir / "seq").string() + "'";
    REQUIRE(shell(render + " --frames 5").code == 0);
    const Shell again = shell(render + " --frames 2");
    CHECK(again.code == 2);
    CHECK_THAT(again.output, Catch::Contains("mirofish render: the output folder '" + (dir / "seq").string() +
                                             "' already holds frames") &&
                                 Catch::Contains("choose an empty folder"));
    CHECK_THAT(again.output, !Catch::Contains("render: frame"));
    for (int i = 0; i < 5; ++i) CHECK(std::filesystem::exists(framePath(dir / "seq", i)));
}

TEST_CASE("mirofish exits 1 when its output cannot be written, and refuses a screenshot into a missing folder at once", "[render][cli]") {
    for (const std::string command : {"--help", "presets --params", "presets", "validate " MIROFISH_PRESET_DIR "/gentle-cruise.json",
                                      "simulate --preset gentle-cruise --fish 20 --steps 0"}) {
        INFO(command);
        // Only stdout goes to /dev/full; stderr is read.
        const Shell r = shell("{ " + kMirofish + " " + command + " > /dev/full; }");
        CHECK(r.code == 1);
        CHECK_THAT(r.output, Catch::Contains("could not write the output: "));
    }
    TempDir dir;
    // Into a folder that is not there it is refused at once (exit 2), not
    // after the whole --quit-after.
    const Shell edit = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish +
                             " edit --fish 20 --quit-after 30 --screenshot '" + (dir / "absent" / "s.png").string() + "'");
    CHECK(edit.code == 2);
    CHECK_THAT(edit.output, Catch::Contains("cannot write the screenshot to '" + (dir / "absent" / "s.png").string() +
                                            "': folder '" + (dir / "absent").string() + "' does not exist"));
    const Shell saved = shell("MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish +
                              " edit --fish 20 --quit-after 0.5 --screenshot '" + (dir / "s.png").string() + "'");
    CHECK(saved.code == 0);
    CHECK(std::filesystem::exists(dir / "s.png"));
}

TEST_CASE("the editor's frame rate lines into a pipe that closes stop, and the editor runs on to say so as it ends",
          "[render][cli]") {
    // `edit --report-fps | head`: the next line after head left killed the
    // editor by SIGPIPE, its unsaved changes lost without a question.
    TempDir dir;
    const Shell r = shell("exec 4>&1; { MIROFISH_USER_PRESETS='" + dir.path().string() + "' " + kMirofish +
                          " edit --fish 20 --quit-after 3 --report-fps 2>'" + (dir / "err").string() +
                          "'; echo \"rc=$?\" >&4; } | head -1 >/dev/null");
    INFO(r.output << readText(dir / "err"));
    CHECK_THAT(r.output, Catch::EndsWith("rc=1\n"));
    CHECK_THAT(readText(dir / "err"), Catch::Contains("mirofish edit: could not write the output"));
}

TEST_CASE("a render complete when its pipe closes exits 0, and one whose path cannot be printed says it is complete",
          "[render][cli]") {
    // The pipe closed by the end (`| head -1` after the reader took what it
    // wanted): the path's write at exit killed it by SIGPIPE, exit 141, its
    // frames complete. The progress goes to a file here, so that the path
    // alone meets the closed pipe, however long the render takes.
    TempDir dir;
    const Shell closed = shell("exec 4>&1; { " + kMirofish + " render --size 64x64 --fish 50 --frames 3 --out '" +
                               (dir / "closed").string() + "' 2>'" + (dir / "err").string() +
                               "'; echo \"rc=$?\" >&4; } | true");
    INFO(closed.output);
    CHECK_THAT(closed.output, Catch::EndsWith("rc=0\n"));
    CHECK(std::filesystem::exists(framePath(dir / "closed", 2)));
    // It said "could not write the output", which reads as a render that failed.
    const Shell full = shell("{ " + kMirofish + " render --size 64x64 --fish 50 --frames 3 --out '" +
                             (dir / "full").string() + "' >/dev/full; echo \"rc=$?\"; }");
    INFO(full.output);
    CHECK_THAT(full.output, Catch::Contains("mirofish render: the render is complete (" + (dir / "full").string() +
                                            "), but its path could not be written to standard output: " +
                                            std::strerror(ENOSPC)));
    CHECK_THAT(full.output, !Catch::Contains("could not write the output"));
    CHECK_THAT(full.output, Catch::EndsWith("rc=1\n"));
    CHECK(std::filesystem::exists(framePath(dir / "full", 2)));
    // Standard output closed: the render's X11 connection took its number,
    // and the path went into it, exit 0 without a word.
    const Shell shut = shell("{ " + kMirofish + " render --size 64x64 --fish 50 --frames 3 --out '" +
                             (dir / "shut").string() + "' >&-; echo \"rc=$?\"; }");
    INFO(shut.output);
    CHECK_THAT(shut.output, Catch::Contains("mirofish render: the render is complete (" + (dir / "shut").string() +
                                            "), but its path could not be written to standard output: " +
                                            std::strerror(EBADF)));
    CHECK_THAT(shut.output, Catch::EndsWith("rc=1\n"));
}

TEST_CASE("mirofish render whose progress pipe is closed stops at its next line, keeping only complete PNG frames, and one whose progress cannot be written otherwise runs on",
          "[render][cli]") {
    // `render ... 2>&1 | head -1`: head leaves after the first progress line.
    // The PNG render was killed by SIGPIPE in the middle of a frame's file;
    // the MP4 render wrote into the closed pipe and rendered every frame.
    TempDir dir;
    for (const std::string out : {"frames", "v.mp4"}) {
        INFO(out);
        const Shell r = shell("exec 4>&1; { " + kMirofish + " render --size 64x64 --fish 50 --frames 20000 --out '" +
                              (dir / out).string() + "' 2>&1; echo \"rc=$?\" >&4; } | grep -m1 'render: frame'");
        INFO(r.output);
        CHECK_THAT(r.output, Catch::Contains("render: frame ") && Catch::EndsWith("rc=1\n"));
        if (out == "frames") {
            REQUIRE(std::filesystem::is_directory(dir / out));
            std::size_t frames = 0;
            for (const auto& entry : std::filesystem::directory_iterator(dir / out)) {
                INFO(entry.path().filename());
                CHECK(entry.path().extension() == ".png");
                ++frames;
            }
            CHECK(frames < 20000);
            for (std::size_t i = 0; i < frames; ++i) CHECK(std::filesystem::exists(framePath(dir / out, i)));
        } else {
            CHECK_FALSE(std::filesystem::exists(dir / out));
            CHECK_FALSE(partialLeftBeside(dir / out));
        }
    }
    // A progress that cannot be written for another reason (a full disk behind 2>log) is lost, not the render.
    const Shell full = shell("{ " + kMirofish + " render --size 64x64 --fish 50 --frames 300 --out '" +
                             (dir / "full").string() + "' 2>/dev/full; echo \"rc=$?\"; }");
    INFO(full.output);
    CHECK_THAT(full.output, Catch::EndsWith("rc=0\n"));
    CHECK(std::filesystem::exists(framePath(dir / "full", 299)));
}

TEST_CASE("render and simulate started in a folder deleted since name the relative output and ask for the whole path",
          "[render][cli]") {
    // They printed a library error: "filesystem error: cannot make absolute path".
    TempDir dir;
    const std::string gone = (dir / "gone").string();
    for (const std::string command : {"render --size 64x64 --fish 50 --frames 2 --out frames",
                                      "simulate --fish 50 --steps 2 --save-state rel.state"}) {
        INFO(command);
        const Shell r = shell("mkdir '" + gone + "' && cd '" + gone + "' && rmdir '" + gone + "' && " + kMirofish + " " +
                              command);
        INFO(r.output);
        CHECK(r.code == 2);
        CHECK_THAT(r.output, Catch::Contains("cannot tell where '") && Catch::Contains("give the whole path"));
        CHECK_THAT(r.output, !Catch::Contains("filesystem error"));
    }
}
