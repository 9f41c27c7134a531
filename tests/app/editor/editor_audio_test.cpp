// The audio panel as a performer uses it: a file plays (silently when the
// machine has no output device, as in CI) and its kicks drive the school;
// transport, loop and the meters follow the playhead; the route table edits
// what the simulation uses and is saved with the preset; a bad file is
// reported while the playing one carries on.
#include <QQuickItem>
#include <QRegularExpression>
#include <QThread>
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <limits>

#include "audio_loop_file.hpp"
#include "editor_fixture.hpp"
#include "live_input.hpp"
#include "track_playback.hpp"

using namespace mirofish;
using namespace mirofish::test;
using editor::AudioController;
using editor::RouteListModel;

namespace {
void openAndWait(AudioController* audio, const std::filesystem::path& file, bool play) {
    audio->openFile(QString::fromStdString(file.string()), play);
    REQUIRE(EditorFixture::waitFor([&] { return !audio->loading(); }, 30'000));
}

QVariant routeData(RouteListModel* routes, int row, int role) { return routes->data(routes->index(row), role); }

// The Audio tab shown, and the item of this name on it once it is laid out.
QQuickItem* onAudioTab(EditorFixture& f, const char* name) {
    f.window->setProperty("panelTab", 2);
    QQuickItem* item = nullptr;
    REQUIRE(EditorFixture::waitFor([&] { return (item = f.find(name)) && item->isVisible() && item->width() > 0; }));
    return item;
}

// The latency box's text input, on the Audio tab.
QQuickItem* latencyInput(EditorFixture& f) {
    auto* input = onAudioTab(f, "audioLatency")->property("contentItem").value<QQuickItem*>();
    REQUIRE(input);
    return input;
}
}  // namespace

TEST_CASE("an audio file plays, silently without a device, and its kicks drive the school's separation") {
    EditorFixture f;
    TempDir dir;
    const auto file = writeLoop(dir, 12);
    AudioController* audio = f.editor->audio();
    if (!audio->hasOutput()) {
        CHECK(audio->deviceNote().contains("No audio output device"));
        auto* note = f.find("audioDeviceNote");
        REQUIRE(note);
        CHECK(note->property("text").toString() == audio->deviceNote());
    }

    std::vector<double> progress;
    QObject::connect(audio, &AudioController::loadingChanged, [&] { progress.push_back(audio->loadProgress()); });
    openAndWait(audio, file, true);
    REQUIRE(audio->source() == AudioController::FileSource);
    CHECK(audio->fileName() == "loop.wav");
    CHECK(audio->duration() == Approx(12).margin(0.01));
    REQUIRE(!progress.empty());
    CHECK(*std::max_element(progress.begin(), progress.end()) == 1.0);
    CHECK(audio->playing());

    const float base = f.editor->params()->params().get(ParamId::SeparationWeight);
    float low = std::numeric_limits<float>::max(), high = 0;
    double loudestLow = 0, brightestBeat = 0, furthestRoute = 0;
    EditorFixture::waitFor([&] {
        const editor::SimStats s = f.editor->host().stats();
        if (s.audioDriving) {
            low = std::min(low, s.effectiveParams.get(ParamId::SeparationWeight));
            high = std::max(high, s.effectiveParams.get(ParamId::SeparationWeight));
        }
        loudestLow = std::max(loudestLow, audio->named()[0].toDouble());
        brightestBeat = std::max(brightestBeat, audio->beat());
        furthestRoute = std::max(furthestRoute, routeData(f.editor->routes(), 0, RouteListModel::PositionRole).toDouble());
        return false;
    }, 3000);
    INFO("separation weight driven between " << low << " and " << high);
    // The kick bursts the school; between kicks the bass holds the low band
    // about 10 dB lower (about 3.0 on the route's log curve).
    CHECK(high - low > 0.3);
    CHECK(high <= 3.5f + 1e-4f);         // within the default route's range
    CHECK(loudestLow > 0.8);             // the low meter lights on the kick
    CHECK(brightestBeat > 0.5);          // the beat light flashes
    CHECK(furthestRoute > 0.5);          // the route table's live bar moves
    // The user's own value stays what the slider shows; the routes act around each step.
    CHECK(f.editor->params()->params().get(ParamId::SeparationWeight) == base);
    CHECK(f.editor->host().stats().params.get(ParamId::SeparationWeight) == base);
    // Real time, from the playhead (not from how fast the file was decoded).
    CHECK(audio->position() == Approx(3.0).margin(1.0));

    // The tempo, read where the analysis has heard enough of the loop.
    audio->seek(10);
    QTest::qWait(300);
    CHECK(audio->bpm() == Approx(124).margin(1));
}

TEST_CASE("pause stops the audio driving, seek moves the playhead, loop wraps and the end stops") {
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    openAndWait(audio, writeLoop(dir, 4), true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().audioDriving; }));

    audio->pause();
    CHECK_FALSE(audio->playing());
    REQUIRE(EditorFixture::waitFor([&] { return !f.editor->host().stats().audioDriving; }));
    const double held = audio->position();
    QTest::qWait(300);
    CHECK(audio->position() == held);
    CHECK_FALSE(audio->driving());
    CHECK(f.editor->host().stats().effectiveParams == f.editor->host().stats().params);

    audio->seek(2.5);
    CHECK(audio->position() == Approx(2.5));
    audio->setLoop(true);
    audio->seek(3.7);
    audio->play();
    // Wrapped to the start; through a sound device, once its new stream has started.
    CHECK(EditorFixture::waitFor([&] { return audio->position() < 1.0; }, 5000));
    CHECK(audio->playing());

    audio->setLoop(false);
    audio->seek(3.7);
    REQUIRE(EditorFixture::waitFor([&] { return !audio->playing(); }, 5000));
    CHECK(audio->position() == Approx(4.0).margin(0.02));
    audio->play();  // play at the end starts over
    CHECK(audio->position() < 0.2);
}

TEST_CASE("with the school paused while a file drives it, an edit shows at once, and so does closing the source") {
    // The drawn parameters were those of the last step the audio drove, edits
    // since left out, until the school ran again.
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    openAndWait(audio, writeLoop(dir, 12), true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().audioDriving; }));
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));

    editor::ParamListModel* params = f.editor->params();
    params->setValue(params->rowOf("fishLength"), 17);
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().effectiveParams.get(ParamId::FishLength) == 17.0f; }, 2000));
    CHECK(f.editor->host().stats().audioDriving);

    audio->closeSource();
    CHECK(EditorFixture::waitFor([&] { return !f.editor->host().stats().audioDriving; }, 2000));
    CHECK(f.editor->host().stats().effectiveParams == f.editor->host().stats().params);
}

TEST_CASE("a route driving the soft walls' margin does not zoom the view on the beat") {
    // The view keeps the overshoot band in sight; sized from the driven
    // margin, the whole world zoomed in and out with the music.
    EditorFixture f;
    editor::ParamListModel* params = f.editor->params();
    params->setValue(params->rowOf("boundaryMode"), static_cast<double>(BoundaryMode::Soft));
    RouteListModel* routes = f.editor->routes();
    REQUIRE(routes->setField(0, "target", "boundaryMargin"));
    REQUIRE(routes->setField(0, "min", 20));
    REQUIRE(routes->setField(0, "max", 300));
    TempDir dir;
    openAndWait(f.editor->audio(), writeLoop(dir, 12), true);
    QQuickItem* view = f.find("fishView");
    REQUIRE(view);
    float lowMargin = std::numeric_limits<float>::max(), highMargin = 0;
    double smallest = std::numeric_limits<double>::max(), largest = 0;
    EditorFixture::waitFor([&] {
        const editor::SimStats s = f.editor->host().stats();
        if (s.audioDriving) {
            lowMargin = std::min(lowMargin, s.effectiveParams.get(ParamId::BoundaryMargin));
            highMargin = std::max(highMargin, s.effectiveParams.get(ParamId::BoundaryMargin));
            const double scale = view->property("worldScale").toDouble();
            smallest = std::min(smallest, scale);
            largest = std::max(largest, scale);
        }
        return false;
    }, 2500);
    INFO("margin driven between " << lowMargin << " and " << highMargin << "; view scale " << smallest << " to " << largest);
    REQUIRE(highMargin - lowMargin > 30);
    CHECK(largest == smallest);
}

TEST_CASE("the route table's live bars rest once nothing drives: after a pause and after closing the source") {
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    RouteListModel* routes = f.editor->routes();
    const auto position = [&] { return routeData(routes, 0, RouteListModel::PositionRole).toDouble(); };
    openAndWait(audio, writeLoop(dir, 4), true);
    REQUIRE(EditorFixture::waitFor([&] { return position() > 0.3; }, 5000));
    audio->pause();
    CHECK(EditorFixture::waitFor([&] { return position() == 0.0; }, 2000));
    audio->play();
    REQUIRE(EditorFixture::waitFor([&] { return position() > 0.3; }, 5000));
    audio->closeSource();
    CHECK(EditorFixture::waitFor([&] { return position() == 0.0; }, 2000));
    QTest::qWait(200);
    CHECK(position() == 0.0);
}

TEST_CASE("a looping file's tempo stays known over the seam into the next lap") {
    // Each lap was analysed from a cold start: "listening" for 2.5 s.
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    openAndWait(audio, writeLoop(dir, 6), false);
    audio->setLoop(true);
    audio->seek(5.5);
    audio->play();
    REQUIRE(EditorFixture::waitFor([&] { return audio->position() > 0.4 && audio->position() < 2.0; }, 5000));
    INFO("at " << audio->position() << " s of the second lap");
    CHECK(audio->bpm() == Approx(124).margin(3));
}

TEST_CASE("a looping file's tempo stays known after a skip over the seam, and after a pause in the next lap") {
    // A seek, and a pause on the silent clock, put the playhead back in the
    // first lap, analysed from a cold start: "listening" for 2.5 s.
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    openAndWait(audio, writeLoop(dir, 6), false);
    audio->setLoop(true);
    audio->seek(5.0);
    audio->play();
    audio->seek(audio->position() + 1.5);  // over the seam, as ] does
    QTest::qWait(300);
    REQUIRE(EditorFixture::waitFor([&] { return audio->position() > 0.4 && audio->position() < 2.0; }, 5000));
    INFO("at " << audio->position() << " s of the second lap");
    CHECK(audio->bpm() == Approx(124).margin(3));
    audio->pause();
    audio->play();
    QTest::qWait(200);
    REQUIRE(audio->position() < 2.4);
    CHECK(audio->bpm() == Approx(124).margin(3));
}

TEST_CASE("with a latency offset the end of a file still drives the school after the audio ended") {
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    openAndWait(audio, writeLoop(dir, 4), false);
    audio->setLatencyMs(800);
    audio->seek(3.6);
    audio->play();
    REQUIRE(EditorFixture::waitFor([&] { return !audio->playing(); }, 3000));  // the audio ended
    // The visuals are 0.8 s behind: 0.3 s later the school still hears the file's end.
    QTest::qWait(300);
    CHECK(audio->driving());
    CHECK(f.editor->host().stats().audioDriving);
    CHECK(EditorFixture::waitFor([&] { return !audio->driving(); }, 2000));
    CHECK(EditorFixture::waitFor([&] { return !f.editor->host().stats().audioDriving; }, 2000));
}

TEST_CASE("the route table edits the routes the simulation uses, and they are saved with the preset") {
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    // A preset without audioRoutes: the articles' three.
    REQUIRE(routes->rowCount() == 3);
    CHECK(routes->matrix() == defaultRoutes());
    CHECK_FALSE(f.editor->modified());

    // The panel's button adds a route.
    f.window->setProperty("panelTab", 2);
    QQuickItem* add = nullptr;
    REQUIRE(EditorFixture::waitFor([&] { return (add = f.find("routeAdd")) && add->isVisible() && add->width() > 0; }));
    QTest::mouseClick(f.window, Qt::LeftButton, {}, add->mapToScene(QPointF(add->width() / 2, add->height() / 2)).toPoint());
    REQUIRE(routes->rowCount() == 4);
    CHECK(f.editor->modified());
    CHECK(EditorFixture::waitFor([&] { return f.find("routeTarget_3") != nullptr; }));

    CHECK(routes->setField(3, "target", "cohesionWeight"));
    CHECK(routes->setField(3, "source", "onset"));
    CHECK(routes->setField(3, "min", 0.5));
    CHECK(routes->setField(3, "max", 999));  // clamped to the parameter's range
    CHECK(routeData(routes, 3, RouteListModel::MaxRole).toDouble() == paramDef(ParamId::CohesionWeight).max);
    CHECK(routes->setField(3, "amount", 0.5));
    CHECK(routes->setField(3, "invert", true));
    CHECK_FALSE(routes->setField(3, "target", "boundaryMode"));  // a choice cannot be modulated
    CHECK_FALSE(routes->setField(3, "curve", "cubic"));
    CHECK_FALSE(routes->setField(9, "amount", 0.5));
    routes->removeRoute(0);
    REQUIRE(routes->rowCount() == 3);
    CHECK(routeData(routes, 0, RouteListModel::SourceRole).toString() == "mid");
    // The simulation thread has the edited routes.
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().routeValues.size() == 3; }));

    const ModulationMatrix edited = routes->matrix();
    REQUIRE(f.editor->savePresetAs("Beat cohesion"));
    const Preset saved = loadPreset(f.userDir / "beat-cohesion.json");
    REQUIRE(saved.routes.has_value());
    CHECK(*saved.routes == edited.routes);
    CHECK_FALSE(f.editor->modified());

    REQUIRE(f.editor->loadPresetFile(QString::fromStdString((std::filesystem::path(MIROFISH_PRESET_DIR) / "gentle-cruise.json").string())));
    CHECK(routes->matrix() == defaultRoutes());
    REQUIRE(f.editor->loadPresetFile(QString::fromStdString((f.userDir / "beat-cohesion.json").string())));
    CHECK(routes->matrix() == edited);

    // No routes at all is kept as such (not turned back into the defaults).
    while (routes->rowCount() > 0) routes->removeRoute(0);
    REQUIRE(f.editor->savePresetAs("Deaf"));
    REQUIRE(f.editor->loadPresetFile(QString::fromStdString((f.userDir / "deaf.json").string())));
    CHECK(routes->rowCount() == 0);
    CHECK_FALSE(f.editor->modified());
}

TEST_CASE("a route's from and to fields show what the route holds, a typed value clamped twice included") {
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    QQuickItem* from = onAudioTab(f, "routeMin_0");
    const double top = paramDef(ParamId::SeparationWeight).max;
    REQUIRE(routeData(routes, 0, RouteListModel::TargetRole).toString() == "separationWeight");
    for (int i = 0; i < 2; ++i) {
        f.typeInto(from, "999");
        QTest::keyClick(f.window, Qt::Key_Return);
        CHECK(routeData(routes, 0, RouteListModel::MinRole).toDouble() == top);
        CHECK(from->property("text").toString().toDouble() == top);
    }
    f.typeInto(from, "1,5");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(routeData(routes, 0, RouteListModel::MinRole).toDouble() == 1.5);
}

TEST_CASE("an undo or a redo of one route keeps a number typed into another route's field, and counts it on top") {
    // The routes' rows were rebuilt on every undo and redo: a number typed
    // into route 2's field and not yet confirmed was lost with the tool bar's redo.
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    QQuickItem* from = onAudioTab(f, "routeMin_0");
    f.typeInto(from, "2");
    QTest::keyClick(f.window, Qt::Key_Return);
    REQUIRE(routeData(routes, 0, RouteListModel::MinRole).toDouble() == 2.0);
    f.editor->undo();
    REQUIRE(f.editor->canRedo());
    QQuickItem* to = f.find("routeMax_1");
    REQUIRE(to);
    const double before = routeData(routes, 1, RouteListModel::MaxRole).toDouble();
    const double typed = before > 200 ? before - 50 : before / 2;
    f.typeInto(to, QString::number(typed).toUtf8().constData());
    f.clickButton(QStringLiteral("↷"));
    CHECK(routeData(routes, 0, RouteListModel::MinRole).toDouble() == 2.0);
    CHECK(routeData(routes, 1, RouteListModel::MaxRole).toDouble() == Approx(typed));
    CHECK(f.find("routeMax_1") == to);  // the same field, not one made anew
    // Undone, each step goes back on its own.
    f.editor->undo();
    CHECK(routeData(routes, 1, RouteListModel::MaxRole).toDouble() == before);
    CHECK(routeData(routes, 0, RouteListModel::MinRole).toDouble() == 2.0);
}

TEST_CASE("a number typed into a route that a redo removes goes with it, not onto the route after it") {
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    REQUIRE(routes->rowCount() == 3);
    onAudioTab(f, "routeMax_1");
    const QString third = routeData(routes, 2, RouteListModel::TargetRole).toString();
    const double thirdMax = routeData(routes, 2, RouteListModel::MaxRole).toDouble();
    routes->removeRoute(1);
    f.editor->undo();
    REQUIRE(routes->rowCount() == 3);
    QQuickItem* to = f.find("routeMax_1");
    REQUIRE(to);
    f.typeInto(to, "300");
    f.clickButton(QStringLiteral("↷"));
    REQUIRE(routes->rowCount() == 2);
    CHECK(routeData(routes, 1, RouteListModel::TargetRole).toString() == third);
    CHECK(routeData(routes, 1, RouteListModel::MaxRole).toDouble() == thirdMax);
    // Undone, route 2 comes back where it was.
    f.editor->undo();
    CHECK(routes->rowCount() == 3);
    CHECK(routeData(routes, 2, RouteListModel::TargetRole).toString() == third);
}

TEST_CASE("a number typed and not confirmed is dropped when a redo brings another preset, or another target into a route's row") {
    // The tool bar's redo counts a number typed after it: typed for route 2
    // of the preset left, it landed on the next preset's route 2, clamped to
    // that parameter's range.
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    onAudioTab(f, "routeMin_1");
    SECTION("another preset") {
        const int open = f.editor->presetRow();
        const int next = (open + 1) % f.editor->presets()->rowCount();
        REQUIRE(f.editor->loadPreset(next));
        const double nextMin = routeData(routes, 1, RouteListModel::MinRole).toDouble();
        f.editor->undo();
        REQUIRE(f.editor->presetRow() == open);
        f.typeInto(f.find("routeMin_1"), QString::number(nextMin / 2).toUtf8().constData());
        f.clickButton(QStringLiteral("↷"));
        REQUIRE(f.editor->presetRow() == next);
        CHECK(routeData(routes, 1, RouteListModel::MinRole).toDouble() == nextMin);
        f.editor->undo();  // the redo was the only step
        CHECK(f.editor->presetRow() == open);
    }
    SECTION("another preset, in a parameter's field") {
        const int open = f.editor->presetRow();
        const int next = (open + 1) % f.editor->presets()->rowCount();
        REQUIRE(f.editor->loadPreset(next));
        const double nextSpeed = f.editor->params()->params().get(ParamId::MaxSpeed);
        f.editor->undo();
        f.window->setProperty("panelTab", 0);
        QQuickItem* field = nullptr;
        REQUIRE(EditorFixture::waitFor([&] { return (field = f.find("field_maxSpeed")) && field->isVisible(); }));
        f.typeInto(field, QString::number(nextSpeed / 2).toUtf8().constData());
        f.clickButton(QStringLiteral("↷"));
        REQUIRE(f.editor->presetRow() == next);
        CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) == nextSpeed);
        f.editor->undo();  // the redo was the only step
        CHECK(f.editor->presetRow() == open);
    }
    SECTION("the same preset again, or one of the same name") {
        // The number belonged to the preset's name: a redo bringing back a
        // preset of that name (a load of it again, yours saved under a
        // shipped one's name) took it onto the preset brought.
        const int open = f.editor->presetRow();
        const double speed = f.editor->params()->params().get(ParamId::MaxSpeed);
        REQUIRE(f.editor->loadPreset(open));
        f.editor->undo();
        f.window->setProperty("panelTab", 0);
        QQuickItem* field = nullptr;
        REQUIRE(EditorFixture::waitFor([&] { return (field = f.find("field_maxSpeed")) && field->isVisible(); }));
        f.typeInto(field, QString::number(speed / 2).toUtf8().constData());
        f.clickButton(QStringLiteral("↷"));
        CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) == speed);
        CHECK(field->property("typed").toBool() == false);
        f.editor->undo();  // the redo was the only step
        CHECK_FALSE(f.editor->modified());
    }
    SECTION("another target") {
        const QString target = routeData(routes, 1, RouteListModel::TargetRole).toString();
        REQUIRE(routes->setField(1, "target", "cohesionWeight"));
        const double cohesionMin = routeData(routes, 1, RouteListModel::MinRole).toDouble();
        f.editor->undo();
        const double typed = cohesionMin > 0.5 ? cohesionMin - 0.25 : cohesionMin + 0.25;
        f.typeInto(f.find("routeMin_1"), QString::number(typed).toUtf8().constData());
        f.clickButton(QStringLiteral("↷"));
        REQUIRE(routeData(routes, 1, RouteListModel::TargetRole).toString() == "cohesionWeight");
        CHECK(routeData(routes, 1, RouteListModel::MinRole).toDouble() == cohesionMin);
        f.editor->undo();  // the redo was the only step
        CHECK(routeData(routes, 1, RouteListModel::TargetRole).toString() == target);
    }
    CHECK(f.find("routeMin_1")->property("typed").toBool() == false);
}

TEST_CASE("the transport shows a file's length rounded, as the status says it") {
    // 2.97 s read "3.0 s" in the status and 0:02 in the transport.
    EditorFixture f;
    TempDir dir;
    openAndWait(f.editor->audio(), writeLoop(dir, 2.97), false);
    CHECK(f.editor->audio()->status().contains("3.0 s"));
    CHECK(onAudioTab(f, "audioTime")->property("text").toString() == "0:00 / 0:03");
    SECTION("and played to its end, the position reads as the length") {
        // A 2.6 s track ended on 0:02 / 0:03, as if a second were left.
        f.editor->audio()->seek(2.8);
        f.editor->audio()->play();
        REQUIRE(EditorFixture::waitFor([&] { return !f.editor->audio()->playing(); }, 10'000));
        CHECK(f.find("audioTime")->property("text").toString() == "0:03 / 0:03");
    }
}

TEST_CASE("a route turned to a band while the Audio tab was hidden shows its band box beside the source, not over it") {
    // A load, an undo or a morph with another tab showing: the box was laid
    // out as if still hidden, at the row's left edge over the source box.
    EditorFixture f;
    f.window->setProperty("panelTab", 0);
    QTest::qWait(300);
    REQUIRE(f.editor->routes()->setField(0, "source", "band"));
    QQuickItem* band = onAudioTab(f, "routeBand_0");
    QQuickItem* source = f.find("routeSource_0");
    QQuickItem* target = f.find("routeTarget_0");
    REQUIRE((source && target));
    QTest::qWait(300);
    const auto left = [](QQuickItem* i) { return i->mapToScene(QPointF(0, 0)).x(); };
    CHECK(left(band) >= left(source) + source->width());
    CHECK(left(target) >= left(band) + band->width());
    CHECK(band->width() == Approx(84));
    // A row of another source has no band box, nor a gap where it would be.
    REQUIRE(f.editor->routes()->setField(0, "source", "low"));
    QTest::qWait(300);
    CHECK(left(target) - (left(source) + source->width()) == Approx(left(f.find("routeTarget_1")) -
                                                                    (left(f.find("routeSource_1")) + source->width())));
    CHECK(left(target) - (left(source) + source->width()) < 40);
}

TEST_CASE("each route's live reading fits beside its bar, the longest unit included") {
    EditorFixture f;
    for (const char* name : {"routeLiveText_0", "routeLiveText_1", "routeLiveText_2"}) {
        QQuickItem* label = onAudioTab(f, name);
        INFO(name << ": " << label->property("text").toString().toStdString());
        CHECK(label->implicitWidth() <= label->width());
    }
}

TEST_CASE("a step with Up or the box's arrow goes on from the latency typed, and the box still follows the latency") {
    // 300 typed, then Up, gave 5 ms: the typed number was thrown away.
    EditorFixture f;
    AudioController* audio = f.editor->audio();
    QQuickItem* input = latencyInput(f);
    QQuickItem* latency = f.find("audioLatency");
    REQUIRE(audio->latencyMs() == 0);
    f.typeInto(input, "300");
    QTest::keyClick(f.window, Qt::Key_Up);
    CHECK(audio->latencyMs() == 305);
    CHECK(EditorFixture::waitFor([&] { return input->property("text").toString() == "305 ms"; }));
    CHECK(input->hasActiveFocus());
    f.typeInto(input, "200");
    auto* down = latency->property("down").value<QObject*>();
    REQUIRE(down);
    auto* arrow = down->property("indicator").value<QQuickItem*>();
    REQUIRE(arrow);
    QTest::mouseClick(f.window, Qt::LeftButton, {}, arrow->mapToScene(QPointF(arrow->width() / 2, arrow->height() / 2)).toPoint());
    CHECK(audio->latencyMs() == 195);
    // Typed past the range's end, then Up: the end, applied.
    f.typeInto(input, "5000");
    QTest::keyClick(f.window, Qt::Key_Up);
    CHECK(audio->latencyMs() == audio->maxLatencyMs());
    // The box still shows the latency when it changes elsewhere (a preset, an undo).
    audio->setLatencyMs(50);
    CHECK(EditorFixture::waitFor([&] { return input->property("text").toString() == "50 ms"; }));
}

TEST_CASE("a latency typed beyond its range is clamped to it, and text that is no number changes nothing") {
    EditorFixture f;
    AudioController* audio = f.editor->audio();
    QQuickItem* input = latencyInput(f);
    f.typeInto(input, "-1500");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(audio->latencyMs() == -audio->maxLatencyMs());
    f.typeInto(input, "250 ms");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(audio->latencyMs() == 250);
    f.typeInto(input, "abc");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(audio->latencyMs() == 250);
    // The box shows the latency again, not what was typed; the same for a
    // value clamped to the one it already had.
    CHECK(EditorFixture::waitFor([&] { return input->property("text").toString() == "250 ms"; }));
    f.typeInto(input, "-1500");
    QTest::keyClick(f.window, Qt::Key_Return);
    f.typeInto(input, "-3000");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(audio->latencyMs() == -audio->maxLatencyMs());
    CHECK(EditorFixture::waitFor([&] {
        return input->property("text").toString() == QString("%1 ms").arg(-audio->maxLatencyMs());
    }));
}

TEST_CASE("an audio file that cannot be read, with no source before it, says why in the Audio panel") {
    // The panel said "Could not open the audio file" alone; the reason was
    // on stderr and in the message line, which goes.
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    writeText(dir / "broken.mp3", "not a song");
    openAndWait(audio, dir / "broken.mp3", true);
    CHECK(audio->source() == AudioController::NoSource);
    CHECK(audio->status().startsWith("Could not open the audio file: " + QString::fromStdString((dir / "broken.mp3").string())));
    CHECK(audio->status().contains("not a readable audio file"));
}

TEST_CASE("a missing or corrupt audio file is reported by name and the playing file carries on") {
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    openAndWait(audio, writeLoop(dir, 6), true);
    REQUIRE(audio->playing());
    const QString playingStatus = audio->status();

    openAndWait(audio, dir / "missing.mp3", true);
    CHECK(f.editor->messageIsError());
    CHECK(f.editor->message().contains("missing.mp3"));
    CHECK(audio->playing());
    CHECK(audio->fileName() == "loop.wav");
    CHECK(audio->status() == playingStatus);  // not "Reading missing.mp3…" for good

    {
        std::ofstream junk(dir / "corrupt.mp3", std::ios::binary);
        for (int i = 0; i < 20000; ++i) junk.put(static_cast<char>((i * 7919) % 251));
    }
    openAndWait(audio, dir / "corrupt.mp3", true);
    CHECK(f.editor->message().contains("corrupt.mp3"));
    CHECK(f.editor->message().contains("not a readable audio file"));
    CHECK(audio->playing());
    CHECK(audio->source() == AudioController::FileSource);
    const auto step = f.step();
    CHECK(EditorFixture::waitFor([&] { return f.step() > step + 10; }));

    REQUIRE(EditorFixture::waitFor([&] { return audio->bpm() > 0; }));
    audio->closeSource();
    CHECK(audio->source() == AudioController::NoSource);
    CHECK(EditorFixture::waitFor([&] { return !f.editor->host().stats().audioDriving; }));
    CHECK(audio->bpm() == 0);  // no tempo left over from the file
}

TEST_CASE("the next file opened while one plays takes over playing once read, and M while the first is read says whether it plays") {
    // The playing track stopped the moment the next was read, which waited
    // paused at 0:00 with nothing driving the school, mid-set.
    EditorFixture f;
    TempDir dir, next;
    AudioController* audio = f.editor->audio();
    openAndWait(audio, writeLoop(dir, 6), true);
    REQUIRE(audio->playing());
    std::filesystem::rename(writeLoop(next, 4), next / "next.wav");
    openAndWait(audio, next / "next.wav", false);  // as the file dialog opens one
    CHECK(audio->fileName() == "next.wav");
    CHECK(audio->playing());
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().audioDriving; }));
    // Paused, the next one read waits paused too.
    audio->pause();
    openAndWait(audio, writeLoop(dir, 6), false);
    CHECK_FALSE(audio->playing());
    // Opened to play (--audio), with no file yet: M while it is read keeps it from playing.
    audio->closeSource();
    audio->openFile(QString::fromStdString(writeLoop(dir, 6).string()), true);
    REQUIRE(audio->loading());
    audio->togglePlay();
    CHECK(audio->status().contains("stays paused once read"));
    REQUIRE(EditorFixture::waitFor([&] { return !audio->loading(); }, 30'000));
    CHECK(audio->source() == AudioController::FileSource);
    CHECK_FALSE(audio->playing());
}

TEST_CASE("the next file opened near the end of the playing one plays once read, though the first ended meanwhile") {
    // The first track, run out while the next was read, looked paused by
    // the user: the next waited at 0:00 and the school went undriven.
    EditorFixture f;
    TempDir dir, next, other;
    AudioController* audio = f.editor->audio();
    const auto endFirst = [&] {
        openAndWait(audio, writeLoop(dir, 4), true);
        REQUIRE(audio->playing());
        audio->seek(audio->duration() - 0.3);
    };
    const auto openOnceFirstEnded = [&](const std::filesystem::path& file) {
        endFirst();
        REQUIRE(EditorFixture::waitFor([&] { return !audio->playing(); }, 10'000));
        audio->openFile(QString::fromStdString(file.string()));
        REQUIRE(audio->loading());
    };
    const std::filesystem::path longer = writeLoop(next, 240);  // read for longer than 0.3 s
    const std::filesystem::path another = writeLoop(other, 200);
    endFirst();
    audio->openFile(QString::fromStdString(longer.string()));
    REQUIRE(EditorFixture::waitFor([&] { return !audio->playing(); }, 10'000));
    REQUIRE(audio->loading());  // the first ended while the next is read
    REQUIRE(EditorFixture::waitFor([&] { return !audio->loading(); }, 60'000));
    CHECK(audio->duration() == Approx(240).margin(0.1));
    CHECK(audio->playing());
    // Another file opened in its place while it is read plays too.
    endFirst();
    audio->openFile(QString::fromStdString(longer.string()));
    REQUIRE(EditorFixture::waitFor([&] { return !audio->playing(); }, 10'000));
    REQUIRE(audio->loading());
    audio->openFile(QString::fromStdString(another.string()));
    REQUIRE(EditorFixture::waitFor([&] { return !audio->loading(); }, 60'000));
    CHECK(audio->duration() == Approx(200).margin(0.1));
    CHECK(audio->playing());
    // Paused by the user while the next is read, the next waits paused.
    audio->openFile(QString::fromStdString(writeLoop(dir, 6).string()));
    REQUIRE(audio->loading());
    audio->pause();
    REQUIRE(EditorFixture::waitFor([&] { return !audio->loading(); }, 30'000));
    CHECK(audio->duration() == Approx(6).margin(0.1));
    CHECK_FALSE(audio->playing());
    // Played while it is read, it plays; the first, ended, does not start over meanwhile.
    openOnceFirstEnded(longer);
    audio->play();
    CHECK_FALSE(audio->playing());
    CHECK(audio->position() == Approx(4).margin(0.01));
    REQUIRE(EditorFixture::waitFor([&] { return !audio->loading(); }, 60'000));
    CHECK(audio->duration() == Approx(240).margin(0.1));
    CHECK(audio->playing());
    // M, with the first ended, says whether the next plays, and a second M takes it back.
    openOnceFirstEnded(longer);
    audio->togglePlay();
    CHECK(audio->status().contains("it plays once read"));
    audio->togglePlay();
    CHECK(audio->status().contains("it stays paused once read"));
    CHECK_FALSE(audio->playing());
    REQUIRE(EditorFixture::waitFor([&] { return !audio->loading(); }, 60'000));
    CHECK(audio->duration() == Approx(240).margin(0.1));
    CHECK_FALSE(audio->playing());
}

TEST_CASE("closing the audio source while a file is read drops that file, even one read to the end already") {
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    audio->openFile(QString::fromStdString(writeLoop(dir, 1).string()), true);
    REQUIRE(audio->loading());
    // The reader finishes and queues its result while the window handles no event.
    QThread::msleep(2000);
    audio->closeSource();
    QTest::qWait(200);  // the queued result arrives, and must be dropped
    CHECK_FALSE(audio->loading());
    CHECK(audio->source() == AudioController::NoSource);
    CHECK(audio->fileName().isEmpty());
    CHECK_FALSE(audio->playing());
}

TEST_CASE("a looping track played past its end, its loop turned off, counts what is heard from the lap's start") {
    auto audio = std::make_shared<MonoAudio>();
    audio->sampleRate = 48000;
    audio->samples.assign(48000, 0.1f);  // 1 s
    QAudioFormat format;
    format.setSampleRate(48000);
    format.setChannelCount(1);
    format.setSampleFormat(QAudioFormat::Float);
    editor::TrackReader reader(audio, format);
    reader.setLoop(true);
    std::vector<char> buffer(static_cast<std::size_t>(format.bytesForDuration(1'500'000)));
    REQUIRE(reader.read(buffer.data(), static_cast<qint64>(buffer.size())) == static_cast<qint64>(buffer.size()));
    CHECK(reader.handedOutSeconds() == Approx(1.5));  // a lap and a half
    reader.setLoop(false);
    CHECK(reader.handedOutSeconds() == Approx(0.5));
    CHECK(reader.positionSeconds() == Approx(0.5));
}

TEST_CASE("a small read from the playing track takes only what it returns, so the playhead is what was heard") {
    auto audio = std::make_shared<MonoAudio>();
    audio->sampleRate = 48000;
    audio->samples.assign(48000, 0.1f);
    QAudioFormat format;
    format.setSampleRate(48000);
    format.setChannelCount(2);
    format.setSampleFormat(QAudioFormat::Float);
    editor::TrackReader reader(audio, format);
    // A sink asks for a period at a time: 10 ms here.
    std::vector<char> period(static_cast<std::size_t>(format.bytesForDuration(10'000)));
    REQUIRE(reader.read(period.data(), static_cast<qint64>(period.size())) == static_cast<qint64>(period.size()));
    CHECK(reader.positionSeconds() == Approx(0.01));
    CHECK(reader.bytesAvailable() == format.bytesForDuration(990'000));
    // A seek plays the new place from the next period on.
    reader.seekSeconds(0.5);
    REQUIRE(reader.read(period.data(), static_cast<qint64>(period.size())) == static_cast<qint64>(period.size()));
    CHECK(reader.positionSeconds() == Approx(0.51));
}

TEST_CASE("skipping past either end of a looping track lands on the next lap, not on the end") {
    EditorFixture f;
    TempDir dir;
    AudioController* audio = f.editor->audio();
    openAndWait(audio, writeLoop(dir, 4), false);
    audio->setLoop(true);
    audio->seek(4.0 + 1.5);
    CHECK(audio->position() == Approx(1.5));
    audio->seek(-1.0);
    CHECK(audio->position() == Approx(3.0));
    audio->setLoop(false);
    audio->seek(5.5);
    CHECK(audio->position() == Approx(4.0));
}

TEST_CASE("a route switched to a band and back to what it was leaves the preset unmodified") {
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    REQUIRE_FALSE(f.editor->modified());
    const QString source = routeData(routes, 0, RouteListModel::SourceRole).toString();
    REQUIRE(source != "band");
    CHECK(routes->setField(0, "source", "band"));
    CHECK(routes->setField(0, "band", 3));
    CHECK(f.editor->modified());
    CHECK(routes->setField(0, "source", source));
    CHECK_FALSE(f.editor->modified());
}

TEST_CASE("a live input start overtaken by another choice or by closing reports nothing") {
    editor::LiveInput live(std::make_shared<AudioFeed>());
    QStringList failures;
    QObject::connect(&live, &editor::LiveInput::failed, [&](const QString& m) { failures << m; });
    // A device that has no format fails; stopped before it could, nothing is said.
    live.start(QAudioDevice());
    live.stop();
    QTest::qWait(300);
    CHECK(failures.isEmpty());
    // Alone, its failure is reported.
    live.start(QAudioDevice());
    CHECK(EditorFixture::waitFor([&] { return failures.size() == 1; }));
}

TEST_CASE("an audio file cut short plays what it holds, and the message line says the rest is missing") {
    EditorFixture f;
    TempDir dir;
    std::string bytes = readText(writeLoop(dir, 6));
    bytes.resize(bytes.size() / 3);
    writeText(dir / "cut.wav", bytes);
    AudioController* audio = f.editor->audio();
    openAndWait(audio, dir / "cut.wav", false);
    CHECK(audio->source() == AudioController::FileSource);
    CHECK(audio->duration() == Approx(2).margin(0.01));
    CHECK(f.editor->message().contains("cut.wav: the file ends before its audio does"));
}

TEST_CASE("route edits undo and redo with Ctrl+Z, in turn with parameter edits") {
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    const ModulationMatrix original = routes->matrix();
    routes->removeRoute(2);
    f.editor->params()->setValue(static_cast<int>(ParamId::Noise), 0.2);
    f.editor->params()->endGesture();
    for (double a : {0.8, 0.6, 0.4}) routes->setField(0, "amount", a);  // one amount drag
    routes->endGesture();
    CHECK(f.editor->undoText() == "Undo Audio route 1 amount");

    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(routeData(routes, 0, RouteListModel::AmountRole).toDouble() == 1.0);
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(f.editor->params()->params().get(ParamId::Noise) != 0.2f);
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(routes->matrix() == original);
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().routeValues.size() == 3; }));
    CHECK_FALSE(f.editor->modified());

    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    CHECK(routes->rowCount() == 2);
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().routeValues.size() == 2; }));
}

TEST_CASE("a route added or given a new target is saved with numbers a person would type") {
    // "max": 8.200000000000001 went into the preset.
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    routes->addRoute();
    const int row = routes->rowCount() - 1;
    for (const char* target : {"separationWeight", "maxSpeed", "perceptionRadius", "noiseScale", "trailPersistence"}) {
        INFO(target);
        REQUIRE(routes->setField(row, "target", target));
        REQUIRE(f.editor->savePresetAs("Routed"));
        const std::string text = readText(f.userDir / "routed.json");
        const auto route = text.rfind("\"target\": \"" + std::string(target) + "\"");
        REQUIRE(route != std::string::npos);
        const auto maxAt = text.find("\"max\": ", route);
        const std::string max = text.substr(maxAt + 7, text.find_first_of(",\n", maxAt) - maxAt - 7);
        INFO(max);
        CHECK(max.size() <= 6);
    }
}

TEST_CASE("two route edits of one kind in a row are two undo steps") {
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    const int original = routes->rowCount();
    routes->addRoute();
    routes->addRoute();
    REQUIRE(routes->setField(0, "curve", "exp"));
    REQUIRE(routes->setField(1, "curve", "exp"));
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(routeData(routes, 1, RouteListModel::CurveRole).toString() != "exp");
    CHECK(routeData(routes, 0, RouteListModel::CurveRole).toString() == "exp");
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(routes->rowCount() == original + 1);
}

TEST_CASE("Add route scrolls the audio panel to the new route, which was added out of sight") {
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    REQUIRE(routes->rowCount() == 3);
    f.window->setProperty("panelTab", 2);
    QQuickItem* add = nullptr;
    REQUIRE(EditorFixture::waitFor([&] { return (add = f.find("routeAdd")) && add->isVisible() && add->width() > 0; }));
    QQuickItem* panel = add;
    while (panel && !panel->inherits("QQuickScrollView")) panel = panel->parentItem();
    REQUIRE(panel);
    const auto inView = [&](QQuickItem* item) {
        const QRectF shown = panel->mapRectToScene(QRectF(0, 0, panel->width(), panel->height()));
        const QRectF r = item->mapRectToScene(QRectF(0, 0, item->width(), item->height()));
        return shown.contains(r);
    };
    for (int added = 3; added < 6; ++added) {
        INFO("route " << added + 1);
        QTest::mouseClick(f.window, Qt::LeftButton, {}, add->mapToScene(QPointF(add->width() / 2, add->height() / 2)).toPoint());
        REQUIRE(routes->rowCount() == added + 1);
        const QByteArray name = "routeAmount_" + QByteArray::number(added);
        CHECK(EditorFixture::waitFor([&] { auto* amount = f.find(name.constData()); return amount && inView(amount); }));
        add = f.find("routeAdd");
        REQUIRE(add);
        if (!inView(add)) break;
    }
}

TEST_CASE("amount moves on two routes are two undo steps, though no release came between (arrow keys)") {
    EditorFixture f;
    RouteListModel* routes = f.editor->routes();
    REQUIRE(routes->rowCount() >= 2);
    const ModulationMatrix original = routes->matrix();
    for (double a : {0.9, 0.8}) routes->setField(0, "amount", a);
    for (double a : {0.7, 0.6}) routes->setField(1, "amount", a);
    routes->endGesture();
    CHECK(f.editor->undoText() == "Undo Audio route 2 amount");
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(routeData(routes, 1, RouteListModel::AmountRole).toDouble() == original.routes[1].amount);
    CHECK(routeData(routes, 0, RouteListModel::AmountRole).toDouble() == Approx(0.8));
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(routes->matrix() == original);
}

TEST_CASE("Ctrl+O shows the audio tab and opens the file dialog") {
    EditorFixture f;
    auto* dialog = f.window->findChild<QObject*>("audioFileDialog");
    REQUIRE(dialog);
    CHECK_FALSE(dialog->property("visible").toBool());
    QTest::keyClick(f.window, Qt::Key_O, Qt::ControlModifier);
    CHECK(f.window->property("panelTab").toInt() == 2);
    // Qt's non-native dialog needs Qt.labs.folderlistmodel; without it the window crashed here.
    CHECK(EditorFixture::waitFor([&] { return dialog->property("visible").toBool(); }));
}

TEST_CASE("the audio file dialogs list files whose extensions are in capitals, a camera's videos included") {
    // Qt's own dialog matches its filters case-sensitively: Track01.MP3 was not listed.
    EditorFixture f;
    for (const char* name : {"audioFileDialog", "exportAudioDialog"}) {
        INFO(name);
        auto* dialog = f.window->findChild<QObject*>(name);
        REQUIRE(dialog);
        const QStringList filters = dialog->property("nameFilters").toStringList();
        REQUIRE(filters.size() == 3);
        const auto listed = [&](int filter, const QString& file) {
            const QString globs = filters[filter].section('(', 1).section(')', 0, 0);
            for (const QString& glob : globs.split(' ', Qt::SkipEmptyParts))
                if (QRegularExpression(QRegularExpression::wildcardToRegularExpression(glob)).match(file).hasMatch())
                    return true;
            return false;
        };
        for (const char* file : {"Track01.MP3", "LOUD.WAV", "take.flac", "voice.AIFF"}) CHECK(listed(0, file));
        for (const char* file : {"IMG_0001.MOV", "MVI_1234.MP4", "clip.webm"}) CHECK(listed(1, file));
        CHECK_FALSE(listed(0, "notes.txt"));
    }
}
