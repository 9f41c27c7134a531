// With real audio devices (a private PulseAudio server with a null output and
// its monitor as an input: run-with-audio-server.sh): the file plays through
// the output and the playhead follows what the device has taken, and a live
// input drives the school. Hidden tests ([.device]): they need that server.
#include <QMediaDevices>
#include <QProcess>
#include <algorithm>
#include <catch2/catch.hpp>
#include <limits>

#include "audio_loop_file.hpp"
#include "support/cli_run.hpp"
#include "support/shell.hpp"
#include "editor_fixture.hpp"
#include "live_input.hpp"

using namespace mirofish;
using namespace mirofish::test;
using editor::AudioController;

namespace {
// The place in the input list of the server's capture input (run-with-audio-server.sh).
int captureInput(AudioController* audio) {
    const QStringList inputs = audio->inputDevices();
    INFO(inputs.join(", ").toStdString());
    const auto capture = std::find_if(inputs.begin(), inputs.end(), [](const QString& d) { return d.contains("MiroFish"); });
    REQUIRE(capture != inputs.end());
    return static_cast<int>(capture - inputs.begin());
}
}  // namespace

TEST_CASE("through an output device the playhead follows what the device has played", "[.device]") {
    EditorFixture f;
    AudioController* audio = f.editor->audio();
    REQUIRE(audio->hasOutput());
    CHECK(audio->deviceNote().isEmpty());
    TempDir dir;
    audio->openFile(QString::fromStdString(writeLoop(dir, 20).string()), true);
    REQUIRE(EditorFixture::waitFor([&] { return audio->playing(); }, 30'000));
    // A stream may take a moment to start; from then on the device takes audio in real time.
    REQUIRE(EditorFixture::waitFor([&] { return audio->position() > 0.3; }, 5000));
    const double from = audio->position();
    QElapsedTimer clock;
    clock.start();
    QTest::qWait(2000);
    const double played = audio->position() - from;
    const double elapsed = clock.elapsed() / 1000.0;
    INFO("played " << played << " s in " << elapsed << " s");
    CHECK(played == Approx(elapsed).margin(0.25));
    CHECK(f.editor->host().stats().audioDriving);

    audio->pause();
    const double held = audio->position();
    QTest::qWait(400);
    CHECK(audio->position() == held);
    // Played again, it goes on from where it paused: the stretch the device
    // held at the pause is not heard twice.
    audio->play();
    CHECK(audio->position() >= held - 0.005);
    QTest::qWait(300);
    CHECK(audio->position() > held);
    audio->pause();
    QTest::qWait(300);
    // Cued while paused: what the device held at the pause is not heard
    // before the place sought.
    audio->seek(12);
    audio->play();
    CHECK(audio->position() >= 12 - 0.005);
    REQUIRE(EditorFixture::waitFor([&] { return audio->position() > 12.3; }, 5000));
    CHECK(audio->position() < 14);
}

namespace {
// A track of `seconds` playing through the output device, half a second in.
AudioController* playThroughOutput(EditorFixture& f, const TempDir& dir, double seconds) {
    AudioController* audio = f.editor->audio();
    REQUIRE(audio->hasOutput());
    audio->openFile(QString::fromStdString(writeLoop(dir, seconds).string()), true);
    REQUIRE(EditorFixture::waitFor([&] { return audio->playing() && audio->position() > 0.5; }, 30'000));
    return audio;
}

// An 8 s track playing in a loop through the output device, a second in.
AudioController* playLoopingThroughOutput(EditorFixture& f, const TempDir& dir) {
    AudioController* audio = playThroughOutput(f, dir, 8);
    audio->setLoop(true);
    REQUIRE(EditorFixture::waitFor([&] { return audio->position() > 1.0; }, 5000));
    return audio;
}
}  // namespace

TEST_CASE("through an output device a looping track sought to its start shows the start, not its end", "[.device]") {
    // The sink still held a moment of the old place: the playhead went back
    // past the start and showed the track's end.
    EditorFixture f;
    TempDir dir;
    AudioController* audio = playLoopingThroughOutput(f, dir);
    audio->seek(0.01);
    double latest = 0;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 300) {
        latest = std::max(latest, audio->position());
        QTest::qWait(5);
    }
    CHECK(latest < 1.0);
}

TEST_CASE("through an output device a skip over a looping track's seam keeps the next lap's tempo, paused and cued at once too",
          "[.device]") {
    // Just after the skip, what the output still held counted against the
    // laps heard: the playhead fell back into the first lap, analysed from
    // silence, whose tempo is unknown for 2.5 s.
    EditorFixture f;
    TempDir dir;
    AudioController* audio = playLoopingThroughOutput(f, dir);
    audio->seek(8.01);  // over the seam into the second lap, as ] near the end does
    audio->pause();
    audio->seek(0.5);  // cued while paused: a fresh stream, from the laps counted at the pause
    audio->play();
    QTest::qWait(300);
    REQUIRE(audio->position() < 2.0);
    CHECK(audio->bpm() == Approx(124).margin(3));
}

// Ends the sound server: run alone, with a server of its own (tests/CMakeLists.txt).
TEST_CASE("a file whose output stream dies mid-play plays on silently and says so, not frozen on one frame",
          "[.output-dies]") {
    // A sound server restarted under it: the playhead, the meters and the
    // school stopped on the frame heard last, with Pause still shown.
    EditorFixture f;
    TempDir dir;
    AudioController* audio = playThroughOutput(f, dir, 20);
    QString said;
    QObject::connect(audio, &AudioController::problem, audio, [&](const QString& message) { said = message; });
    const Shell ended = shell("pactl exit");
    INFO(ended.output);
    REQUIRE(ended.code == 0);
    REQUIRE(EditorFixture::waitFor([&] { return !said.isEmpty(); }, 5000));
    CHECK(said.contains("playing silently"));
    CHECK(audio->playing());
    const double from = audio->position();
    QTest::qWait(1000);
    CHECK(audio->position() == Approx(from + 1.0).margin(0.3));
    // Paused and played again, it goes on from there.
    audio->pause();
    const double held = audio->position();
    audio->play();
    QTest::qWait(300);
    CHECK(audio->position() > held);
}

// Unplugs its output: run alone, with a server of its own (tests/CMakeLists.txt).
TEST_CASE("a file whose output device is unplugged plays on silently and says so, playing or paused then",
          "[.output-unplugged]") {
    // The editor aborted inside libpulse: the pause that follows a change of
    // output suspended the dead stream, as did M pressed at once, and Play
    // resumed a paused stream whose output had gone and come back.
    EditorFixture f;
    TempDir dir;
    AudioController* audio = playThroughOutput(f, dir, 20);
    QString said;
    QObject::connect(audio, &AudioController::problem, audio, [&](const QString& message) { said = message; });
    const auto unplug = [] {
        const Shell unplugged = shell("pactl unload-module module-null-sink");
        INFO(unplugged.output);
        REQUIRE(unplugged.code == 0);
    };
    const auto plugIn = [&] {
        REQUIRE(shell("pactl load-module module-null-sink sink_name=mirofish_null").code == 0);
        REQUIRE(EditorFixture::waitFor([&] { return audio->hasOutput(); }, 5000));
    };

    // Playing: paused straight after, then played on.
    unplug();
    QTest::qWait(30);
    audio->pause();
    const double held = audio->position();
    CHECK(held < 3.0);
    audio->play();
    REQUIRE(EditorFixture::waitFor([&] { return !said.isEmpty(); }, 5000));
    CHECK(audio->playing());
    double from = audio->position();
    QTest::qWait(1000);
    CHECK(audio->position() == Approx(from + 1.0).margin(0.3));

    // Gone for a moment and back (a USB interface reconnecting): heard again.
    plugIn();
    REQUIRE(EditorFixture::waitFor([&] { return audio->audible(); }, 5000));
    said.clear();
    REQUIRE(shell("pactl unload-module module-null-sink && sleep 0.1 && "
                  "pactl load-module module-null-sink sink_name=mirofish_null").code == 0);
    REQUIRE(EditorFixture::waitFor([&] { return !said.isEmpty(); }, 5000));
    CHECK(EditorFixture::waitFor([&] { return audio->audible(); }, 5000));
    CHECK(audio->playing());

    // Paused, gone for a moment and back, and played: the paused stream,
    // resumed, was a dead one, and libpulse aborted.
    REQUIRE(EditorFixture::waitFor([&] { return audio->audible(); }, 5000));
    QTest::qWait(500);
    audio->pause();
    REQUIRE(shell("pactl unload-module module-null-sink && "
                  "pactl load-module module-null-sink sink_name=mirofish_null").code == 0);
    QTest::qWait(2000);
    const double paused = audio->position();
    audio->play();
    // In a fresh stream, which may take a moment to start.
    REQUIRE(EditorFixture::waitFor([&] { return audio->position() > paused + 0.05; }, 5000));
    CHECK(audio->playing());
    CHECK(audio->audible());
    from = audio->position();
    QTest::qWait(1000);
    CHECK(audio->position() == Approx(from + 1.0).margin(0.3));

    // Paused while it goes, and played again at once.
    QTest::qWait(500);
    audio->pause();
    unplug();
    QTest::qWait(30);
    audio->play();
    QTest::qWait(1500);
    CHECK(audio->playing());
    from = audio->position();
    QTest::qWait(1000);
    CHECK(audio->position() == Approx(from + 1.0).margin(0.3));
}

TEST_CASE("a live input device drives the school", "[.device]") {
    EditorFixture f;
    AudioController* audio = f.editor->audio();
    const int input = captureInput(audio);
    // A file playing carries on until the input has started (one that cannot
    // be opened would have thrown the file away).
    TempDir dir;
    audio->openFile(QString::fromStdString(writeLoop(dir, 3).string()), true);
    REQUIRE(EditorFixture::waitFor([&] { return audio->source() == AudioController::FileSource; }, 10'000));
    audio->useInput(input);
    CHECK(audio->source() == AudioController::FileSource);
    CHECK(audio->fileName() == "loop.wav");
    REQUIRE(EditorFixture::waitFor([&] { return audio->status().startsWith("Listening"); }, 5000));
    CHECK(audio->source() == AudioController::InputSource);
    CHECK(audio->fileName().isEmpty());

    // Something plays into the output the input listens to.
    QProcess player;
    player.start("paplay", {"--device=mirofish_null", QString::fromStdString(writeLoop(dir, 10).string())});
    REQUIRE(player.waitForStarted());
    float low = std::numeric_limits<float>::max(), high = 0;
    double loudestLow = 0;
    EditorFixture::waitFor([&] {
        const editor::SimStats s = f.editor->host().stats();
        if (s.audioDriving) {
            low = std::min(low, s.effectiveParams.get(ParamId::SeparationWeight));
            high = std::max(high, s.effectiveParams.get(ParamId::SeparationWeight));
        }
        loudestLow = std::max(loudestLow, audio->named()[0].toDouble());
        return false;
    }, 7000);
    // Live, the tempo is found as in the file.
    CHECK(audio->bpm() == Approx(124).margin(2));
    // The input chosen again, mid-set: it goes on listening, its tempo kept
    // (restarted, the analysis needs seconds to find it again).
    audio->useInput(input);
    QTest::qWait(500);
    CHECK(audio->status().startsWith("Listening"));
    CHECK(audio->bpm() == Approx(124).margin(2));
    player.kill();
    player.waitForFinished();
    INFO("separation weight driven between " << low << " and " << high);
    CHECK(high - low > 0.3);
    CHECK(loudestLow > 0.8);

    // A file replaces the input.
    audio->openFile(QString::fromStdString(writeLoop(dir, 2).string()));
    REQUIRE(EditorFixture::waitFor([&] { return audio->source() == AudioController::FileSource; }, 10'000));
    CHECK(audio->inputDevice() == -1);

    audio->closeSource();
    CHECK(EditorFixture::waitFor([&] { return !f.editor->host().stats().audioDriving; }));

    // An input still opening, with nothing else playing, can be stopped with the cross.
    f.window->setProperty("panelTab", 2);
    QQuickItem* close = nullptr;
    REQUIRE(EditorFixture::waitFor([&] { return (close = f.find("audioClose")) && close->isVisible(); }));
    CHECK_FALSE(close->isEnabled());
    audio->useInput(input);
    CHECK(close->isEnabled());
    f.clickItem("audioClose");
    QTest::qWait(1000);
    CHECK(audio->source() == AudioController::NoSource);
    CHECK_FALSE(audio->status().startsWith("Listening"));
}

TEST_CASE("an input unplugged while it listens is said to be gone, and one plugged in can be chosen", "[.device]") {
    // Qt 6.4 sends no signal when the devices change: the editor went on
    // "listening" to whatever the server moved the stream to, and listed
    // only the inputs there were when it started.
    EditorFixture f;
    AudioController* audio = f.editor->audio();
    audio->useInput(captureInput(audio));
    REQUIRE(EditorFixture::waitFor([&] { return audio->status().startsWith("Listening"); }, 5000));
    QString said;
    QObject::connect(audio, &AudioController::problem, audio, [&](const QString& message) { said = message; });

    // Unplugged (its module unloaded), and plugged back in as it was at the end, for the tests after this one.
    const std::string capture = "module-remap-source master=mirofish_null.monitor source_name=mirofish_capture "
                                "source_properties=device.description=MiroFish_capture";
    struct PlugBack {
        const std::string& module;
        bool done = false;
        ~PlugBack() {
            if (!done) shell("pactl load-module " + module);
        }
    } plugBack{capture};
    const Shell unplugged = shell("pactl unload-module module-remap-source");
    INFO(unplugged.output);
    REQUIRE(unplugged.code == 0);
    REQUIRE(EditorFixture::waitFor([&] { return !said.isEmpty(); }, 5000));
    CHECK(said.contains("went away"));
    CHECK(audio->source() == AudioController::NoSource);
    CHECK_FALSE(audio->status().startsWith("Listening"));
    CHECK_FALSE(audio->inputDevices().join(",").contains("MiroFish"));

    const Shell plugged = shell("pactl load-module " + capture);
    INFO(plugged.output);
    REQUIRE(plugged.code == 0);
    plugBack.done = true;
    CHECK(EditorFixture::waitFor([&] { return audio->inputDevices().join(",").contains("MiroFish"); }, 5000));
}

TEST_CASE("an input that cannot be opened leaves the input listening until then listening", "[.device]") {
    // The input listening was stopped before the other was tried: a choice
    // that failed mid-set left nothing driving the school.
    auto feed = std::make_shared<AudioFeed>();
    feed->useLive();
    editor::LiveInput live(feed);
    QString started;
    std::optional<bool> stillListening;
    QObject::connect(&live, &editor::LiveInput::started, [&](const QString& name) { started = name; });
    QObject::connect(&live, &editor::LiveInput::failed, [&](const QString&, bool still) { stillListening = still; });
    const QList<QAudioDevice> inputs = QMediaDevices::audioInputs();
    const auto capture = std::find_if(inputs.begin(), inputs.end(), [](const QAudioDevice& d) {
        return d.description().contains("MiroFish");
    });
    REQUIRE(capture != inputs.end());
    live.start(*capture);
    REQUIRE(EditorFixture::waitFor([&] { return !started.isEmpty(); }, 5000));
    // Something plays into the output the input listens to (an idle one
    // delivers nothing).
    TempDir dir;
    QProcess player;
    player.start("paplay", {"--device=mirofish_null", QString::fromStdString(writeLoop(dir, 5).string())});
    REQUIRE(player.waitForStarted());
    AudioFeatures frame;
    REQUIRE(EditorFixture::waitFor([&] { return feed->current(frame); }, 3000));
    live.start(QAudioDevice());  // no format: cannot be opened
    REQUIRE(EditorFixture::waitFor([&] { return stillListening.has_value(); }, 5000));
    CHECK(*stillListening);
    // Longer than a live frame stays current, then frames again (they come
    // in bursts through this server).
    QTest::qWait(1000);
    CHECK(EditorFixture::waitFor([&] { return feed->current(frame); }, 4000));
    player.kill();
    player.waitForFinished();
}

TEST_CASE("an input that starts while a file is read is what the status tells once the file fails", "[.device]") {
    EditorFixture f;
    AudioController* audio = f.editor->audio();
    const int input = captureInput(audio);
    TempDir dir;
    // An ffmpeg that takes a while and then cannot read the file.
    writeProgram(dir / "failing-ffmpeg", "#!/bin/sh\nsleep 2\necho 'Invalid data found' >&2\nexit 1\n");
    const ScopedEnv ffmpeg("MIROFISH_FFMPEG", (dir / "failing-ffmpeg").string());
    writeText(dir / "song.mp3", "not audio");
    audio->useInput(input);
    audio->openFile(QString::fromStdString((dir / "song.mp3").string()));
    REQUIRE(EditorFixture::waitFor([&] { return audio->source() == AudioController::InputSource; }, 5000));
    CHECK(audio->status().startsWith("Reading song.mp3"));
    REQUIRE(EditorFixture::waitFor([&] { return !audio->loading(); }, 10'000));
    // It went back to "Opening …", the status from before the file, with the input listening.
    CHECK(audio->status().startsWith("Listening to"));
    CHECK(audio->source() == AudioController::InputSource);
}
