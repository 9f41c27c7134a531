// Sliders reach the simulation, undo/redo, the preset browser's round trip,
// a morph, and a broken preset file.
#include <QQuickItem>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "editor_fixture.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
// The parameter list has one row per registry entry, in registry order.
int row(ParamId id) { return static_cast<int>(id); }

float simValue(const EditorFixture& f, ParamId id) { return f.editor->host().stats().params.get(id); }

// Whether the preset list's selected entry is wholly within its view.
bool selectedPresetInView(QQuickItem* list) {
    auto* current = qvariant_cast<QQuickItem*>(list->property("currentItem"));
    if (!current) return false;
    const double top = list->property("contentY").toDouble(), height = list->height();
    return current->y() >= top - 0.5 && current->y() + current->height() <= top + height + 0.5;
}

int presetRow(const EditorFixture& f, const QString& name) {
    auto* m = f.editor->presets();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->data(m->index(r), editor::PresetListModel::NameRole).toString() == name) return r;
    return -1;
}

// Edits a user makes: cohesion 2.5, 321 fish and an obstacle placed with the mouse.
void makeEdits(EditorFixture& f) {
    f.editor->params()->setValue(row(ParamId::CohesionWeight), 2.5);
    f.editor->params()->endGesture();
    f.editor->setFishCount(321);
    f.editor->setTool(editor::Editor::PlaceObstacle);
    auto* view = f.find("fishView");
    // Clear of the stats panel in the view's top left corner, which takes its clicks.
    QTest::mouseClick(f.window, Qt::LeftButton, {}, view->mapToScene(QPointF(view->width() * 0.6, 400)).toPoint());
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().obstacles.size() == 1; }));
}
}  // namespace

TEST_CASE("dragging a slider changes the parameter the simulation runs with") {
    EditorFixture f;
    auto* slider = f.find("slider_maxSpeed");
    REQUIRE(slider);
    const float before = simValue(f, ParamId::MaxSpeed);
    // Press near the slider's right end: the handle jumps there (a log slider).
    const QPointF end = slider->mapToScene(QPointF(slider->width() - 12, slider->height() / 2));
    QTest::mouseClick(f.window, Qt::LeftButton, {}, end.toPoint());
    const float shown = f.editor->params()->params().get(ParamId::MaxSpeed);
    CHECK(shown > 1000.0f);
    CHECK(EditorFixture::waitFor([&] { return simValue(f, ParamId::MaxSpeed) == shown; }));
    CHECK(shown != before);
    CHECK(f.editor->modified());
    // The numeric field follows the slider.
    auto* field = f.find("field_maxSpeed");
    REQUIRE(field);
    CHECK(field->property("text").toString().toDouble() == Approx(shown).margin(1.0));
}

TEST_CASE("a value typed with a decimal comma or point is that value, and an unfinished entry shows the value again") {
    EditorFixture f;
    auto* field = f.find("field_alignmentWeight");
    REQUIRE(field);
    const auto type = [&](const char* text) { f.typeInto(field, text); };
    type("1,5");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 1.5f);
    type("2.25");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 2.25f);
    CHECK(field->property("text").toString() == "2.25");

    type("-");
    f.find("fishView")->forceActiveFocus();  // the user clicks elsewhere
    CHECK(field->property("text").toString() == "2.25");
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 2.25f);
}

TEST_CASE("clicking into a number field and out again, or Return on it untouched, leaves the value as it was") {
    EditorFixture f;
    f.editor->params()->setValue(row(ParamId::MaxSpeed), 1234.567);
    f.editor->params()->endGesture();
    const float exact = f.editor->params()->params().get(ParamId::MaxSpeed);
    const QString undo = f.editor->undoText();
    auto* field = f.find("field_maxSpeed");
    REQUIRE(field);
    REQUIRE(field->property("text").toString() != QString::number(exact, 'g', 9));  // shown rounded
    field->forceActiveFocus();
    f.find("fishView")->forceActiveFocus();
    field->forceActiveFocus();
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) == exact);
    CHECK(f.editor->undoText() == undo);
}

TEST_CASE("a distance near 0 on a log-from-0 slider shows its digits, not 0") {
    // 0.3 px of separation radius showed as "0" with the handle off the left end.
    EditorFixture f;
    auto* field = f.find("field_separationRadius");
    REQUIRE(field);
    f.editor->params()->setValue(row(ParamId::SeparationRadius), 0.3);
    CHECK(EditorFixture::waitFor([&] { return field->property("text").toString() == "0.30"; }));
    f.editor->params()->setValue(row(ParamId::SeparationRadius), 120);
    CHECK(EditorFixture::waitFor([&] { return field->property("text").toString() == "120"; }));
}

TEST_CASE("undo and redo step through parameter edits, one slider drag at a time") {
    EditorFixture f;
    auto* params = f.editor->params();
    const int sep = row(ParamId::SeparationWeight);
    const float original = params->params().get(ParamId::SeparationWeight);
    // One drag: three values, then release.
    params->setValue(sep, 2.0);
    params->setValue(sep, 2.5);
    params->setValue(sep, 3.0);
    params->endGesture();
    params->setValue(row(ParamId::Noise), 0.06);
    params->endGesture();
    REQUIRE(f.editor->canUndo());

    f.editor->undo();
    CHECK(params->params().get(ParamId::Noise) == Approx(0.04));
    CHECK(params->params().get(ParamId::SeparationWeight) == 3.0f);
    f.editor->undo();
    CHECK(params->params().get(ParamId::SeparationWeight) == original);
    CHECK(EditorFixture::waitFor([&] { return simValue(f, ParamId::SeparationWeight) == original; }));
    CHECK_FALSE(f.editor->modified());
    f.editor->redo();
    CHECK(params->params().get(ParamId::SeparationWeight) == 3.0f);
    CHECK(EditorFixture::waitFor([&] { return simValue(f, ParamId::SeparationWeight) == 3.0f; }));
    // Ctrl+Z from the keyboard as well.
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(params->params().get(ParamId::SeparationWeight) == original);
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    CHECK(params->params().get(ParamId::SeparationWeight) == 3.0f);
}

TEST_CASE("a preset saved from the browser loads back with its parameters, fish and objects") {
    EditorFixture f;
    auto* params = f.editor->params();
    makeEdits(f);

    REQUIRE(f.editor->savePresetAs("My Calm School"));
    CHECK(std::filesystem::exists(f.userDir / "my-calm-school.json"));
    CHECK(f.editor->presetIsUser());
    CHECK_FALSE(f.editor->modified());
    const int saved = presetRow(f, "My Calm School");
    REQUIRE(saved >= 0);
    CHECK(f.editor->presets()->data(f.editor->presets()->index(saved), editor::PresetListModel::UserRole).toBool());

    REQUIRE(f.editor->loadPreset(presetRow(f, "Gentle cruise")));
    CHECK(params->params().get(ParamId::CohesionWeight) != 2.5f);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().obstacles.empty(); }));

    REQUIRE(f.editor->loadPreset(presetRow(f, "My Calm School")));
    CHECK(params->params().get(ParamId::CohesionWeight) == 2.5f);
    CHECK(f.editor->fishCount() == 321);
    CHECK(EditorFixture::waitFor([&] {
        const editor::SimStats s = f.editor->host().stats();
        return s.fishCount == 321 && s.obstacles.size() == 1 && s.params.get(ParamId::CohesionWeight) == 2.5f;
    }));

    // Rename and delete work on the user's presets only.
    REQUIRE(f.editor->renamePreset(presetRow(f, "My Calm School"), "Calmer"));
    CHECK(std::filesystem::exists(f.userDir / "calmer.json"));
    CHECK(f.editor->presetName() == "Calmer");
    CHECK_FALSE(f.editor->deletePreset(presetRow(f, "Gentle cruise")));
    CHECK(f.editor->messageIsError());
    REQUIRE(f.editor->deletePreset(presetRow(f, "Calmer")));
    CHECK_FALSE(std::filesystem::exists(f.userDir / "calmer.json"));
    CHECK(presetRow(f, "Calmer") == -1);
}

TEST_CASE("undo and redo of a load bring back the unsaved work done on either preset: fish, objects, seed, parameters") {
    EditorFixture f;
    auto* params = f.editor->params();
    makeEdits(f);
    const std::uint64_t seed = f.editor->host().stats().seed;
    REQUIRE(f.editor->modified());

    const Preset rush = loadPreset(shippedPreset("compact-rush"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().obstacles.empty(); }));
    CHECK(f.editor->fishCount() == static_cast<int>(rush.scene.fishCount));
    // A rock placed on the preset loaded, unsaved: the redo brings it back.
    f.editor->pointerPressed(QPointF(500, 500), {}, Qt::LeftButton);
    f.editor->pointerReleased(QPointF(500, 500), {});
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().obstacles.size() == 1; }));

    f.editor->undo();
    CHECK(f.editor->presetName() == "Gentle cruise");
    CHECK(params->params().get(ParamId::CohesionWeight) == 2.5f);
    CHECK(f.editor->fishCount() == 321);
    CHECK(EditorFixture::waitFor([&] {
        const editor::SimStats s = f.editor->host().stats();
        return s.fishCount == 321 && s.obstacles.size() == 1 && s.seed == seed;
    }));
    CHECK(f.editor->modified());  // the edits are still unsaved edits of Gentle cruise

    f.editor->redo();
    CHECK(f.editor->presetName().toStdString() == rush.name);
    CHECK(EditorFixture::waitFor([&] {
        const editor::SimStats s = f.editor->host().stats();
        return s.fishCount == rush.scene.fishCount && s.obstacles.size() == 1 &&
               s.obstacles.front().centre == Vec2{{500, 500}} && s.seed == rush.scene.seed;
    }));
    CHECK(EditorFixture::waitFor([&] { return f.editor->modified(); }));  // the rock is not in its file
}

TEST_CASE("a load undone during a step of seconds is redone with its own objects, and the preset undone to is not modified") {
    // The window's report still showed the school from before the load: the
    // redo side kept the old school's objects, and the preset undone to read
    // as modified, ready to be saved with the other preset's objects.
    EditorFixture f;
    const Preset reef = loadPreset(shippedPreset("obstacle-reef"));
    REQUIRE(reef.scene.obstacles.size() >= 2);
    auto* params = f.editor->params();
    params->setValue(params->rowOf(QStringLiteral("perceptionRadius")), 2000.0);
    f.editor->setFishCount(20'000);
    REQUIRE(f.editor->savePresetAs("Slow"));
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().runningStepSeconds() > 0.05; }, 30'000));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Obstacle reef")));
    f.editor->undo();  // within the same step: the reef has not reached the school yet
    CHECK(f.editor->presetName() == "Slow");
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().fishCount == 20'000; }, 30'000));
    QTest::qWait(400);  // a report or two
    CHECK_FALSE(f.editor->modified());
    f.editor->redo();
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().obstacles.size() == reef.scene.obstacles.size(); }, 30'000));
    CHECK(EditorFixture::waitFor([&] { return !f.editor->modified(); }, 5000));
}

namespace {
// The fish of ids from firstId on drawn inside a rock once the shown school
// has the reef's rocks and its fish count, still at step `step` (the editor
// paused).
std::size_t fishShownInsideReefRocks(const EditorFixture& f, std::uint64_t step, std::uint32_t firstId = 0) {
    const Preset reef = loadPreset(shippedPreset("obstacle-reef"));
    // The view reads the frames too: the one it took first is the one it holds.
    // (Paused, a single frame is published, which the view took first under load.)
    const editor::FrameSnapshot* shown = nullptr;
    REQUIRE(EditorFixture::waitFor([&] {
        const editor::FrameSnapshot* newest = f.editor->host().frames().readNewest();
        shown = newest ? newest : &f.editor->host().frames().current();
        return shown->obstacles.size() == reef.scene.obstacles.size() && shown->px.size() == reef.scene.fishCount;
    }));
    REQUIRE(shown->step == step);
    std::size_t inside = 0;
    for (std::size_t i = 0; i < shown->px.size(); ++i)
        for (const Obstacle& o : shown->obstacles)
            if (shown->id[i] >= firstId && std::hypot(shown->px[i] - o.centre[0], shown->py[i] - o.centre[1]) < o.radius)
                ++inside;
    return inside;
}
}  // namespace

TEST_CASE("a preset with rocks loaded while paused shows no fish inside a rock") {
    // The school was spawned before the preset's rocks were set: paused,
    // some fish sat inside the rocks until the first step.
    EditorFixture f;
    f.editor->setPaused(true);
    REQUIRE(f.editor->loadPreset(presetRow(f, "Obstacle reef")));
    CHECK(fishShownInsideReefRocks(f, 0) == 0);
}

TEST_CASE("the fish a morph adds to a preset with rocks start outside them") {
    // They spawned while the preset left's objects were still set. (The fish
    // there before, id 0 here, are only scaled to the new world.)
    EditorFixture f;
    f.editor->setPaused(true);
    f.editor->setFishCount(1);
    QTest::qWait(300);  // the pause reaches the simulation thread
    const std::uint64_t pausedAt = f.editor->host().stats().step;
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Obstacle reef"), 5.0));
    CHECK(fishShownInsideReefRocks(f, pausedAt, 1) == 0);
}

TEST_CASE("Save of your preset broken by hand while it is open, the list not read since, leaves the file as it is") {
    // Still listed, it was written over without a word: the hand's edits lost.
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    const std::filesystem::path file = f.userDir.path() / "mine.json";
    const std::string broken = readText(file) + ",, // my note";
    writeText(file, broken);
    REQUIRE(presetRow(f, "Mine") >= 0);
    f.editor->setFishCount(f.editor->fishCount() + 7);
    CHECK_FALSE(f.editor->savePreset());
    CHECK(f.editor->messageIsError());
    CHECK(f.editor->message().contains("mine.json"));
    CHECK(f.editor->message().contains("mend the file, or use Save as"));
    CHECK(readText(file) == broken);
}

TEST_CASE("Save of your preset broken by hand and mended since saves over it, not 'the file is gone'") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    const std::filesystem::path file = f.userDir.path() / "mine.json";
    const std::string good = readText(file);
    writeText(file, good.substr(0, good.size() / 2));  // a slip while editing it by hand
    CHECK_FALSE(f.editor->loadPreset(presetRow(f, "Mine")));  // said, and the list read again without it
    REQUIRE(presetRow(f, "Mine") < 0);
    writeText(file, good);  // mended
    f.editor->setFishCount(f.editor->fishCount() + 7);
    CHECK(f.editor->savePreset());
    CHECK_FALSE(f.editor->message().contains("is gone"));
    CHECK(loadPreset(file).scene.fishCount == static_cast<std::uint32_t>(f.editor->fishCount()));
    CHECK(presetRow(f, "Mine") >= 0);
}

TEST_CASE("undo and redo of a load bring a preset of yours back as its file is now: saved over, renamed or deleted") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Mine")));
    // Saved over after the load: the redone load is compared with the file.
    f.editor->params()->setValue(row(ParamId::CohesionWeight), 2.5);
    f.editor->params()->endGesture();
    REQUIRE(f.editor->savePreset());
    f.editor->undo();  // the edit
    f.editor->undo();  // the load of Mine
    f.editor->redo();  // Mine as loaded then, cohesion not 2.5: not what its file holds now
    CHECK(f.editor->presetName() == "Mine");
    CHECK(f.editor->params()->params().get(ParamId::CohesionWeight) != 2.5f);
    CHECK(EditorFixture::waitFor([&] { return f.editor->modified(); }));
    // Renamed since the undo: it is open only in memory, and Save does not fail on a file that is gone.
    f.editor->undo();  // the load of Mine again: back to Compact rush
    REQUIRE(f.editor->renamePreset(presetRow(f, "Mine"), "Theirs"));
    f.editor->redo();
    CHECK_FALSE(f.editor->presetIsUser());
    CHECK_FALSE(f.editor->savePreset());
    CHECK_FALSE(f.editor->message().contains("is gone"));
}

TEST_CASE("undo back to a deleted preset of yours whose file name another preset took since does not save over that one") {
    // Delete Mine, Save as "Mine!" (the same file name, mine.json), undo to
    // Mine: it showed as "Mine!", and Ctrl+S wrote Mine over Mine!.
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    REQUIRE(f.editor->deletePreset(presetRow(f, "Mine")));
    REQUIRE(f.editor->savePresetAs("Mine!"));
    REQUIRE(std::filesystem::exists(f.userDir / "mine.json"));
    const std::string theirs = readText(f.userDir / "mine.json");
    f.editor->undo();  // the Save as stays; this takes back the load of Compact rush: Mine again
    REQUIRE(f.editor->presetName() == "Mine");
    CHECK_FALSE(f.editor->presetIsUser());
    CHECK(f.editor->presetRow() < 0);
    CHECK_FALSE(f.editor->savePreset());
    CHECK(readText(f.userDir / "mine.json") == theirs);
    f.editor->redo();
    f.editor->undo();
    CHECK_FALSE(f.editor->savePreset());
    CHECK(readText(f.userDir / "mine.json") == theirs);
}

TEST_CASE("undo back to a preset of yours renamed where it is (only its case or punctuation) opens it as yours, by its new name") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    REQUIRE(f.editor->renamePreset(presetRow(f, "Mine"), "Mine!"));  // mine.json still
    REQUIRE(std::filesystem::exists(f.userDir / "mine.json"));
    f.editor->undo();
    CHECK(f.editor->presetName() == "Mine!");
    CHECK(f.editor->presetIsUser());
    CHECK(f.editor->presetRow() == presetRow(f, "Mine!"));
    CHECK(f.editor->savePreset());
}

TEST_CASE("undo back to a preset of yours opened by a relative path, then renamed where it is, opens it as yours") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    const std::filesystem::path relative = std::filesystem::relative(f.userDir / "mine.json");
    REQUIRE(relative.is_relative());
    REQUIRE(f.editor->loadPresetFile(QString::fromStdString(relative.string())));
    REQUIRE(f.editor->presetIsUser());
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    REQUIRE(f.editor->renamePreset(presetRow(f, "Mine"), "MINE"));  // mine.json still
    f.editor->undo();
    CHECK(f.editor->presetName() == "MINE");
    CHECK(f.editor->presetIsUser());
    CHECK(f.editor->presetRow() == presetRow(f, "MINE"));
    CHECK(f.editor->savePreset());
}

TEST_CASE("undo back to a preset of yours saved as itself under another case opens it as yours, by its new name") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Mine")));
    REQUIRE(f.editor->savePresetAs("MINE"));  // its own file, mine.json, asks nothing
    REQUIRE(std::filesystem::exists(f.userDir / "mine.json"));
    f.editor->undo();  // the load of Mine: Compact rush
    f.editor->undo();  // the load of Compact rush: Mine again, now MINE
    CHECK(f.editor->presetName() == "MINE");
    CHECK(f.editor->presetIsUser());
    CHECK(f.editor->presetRow() == presetRow(f, "MINE"));
    CHECK(f.editor->savePreset());
}

TEST_CASE("undo back to a preset of yours replaced by Save as under a name that differs in case opens the file's preset as yours") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Foo"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    REQUIRE(f.editor->savePresetAs("foo", true));  // replaces Foo in foo.json
    f.editor->undo();  // the load of Compact rush: back to Foo, whose file is now foo's
    CHECK(f.editor->presetName() == "foo");
    CHECK(f.editor->presetIsUser());
    CHECK(f.editor->savePreset());
}

TEST_CASE("undo back to a preset of yours whose file broke since says what is wrong with the file, and it stays yours") {
    // It was taken for gone: "has no file any more", or "opened from a file outside your presets".
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    const auto file = f.userDir / "mine.json";
    REQUIRE(std::filesystem::exists(file));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    writeText(file, R"({"format": "mirofish-preset", "version": 1, "name": "Mine", "fish": 0})");
    f.editor->undo();  // the load of Compact rush: back to Mine
    CHECK(f.editor->presetName() == "Mine");
    CHECK(f.editor->presetIsUser());
    CHECK_THAT(f.editor->message().toStdString(),
               Catch::Contains("mine.json") && Catch::Contains("'fish' is 0") && Catch::Contains("Mend the file"));
    CHECK(f.editor->presetOrigin().isEmpty());  // not "not saved", not "from mine.json"
}

TEST_CASE("Save as with the name of another preset of yours asks first, and replaces it only when told to") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Reef"));
    const auto reef = f.userDir / "reef.json";
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    CHECK(f.editor->presetNameTaken("Reef"));
    CHECK_FALSE(f.editor->presetNameTaken("Reef two"));
    CHECK_FALSE(f.editor->savePresetAs("Reef"));  // not without asking
    CHECK_THAT(f.editor->message().toStdString(), Catch::Contains("already have a preset called 'Reef'"));
    // Named as it is, not as typed: "quit test" replaces "Quit Test".
    CHECK_FALSE(f.editor->savePresetAs("reef"));
    CHECK_THAT(f.editor->message().toStdString(), Catch::Contains("already have a preset called 'Reef'"));
    CHECK(loadPreset(reef).scene.fishCount == loadPreset(shippedPreset("gentle-cruise")).scene.fishCount);

    // The panel's Save as asks.
    f.window->setProperty("panelTab", 1);
    auto* name = f.find("presetName");
    auto* saveAs = f.find("presetSaveAs");
    REQUIRE((name && saveAs));
    name->setProperty("text", "REEF");
    REQUIRE(EditorFixture::waitFor([&] { return saveAs->isVisible() && saveAs->isEnabled(); }));
    QTest::mouseClick(f.window, Qt::LeftButton, {}, saveAs->mapToScene(QPointF(5, 5)).toPoint());
    auto* confirm = f.window->findChild<QObject*>("confirmReplace");
    REQUIRE(confirm);
    CHECK(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    CHECK(confirm->property("replaced").toString() == "Reef");
    CHECK(confirm->property("name").toString() == "REEF");
    QMetaObject::invokeMethod(confirm, "accept");
    CHECK(EditorFixture::waitFor([&] { return loadPreset(reef).name == "REEF" &&
                                              loadPreset(reef).scene.fishCount == loadPreset(shippedPreset("compact-rush")).scene.fishCount; }));
    // Saving as the name of the preset you have open is Save, and asks nothing.
    CHECK_FALSE(f.editor->presetNameTaken("REEF"));
}

TEST_CASE("a preset changed while its tab was hidden shows its name and 'modified' side by side") {
    EditorFixture f;
    f.window->setProperty("panelTab", 0);
    f.editor->params()->setValue(static_cast<int>(ParamId::SeparationWeight), 2.5);
    f.editor->params()->endGesture();
    REQUIRE(f.editor->modified());
    f.window->setProperty("panelTab", 1);
    QQuickItem *name = nullptr, *state = nullptr;
    REQUIRE(EditorFixture::waitFor([&] {
        return (name = f.find("openPresetName")) && (state = f.find("openPresetState")) && name->isVisible() &&
               state->property("text").toString().contains("modified") && state->width() > 0;
    }));
    QTest::qWait(200);
    const double nameRight = name->mapToScene(QPointF(name->width(), 0)).x();
    const double stateLeft = state->mapToScene(QPointF(0, 0)).x();
    INFO("name ends at " << nameRight << ", the state starts at " << stateLeft);
    CHECK(nameRight <= stateLeft);
    CHECK(name->width() > 0);
}

TEST_CASE("the open preset's name takes one line in the panel, cut short when long, and names show as typed") {
    EditorFixture f;
    f.window->setProperty("panelTab", 1);
    auto* shown = f.find("openPresetName");
    REQUIRE(shown);
    REQUIRE(EditorFixture::waitFor([&] { return shown->isVisible() && shown->width() > 0; }));
    const double oneLine = shown->height();

    const QString longName = QString("Reef at dusk, slow and wide ").repeated(11);  // 308 characters
    REQUIRE(f.editor->savePresetAs(longName));
    CHECK(EditorFixture::waitFor([&] { return shown->property("text").toString() == longName.trimmed(); }));
    CHECK(shown->property("truncated").toBool());
    CHECK(shown->height() == oneLine);
    CHECK(shown->mapToScene(QPointF(shown->width(), 0)).x() <= f.window->width());

    // Markup in a name is shown as the characters typed, not applied: here
    // and in the message that says it was saved.
    auto* message = f.find("messageText");
    REQUIRE(message);
    REQUIRE(f.editor->savePresetAs("Reef"));
    const double plainWidth = shown->implicitWidth(), plainMessageWidth = message->implicitWidth();
    REQUIRE(f.editor->savePresetAs("<i>Reef</i>"));
    CHECK(EditorFixture::waitFor([&] { return shown->property("text").toString() == "<i>Reef</i>"; }));
    CHECK(shown->implicitWidth() > 2 * plainWidth);
    CHECK(message->implicitWidth() > plainMessageWidth + (shown->implicitWidth() - plainWidth) / 2);
}

TEST_CASE("saving over a shipped preset is refused with a message, nothing is written") {
    EditorFixture f;
    f.editor->params()->setValue(row(ParamId::AlignmentWeight), 3.0);
    CHECK_FALSE(f.editor->savePreset());
    CHECK(f.editor->messageIsError());
    CHECK(f.editor->message().contains("Save as"));
    CHECK(std::filesystem::is_empty(f.userDir.path()));
}

TEST_CASE("a morph glides every parameter to the other preset and ends exactly on it") {
    EditorFixture f;
    const int target = presetRow(f, "Compact rush");
    REQUIRE(target >= 0);
    const Preset rush = loadPreset(shippedPreset("compact-rush"));
    const float from = simValue(f, ParamId::MaxSpeed), to = rush.scene.params.get(ParamId::MaxSpeed);
    REQUIRE(from != to);
    REQUIRE(f.editor->morphToPreset(target, 1.0));
    bool between = false;
    REQUIRE(EditorFixture::waitFor([&] {
        const float v = simValue(f, ParamId::MaxSpeed);
        between = between || (v != from && v != to);
        return v == to && !f.editor->host().stats().morphing;
    }, 5000));
    CHECK(between);
    CHECK(f.editor->host().stats().params == rush.scene.params);
    CHECK(EditorFixture::waitFor([&] { return f.editor->params()->params() == rush.scene.params; }));
    // The morph's end is the preset: not marked modified, though the school
    // kept its own seed (gentle-cruise's 7, Compact rush's 11), in its world.
    REQUIRE(rush.scene.seed != loadPreset(shippedPreset("gentle-cruise")).scene.seed);
    CHECK(EditorFixture::waitFor([&] { return !f.editor->modified(); }));

    const Preset locked = loadPreset(shippedPreset("seed-locked"));
    REQUIRE(locked.scene.width != rush.scene.width);
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Seed-locked (article 000)"), 0.2));
    CHECK(EditorFixture::waitFor([&] {
        const auto s = f.editor->host().stats();
        return !s.morphing && s.worldWidth == locked.scene.width && s.worldHeight == locked.scene.height;
    }));
    CHECK(EditorFixture::waitFor([&] { return !f.editor->modified(); }));
}

TEST_CASE("the selected preset shows its whole description, the others three lines of it") {
    // Every shipped description was cut to three lines, with no way to read the rest.
    EditorFixture f(cli::kDefaultPreset, 1280, 720);
    f.window->setProperty("panelTab", 1);
    auto* list = f.find("presetList");
    REQUIRE(list);
    const auto descriptionOf = [](QQuickItem* entry) {
        QQuickItem* found = nullptr;
        const std::function<void(QQuickItem*)> look = [&](QQuickItem* item) {
            if (item->objectName() == "presetDescription") found = item;
            for (QQuickItem* child : item->childItems()) look(child);
        };
        look(entry);
        return found;
    };
    for (const char* name : {"Gentle cruise", "Predator attack"}) {
        INFO(name);
        list->setProperty("currentIndex", presetRow(f, name));
        QQuickItem* current = list->property("currentItem").value<QQuickItem*>();
        REQUIRE(current);
        QQuickItem* description = descriptionOf(current);
        REQUIRE(description);
        CHECK(EditorFixture::waitFor([&] { return !description->property("truncated").toBool(); }));
        CHECK(description->property("lineCount").toInt() > 3);
    }
    // The one selected before is cut short again.
    list->setProperty("currentIndex", presetRow(f, "Gentle cruise"));
    CHECK(EditorFixture::waitFor([&] {
        bool otherCut = false;
        for (QQuickItem* entry : list->property("contentItem").value<QQuickItem*>()->childItems())
            if (QQuickItem* d = descriptionOf(entry); d && entry != list->property("currentItem").value<QQuickItem*>())
                otherCut = otherCut || (d->property("truncated").toBool() && d->property("lineCount").toInt() == 3);
        return otherCut;
    }));
}

TEST_CASE("a morph to a preset with a percent sign in its name says that name and the glide's length") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Up 100%1"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Up 100%1"), 2.5));
    CHECK(f.editor->message() == "Morphing to Up 100%1 over 2.5 s");
}

TEST_CASE("the sliders stay where the school is when a morph begins, paused, and land on the target of a glide too short to see") {
    // They jumped to the target, back to the start a report later, then glided.
    EditorFixture f;
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    const float from = f.editor->params()->params().get(ParamId::MaxSpeed);
    const Preset rush = loadPreset(shippedPreset("compact-rush"));
    REQUIRE(rush.scene.params.get(ParamId::MaxSpeed) != from);
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Compact rush"), 30.0));
    CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) == from);
    QTest::qWait(600);  // reports of the paused school
    CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) == from);

    // A glide of a few steps, over before the stats report it.
    f.editor->setPaused(false);
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Compact rush"), 0.02));
    CHECK(EditorFixture::waitFor([&] { return f.editor->params()->params() == rush.scene.params; }));
}

TEST_CASE("saving while a morph glides writes the preset it glides to, which is not marked modified meanwhile") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Target"));
    const Params target = loadPreset(f.userDir / "target.json").scene.params;
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    const float from = loadPreset(shippedPreset("compact-rush")).scene.params.get(ParamId::MaxSpeed);
    const float to = target.get(ParamId::MaxSpeed);
    REQUIRE(from != to);
    REQUIRE(EditorFixture::waitFor([&] { return simValue(f, ParamId::MaxSpeed) == from; }));
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Target"), 60.0));
    // The sliders follow the glide.
    REQUIRE(EditorFixture::waitFor([&] {
        const float shown = f.editor->params()->params().get(ParamId::MaxSpeed);
        return shown != from && shown != to;
    }, 5000));
    CHECK_FALSE(f.editor->modified());
    REQUIRE(f.editor->savePreset());
    CHECK(loadPreset(f.userDir / "target.json").scene.params == target);
    // The glide goes on, and an edit ends it where the sliders show it: the
    // simulation runs what they show, and the preset is modified.
    CHECK(f.editor->host().stats().morphing);
    f.editor->params()->setValue(row(ParamId::CohesionWeight), 2.5);
    f.editor->params()->endGesture();
    const Params shown = f.editor->params()->params();
    CHECK(shown.get(ParamId::CohesionWeight) == 2.5f);
    CHECK(EditorFixture::waitFor([&] { return !f.editor->host().stats().morphing; }));
    CHECK(f.editor->host().stats().params == shown);
    QTest::qWait(600);  // refreshes of the stats that may predate the edit
    CHECK(f.editor->params()->params() == shown);
    CHECK(f.editor->host().stats().params == shown);
    CHECK(f.editor->modified());
}

TEST_CASE("a value typed during a morph is not overwritten by the glide before Return") {
    EditorFixture f;
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Compact rush"), 60.0));
    const float start = f.editor->params()->params().get(ParamId::MaxSpeed);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->params()->params().get(ParamId::MaxSpeed) != start; }, 5000));
    auto* field = f.find("field_maxSpeed");
    REQUIRE(field);
    f.typeInto(field, "99");
    QTest::qWait(700);  // the sliders follow the glide meanwhile
    CHECK(field->property("text").toString() == "99");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) == 99.0f);
    CHECK(EditorFixture::waitFor([&] { return simValue(f, ParamId::MaxSpeed) == 99.0f; }));
}

TEST_CASE("a school opened with another world or fish count than its preset's shows as a change, which W on and off keeps and a save writes") {
    // edit --world and --fish: they were taken as the preset itself, so a
    // save wrote them into it with nothing marked.
    TempDir userDir;
    const Preset file = loadPreset(shippedPreset("gentle-cruise"));
    Preset opened = file;
    opened.scene.width = 900.0f;
    opened.scene.height = 600.0f;
    editor::Editor e(opened, shippedPreset("gentle-cruise"), false, cli::presetDirectories(), userDir.path(), true);
    e.setPresetAsSaved(file);
    CHECK(e.modified());
    REQUIRE(EditorFixture::waitFor([&] { return e.host().stats().worldWidth == 900.0f; }));
    QTest::qWait(400);  // refreshes of the stats
    CHECK(e.modified());
    // W on and off again gives back the world it was opened with, not the
    // file's; a save with W on writes it too.
    e.setViewSize(QSizeF(700, 400));
    e.setWorldFollowsView(true);
    REQUIRE(EditorFixture::waitFor([&] { return e.host().stats().worldWidth == 700.0f; }));
    CHECK(e.modified());
    REQUIRE(e.savePresetAs("Opened"));
    CHECK(loadPreset(userDir / "opened.json").scene.width == 900.0f);
    CHECK_FALSE(e.modified());
    e.setWorldFollowsView(false);
    CHECK(EditorFixture::waitFor([&] { return e.host().stats().worldWidth == 900.0f; }));
    QTest::qWait(400);
    CHECK(e.host().stats().worldHeight == 600.0f);
    CHECK_FALSE(e.modified());  // the world saved as "Opened"
    CHECK(loadPreset(userDir / "opened.json").scene.height == 600.0f);
}

TEST_CASE("undoing a route edit made during a morph takes back the route alone: the glide goes on") {
    // It ended the morph and set every slider to the target at once.
    EditorFixture f;
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Compact rush"), 60.0));
    const float start = f.editor->params()->params().get(ParamId::MaxSpeed);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->params()->params().get(ParamId::MaxSpeed) != start; }, 5000));
    editor::RouteListModel* routes = f.editor->routes();
    const ModulationMatrix before = routes->matrix();
    REQUIRE(routes->setField(0, "curve", "exp"));
    REQUIRE(f.editor->undoText() == "Undo Audio route 1 curve");
    f.editor->undo();
    CHECK(routes->matrix() == before);
    QTest::qWait(300);
    CHECK(f.editor->host().stats().morphing);
    const float target = loadPreset(shippedPreset("compact-rush")).scene.params.get(ParamId::MaxSpeed);
    CHECK(simValue(f, ParamId::MaxSpeed) != target);
    f.editor->redo();
    CHECK(routes->matrix() != before);
    QTest::qWait(300);
    CHECK(f.editor->host().stats().morphing);
}

TEST_CASE("undoing a morph brings back the preset open before it, so that a save cannot write it over the target") {
    EditorFixture f;
    auto* params = f.editor->params();
    REQUIRE(f.editor->savePresetAs("Target"));
    const std::string targetFile = readText(f.userDir / "target.json");
    REQUIRE(f.editor->loadPreset(presetRow(f, "Gentle cruise")));
    makeEdits(f);

    REQUIRE(f.editor->morphToPreset(presetRow(f, "Target"), 0.2));
    CHECK(f.editor->presetName() == "Target");
    CHECK(f.editor->undoText() == "Undo Morph to Target");
    f.editor->undo();
    CHECK(f.editor->presetName() == "Gentle cruise");
    CHECK_FALSE(f.editor->presetIsUser());
    CHECK(params->params().get(ParamId::CohesionWeight) == 2.5f);
    CHECK(f.editor->fishCount() == 321);
    CHECK(EditorFixture::waitFor([&] {
        const editor::SimStats s = f.editor->host().stats();
        return !s.morphing && s.fishCount == 321 && s.obstacles.size() == 1 &&
               s.params.get(ParamId::CohesionWeight) == 2.5f;
    }));
    CHECK(f.editor->modified());
    CHECK_FALSE(f.editor->savePreset());  // Gentle cruise is shipped: refused, and Target's file is untouched
    CHECK(readText(f.userDir / "target.json") == targetFile);

    f.editor->redo();
    CHECK(f.editor->presetName() == "Target");
    CHECK(f.editor->presetIsUser());
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().obstacles.empty(); }));
    CHECK(EditorFixture::waitFor([&] { return !f.editor->modified(); }));
}

TEST_CASE("a folder of many files that are no presets names a few, and a long error scrolls with its close button on screen") {
    // 300 other programs' JSON files: all listed in one banner that covered
    // the view, its close button above the window.
    EditorFixture f;
    // Names with "%2" in them (a downloaded file's escapes) are names, not places for the count.
    for (int i = 0; i < 300; ++i) writeText(f.userDir / ("other%2F" + std::to_string(i) + ".json"), R"({"a": 1})");
    REQUIRE(f.editor->savePresetAs("Kept"));
    const std::string message = f.editor->message().toStdString();
    CHECK_THAT(message, Catch::Contains("300 preset files could not be read") && Catch::Contains("and 297 more") &&
                            Catch::Contains("mirofish presets lists them all"));
    CHECK(f.editor->message().count("other%2F") == 3);

    f.editor->showMessage(QString("A line of a long error\n").repeated(300), true);
    auto* banner = f.find("messageBanner");
    auto* close = f.find("messageClose");
    REQUIRE(banner);
    REQUIRE(close);
    QTest::qWait(100);
    CHECK(banner->height() < f.window->height() / 2.0);
    const QRectF shown = close->mapRectToScene(QRectF(0, 0, close->width(), close->height()));
    CHECK(shown.top() >= 0);
    CHECK(shown.bottom() <= f.window->height());
    QTest::mouseClick(f.window, Qt::LeftButton, Qt::NoModifier, shown.center().toPoint());
    CHECK(EditorFixture::waitFor([&] { return f.editor->message().isEmpty(); }));
}

TEST_CASE("a preset file broken while the editor runs is named when the list is next re-read, after a save") {
    EditorFixture f;
    writeText(f.userDir / "broken-later.json", "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"B\", \"fish\": -5}");
    REQUIRE(f.editor->savePresetAs("Kept"));
    CHECK(f.editor->messageIsError());  // stays until dismissed
    CHECK(f.editor->message().startsWith("Saved Kept as "));
    CHECK(f.editor->message().contains("Some presets could not be read"));
    CHECK(f.editor->message().contains("broken-later.json"));
    CHECK(presetRow(f, "Kept") >= 0);
    CHECK(presetRow(f, "B") < 0);
}

TEST_CASE("a preset of yours that broke after the list was read fails to load, says why, and leaves the list") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Reef"));
    const int row = presetRow(f, "Reef");
    REQUIRE(row >= 0);
    const Params before = f.editor->params()->params();
    writeText(f.userDir / "reef.json", "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"Reef\", \"fish\": -5}");
    CHECK_FALSE(f.editor->loadPreset(row));
    CHECK(f.editor->messageIsError());
    CHECK(f.editor->message().contains("reef.json"));
    CHECK(f.editor->params()->params() == before);
    CHECK(presetRow(f, "Reef") < 0);
    CHECK(presetRow(f, "Gentle cruise") >= 0);
    // Reef is still open: Save says what is wrong with its file (it said the
    // file was gone) and leaves the file as it is.
    const std::string broken = readText(f.userDir / "reef.json");
    f.editor->params()->setValue(f.editor->params()->rowOf("maxSpeed"), 150);
    CHECK_FALSE(f.editor->savePreset());
    CHECK(f.editor->messageIsError());
    CHECK(f.editor->message().contains("reef.json"));
    CHECK(f.editor->message().contains("fish"));
    CHECK_FALSE(f.editor->message().contains("gone"));
    CHECK(readText(f.userDir / "reef.json") == broken);
}

TEST_CASE("a broken preset file shows an error naming it and the school keeps swimming") {
    EditorFixture f;
    const auto broken = f.userDir / "broken.json";
    writeText(broken, "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"B\", \"params\": {\"maxSpeed\": -5}}");
    const Params before = f.editor->params()->params();
    CHECK_FALSE(f.editor->loadPresetFile(QString::fromStdString(broken.string())));
    CHECK(f.editor->messageIsError());
    CHECK(f.editor->message().contains("broken.json"));
    CHECK(f.editor->message().contains("maxSpeed"));
    CHECK(f.editor->params()->params() == before);
    auto* banner = f.find("messageText");
    REQUIRE(banner);
    CHECK(banner->property("text").toString() == f.editor->message());
    const auto step = f.step();
    CHECK(EditorFixture::waitFor([&] { return f.step() > step + 10; }));

    // A broken file among the user's presets: listed as a problem, the rest still load.
    const QStringList problems = f.editor->presets()->refresh();
    CHECK(problems.join(" ").contains("broken.json"));
    CHECK(presetRow(f, "Gentle cruise") >= 0);
}

TEST_CASE("a double-click on a preset loads that preset, though its first click moves the list under the second") {
    // The first click selects the entry and the one selected before shrinks
    // to three lines: the entries below it move up under the pointer.
    EditorFixture f(cli::kDefaultPreset, 1280, 720);
    f.window->setProperty("panelTab", 1);
    auto* list = f.find("presetList");
    REQUIRE(list);
    const int target = presetRow(f, "Highly parallel");
    REQUIRE(target == f.editor->presetRow() + 1);
    QQuickItem* entry = nullptr;
    REQUIRE(EditorFixture::waitFor([&] {
        for (QQuickItem* item : list->property("contentItem").value<QQuickItem*>()->childItems())
            if (item->property("index").toInt() == target && item->property("description").isValid()) entry = item;
        return entry && entry->isVisible();
    }));
    QTest::qWait(300);
    const QPoint lowInEntry = entry->mapToScene(QPointF(entry->width() / 2, entry->height() * 0.85)).toPoint();
    QTest::mouseClick(f.window, Qt::LeftButton, {}, lowInEntry);
    QTest::qWait(150);
    // The second click inside the double-click time, as a user's is.
    QTest::lastMouseTimestamp -= QTest::mouseDoubleClickInterval;
    QTest::mouseClick(f.window, Qt::LeftButton, {}, lowInEntry);
    CHECK(EditorFixture::waitFor([&] { return f.editor->presetName() == "Highly parallel"; }));
    QTest::qWait(200);
    CHECK(f.editor->presetName().toStdString() == "Highly parallel");
}

TEST_CASE("the Presets tab first shown scrolls to the open preset") {
    // The editor opens on the Parameters tab; shown later, the list sat at
    // its top, the open preset selected out of sight.
    EditorFixture f("seed-locked", 1280, 720);
    auto* list = f.find("presetList");
    REQUIRE(list);
    QTest::qWait(1000);  // the list laid out, hidden, long since
    f.window->setProperty("panelTab", 1);
    CHECK(EditorFixture::waitFor([&] { return selectedPresetInView(list); }, 2000));
    QTest::qWait(1000);  // and stays so, its neighbours laid out
    CHECK(selectedPresetInView(list));
    CHECK(list->property("currentIndex").toInt() == presetRow(f, "Seed-locked (article 000)"));
}

TEST_CASE("after save as, save and rename the preset browser shows the selected preset, scrolled into view") {
    EditorFixture f;
    f.window->setProperty("panelTab", 1);
    auto* list = f.find("presetList");
    REQUIRE(list);
    const auto selectedInView = [&] { return selectedPresetInView(list); };
    REQUIRE(EditorFixture::waitFor(selectedInView));
    // More presets than the list shows at 1280x720; yours come after the shipped ones.
    for (int i = 0; i < 20; ++i) REQUIRE(f.editor->savePresetAs(QStringLiteral("Kept %1").arg(i, 2, 10, QChar('0'))));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Gentle cruise")));
    REQUIRE(EditorFixture::waitFor(selectedInView));
    // As a user does it: Ctrl+Shift+S from another tab, the name, Enter.
    f.window->setProperty("panelTab", 0);
    QTest::qWait(100);
    QTest::keyClick(f.window, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    for (const char c : std::string("Zz my fish")) QTest::keyClick(f.window, c);
    QTest::keyClick(f.window, Qt::Key_Return);
    REQUIRE(EditorFixture::waitFor([&] { return presetRow(f, "Zz my fish") >= 0; }));
    CHECK(list->property("currentIndex").toInt() == presetRow(f, "Zz my fish"));
    CHECK(EditorFixture::waitFor(selectedInView, 2000));
    f.editor->params()->setValue(f.editor->params()->rowOf("maxSpeed"), 150);
    REQUIRE(f.editor->savePreset());
    CHECK(EditorFixture::waitFor(selectedInView, 2000));
    REQUIRE(f.editor->renamePreset(presetRow(f, "Zz my fish"), "Zz your fish"));
    CHECK(list->property("currentIndex").toInt() == presetRow(f, "Zz your fish"));
    CHECK(EditorFixture::waitFor(selectedInView, 2000));
    // One in the middle of a long list, loaded with the list shown: it was
    // left a dozen rows above it.
    for (int i = 20; i < 60; ++i) REQUIRE(f.editor->savePresetAs(QStringLiteral("Kept %1").arg(i, 2, 10, QChar('0'))));
    f.window->setProperty("panelTab", 1);
    REQUIRE(f.editor->loadPreset(presetRow(f, "Kept 40")));
    CHECK(EditorFixture::waitFor(selectedInView, 2000));
    QTest::qWait(1000);  // and stays so, its neighbours laid out
    CHECK(selectedInView());
    REQUIRE(f.editor->savePreset());
    CHECK(list->property("currentIndex").toInt() == presetRow(f, "Kept 40"));
    CHECK(EditorFixture::waitFor(selectedInView, 2000));
    QTest::qWait(1000);
    CHECK(selectedInView());
}

TEST_CASE("Ctrl+Shift+S with a name typed in the Presets tab saves as that name at once") {
    EditorFixture f;
    f.window->setProperty("panelTab", 1);
    auto* name = f.find("presetName");
    REQUIRE(name);
    f.typeInto(name, "Typed first");
    f.find("fishView")->forceActiveFocus();
    f.window->setProperty("panelTab", 0);
    QTest::keyClick(f.window, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    CHECK(std::filesystem::exists(f.userDir / "typed-first.json"));
    CHECK(f.editor->presetName() == "Typed first");
}

TEST_CASE("PgDown and PgUp morph to the next and the previous preset in the list, round from the last to the first") {
    EditorFixture f;
    const int count = f.editor->presets()->rowCount();
    REQUIRE(count > 2);
    const int open = f.editor->presetRow();
    REQUIRE(open >= 0);
    QTest::keyClick(f.window, Qt::Key_PageDown);
    CHECK(f.editor->presetRow() == (open + 1) % count);
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().morphing; }));
    QTest::keyClick(f.window, Qt::Key_PageUp);
    CHECK(f.editor->presetRow() == open);
    // Round the ends.
    REQUIRE(f.editor->loadPreset(count - 1));
    QTest::keyClick(f.window, Qt::Key_PageDown);
    CHECK(f.editor->presetRow() == 0);
    QTest::keyClick(f.window, Qt::Key_PageUp);
    CHECK(f.editor->presetRow() == count - 1);
    // Undone, the morph takes the preset open before back.
    f.editor->undo();
    CHECK(f.editor->presetRow() == 0);
}

TEST_CASE("PgDown held down morphs once, to the next preset, not through several") {
    // The key's repeats each started a morph, cut off by the next, each a
    // step to undo.
    EditorFixture f;
    const int count = f.editor->presets()->rowCount();
    REQUIRE(count > 3);
    const int open = f.editor->presetRow();
    QTest::simulateEvent(f.window, true, Qt::Key_PageDown, Qt::NoModifier, QString(), false);
    for (int repeat = 0; repeat < 3; ++repeat) {
        QTest::simulateEvent(f.window, false, Qt::Key_PageDown, Qt::NoModifier, QString(), true);
        QTest::simulateEvent(f.window, true, Qt::Key_PageDown, Qt::NoModifier, QString(), true);
    }
    QTest::simulateEvent(f.window, false, Qt::Key_PageDown, Qt::NoModifier, QString(), false);
    CHECK(f.editor->presetRow() == (open + 1) % count);
    f.editor->undo();
    CHECK(f.editor->presetRow() == open);
}

TEST_CASE("PgDown with a morph time typed and not confirmed morphs over the time typed, as the Morph button does") {
    EditorFixture f;
    f.window->setProperty("panelTab", 1);
    QQuickItem* box = nullptr;
    REQUIRE(EditorFixture::waitFor([&] { return (box = f.find("presetMorphSeconds")) && box->isVisible(); }));
    auto* input = box->property("contentItem").value<QQuickItem*>();
    REQUIRE(input);
    f.typeInto(input, "12");  // no Return
    QTest::keyClick(f.window, Qt::Key_PageDown);
    CHECK_THAT(f.editor->message().toStdString(), Catch::Contains("over 12 s"));
}

TEST_CASE("Save as from the keyboard gives the keys back to the school, as a confirmed number does") {
    // P, T and Space went into the name field after Return saved, and
    // Escape, once it had cleared the name, left full screen.
    EditorFixture f;
    f.window->setProperty("panelTab", 1);
    auto* name = f.find("presetName");
    REQUIRE(name);
    f.typeInto(name, "show1");
    QTest::keyClick(f.window, Qt::Key_Return);
    REQUIRE(std::filesystem::exists(f.userDir / "show1.json"));
    CHECK_FALSE(name->hasActiveFocus());
    const bool panel = f.window->property("panelVisible").toBool();
    QTest::keyClick(f.window, Qt::Key_P);
    CHECK(f.window->property("panelVisible").toBool() != panel);
    CHECK(name->property("text").toString() == "show1");

    SECTION("and after the question whether to replace a preset of that name, answered Yes") {
        // The question gave the keys back to the name field as it closed,
        // after the save had given them to the school: P went into the name.
        REQUIRE(f.editor->loadPreset((f.editor->presetRow() + 1) % f.editor->presets()->rowCount()));
        REQUIRE(f.editor->presetName() != "show1");
        f.window->setProperty("panelVisible", true);
        f.window->setProperty("panelTab", 1);
        REQUIRE(EditorFixture::waitFor([&] { return name->isVisible(); }));
        f.typeInto(name, "show1");
        QTest::keyClick(f.window, Qt::Key_Return);
        auto* confirm = f.window->findChild<QObject*>("confirmReplace");
        REQUIRE(confirm);
        REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
        f.clickDialogButton(confirm, "Yes");
        REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
        QTest::qWait(100);
        QTest::keyClick(f.window, Qt::Key_P);
        CHECK_FALSE(f.window->property("panelVisible").toBool());
        CHECK(name->property("text").toString() == "show1");
    }
}

TEST_CASE("Return presses the focused answer of a question: No as it opens, Yes once Tab reaches it") {
    // Qt Quick's buttons take Space alone: Return did nothing.
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Reef"));
    REQUIRE(f.editor->loadPreset(presetRow(f, "Compact rush")));
    const std::filesystem::path reef = f.userDir / "reef.json";
    const std::string before = readText(reef);
    f.window->setProperty("panelTab", 1);
    auto* name = f.find("presetName");
    REQUIRE(name);
    auto* confirm = f.window->findChild<QObject*>("confirmReplace");
    REQUIRE(confirm);
    f.typeInto(name, "REEF");
    QTest::keyClick(f.window, Qt::Key_Return);
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    QTest::keyClick(f.window, Qt::Key_Return);  // No
    CHECK(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    CHECK(readText(reef) == before);
    f.typeInto(name, "REEF");
    QTest::keyClick(f.window, Qt::Key_Return);
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("visible").toBool(); }));
    QQuickItem* yes = EditorFixture::dialogButton(confirm, "Yes");
    REQUIRE(yes);
    REQUIRE(EditorFixture::waitFor([&] { return yes->isEnabled(); }));
    yes->forceActiveFocus(Qt::TabFocusReason);
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    CHECK(EditorFixture::waitFor([&] { return loadPreset(reef).name == "REEF"; }));
}

TEST_CASE("a number typed but not confirmed counts for Ctrl+S and for the tool bar's undo and redo") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    auto* field = f.find("field_alignmentWeight");
    REQUIRE(field);
    f.typeInto(field, "2.75");  // no Return
    QTest::keyClick(f.window, Qt::Key_S, Qt::ControlModifier);
    CHECK(loadPreset(f.userDir / "mine.json").scene.params.get(ParamId::AlignmentWeight) == 2.75f);
    CHECK_FALSE(f.editor->modified());

    f.typeInto(field, "1.25");
    f.clickButton(QStringLiteral("↶"));
    // The typed 1.25 was an edit, and the undo took it back: redo brings it.
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 2.75f);
    REQUIRE(f.editor->canRedo());
    f.editor->redo();
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 1.25f);

    // The tool bar's redo with a number typed: the redo first, then the
    // number on top (committed first, it threw the step to redo away).
    f.editor->undo();
    REQUIRE(f.editor->canRedo());
    auto* separation = f.find("field_separationWeight");
    REQUIRE(separation);
    f.typeInto(separation, "3.5");
    f.clickButton(QStringLiteral("↷"));
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 1.25f);
    CHECK(f.editor->params()->params().get(ParamId::SeparationWeight) == 3.5f);
    f.editor->undo();
    CHECK(f.editor->params()->params().get(ParamId::SeparationWeight) != 3.5f);
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 1.25f);
}

TEST_CASE("a delete that fails leaves the open preset yours, to save again") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    const int row = presetRow(f, "Mine");
    REQUIRE(row >= 0);
    // Something else put a folder with files where the preset was: it cannot be deleted.
    std::filesystem::remove(f.userDir / "mine.json");
    std::filesystem::create_directory(f.userDir / "mine.json");
    writeText(f.userDir / "mine.json" / "other", "x");
    CHECK_FALSE(f.editor->deletePreset(row));
    CHECK(f.editor->messageIsError());
    CHECK(f.editor->message().contains("cannot delete the preset"));
    CHECK(f.editor->presetIsUser());
    CHECK(f.editor->presetOrigin().isEmpty());
}

TEST_CASE("a preset of yours whose file went away leaves the list when Delete, Rename or Morph finds it gone") {
    // The list kept it, and each try gave the same error again.
    EditorFixture f;
    for (const char* name : {"Other", "Third", "Mine"}) REQUIRE(f.editor->savePresetAs(name));
    std::filesystem::remove(f.userDir / "other.json");
    REQUIRE(presetRow(f, "Other") >= 0);
    CHECK_FALSE(f.editor->renamePreset(presetRow(f, "Other"), "Renamed"));
    CHECK(presetRow(f, "Other") < 0);
    std::filesystem::remove(f.userDir / "third.json");
    REQUIRE(presetRow(f, "Third") >= 0);
    CHECK_FALSE(f.editor->morphToPreset(presetRow(f, "Third"), 2.0));
    CHECK(presetRow(f, "Third") < 0);
    std::filesystem::remove(f.userDir / "mine.json");
    REQUIRE(presetRow(f, "Mine") >= 0);
    CHECK_FALSE(f.editor->deletePreset(presetRow(f, "Mine")));
    CHECK(f.editor->message().contains("already gone"));
    CHECK(presetRow(f, "Mine") < 0);
    // Mine was open: it is open only in memory now, for Save as.
    CHECK_FALSE(f.editor->presetIsUser());
    CHECK(f.editor->presetOrigin() == "not saved");
}

TEST_CASE("a rename refused for a name already taken leaves the preset selected in the list, not the open one") {
    // The list was read again after the refusal, which selected the open
    // preset: the next Rename renamed that one.
    EditorFixture f;
    for (const char* name : {"Beta", "Gamma", "Alpha"}) REQUIRE(f.editor->savePresetAs(name));
    f.window->setProperty("panelTab", 1);
    auto* list = f.find("presetList");
    REQUIRE(list);
    list->setProperty("currentIndex", presetRow(f, "Beta"));
    CHECK_FALSE(f.editor->renamePreset(presetRow(f, "Beta"), "Gamma"));
    CHECK(f.editor->message().contains("already have"));
    QTest::qWait(100);
    CHECK(list->property("currentIndex").toInt() == presetRow(f, "Beta"));
}

TEST_CASE("a preset of yours renamed while another is open stays selected, so the next Rename renames it again") {
    // The list read again after the rename selected the open preset, and
    // a second Rename, to mend a typo, renamed that one.
    EditorFixture f;
    for (const char* name : {"Beta", "Alpha"}) REQUIRE(f.editor->savePresetAs(name));
    f.window->setProperty("panelTab", 1);
    auto* list = f.find("presetList");
    REQUIRE(list);
    list->setProperty("currentIndex", presetRow(f, "Beta"));
    REQUIRE(f.editor->renamePreset(presetRow(f, "Beta"), "Betta"));
    QTest::qWait(100);
    CHECK(list->property("currentIndex").toInt() == presetRow(f, "Betta"));
    CHECK(f.editor->presetName() == "Alpha");
}

TEST_CASE("an open preset deleted and its file name given to another preset of yours is not that preset, nor shipped") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Bar"));
    REQUIRE(f.editor->savePresetAs("Foo"));
    REQUIRE(f.editor->deletePreset(presetRow(f, "Foo")));
    // Bar renamed Foo takes foo.json, the file of the preset still open.
    REQUIRE(f.editor->renamePreset(presetRow(f, "Bar"), "Foo"));
    REQUIRE(std::filesystem::exists(f.userDir / "foo.json"));
    CHECK(f.editor->presetRow() < 0);
    CHECK(f.editor->presetOrigin() == "not saved");
    CHECK_FALSE(f.editor->savePreset());
    CHECK_FALSE(f.editor->message().contains("shipped"));
}

TEST_CASE("an undo that brings another school back mid-drag ends the drag: its objects stay where they are") {
    // The drag went on with the object of the school brought back nearest
    // to where the dragged one was, and moved it.
    EditorFixture f;
    f.editor->setPaused(true);
    auto* view = f.find("fishView");
    const auto obstacles = [&] { return f.editor->host().stats().obstacles; };
    f.editor->setTool(editor::Editor::PlaceObstacle);
    QTest::mouseClick(f.window, Qt::LeftButton, {}, view->mapToScene(QPointF(view->width() * 0.6, 400)).toPoint());
    REQUIRE(EditorFixture::waitFor([&] { return obstacles().size() == 1; }));
    const Vec2 first = obstacles().front().centre;
    REQUIRE(f.editor->loadPreset(presetRow(f, "Loose drift")));
    REQUIRE(EditorFixture::waitFor([&] { return obstacles().empty(); }));
    const QPoint at = view->mapToScene(QPointF(view->width() * 0.3, 300)).toPoint();
    QTest::mouseClick(f.window, Qt::LeftButton, {}, at);
    REQUIRE(EditorFixture::waitFor([&] { return obstacles().size() == 1; }));
    const Vec2 placed = obstacles().front().centre;
    QTest::mousePress(f.window, Qt::LeftButton, {}, at);
    QTest::mouseMove(f.window, at + QPoint(40, 20));
    REQUIRE(EditorFixture::waitFor([&] { return obstacles().size() == 1 && obstacles().front().centre != placed; }));
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    REQUIRE(EditorFixture::waitFor([&] { return obstacles().size() == 1 && obstacles().front().centre == first; }));
    QTest::mouseMove(f.window, at + QPoint(200, 200));
    QTest::qWait(300);
    CHECK(obstacles().front().centre == first);
    QTest::mouseRelease(f.window, Qt::LeftButton, {}, at + QPoint(200, 200));
}

TEST_CASE("a morph started mid-drag ends the drag: the target's objects stay where its preset puts them") {
    EditorFixture f;
    f.editor->setPaused(true);
    auto* view = f.find("fishView");
    const auto obstacles = [&] { return f.editor->host().stats().obstacles; };
    f.editor->setTool(editor::Editor::PlaceObstacle);
    const QPoint at = view->mapToScene(QPointF(view->width() * 0.4, 300)).toPoint();
    QTest::mouseClick(f.window, Qt::LeftButton, {}, at);
    REQUIRE(EditorFixture::waitFor([&] { return obstacles().size() == 1; }));
    QTest::mousePress(f.window, Qt::LeftButton, {}, at);
    QTest::mouseMove(f.window, at + QPoint(20, 10));
    const Preset reef = loadPreset(shippedPreset("obstacle-reef"));
    REQUIRE(f.editor->morphToPreset(presetRow(f, "Obstacle reef"), 5));
    REQUIRE(EditorFixture::waitFor([&] { return obstacles().size() == reef.scene.obstacles.size(); }));
    const auto arrived = obstacles();
    QTest::mouseMove(f.window, at + QPoint(200, 150));
    QTest::qWait(300);
    CHECK(obstacles().front().centre == arrived.front().centre);
    QTest::mouseRelease(f.window, Qt::LeftButton, {}, at + QPoint(200, 150));
    QTest::qWait(100);
    CHECK(obstacles().front().centre == arrived.front().centre);
}

TEST_CASE("a preset of more fish than the editor runs keeps its own count when saved with the count untouched") {
    EditorFixture f;
    Preset big = loadPreset(shippedPreset("gentle-cruise"));
    big.name = "Big school";
    big.scene.fishCount = 300'000;
    savePreset(big, f.userDir / "big-school.json");
    f.editor->presets()->refresh();
    REQUIRE(f.editor->loadPreset(presetRow(f, "Big school")));
    CHECK(f.editor->fishCount() == editor::Editor::kMaxFish);
    CHECK_FALSE(f.editor->modified());
    f.editor->params()->setValue(row(ParamId::CohesionWeight), 2.5);
    f.editor->params()->endGesture();
    REQUIRE(f.editor->savePreset());
    const Preset saved = loadPreset(f.userDir / "big-school.json");
    CHECK(saved.scene.fishCount == 300'000);
    CHECK(saved.scene.params.get(ParamId::CohesionWeight) == 2.5f);
    // A count chosen in the editor is the count.
    f.editor->setFishCount(1000);
    CHECK(f.editor->modified());
    REQUIRE(f.editor->savePreset());
    CHECK(loadPreset(f.userDir / "big-school.json").scene.fishCount == 1000);
}

TEST_CASE("closing the window with unsaved changes asks: Save keeps them, Discard closes, Cancel stays") {
    EditorFixture f;
    REQUIRE(f.editor->savePresetAs("Mine"));
    QObject* confirm = f.engine->rootObjects().front()->findChild<QObject*>("confirmClose");
    REQUIRE(confirm);
    const auto answer = [&](const char* text) { f.clickDialogButton(confirm, text); };
    f.editor->params()->setValue(row(ParamId::CohesionWeight), 2.5);
    f.editor->params()->endGesture();
    REQUIRE(f.editor->modified());
    CHECK_FALSE(f.window->close());
    CHECK(f.window->isVisible());
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("opened").toBool(); }));
    CHECK(f.window->isVisible());
    answer("Cancel");
    REQUIRE(EditorFixture::waitFor([&] { return !confirm->property("visible").toBool(); }));
    CHECK(f.window->isVisible());

    CHECK_FALSE(f.window->close());
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("opened").toBool(); }));
    answer("Save");
    REQUIRE(EditorFixture::waitFor([&] { return !f.window->isVisible(); }));
    CHECK(loadPreset(f.userDir / "mine.json").scene.params.get(ParamId::CohesionWeight) == 2.5f);
}

TEST_CASE("closing the window with nothing unsaved closes it at once") {
    EditorFixture f;
    CHECK_FALSE(f.editor->modified());
    CHECK(f.window->close());
    CHECK_FALSE(f.window->isVisible());
}

TEST_CASE("Discard closes the window with a shipped preset's changes unsaved") {
    EditorFixture f;
    f.editor->params()->setValue(row(ParamId::CohesionWeight), 2.5);
    f.editor->params()->endGesture();
    QObject* confirm = f.engine->rootObjects().front()->findChild<QObject*>("confirmClose");
    REQUIRE(confirm);
    CHECK_FALSE(f.window->close());
    REQUIRE(EditorFixture::waitFor([&] { return confirm->property("opened").toBool(); }));
    CHECK_FALSE(EditorFixture::dialogButton(confirm, "Save"));  // a shipped preset cannot be saved over
    f.clickDialogButton(confirm, "Discard");
    CHECK(EditorFixture::waitFor([&] { return !f.window->isVisible(); }));
    CHECK(std::filesystem::is_empty(f.userDir.path()));
}

TEST_CASE("the preset browser selects the loaded preset and names where a preset outside it comes from") {
    EditorFixture f("predator-attack");
    auto* list = f.find("presetList");
    REQUIRE(list);
    CHECK(list->property("currentIndex").toInt() == presetRow(f, "Predator attack"));
    CHECK(f.editor->presetOrigin() == "shipped");

    REQUIRE(f.editor->loadPreset(presetRow(f, "Gentle cruise")));
    CHECK(list->property("currentIndex").toInt() == presetRow(f, "Gentle cruise"));

    TempDir elsewhere;
    const auto file = elsewhere / "from-a-friend.json";
    savePreset(loadPreset(shippedPreset("milling-torus")), file);
    REQUIRE(f.editor->loadPresetFile(QString::fromStdString(file.string())));
    CHECK(f.editor->presetRow() == -1);
    CHECK(list->property("currentIndex").toInt() == -1);
    CHECK(f.editor->presetOrigin() == "from from-a-friend.json");
    CHECK_FALSE(f.editor->savePreset());  // Ctrl+S says why, and that it is not shipped
    CHECK_THAT(f.editor->message().toStdString(), Catch::Contains("outside your presets"));

    // Your own preset, opened by a path written another way, is yours.
    REQUIRE(f.editor->savePresetAs("Mine"));
    const int mine = presetRow(f, "Mine");
    CHECK(list->property("currentIndex").toInt() == mine);
    CHECK(f.editor->presetOrigin().isEmpty());
    REQUIRE(f.editor->loadPreset(presetRow(f, "Gentle cruise")));
    REQUIRE(f.editor->loadPresetFile(QString::fromStdString((f.userDir / "." / "mine.json").string())));
    CHECK(f.editor->presetIsUser());
    CHECK(list->property("currentIndex").toInt() == mine);

    REQUIRE(f.editor->deletePreset(mine));
    CHECK(f.editor->presetOrigin() == "not saved");
    CHECK_FALSE(f.editor->savePreset());
    CHECK_THAT(f.editor->message().toStdString(), Catch::Contains("'Mine' has no file any more"));
}

TEST_CASE("a preset of yours opened by its path at start is yours, to save over") {
    TempDir userDir;
    const auto file = userDir / "mine.json";
    savePreset(loadPreset(shippedPreset("gentle-cruise")), file);
    editor::Editor editor(loadPreset(file), file, false, cli::presetDirectories(), userDir.path());
    CHECK(editor.presetIsUser());
    CHECK(editor.presetOrigin().isEmpty());
    CHECK(editor.presetRow() >= 0);
}

TEST_CASE("opening with more fish than the editor runs says so even when a preset of yours is broken") {
    TempDir userDir, elsewhere;
    writeText(userDir / "broken.json", "{\"format\": \"mirofish-preset\", \"version\": 1, \"name\": \"B\"");
    Preset big = loadPreset(shippedPreset("gentle-cruise"));
    big.name = "Huge";
    big.scene.fishCount = 250'000;
    const auto file = elsewhere / "huge.json";
    savePreset(big, file);
    editor::Editor editor(loadPreset(file), file, false, cli::presetDirectories(), userDir.path());
    CHECK(editor.messageIsError());
    CHECK_THAT(editor.message().toStdString(), Catch::Contains("Huge asks for 250000 fish") &&
                                                   Catch::Contains("could not be read") && Catch::Contains("broken.json"));
    // A --preset that failed to open, said at start, keeps both notes.
    editor.showErrorAbove("no preset named 'reef'");
    CHECK(editor.messageIsError());
    CHECK_THAT(editor.message().toStdString(), Catch::StartsWith("no preset named 'reef'\n") &&
                                                   Catch::Contains("Huge asks for 250000 fish") &&
                                                   Catch::Contains("broken.json"));
}

TEST_CASE("a preset with more fish than the editor runs opens with the most it runs, and says so") {
    EditorFixture f;
    TempDir elsewhere;
    Preset big = loadPreset(shippedPreset("gentle-cruise"));
    big.name = "Huge";
    big.scene.fishCount = 300'000;
    const auto file = elsewhere / "huge.json";
    savePreset(big, file);
    REQUIRE(f.editor->loadPresetFile(QString::fromStdString(file.string())));
    CHECK(f.editor->fishCount() == editor::Editor::kMaxFish);
    CHECK(f.editor->messageIsError());
    CHECK(f.editor->message().contains("300000"));
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().fishCount == editor::Editor::kMaxFish; }, 20000));
}
