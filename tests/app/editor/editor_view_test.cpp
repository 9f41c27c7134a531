// The window draws fish for every shipped preset, reads the keyboard, and
// survives a minute of random edits.
#include <QElapsedTimer>
#include <QLocale>
#include <QRandomGenerator>
#include <catch2/catch.hpp>
#include <tuple>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "editor_fixture.hpp"
#include "editor_startup.hpp"
#include "behind_cause.hpp"
#include "healthy_neighbours.hpp"
#include "sched/scheduler.hpp"
#include "sim/metrics.hpp"
#include "sim/simulation.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
// The tool bar's fish box, and a spin box's text input.
QQuickItem* fishCountBox(const EditorFixture& f) {
    QQuickItem* box = f.find("fishCount");
    REQUIRE(box);
    return box;
}
// One step of the editor's history: the separation weight raised by 1.
// Returns the weight before it.
double raiseSeparation(EditorFixture& f) {
    auto* params = f.editor->params();
    const double before = params->params().get(ParamId::SeparationWeight);
    params->setValue(params->rowOf(QStringLiteral("separationWeight")), before + 1.0);
    params->endGesture();
    return before;
}
QQuickItem* textInputOf(const QQuickItem* box) {
    auto* text = qobject_cast<QQuickItem*>(box->property("contentItem").value<QObject*>());
    REQUIRE(text);
    return text;
}

// Pixels of the view that are clearly fish: bright and bluish-white (the
// speed colours), not the dark water, the dim margin or the grid.
int fishPixels(const QImage& image, const QRectF& area) {
    int lit = 0;
    const QRect r = area.toAlignedRect().intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.green() > 90 && c.blue() > 140) ++lit;
        }
    return lit;
}

// The view's fields in force: the pointer's held one and a swipe's scares.
int activeFields(const EditorFixture& f) { return static_cast<int>(f.editor->host().stats().activeFields); }

// Presses the left button on the view at `start`, where it holds a field,
// and swipes 600 px right in steps of 120 px 5 ms apart, far faster than
// the swipe threshold, the button still held; whether both the held field
// and a scare came. The swipe's speed is timed by the clock: steps this
// long stay a swipe even where a busy machine draws a frame between two
// (at 80 ms apart, 1500 px/s).
bool pressAndSwipe(EditorFixture& f, QPoint start) {
    QTest::mousePress(f.window, Qt::LeftButton, {}, start);
    if (!EditorFixture::waitFor([&] { return activeFields(f) == 1; })) return false;
    bool scared = false;
    for (int i = 1; i <= 5; ++i) {
        QTest::mouseMove(f.window, start + QPoint(120 * i, 0), 5);
        scared = scared || activeFields(f) > 1;
    }
    return EditorFixture::waitFor([&] { return scared || activeFields(f) > 1; }, 500);
}

// An item and everything under it in the visual tree.
std::vector<QQuickItem*> selfAndDescendants(QQuickItem* root) {
    std::vector<QQuickItem*> out{root};
    for (std::size_t i = 0; i < out.size(); ++i)
        for (QQuickItem* child : out[i]->childItems()) out.push_back(child);
    return out;
}
}  // namespace

TEST_CASE("the editor opens every shipped preset and draws its fish") {
    for (const PresetInfo& info : listPresets({MIROFISH_PRESET_DIR})) {
        DYNAMIC_SECTION(info.id) {
            EditorFixture f(info.id);
            f.editor->setShowStats(false);
            auto* view = f.find("fishView");
            REQUIRE(view);
            REQUIRE(EditorFixture::waitFor([&] { return f.step() > 30; }));
            QTest::qWait(200);
            const QImage shot = f.grab();
            const QRectF area = view->mapRectToScene(QRectF(0, 0, view->width(), view->height()));
            const int lit = fishPixels(shot, area);
            INFO(info.id << ": " << lit << " fish pixels for " << f.editor->fishCount() << " fish");
            // Each fish covers at least a pixel or two even when the world is
            // scaled down to fit; schools overlap, so ask for half a pixel per fish.
            CHECK(lit >= f.editor->fishCount() / 2);
        }
    }
}

TEST_CASE("a paused window with trails off draws again only now and then, not every frame") {
    // The trails' hidden fade took a new seed every frame and was drawn
    // again: paused and idle, the window drew as fast as it could.
    EditorFixture f;
    REQUIRE(f.editor->host().stats().params.get(ParamId::Trails) < 0.5f);
    f.editor->setPaused(true);
    QTest::qWait(500);
    int frames = 0;
    QObject::connect(f.window, &QQuickWindow::frameSwapped, f.window, [&] { ++frames; });
    QTest::qWait(2000);
    INFO(frames << " frames in 2 s");
    CHECK(frames < 40);
}

TEST_CASE("tens of thousands of fish are all drawn, down to the bottom of the world") {
    // More than 65 535 vertices: the scene graph draws such a node only in
    // part, so the view splits it. The fish are sorted by grid row, so the
    // last ones drawn are the bottom ones.
    EditorFixture f;
    f.editor->setShowStats(false);
    f.editor->setFishCount(30'000);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().fishCount == 30'000 && f.step() > 3; }, 20'000));
    QTest::qWait(500);
    auto* view = f.find("fishView");
    const editor::SimStats s = f.editor->host().stats();
    QPointF topLeft, bottomRight;
    QMetaObject::invokeMethod(view, "worldToView", Q_RETURN_ARG(QPointF, topLeft), Q_ARG(QPointF, QPointF(0, s.worldHeight * 0.8)));
    QMetaObject::invokeMethod(view, "worldToView", Q_RETURN_ARG(QPointF, bottomRight), Q_ARG(QPointF, QPointF(s.worldWidth, s.worldHeight)));
    const QRectF bottomFifth = view->mapRectToScene(QRectF(topLeft, bottomRight));
    const int lit = fishPixels(f.grab(), bottomFifth);
    INFO(lit << " fish pixels in the bottom fifth of the world");
    CHECK(lit > 5000);
}

TEST_CASE("Up in the fish box goes on from the count typed, and the box still follows the count set elsewhere") {
    EditorFixture f;
    QQuickItem* box = fishCountBox(f);
    QQuickItem* text = textInputOf(box);
    f.typeInto(text, "500");
    QTest::keyClick(f.window, Qt::Key_Up);
    CHECK(EditorFixture::waitFor([&] { return f.editor->fishCount() == 550; }, 5000));
    f.editor->setFishCount(3000);  // as + or a load sets it
    CHECK(EditorFixture::waitFor([&] { return box->property("displayText").toString() == "3000"; }));
}

TEST_CASE("the fish count shows in plain digits, and typed with grouping is the number") {
    EditorFixture f;
    QQuickItem* box = fishCountBox(f);
    QQuickItem* text = textInputOf(box);
    f.typeInto(text, "120,000");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(EditorFixture::waitFor([&] { return f.editor->fishCount() == 120'000; }, 5000));
    CHECK(box->property("displayText").toString() == "120000");
    f.typeInto(text, "1500");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(EditorFixture::waitFor([&] { return f.editor->fishCount() == 1500; }, 5000));
    CHECK(box->property("displayText").toString() == "1500");

    // Beyond the largest count, at the largest count: the box shows the count
    // again, not the number typed. So does an emptied box left with Tab.
    f.editor->setFishCount(editor::Editor::kMaxFish);
    const QString most = QString::number(editor::Editor::kMaxFish);
    REQUIRE(EditorFixture::waitFor([&] { return box->property("displayText").toString() == most; }));
    f.typeInto(text, "999999");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(EditorFixture::waitFor([&] { return text->property("text").toString() == most; }));
    CHECK(f.editor->fishCount() == editor::Editor::kMaxFish);
    f.typeInto(text, "");
    QTest::keyClick(f.window, Qt::Key_Backspace);
    f.find("fishView")->forceActiveFocus();
    CHECK(EditorFixture::waitFor([&] { return text->property("text").toString() == most; }));
    CHECK(f.editor->fishCount() == editor::Editor::kMaxFish);
}

TEST_CASE("a confirmation that replaces another stays its own four seconds in the message line") {
    EditorFixture f;
    f.editor->showMessage("first", false);
    QTest::qWait(3000);
    f.editor->showMessage("second", false);
    QTest::qWait(2000);  // 5 s after the first, 2 s after the second
    CHECK(f.editor->message() == "second");
    CHECK(EditorFixture::waitFor([&] { return f.editor->message().isEmpty(); }, 4000));
}

TEST_CASE("the keyboard drives the transport, the overlays and the help") {
    EditorFixture f;
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > 5; }));
    QTest::keyClick(f.window, Qt::Key_Space);
    CHECK(f.editor->paused());
    // The pause reaches the simulation after a step in progress, which may still publish.
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    const auto pausedAt = f.step();
    QTest::qWait(300);
    CHECK(f.step() == pausedAt);
    QTest::keyClick(f.window, Qt::Key_Right);
    CHECK(EditorFixture::waitFor([&] { return f.step() == pausedAt + 1; }));
    QTest::keyClick(f.window, Qt::Key_N);
    CHECK(f.editor->showNeighbours());
    QTest::keyClick(f.window, Qt::Key_G);
    CHECK(f.editor->showGrid());
    QTest::keyClick(f.window, Qt::Key_F1);
    CHECK(f.window->property("helpVisible").toBool());
    QTest::keyClick(f.window, Qt::Key_Escape);
    CHECK_FALSE(f.window->property("helpVisible").toBool());
    QTest::keyClick(f.window, Qt::Key_2);
    CHECK(f.editor->tool() == editor::Editor::PlacePredator);
    QTest::keyClick(f.window, Qt::Key_Space);
    CHECK_FALSE(f.editor->paused());
    CHECK(EditorFixture::waitFor([&] { return f.step() > pausedAt + 10; }));
}

TEST_CASE("Tab moves on from a field typed into, and a control reached with Tab takes Space and the arrows") {
    EditorFixture f;
    auto* field = f.find("field_alignmentWeight");
    REQUIRE(field);
    f.typeInto(field, "2.5");
    QTest::keyClick(f.window, Qt::Key_Tab);
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 2.5f);
    CHECK_FALSE(field->hasActiveFocus());
    CHECK(f.editor->selectedFish().isEmpty());  // Tab did not select a fish

    REQUIRE(EditorFixture::waitFor([&] { return f.step() > 5; }));
    auto* slider = f.find("slider_maxSpeed");
    REQUIRE(slider);
    slider->forceActiveFocus(Qt::MouseFocusReason);  // a slider clicked leaves Space to the transport
    QTest::keyClick(f.window, Qt::Key_Space);
    REQUIRE(f.editor->paused());
    // The pause reaches the simulation after a step in progress, which may still publish.
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    const auto pausedAt = f.step();
    f.find("fishView")->forceActiveFocus();
    slider->forceActiveFocus(Qt::TabFocusReason);
    const float speed = f.editor->params()->params().get(ParamId::MaxSpeed);
    QTest::keyClick(f.window, Qt::Key_Right);
    CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) > speed);
    QTest::keyClick(f.window, Qt::Key_Space);
    CHECK(f.editor->paused());
    QTest::qWait(200);
    CHECK(f.step() == pausedAt);

    // A click on the view (clear of the stats panel) gives the keys back to it.
    auto* view = f.find("fishView");
    QTest::mouseClick(f.window, Qt::LeftButton, {}, view->mapToScene(QPointF(view->width() - 20, 400)).toPoint());
    QTest::keyClick(f.window, Qt::Key_Right);
    CHECK(EditorFixture::waitFor([&] { return f.step() == pausedAt + 1; }));
    f.editor->selectFish(4);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 4; }));
    QTest::keyClick(f.window, Qt::Key_Tab);
    CHECK(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 5; }));
}

TEST_CASE("the arrow keys move a parameter slider a hundredth of its travel a press, not a tenth") {
    // One press of Left on Separation (linear, 0 to 20) took it from 1.6 to 0: the rule off.
    EditorFixture f;
    auto* slider = f.find("slider_separationWeight");
    REQUIRE(slider);
    slider->forceActiveFocus(Qt::TabFocusReason);
    const double travel = slider->property("value").toDouble();
    const float before = f.editor->params()->params().get(ParamId::SeparationWeight);
    REQUIRE(before > 1.0f);
    QTest::keyClick(f.window, Qt::Key_Left);
    QTest::keyClick(f.window, Qt::Key_Left);
    CHECK(slider->property("value").toDouble() == Approx(travel - 0.02).margin(1e-6));
    CHECK(f.editor->params()->params().get(ParamId::SeparationWeight) == Approx(before - 0.4f).margin(0.01));
}

TEST_CASE("a held arrow key sweeps a slider in one undo step") {
    // The key's repeats each released the slider, each an undo step: one
    // Ctrl+Z took back a hundredth of the sweep.
    EditorFixture f;
    auto* slider = f.find("slider_separationWeight");
    REQUIRE(slider);
    slider->forceActiveFocus(Qt::TabFocusReason);
    const float before = f.editor->params()->params().get(ParamId::SeparationWeight);
    const auto send = [&](QEvent::Type type, bool repeat) {
        QKeyEvent key(type, Qt::Key_Right, Qt::NoModifier, QString(), repeat);
        QGuiApplication::sendEvent(f.window, &key);
    };
    send(QEvent::KeyPress, false);
    for (int i = 0; i < 10; ++i) {
        send(QEvent::KeyRelease, true);
        send(QEvent::KeyPress, true);
    }
    send(QEvent::KeyRelease, false);
    const float swept = f.editor->params()->params().get(ParamId::SeparationWeight);
    REQUIRE(swept == Approx(before + 11 * 0.2f).margin(0.01));
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(f.editor->params()->params().get(ParamId::SeparationWeight) == before);
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ShiftModifier | Qt::ControlModifier);
    CHECK(f.editor->params()->params().get(ParamId::SeparationWeight) == swept);
}

TEST_CASE("Up and Down in a parameter's field leave the keys with it and the list where it was") {
    // The list took them: its current row moved, the field lost the keys (a
    // digit typed next chose a tool) and the list scrolled it away.
    EditorFixture f;
    auto* field = f.find("field_separationWeight");
    auto* list = f.find("paramList");
    REQUIRE(field);
    REQUIRE(list);
    field->forceActiveFocus(Qt::MouseFocusReason);
    const double scrolled = list->property("contentY").toDouble();
    for (int i = 0; i < 16; ++i) QTest::keyClick(f.window, Qt::Key_Down);
    QTest::keyClick(f.window, Qt::Key_Up);
    CHECK(field->hasActiveFocus());
    CHECK(list->property("contentY").toDouble() == scrolled);
    const int tool = f.editor->tool();
    QTest::keyClick(f.window, Qt::Key_3);
    CHECK(f.editor->tool() == tool);
}

TEST_CASE("hiding the panel or its tab gives the keys back to the school, a number being typed counting") {
    // The hidden control kept them: Space pressed a hidden button, a digit
    // went into a hidden field.
    EditorFixture f;
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > 5; }));
    auto* field = f.find("field_alignmentWeight");
    REQUIRE(field);
    f.typeInto(field, "2.5");  // no Return
    f.clickButton(QStringLiteral("Panel"));
    REQUIRE(EditorFixture::waitFor([&] { return f.find("fishView")->hasActiveFocus(); }, 2000));
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 2.5f);
    QTest::keyClick(f.window, Qt::Key_Space);
    CHECK(f.editor->paused());
    QTest::keyClick(f.window, Qt::Key_P);
    REQUIRE(f.window->property("panelVisible").toBool());

    auto* slider = f.find("slider_maxSpeed");
    REQUIRE(slider);
    slider->forceActiveFocus(Qt::TabFocusReason);  // the slider takes the arrows
    f.window->setProperty("panelTab", 1);
    REQUIRE(EditorFixture::waitFor([&] { return f.find("fishView")->hasActiveFocus(); }, 2000));
    const float speed = f.editor->params()->params().get(ParamId::MaxSpeed);
    // The pause reaches the simulation after a step in progress, which may still publish.
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    const auto pausedAt = f.step();
    QTest::keyClick(f.window, Qt::Key_Right);
    CHECK(EditorFixture::waitFor([&] { return f.step() == pausedAt + 1; }));
    CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) == speed);
}

TEST_CASE("quick Tabs each select the next fish, also after a click on a tool bar button") {
    EditorFixture f;
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > 5; }));
    QQuickItem* step = nullptr;
    for (QQuickItem* item : selfAndDescendants(f.window->contentItem()))
        if (item->inherits("QQuickAbstractButton") && item->property("text").toString() == "Step") step = item;
    REQUIRE(step);
    QTest::mouseClick(f.window, Qt::LeftButton, {}, step->mapToScene(QPointF(step->width() / 2, step->height() / 2)).toPoint());
    CHECK_FALSE(step->hasActiveFocus());
    f.editor->selectFish(4);
    for (int i = 0; i < 3; ++i) QTest::keyClick(f.window, Qt::Key_Tab);
    CHECK(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 7; }));
    QTest::qWait(300);
    CHECK(f.editor->selectedFish().value("id").toInt() == 7);
}

TEST_CASE("a control reached with Tab in the parameter list is scrolled into view") {
    // The list stayed where it was: a number typed after six Tabs went into a field below its edge.
    EditorFixture f(cli::kDefaultPreset, 1280, 720);
    auto* list = f.find("paramList");
    REQUIRE(list);
    auto* first = f.find("field_separationWeight");
    REQUIRE(first);
    first->forceActiveFocus(Qt::TabFocusReason);
    const QRectF shown = list->mapRectToScene(QRectF(0, 0, list->width(), list->height()));
    int inList = 0;
    for (int tab = 0; tab < 60; ++tab) {
        QTest::keyClick(f.window, Qt::Key_Tab);
        QTest::qWait(20);
        QQuickItem* focused = f.window->activeFocusItem();
        REQUIRE(focused);
        bool inside = false;
        for (QQuickItem* p = focused; p; p = p->parentItem()) inside = inside || p == list;
        if (!inside) continue;
        ++inList;
        const QRectF at = focused->mapRectToScene(QRectF(0, 0, focused->width(), focused->height()));
        INFO("Tab " << tab + 1 << ": " << focused->metaObject()->className() << " at y " << at.top() << " to " << at.bottom()
                    << ", the list shows " << shown.top() << " to " << shown.bottom());
        CHECK(at.top() >= shown.top() - 0.5);
        CHECK(at.bottom() <= shown.bottom() + 0.5);
    }
    CHECK(inList > 20);
}

TEST_CASE("a number field or box reached with Tab takes the digits typed in place of its number") {
    // The cursor sat after the number: "500" into the fish box made 200500
    // (clamped to 200 000 fish), "2.5" into Separation's 1.40 made 1.4025.
    EditorFixture f(cli::kDefaultPreset, 1280, 720);
    auto* fish = f.find("fishCount");
    REQUIRE(fish);
    fish->forceActiveFocus(Qt::TabFocusReason);
    for (const char c : std::string("500")) QTest::keyClick(f.window, c);
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(EditorFixture::waitFor([&] { return f.editor->fishCount() == 500; }));
    auto* separation = f.find("field_separationWeight");
    REQUIRE(separation);
    separation->forceActiveFocus(Qt::TabFocusReason);
    for (const char c : std::string("2.5")) QTest::keyClick(f.window, c);
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(f.editor->params()->params().get(ParamId::SeparationWeight) == Approx(2.5));
}

TEST_CASE("Escape on a control reached with Tab gives the keys back to the school") {
    // None did: Space then pressed the focused Load or Reset all to defaults.
    EditorFixture f(cli::kDefaultPreset, 1280, 720);
    QQuickItem* reset = nullptr;
    for (QQuickItem* item : selfAndDescendants(f.window->contentItem()))
        if (item->inherits("QQuickAbstractButton") && item->property("text").toString() == "Reset all to defaults") reset = item;
    REQUIRE(reset);
    f.editor->params()->setValue(f.editor->params()->rowOf("separationWeight"), 2.5);
    reset->forceActiveFocus(Qt::TabFocusReason);
    REQUIRE(reset->property("visualFocus").toBool());
    QTest::keyClick(f.window, Qt::Key_Escape);
    CHECK(f.window->activeFocusItem() == f.find("fishView"));
    const bool paused = f.editor->paused();
    QTest::keyClick(f.window, Qt::Key_Space);
    CHECK(EditorFixture::waitFor([&] { return f.editor->paused() != paused; }));
    CHECK(f.editor->params()->params().get(ParamId::SeparationWeight) == Approx(2.5));
}

TEST_CASE("a drop-down list reached with Tab takes the letter typed, not the school's shortcut for it") {
    // W picked no "wrap": it switched the view's world to follow its size.
    EditorFixture f("compact-rush", 1280, 720);
    REQUIRE(f.editor->params()->params().boundaryMode() != BoundaryMode::Wrap);
    auto* list = f.find("paramList");
    REQUIRE(list);
    QMetaObject::invokeMethod(list, "positionViewAtIndex", Q_ARG(int, f.editor->params()->rowOf("boundaryMode")), Q_ARG(int, 0));
    QQuickItem* boundary = nullptr;
    REQUIRE(EditorFixture::waitFor([&] { return (boundary = f.find("choice_boundaryMode")) != nullptr; }));
    boundary->forceActiveFocus(Qt::TabFocusReason);
    const bool follows = f.editor->worldFollowsView();
    QTest::keyClick(f.window, Qt::Key_W);
    CHECK(f.editor->params()->params().boundaryMode() == BoundaryMode::Wrap);
    CHECK(f.editor->worldFollowsView() == follows);
}

TEST_CASE("closing the message line with its cross leaves the keys with the school") {
    EditorFixture f;
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > 5; }));
    QTest::keyClick(f.window, Qt::Key_R);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->message().startsWith("Reset with seed"); }));
    f.clickButton(QStringLiteral("✕"));
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->message().isEmpty(); }));
    f.editor->selectFish(4);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 4; }));
    QTest::keyClick(f.window, Qt::Key_Tab);
    CHECK(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 5; }));
    const bool paused = f.editor->paused();
    QTest::keyClick(f.window, Qt::Key_Space);
    CHECK(f.editor->paused() != paused);
}

TEST_CASE("in a number field Escape puts the value back, and Ctrl+Z and Ctrl+Shift+Z undo and redo the edit") {
    EditorFixture f;
    auto* field = f.find("field_alignmentWeight");
    REQUIRE(field);
    const float before = f.editor->params()->params().get(ParamId::AlignmentWeight);
    REQUIRE(before != 2.5f);
    f.typeInto(field, "2.5");
    QTest::keyClick(f.window, Qt::Key_Return);
    REQUIRE(f.editor->params()->params().get(ParamId::AlignmentWeight) == 2.5f);
    // Back in the field, not typing.
    field->forceActiveFocus();
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == before);
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 2.5f);

    // Escape while typing: the value is shown again and kept, and the
    // selected fish stays selected (the window's Escape lets it go).
    f.editor->selectFish(4);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 4; }));
    const QString shown = field->property("text").toString();
    f.typeInto(field, "7");
    QTest::keyClick(f.window, Qt::Key_Escape);
    CHECK(field->property("text").toString() == shown);
    field->setFocus(false);
    f.find("fishView")->forceActiveFocus();
    CHECK(f.editor->params()->params().get(ParamId::AlignmentWeight) == 2.5f);
    QTest::qWait(300);
    CHECK(f.editor->selectedFish().value("id").toInt() == 4);
}

TEST_CASE("left drag holds a field at the pointer, a fast swipe scares, and neither is saved") {
    EditorFixture f;
    auto* view = f.find("fishView");
    REQUIRE(view);
    const QPoint start = view->mapToScene(QPointF(view->width() * 0.2, view->height() / 2)).toPoint();
    CHECK(pressAndSwipe(f, start));
    QTest::mouseRelease(f.window, Qt::LeftButton, {}, start + QPoint(600, 0));
    // Scares last 0.4 s; the pointer's field goes with the button.
    CHECK(EditorFixture::waitFor([&] { return activeFields(f) == 0; }, 3000));
    CHECK(f.editor->host().stats().fields.empty());
}

TEST_CASE("a swipe while paused scares nothing: no scare waits on the view to strike at Play") {
    EditorFixture f;
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    auto* view = f.find("fishView");
    REQUIRE(view);
    const QPoint start = view->mapToScene(QPointF(view->width() * 0.2, view->height() / 2)).toPoint();
    CHECK_FALSE(pressAndSwipe(f, start));
    QTest::mouseRelease(f.window, Qt::LeftButton, {}, start + QPoint(600, 0));
    CHECK(EditorFixture::waitFor([&] { return activeFields(f) == 0; }));
    CHECK(f.editor->host().stats().fields.empty());
}

TEST_CASE("a pull the view loses before its release ends, and a second button during a drag changes nothing") {
    EditorFixture f;
    auto* view = f.find("fishView");
    REQUIRE(view);
    const QPoint at = view->mapToScene(QPointF(view->width() * 0.4, view->height() / 2)).toPoint();
    QTest::mousePress(f.window, Qt::LeftButton, {}, at);
    QTest::mouseMove(f.window, at + QPoint(5, 0));
    REQUIRE(EditorFixture::waitFor([&] { return activeFields(f) == 1; }));
    // As when another window takes the focus mid-press: no release comes.
    view->ungrabMouse();
    CHECK(EditorFixture::waitFor([&] { return activeFields(f) == 0; }, 3000));
    QTest::mouseRelease(f.window, Qt::LeftButton, {}, at + QPoint(5, 0));

    // A right press while a predator is dragged neither removes it nor
    // starts a drag of another.
    f.editor->setTool(editor::Editor::PlacePredator);
    f.editor->setPaused(true);
    QTest::mouseClick(f.window, Qt::LeftButton, {}, at);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().predators.size() == 1; }));
    const Vec2 placed = f.editor->host().stats().predators.front().position;
    QTest::mousePress(f.window, Qt::LeftButton, {}, at);
    QTest::mousePress(f.window, Qt::RightButton, Qt::KeyboardModifiers{}, at);
    QTest::qWait(300);
    CHECK(f.editor->host().stats().predators.size() == 1);
    QTest::mouseRelease(f.window, Qt::RightButton, Qt::KeyboardModifiers{}, at);
    // The left button still holds the predator: it follows the pointer.
    QTest::mouseMove(f.window, at + QPoint(60, 0));
    CHECK(EditorFixture::waitFor([&] {
        const auto& p = f.editor->host().stats().predators;
        return p.size() == 1 && p.front().position[0] > placed[0] + 20.0f;
    }));
    QTest::mouseRelease(f.window, Qt::LeftButton, {}, at + QPoint(60, 0));
}

TEST_CASE("the object tools place and remove a predator, and a click selects the fish under the pointer") {
    EditorFixture f;
    auto* view = f.find("fishView");
    REQUIRE(view);
    const QPoint centre = view->mapToScene(QPointF(view->width() / 2, view->height() / 2)).toPoint();

    f.editor->setTool(editor::Editor::PlacePredator);
    QTest::mouseClick(f.window, Qt::LeftButton, {}, centre);
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().predators.size() == 1; }));
    CHECK(EditorFixture::waitFor([&] { return f.editor->modified(); }));
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    const Vec2 p = f.editor->host().stats().predators.front().position;
    QPointF predatorInView;
    QMetaObject::invokeMethod(view, "worldToView", Q_RETURN_ARG(QPointF, predatorInView), Q_ARG(QPointF, QPointF(p[0], p[1])));
    QTest::mouseClick(f.window, Qt::RightButton, {}, view->mapToScene(predatorInView).toPoint());
    CHECK(EditorFixture::waitFor([&] { return f.editor->host().stats().predators.empty(); }, 3000));

    f.editor->setTool(editor::Editor::School);
    f.editor->selectFish(3);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().selected.has_value(); }));
    const Vec2 fish = f.editor->host().stats().selected->position;
    f.editor->clearSelection();
    REQUIRE(EditorFixture::waitFor([&] { return !f.editor->host().stats().selected.has_value(); }));
    QPointF fishInView;
    QMetaObject::invokeMethod(view, "worldToView", Q_RETURN_ARG(QPointF, fishInView), Q_ARG(QPointF, QPointF(fish[0], fish[1])));
    QTest::mouseClick(f.window, Qt::LeftButton, {}, view->mapToScene(fishInView).toPoint());
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().selected.has_value(); }));
    // The nearest fish to the click: fish 3, or one within a pixel of it.
    CHECK(length(f.editor->host().stats().selected->position - fish) < 3.0f / view->property("worldScale").toFloat());
    CHECK(EditorFixture::waitFor([&] { return f.editor->selectedFish().contains("speed"); }));
}

TEST_CASE("a predator dragged mid-chase is where R and a save put it, and the other predators keep their own places") {
    // Each predator edit used to make every predator's place for R and for
    // a save wherever it had chased to by then.
    EditorFixture f("predator-attack");
    const std::vector<Predator> preset = f.editor->host().stats().predatorsAsSet;
    REQUIRE(preset.size() == 2);
    const auto stats = [&] { return f.editor->host().stats(); };
    REQUIRE(EditorFixture::waitFor([&] { return stats().predators[1].position != preset[1].position; }, 5000));
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return stats().paused; }));
    CHECK_FALSE(f.editor->modified());

    f.editor->setTool(editor::Editor::PlacePredator);
    const Vec2 grabbed = stats().predators[0].position;
    const QPointF from(grabbed[0], grabbed[1]), to(640, 360);
    f.editor->pointerPressed(from, {}, Qt::LeftButton);
    f.editor->pointerMoved(to, {});
    f.editor->pointerReleased(to, {});
    REQUIRE(EditorFixture::waitFor([&] { return stats().predators[0].position == Vec2{{640, 360}}; }));
    CHECK(EditorFixture::waitFor([&] { return f.editor->modified(); }));

    REQUIRE(f.editor->savePresetAs("Hunt"));
    const Preset saved = loadPreset(f.userDir / "hunt.json");
    REQUIRE(saved.scene.predators.size() == 2);
    CHECK(saved.scene.predators[0].position == Vec2{{640, 360}});
    CHECK(saved.scene.predators[1].position == preset[1].position);

    f.editor->resetWithNewSeed();
    REQUIRE(EditorFixture::waitFor([&] { return stats().step == 0; }));
    CHECK(stats().predators[0].position == Vec2{{640, 360}});
    CHECK(stats().predators[1].position == preset[1].position);
}

TEST_CASE("an object dragged keeps where it was grabbed: it moves as far as the pointer, not its centre to it") {
    // A rock grabbed 40 px right of its centre jumped 40 px at the first move.
    EditorFixture f;
    f.editor->setPaused(true);
    const auto obstacles = [&] { return f.editor->host().stats().obstacles; };
    f.editor->setTool(editor::Editor::PlaceObstacle);
    f.editor->pointerPressed(QPointF(400, 300), {}, Qt::LeftButton);
    f.editor->pointerReleased(QPointF(400, 300), {});
    REQUIRE(EditorFixture::waitFor([&] { return obstacles().size() == 1; }));
    REQUIRE(obstacles().front().centre == Vec2{{400, 300}});
    f.editor->pointerPressed(QPointF(440, 300), {}, Qt::LeftButton);
    f.editor->pointerMoved(QPointF(450, 310), {});
    f.editor->pointerReleased(QPointF(450, 310), {});
    CHECK(EditorFixture::waitFor([&] { return obstacles().front().centre == Vec2{{410, 310}}; }));
    CHECK(obstacles().front().centre == Vec2{{410, 310}});
}

TEST_CASE("a predator dragged to the edge of a wrapping world stays the one dragged, and the other keeps its place") {
    // Each move took the predator nearest to where the last had put it: the
    // dragged one, wrapped to the far edge by a step, was not, and the other
    // predator jumped to the pointer.
    EditorFixture f;  // gentle-cruise wraps
    const auto stats = [&] { return f.editor->host().stats(); };
    REQUIRE(stats().worldWidth > 1000.0f);
    const float width = stats().worldWidth;
    f.editor->setTool(editor::Editor::PlacePredator);
    for (const QPointF at : {QPointF(300, 300), QPointF(100, 360)}) {
        f.editor->pointerPressed(at, {}, Qt::LeftButton);
        f.editor->pointerReleased(at, {});
    }
    REQUIRE(EditorFixture::waitFor([&] { return stats().predatorsAsSet.size() == 2; }));
    const Vec2 other = stats().predatorsAsSet[1].position;
    f.editor->pointerPressed(QPointF(300, 300), {}, Qt::LeftButton);
    for (int i = 1; i <= 20; ++i) {
        f.editor->pointerMoved(QPointF(std::min(300.0 + 100.0 * i, width + 50.0), 300), {});
        QTest::qWait(40);  // steps in between: past the edge, it crosses the seam
    }
    f.editor->pointerReleased(QPointF(width + 50.0, 300), {});
    QTest::qWait(300);
    REQUIRE(stats().predatorsAsSet.size() == 2);
    // Held where it was grabbed, within the grab's reach of the pointer: it swam on from where it was placed.
    CHECK(stats().predatorsAsSet[0].position[0] == Approx(50).margin(30));
    CHECK(std::abs(stats().predatorsAsSet[0].position[1] - 300.0f) <= 30.0f);
    CHECK(stats().predatorsAsSet[1].position == other);
}

TEST_CASE("a world shrunk under a predator (W, the side panel) moves it in the school, not where R and a save put it") {
    // predator-attack puts one at x 1180; the view beside the panel is narrower.
    EditorFixture f("predator-attack");
    const auto stats = [&] { return f.editor->host().stats(); };
    REQUIRE(stats().predatorsAsSet.at(1).position[0] == 1180.0f);
    f.editor->setWorldFollowsView(true);
    REQUIRE(EditorFixture::waitFor([&] { return stats().worldWidth < 1180.0f; }));
    REQUIRE(EditorFixture::waitFor([&] { return stats().predators.at(1).position[0] < stats().worldWidth; }));
    QTest::qWait(300);
    CHECK(stats().predatorsAsSet.at(1).position[0] == 1180.0f);
    CHECK_FALSE(f.editor->modified());

    f.editor->setWorldFollowsView(false);
    REQUIRE(EditorFixture::waitFor([&] { return stats().worldWidth == 1280.0f; }));
    // Paused, so that step 0 is seen: running, the steps due with the reset
    // could all be taken before the school was shown (under load, 4 times in 6).
    f.editor->setPaused(true);
    f.editor->resetWithNewSeed();
    REQUIRE(EditorFixture::waitFor([&] { return stats().step == 0; }));
    CHECK(stats().predators.at(1).position[0] == 1180.0f);
    REQUIRE(f.editor->savePresetAs("Hunt"));
    CHECK(loadPreset(f.userDir / "hunt.json").scene.predators.at(1).position[0] == 1180.0f);
}

TEST_CASE("an object dragged while the world grows with the view reaches the new edge") {
    // Held inside the world as it was at the press, it stopped at the old edge.
    EditorFixture f;
    f.editor->setPaused(true);
    const auto stats = [&] { return f.editor->host().stats(); };
    f.editor->setWorldFollowsView(true);
    const float narrow = f.find("fishView")->width();
    REQUIRE(EditorFixture::waitFor([&] { return stats().worldWidth == narrow; }));
    f.editor->setTool(editor::Editor::PlaceObstacle);
    f.editor->pointerPressed(QPointF(100, 100), {}, Qt::LeftButton);
    f.editor->pointerReleased(QPointF(100, 100), {});
    REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == 1; }));
    f.editor->pointerPressed(QPointF(100, 100), {}, Qt::LeftButton);
    f.window->setProperty("panelVisible", false);  // P: the view, and the world, get wider
    REQUIRE(EditorFixture::waitFor([&] { return stats().worldWidth > narrow + 100; }));
    const float wide = stats().worldWidth;
    f.editor->pointerMoved(QPointF(wide - 10, 100), {});
    CHECK(EditorFixture::waitFor([&] { return stats().obstacles.front().centre[0] == wide - 10; }));
    f.editor->pointerReleased(QPointF(wide - 10, 100), {});
}

TEST_CASE("an object is placed inside the world even when clicked beside it, and a right click takes the nearest") {
    EditorFixture f;
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    const auto stats = [&] { return f.editor->host().stats(); };
    const float width = stats().worldWidth, height = stats().worldHeight;
    f.editor->setTool(editor::Editor::PlaceObstacle);
    f.clickWorld(QPointF(width + 200, height / 2), Qt::LeftButton);  // in the letterbox beside the world
    REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == 1; }));
    CHECK(stats().obstacles.front().centre[0] == width);
    CHECK(stats().obstacles.front().centre[1] == height / 2);

    f.editor->setTool(editor::Editor::PlacePredator);
    f.clickWorld(QPointF(300, 300), Qt::LeftButton);
    REQUIRE(EditorFixture::waitFor([&] { return stats().predators.size() == 1; }));
    f.clickWorld(QPointF(340, 300), Qt::LeftButton);  // beyond the first's reach (30 px)
    REQUIRE(EditorFixture::waitFor([&] { return stats().predators.size() == 2; }));
    f.clickWorld(QPointF(318, 300), Qt::RightButton);  // within reach of both, nearer the first
    REQUIRE(EditorFixture::waitFor([&] { return stats().predators.size() == 1; }));
    CHECK(stats().predators.front().position[0] == 340.0f);
}

// Paused, the obstacle tool, and an obstacle of radius 60 placed 20 px in
// from the right edge of the wrapping world: its copy across the seam
// reaches 40 px in on the left. The world's width.
float placeObstacleAtSeam(EditorFixture& f) {
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    const float width = f.editor->host().stats().worldWidth;
    f.editor->setTool(editor::Editor::PlaceObstacle);
    f.clickWorld(QPointF(width - 20, 300), Qt::LeftButton);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().obstacles.size() == 1; }));
    return width;
}

TEST_CASE("in a wrapping world an obstacle is grabbed at its copy across the seam, where it acts too") {
    EditorFixture f;  // gentle-cruise wraps
    const auto stats = [&] { return f.editor->host().stats(); };
    const float width = placeObstacleAtSeam(f);
    f.clickWorld(QPointF(10, 300), Qt::RightButton);
    CHECK(EditorFixture::waitFor([&] { return stats().obstacles.empty(); }));
}

TEST_CASE("in a wrapping world an obstacle grabbed at its copy across the seam moves as far as the pointer, across the seam") {
    // Its copy's offset was applied to the obstacle itself, and it jumped to the edge and stuck there.
    EditorFixture f;  // gentle-cruise wraps
    const auto stats = [&] { return f.editor->host().stats(); };
    const float width = placeObstacleAtSeam(f);
    f.editor->pointerPressed(QPointF(10, 300), {}, Qt::LeftButton);  // 30 px right of the copy's centre
    f.editor->pointerMoved(QPointF(15, 305), {});
    CHECK(EditorFixture::waitFor([&] { return stats().obstacles.front().centre == Vec2{{width - 15, 305}}; }));
    f.editor->pointerMoved(QPointF(60, 305), {});  // the centre crosses the seam
    f.editor->pointerReleased(QPointF(60, 305), {});
    CHECK(EditorFixture::waitFor([&] { return stats().obstacles.front().centre == Vec2{{30, 305}}; }));
    CHECK(stats().obstacles.front().centre == Vec2{{30, 305}});
}

TEST_CASE("in a wrapping world a press in the empty water below it places a predator there, not grabbing one at the top") {
    EditorFixture f;  // gentle-cruise wraps
    f.editor->setPaused(true);
    const auto stats = [&] { return f.editor->host().stats(); };
    REQUIRE(EditorFixture::waitFor([&] { return stats().paused; }));
    const float height = stats().worldHeight;
    f.editor->setTool(editor::Editor::PlacePredator);
    f.clickWorld(QPointF(400, 10), Qt::LeftButton);
    REQUIRE(EditorFixture::waitFor([&] { return stats().predators.size() == 1; }));
    f.clickWorld(QPointF(400, height + 15), Qt::RightButton);  // 5 px from the top one the short way round, where nothing is drawn
    f.clickWorld(QPointF(400, height + 15), Qt::LeftButton);
    REQUIRE(EditorFixture::waitFor([&] { return stats().predators.size() == 2; }));
    CHECK(stats().predators[0].position == Vec2{{400, 10}});
    CHECK(stats().predators[1].position == Vec2{{400, height}});
}

TEST_CASE("two quick right clicks remove the objects clicked, and on one object only that one, though the window has not seen the first go yet") {
    EditorFixture f;
    const auto stats = [&] { return f.editor->host().stats(); };
    f.editor->setTool(editor::Editor::PlaceObstacle);
    for (const double x : {300.0, 500.0, 700.0}) f.clickWorld(QPointF(x, 300), Qt::LeftButton);
    REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == 3; }));
    // Steps of a large fraction of a second (every fish sees all 20 000):
    // both clicks come while one runs, before the window hears of the first.
    auto* params = f.editor->params();
    params->setValue(params->rowOf(QStringLiteral("perceptionRadius")), 2000.0);
    f.editor->setFishCount(20'000);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().runningStepSeconds() > 0.05; }, 30'000));
    f.clickWorld(QPointF(300, 300), Qt::RightButton);
    f.clickWorld(QPointF(500, 300), Qt::RightButton);
    REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == 1; }, 30'000));
    CHECK(stats().obstacles.front().centre[0] == 700.0f);
    // The same rock clicked twice, as one that does not vanish at once is:
    // the second click took the nearest other object, anywhere.
    f.clickWorld(QPointF(900, 300), Qt::LeftButton);
    REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == 2; }, 30'000));
    f.clickWorld(QPointF(700, 300), Qt::RightButton);
    f.clickWorld(QPointF(700, 300), Qt::RightButton);
    REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == 1; }, 30'000));
    QTest::qWait(1000);
    REQUIRE(stats().obstacles.size() == 1);
    CHECK(stats().obstacles.front().centre[0] == 900.0f);
    // A drag pressed on the rock just removed holds nothing: it moved the
    // nearest other one, anywhere, to the pointer.
    f.clickWorld(QPointF(500, 300), Qt::LeftButton);
    REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == 2; }, 30'000));
    f.clickWorld(QPointF(900, 300), Qt::RightButton);
    f.editor->pointerPressed(QPointF(900, 300), {}, Qt::LeftButton);
    f.editor->pointerMoved(QPointF(800, 400), {});
    f.editor->pointerReleased(QPointF(800, 400), {});
    REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == 1; }, 30'000));
    QTest::qWait(1000);
    CHECK(stats().obstacles.front().centre == Vec2{{500, 300}});
}

TEST_CASE("an edit made during a slow step shows as soon as that step ends, not after the next") {
    // Steps of a quarter second or more: the test's own look at the stats,
    // late by tens of milliseconds on a busy machine (the suite runs two
    // tests at once), saw the step after and failed at 0.05 s steps.
    EditorFixture f;
    const auto stats = [&] { return f.editor->host().stats(); };
    auto* params = f.editor->params();
    params->setValue(params->rowOf(QStringLiteral("perceptionRadius")), 2000.0);
    f.editor->setFishCount(50'000);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().runningStepSeconds() > 0.25; }, 60'000));
    f.editor->setTool(editor::Editor::PlaceObstacle);
    for (int round = 0; round < 3; ++round) {
        // A step is running: the last one shown is the one before it.
        const auto shownAtClick = stats().step;
        f.editor->pointerPressed(QPointF(300 + 100 * round, 300), {}, Qt::LeftButton);
        f.editor->pointerReleased(QPointF(300 + 100 * round, 300), {});
        REQUIRE(EditorFixture::waitFor([&] { return stats().obstacles.size() == std::size_t(round + 1); }, 30'000));
        CHECK(stats().step <= shownAtClick + 1);
    }
}

TEST_CASE("a click reaches as far on the screen however large or small the world is shown") {
    EditorFixture f;
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    const auto predators = [&] { return f.editor->host().stats().predators.size(); };
    f.editor->setTool(editor::Editor::PlacePredator);
    f.clickWorld(QPointF(300, 300), Qt::LeftButton, 1.0);
    REQUIRE(EditorFixture::waitFor([&] { return predators() == 1; }));
    // 100 world px away: 100 view px at full size, out of reach (30 px)...
    f.clickWorld(QPointF(400, 300), Qt::RightButton, 1.0);
    QTest::qWait(200);
    CHECK(predators() == 1);
    // ...but 10 view px with the world shown at a tenth of its size.
    f.clickWorld(QPointF(400, 300), Qt::RightButton, 0.1);
    CHECK(EditorFixture::waitFor([&] { return predators() == 0; }));
}

TEST_CASE("a selected fish that a smaller school no longer has is let go, and stays so when the school grows again") {
    EditorFixture f;
    f.editor->setFishCount(200);
    f.editor->selectFish(150);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 150; }));
    f.editor->setFishCount(100);
    CHECK(EditorFixture::waitFor([&] { return f.editor->selectedFish().isEmpty(); }));
    f.editor->setFishCount(200);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().fishCount == 200; }));
    QTest::qWait(300);
    CHECK(f.editor->selectedFish().isEmpty());
}

TEST_CASE("a selected fish is let go when a preset is loaded and when the school is reset with R") {
    // Its id names another fish of the new school, somewhere else.
    EditorFixture f;
    f.editor->selectFish(7);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 7; }));
    QTest::keyClick(f.window, Qt::Key_R);
    CHECK(EditorFixture::waitFor([&] { return f.editor->selectedFish().isEmpty(); }));
    f.editor->selectFish(7);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 7; }));
    REQUIRE(f.editor->loadPreset(1));
    CHECK(EditorFixture::waitFor([&] { return f.editor->selectedFish().isEmpty(); }));
}

TEST_CASE("Escape in the preset name or the fish count drops what was typed, and the fish stays selected") {
    EditorFixture f;
    f.editor->selectFish(3);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->selectedFish().value("id").toInt() == 3; }));
    f.window->setProperty("panelTab", 1);
    auto* name = f.find("presetName");
    REQUIRE(name);
    f.typeInto(name, "Half");
    QTest::keyClick(f.window, Qt::Key_Escape);
    CHECK(name->property("text").toString().isEmpty());
    QQuickItem* count = fishCountBox(f);
    QQuickItem* countText = textInputOf(count);
    const QString shown = count->property("displayText").toString();
    f.typeInto(countText, "123");
    QTest::keyClick(f.window, Qt::Key_Escape);
    CHECK(countText->property("text").toString() == shown);
    QTest::qWait(300);
    CHECK(f.editor->selectedFish().value("id").toInt() == 3);
    // With nothing typed, Escape is the window's again: the fish is let go.
    f.find("fishView")->forceActiveFocus();
    QTest::keyClick(f.window, Qt::Key_Escape);
    CHECK(EditorFixture::waitFor([&] { return f.editor->selectedFish().isEmpty(); }));
}

TEST_CASE("a minute of random slider and fish-count changes with 20 000 fish keeps every value finite") {
    EditorFixture f;
    f.editor->setFishCount(20'000);
    auto* params = f.editor->params();
    // Another storm each run; a failure names the seed that reproduces its edits.
    const quint32 seed = QRandomGenerator::global()->generate();
    INFO("random seed " << seed);
    QRandomGenerator seeded(seed);
    QRandomGenerator* rng = &seeded;
    QElapsedTimer clock;
    clock.start();
    int edits = 0;
    while (clock.elapsed() < 60'000) {
        const int row = static_cast<int>(rng->bounded(params->rowCount()));
        params->setPosition(row, rng->generateDouble());
        if (rng->bounded(10) == 0) params->endGesture();
        if (rng->bounded(20) == 0) f.editor->setFishCount(static_cast<int>(10'000 + rng->bounded(20'001)));
        ++edits;
        QTest::qWait(static_cast<int>(5 + rng->bounded(30)));
    }
    CHECK(f.editor->host().stats().metrics.nonFinite == 0);  // as last measured during the storm
    // The last random values may be very costly (a perception radius of
    // 2000 px makes every fish see every other: seconds per step). Like a
    // user, reset the parameters, then require that the school runs on.
    f.editor->resetAllParams();
    f.editor->setFishCount(20'000);
    const auto before = f.step();
    REQUIRE(EditorFixture::waitFor([&] { return f.step() > before + 30; }, 60'000));
    QTest::qWait(600);  // one metrics refresh (every 0.25 s) after the last edit
    const editor::SimStats s = f.editor->host().stats();
    INFO(edits << " edits");
    CHECK(s.fishCount == 20'000);
    CHECK(s.metrics.nonFinite == 0);
    CHECK(std::isfinite(s.metrics.meanSpeed));
}

TEST_CASE("steps that take seconds are named in the message line, an edit ends them, and closing does not wait") {
    // 70 000 fish that all see one another (perception 2000 px): every fish
    // examines the whole school, seconds a step.
    auto f = std::make_unique<EditorFixture>();
    // A locale that groups thousands with a point: the message wrote "70.000 fish" beside "2.5 s".
    struct GermanNumbers {
        QLocale before;
        GermanNumbers() { QLocale::setDefault(QLocale(QLocale::German)); }
        ~GermanNumbers() { QLocale::setDefault(before); }
    } german;
    const int fish = f->editor->fishCount();
    const QString earlier = QStringLiteral("An error shown before the slow steps");
    f->editor->showMessage(earlier, true);
    auto* params = f->editor->params();
    params->setValue(params->rowOf(QStringLiteral("perceptionRadius")), 2000.0);
    f->editor->setFishCount(70'000);
    const auto message = [&] { return f->editor->message(); };
    // The longest a step was seen running: the stats' step time averages
    // over a second that also held the fast steps before (0.8 s read for 3 s).
    double slowStep = 0;
    const auto watchStep = [&] { slowStep = std::max(slowStep, f->editor->host().runningStepSeconds()); };
    REQUIRE(EditorFixture::waitFor([&] { watchStep(); return message().contains(QStringLiteral("crawling")); }, 30'000));
    INFO("the message: " << message().toStdString());
    CHECK(f->editor->messageIsError());
    CHECK(message().contains(QStringLiteral("70000 fish, perception radius 2000 px")));
    // Once a step has ended, the message gives its length and the neighbours.
    REQUIRE(EditorFixture::waitFor([&] { watchStep(); return message().contains(QStringLiteral("neighbours per fish")); },
                                   60'000));
    slowStep = std::max(slowStep, f->editor->host().stats().stepMilliseconds / 1000.0);
    CHECK(slowStep >= 0.5);

    // The preset's school again: the step in progress ends, the next ones
    // are fast and the message goes, the error it had covered back in its place.
    f->editor->setFishCount(fish);
    REQUIRE(EditorFixture::waitFor([&] { return message() == earlier; }, 60'000));
    CHECK(f->editor->messageIsError());
    const auto before = f->step();
    CHECK(EditorFixture::waitFor([&] { return f->step() > before + 30; }, 20'000));

    // Closed in the middle of a slow step: the window goes at once.
    f->editor->setFishCount(70'000);
    REQUIRE(EditorFixture::waitFor([&] { return f->editor->host().runningStepSeconds() > 0.1; }, 30'000));
    QElapsedTimer closing;
    closing.start();
    f.reset();
    const double closeSeconds = static_cast<double>(closing.elapsed()) / 1000.0;
    INFO("a slow step took " << slowStep << " s; closing took " << closeSeconds << " s");
    CHECK(closeSeconds < slowStep / 2);
}

TEST_CASE("the stats panel gives no step time while paused rather than 0.00 ms") {
    EditorFixture f;
    const auto stepMs = [&] { return f.editor->stats().value("stepMs"); };
    REQUIRE(EditorFixture::waitFor([&] { return stepMs().isValid() && stepMs().toDouble() > 0; }));
    f.editor->setPaused(true);
    // Once the timing window (a second) holds no steps.
    QTest::qWait(1500);
    CHECK_FALSE(stepMs().isValid());
    f.editor->setPaused(false);
    CHECK(EditorFixture::waitFor([&] { return stepMs().isValid() && stepMs().toDouble() > 0; }));
}

TEST_CASE("edit refuses a --quit-after that is no plain number of seconds up to a day") {
    for (const char* bad : {"inf", "nan", "5s", "1e7", "0", "-3", ""}) {
        std::ostringstream out, err;
        int exitCode = 0;
        CHECK_FALSE(editor::parseEditorArgs({"--quit-after", bad}, out, err, exitCode));
        CHECK(exitCode == 2);
        INFO("--quit-after '" << bad << "': " << err.str());
        CHECK_THAT(err.str(), Catch::Contains("--quit-after"));
    }
    std::ostringstream out, err;
    int exitCode = 0;
    const auto startup = editor::parseEditorArgs({"--quit-after", "2.5"}, out, err, exitCode);
    REQUIRE(startup);
    CHECK(startup->quitAfterSeconds == 2.5);
}

TEST_CASE("edit refuses a --size below the window's smallest size, which is the size the window keeps") {
    // 640x360 opened a window whose panels overlapped, under no window manager.
    std::ostringstream out, err;
    int exitCode = 0;
    CHECK_FALSE(editor::parseEditorArgs({"--size", "640x360"}, out, err, exitCode));
    CHECK(exitCode == 2);
    CHECK_THAT(err.str(), Catch::Contains("--size wants WIDTHxHEIGHT from 800x500 (the window's smallest size) to "
                                          "16384x16384, got '640x360'"));
    // A malformed size names the same least: 1x1 was offered, then refused.
    for (const char* bad : {"0x0", "900x9000000", "big"}) {
        std::ostringstream badErr;
        CHECK_FALSE(editor::parseEditorArgs({"--size", bad}, out, badErr, exitCode));
        CHECK_THAT(badErr.str(), Catch::Contains("--size wants WIDTHxHEIGHT from 800x500 (the window's smallest size)"));
    }
    const auto smallest = editor::parseEditorArgs({"--size", "800x500"}, out, err, exitCode);
    REQUIRE(smallest);
    EditorFixture f(cli::kDefaultPreset, smallest->width, smallest->height);
    CHECK(f.window->minimumWidth() == editor::kMinWindowWidth);
    CHECK(f.window->minimumHeight() == editor::kMinWindowHeight);
}

TEST_CASE("a school opened paused shows its speed and order at once, and no neighbour count before a step") {
    editor::SimHost host(loadPreset(shippedPreset("highly-parallel")).scene, 1, nullptr, true);
    REQUIRE(EditorFixture::waitFor([&] { return host.stats().metrics.meanSpeed > 0; }, 3000));
    QTest::qWait(200);
    CHECK(host.stats().step == 0);
    CHECK(host.stats().metrics.polarisation > 0);

    EditorFixture f("highly-parallel");
    f.editor->setPaused(true);
    f.editor->resetWithNewSeed();
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->stats().value("step").toULongLong() == 0; }));
    const QVariantMap stats = f.editor->stats();
    CHECK_FALSE(stats.contains("meanNeighbours"));
    CHECK_FALSE(stats.contains("forceSeparation"));
    auto* column = f.find("statsColumn");
    REQUIRE(column);
    bool dash = false;
    for (QQuickItem* label : column->childItems())
        dash = dash || label->property("text").toString().startsWith(QStringLiteral("neighbours <font color='#dde4ec'>–"));
    CHECK(dash);
}

TEST_CASE("paused, an edit of the perception radius shows a dash for the neighbour count until the next step counts them") {
    // The count was the last step's, shown green or orange as if it were of
    // the radius just set.
    EditorFixture f("highly-parallel");
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->stats().contains("meanNeighbours"); }));
    f.editor->setPaused(true);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->host().stats().paused; }));
    QTest::qWait(400);
    REQUIRE(f.editor->stats().contains("meanNeighbours"));
    const double before = f.editor->stats().value("meanNeighbours").toDouble();

    f.editor->params()->setValue(f.editor->params()->rowOf("perceptionRadius"), 400);
    CHECK(EditorFixture::waitFor([&] { return !f.editor->stats().contains("meanNeighbours"); }, 2000));
    CHECK_FALSE(f.editor->stats().contains("forceCohesion"));
    // Edits of how the school is drawn (the colour) leave the count standing.
    f.editor->stepOnce();
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->stats().contains("meanNeighbours"); }, 2000));
    const double after = f.editor->stats().value("meanNeighbours").toDouble();
    INFO(before << " neighbours before, " << after << " after the step at 400 px");
    CHECK(after > before);
    f.editor->params()->setValue(f.editor->params()->rowOf("colorMode"), 1);
    QTest::qWait(600);
    CHECK(f.editor->stats().contains("meanNeighbours"));
}

TEST_CASE("the grid overlay shows the cells the next step lays out, paused from the start and after an edit") {
    Scene scene = loadPreset(shippedPreset("gentle-cruise")).scene;
    scene.params.set(ParamId::Variation, 0.0f);
    scene.params.set(ParamId::PerceptionRadius, 80.0f);
    editor::SimHost host(scene, 1, nullptr, true);
    const auto cellWidth = [&] {
        const editor::FrameSnapshot* newest = host.frames().readNewest();
        return newest ? newest->gridCellWidth : host.frames().current().gridCellWidth;
    };
    host.post([](editor::SimHost::Context& c) { c.overlays.grid = true; });
    CHECK(EditorFixture::waitFor([&] { const float w = cellWidth(); return w >= 80.0f && w < 100.0f; }, 3000));
    host.post([](editor::SimHost::Context& c) { c.sim.setParam(ParamId::PerceptionRadius, 200.0f); });
    CHECK(EditorFixture::waitFor([&] { const float w = cellWidth(); return w >= 200.0f && w < 260.0f; }, 3000));
    CHECK(host.stats().step == 0);
}

TEST_CASE("presses of Step while paused are each one step, however many come at once") {
    editor::SimHost host(loadPreset(shippedPreset("gentle-cruise")).scene, 1, nullptr, true);
    for (int i = 0; i < 7; ++i) host.post([](editor::SimHost::Context& c) { ++c.singleSteps; });
    CHECK(EditorFixture::waitFor([&] { return host.stats().step == 7; }, 3000));
    QTest::qWait(300);
    CHECK(host.stats().step == 7);
}

TEST_CASE("a school reset just after a swipe loses the swipe's scare as quickly as ever") {
    editor::SimHost host(loadPreset(shippedPreset("gentle-cruise")).scene, 1);
    REQUIRE(EditorFixture::waitFor([&] { return host.stats().step > 300; }, 20'000));
    // A swipe's scare: 24 steps (0.4 s) from now, then R.
    host.post([](editor::SimHost::Context& c) {
        ForceField scare;
        scare.kind = FieldKind::Repel;
        const std::uint32_t id = c.sim.addForceField(scare);
        c.transient.push_back({id, c.sim.stepIndex() + 24});
    });
    REQUIRE(EditorFixture::waitFor([&] { return host.stats().activeFields == 1; }));
    host.post([](editor::SimHost::Context& c) { c.reset(99); });
    // Gone within its 0.4 s, not the 5 s the step count had to catch up.
    CHECK(EditorFixture::waitFor([&] { return host.stats().activeFields == 0; }, 2000));
}

TEST_CASE("a school reset while paused shows the new school's speed and order, not the old one's") {
    const Scene scene = loadPreset(shippedPreset("gentle-cruise")).scene;
    editor::SimHost host(scene, 1);
    REQUIRE(EditorFixture::waitFor([&] { return host.stats().step > 60; }));
    host.post([](editor::SimHost::Context& c) { c.paused = true; });
    QTest::qWait(500);
    constexpr std::uint64_t kSeed = 4242;
    host.post([](editor::SimHost::Context& c) { c.sim.reset(kSeed); });

    SerialScheduler serial;
    Scene fresh = scene;
    fresh.seed = kSeed;
    const Metrics expected = computeMetrics(Simulation(fresh, serial));
    CHECK(EditorFixture::waitFor([&] {
        const editor::SimStats s = host.stats();
        return s.step == 0 && s.metrics.polarisation == expected.polarisation && s.metrics.meanSpeed == expected.meanSpeed;
    }, 3000));
}

TEST_CASE("at the window's smallest size every tool bar button is inside the window") {
    EditorFixture f(cli::kDefaultPreset, 800, 500);
    auto* header = f.window->property("header").value<QQuickItem*>();
    REQUIRE(header);
    int buttons = 0;
    for (QQuickItem* item : selfAndDescendants(header)) {
        if (!item->inherits("QQuickAbstractButton") || !item->isVisible()) continue;
        ++buttons;
        const QRectF r = item->mapRectToScene(QRectF(0, 0, item->width(), item->height()));
        INFO(item->property("text").toString().toStdString() << " at " << r.x() << "," << r.y());
        CHECK(r.right() <= f.window->width());
        CHECK(r.bottom() <= header->height());
    }
    CHECK(buttons >= 20);
}

TEST_CASE("a narrow tool bar wraps between groups of buttons, never inside one") {
    // At 800 px N stood alone at a row's end, A V G T on the next; at
    // 1180 px undo ended a row and redo began the next.
    const std::vector<std::vector<QString>> groups = {{"Step", "Reset"},
                                                      {"School", "Predator", "Obstacle", "Attract", "Repel", "Vortex", "Clear"},
                                                      {"N", "A", "V", "G", "T", "Fit view"},
                                                      {"Clear canvas", "Still", "Export…"},
                                                      {"↶", "↷"},
                                                      {"Panel", "?"}};
    for (const int width : {800, 900, 1000, 1100, 1180, 1200}) {
        EditorFixture f(cli::kDefaultPreset, width, 700);
        auto* header = f.window->property("header").value<QQuickItem*>();
        REQUIRE(header);
        std::map<QString, double> rowOf;
        for (QQuickItem* item : selfAndDescendants(header))
            if (item->inherits("QQuickAbstractButton") && item->isVisible())
                rowOf[item->property("text").toString()] = item->mapToScene(QPointF(0, 0)).y();
        for (const auto& group : groups)
            for (const QString& text : group) {
                INFO(width << " px: " << text.toStdString() << " beside " << group.front().toStdString());
                REQUIRE(rowOf.count(text) == 1);
                CHECK(rowOf[text] == rowOf[group.front()]);
            }
    }
}

TEST_CASE("at the window's smallest size a school too large to keep up shows the whole warning, within the view") {
    // "Simulation behind: ... (fewer fish or a smaller p" ran on under the
    // side panel, its advice cut off.
    EditorFixture f(cli::kDefaultPreset, 800, 500);
    f.editor->setFishCount(60000);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->stats().value("behind").toBool(); }, 30000));
    QQuickItem* column = f.find("statsColumn");
    REQUIRE(column);
    QQuickItem* panel = column->parentItem();
    QQuickItem* view = panel->parentItem();
    REQUIRE(EditorFixture::waitFor([&] { return panel->isVisible(); }));
    QTest::qWait(100);  // laid out with the warning
    CHECK(panel->x() + panel->width() <= view->width());
    for (QQuickItem* line : column->childItems()) {
        if (!line->isVisible()) continue;
        INFO(line->property("text").toString().toStdString());
        CHECK(line->mapToItem(view, QPointF(line->width(), 0)).x() <= view->width());
        // A line wraps rather than runs on past the panel's edge.
        const bool fits = line->property("implicitWidth").toReal() <= line->width() + 1;
        CHECK((fits || line->property("lineCount").toInt() > 1));
    }
}

TEST_CASE("Ctrl+Z in the fish box after a count was confirmed undoes the editor's last edit, not the box's text") {
    // The text input's own undo put the count before back in the box while
    // the school kept the new one, and leaving the box committed that text.
    EditorFixture f;
    auto* params = f.editor->params();
    const double before = raiseSeparation(f);
    QQuickItem* box = fishCountBox(f);
    QQuickItem* text = textInputOf(box);
    f.typeInto(text, "1500");
    QTest::keyClick(f.window, Qt::Key_Return);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->fishCount() == 1500; }, 5000));
    REQUIRE(EditorFixture::waitFor([&] { return box->property("displayText").toString() == "1500"; }));
    // Back in the box, not typing.
    text->forceActiveFocus();
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(params->params().get(ParamId::SeparationWeight) == Approx(before));
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    CHECK(params->params().get(ParamId::SeparationWeight) == Approx(before + 1.0));
    f.find("fishView")->forceActiveFocus();
    QTest::qWait(300);
    CHECK(f.editor->fishCount() == 1500);
    CHECK(box->property("displayText").toString() == "1500");
}

TEST_CASE("the tool bar's undo over a fish count being typed drops the number and keeps the edit before") {
    // The number was committed, and the undo, finding no step for it, took
    // back the edit before: the school got 50 000 fish and lost its edit.
    EditorFixture f;
    auto* params = f.editor->params();
    const double before = raiseSeparation(f);
    const int fish = f.editor->fishCount();
    QQuickItem* box = fishCountBox(f);
    f.typeInto(textInputOf(box), "5000");  // no Return
    f.clickButton(QStringLiteral("↶"));
    QTest::qWait(300);
    CHECK(params->params().get(ParamId::SeparationWeight) == Approx(before + 1.0));
    CHECK(f.editor->fishCount() == fish);
    CHECK(textInputOf(box)->property("text").toString() == QString::number(fish));
    // Not typing, the undo is the editor's.
    f.clickButton(QStringLiteral("↶"));
    CHECK(params->params().get(ParamId::SeparationWeight) == Approx(before));
    CHECK(f.editor->fishCount() == fish);
}

TEST_CASE("Ctrl+Z in a route's band box undoes the editor's edits, and in the export dialog's boxes leaves them alone") {
    EditorFixture f;
    auto* params = f.editor->params();
    const double before = raiseSeparation(f);
    const auto textOf = [](QQuickItem* box) {
        return qobject_cast<QQuickItem*>(box->property("contentItem").value<QObject*>());
    };

    // The export dialog's Length: its own box, not the school behind it.
    QTest::keyClick(f.window, Qt::Key_E, Qt::ControlModifier);
    auto* length = f.find("exportLength");
    REQUIRE(length);
    REQUIRE(EditorFixture::waitFor([&] { return length->isVisible(); }));
    textOf(length)->forceActiveFocus();
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);
    CHECK(params->params().get(ParamId::SeparationWeight) == Approx(before + 1.0));
    QTest::keyClick(f.window, Qt::Key_Escape);

    // A route's band box: the editor's undo.
    f.window->setProperty("panelTab", 2);
    REQUIRE(f.editor->routes()->setField(0, "source", "band"));
    auto* band = f.find("routeBand_0");
    REQUIRE(band);
    REQUIRE(EditorFixture::waitFor([&] { return band->isVisible(); }));
    textOf(band)->forceActiveFocus();
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);  // the band source
    QTest::keyClick(f.window, Qt::Key_Z, Qt::ControlModifier);  // the separation
    CHECK(params->params().get(ParamId::SeparationWeight) == Approx(before));
}

TEST_CASE("a decimal comma in a whole-number box leaves the value as it was, not read as a thousands separator") {
    // "2,5" seconds in the export's Length became 25.
    EditorFixture f;
    QQuickItem* box = fishCountBox(f);
    QQuickItem* text = textInputOf(box);
    const int before = f.editor->fishCount();
    f.typeInto(text, "2,5");
    QTest::keyClick(f.window, Qt::Key_Return);
    QTest::qWait(300);
    CHECK(f.editor->fishCount() == before);
    CHECK(box->property("displayText").toString() == QString::number(before));
    f.typeInto(text, "1,250");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(EditorFixture::waitFor([&] { return f.editor->fishCount() == 1250; }, 5000));
}

TEST_CASE("a number past a whole-number box's range is its limit, however many digits it has") {
    // Typed past 2^31, it wrapped round: 3000000000 fish were 1, 4294967396 were 100.
    EditorFixture f;
    QQuickItem* fish = fishCountBox(f);
    const int most = fish->property("to").toInt();
    for (const auto& [typed, count] : {std::pair{"3000000000", most}, {"4294967396", most}, {"1000", 1000},
                                       {"9999999999999999", most}}) {
        INFO(typed);
        f.typeInto(textInputOf(fish), typed);
        QTest::keyClick(f.window, Qt::Key_Return);
        CHECK(EditorFixture::waitFor([&, n = count] { return f.editor->fishCount() == n; }, 5000));
    }
    f.window->setProperty("panelTab", 1);
    QQuickItem* morph = nullptr;
    REQUIRE(EditorFixture::waitFor([&] { return (morph = f.find("presetMorphSeconds")) && morph->isVisible(); }));
    f.typeInto(textInputOf(morph), "4294967297");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(morph->property("value").toInt() == morph->property("to").toInt());
}

TEST_CASE("a decimal point in a whole-number box rounds the number typed, and a point grouping thousands groups them") {
    // The point was dropped as it was typed: 0.5 s of morph or warm-up was 5.
    EditorFixture f;
    QQuickItem* fish = fishCountBox(f);
    f.typeInto(textInputOf(fish), "12.4");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(EditorFixture::waitFor([&] { return f.editor->fishCount() == 12; }, 5000));
    // Grouping: one kind of separator, never after a leading 0.
    for (const auto& typedAndCount : {std::pair{"2.000", 2000}, {"0.500", 1}, {"1,234.6", 1235}, {"12 345", 12345}}) {
        INFO(typedAndCount.first);
        f.typeInto(textInputOf(fish), typedAndCount.first);
        QTest::keyClick(f.window, Qt::Key_Return);
        CHECK(EditorFixture::waitFor([&] { return f.editor->fishCount() == typedAndCount.second; }, 5000));
    }
    f.window->setProperty("panelTab", 1);
    QQuickItem* morph = nullptr;
    REQUIRE(EditorFixture::waitFor([&] { return (morph = f.find("presetMorphSeconds")) && morph->isVisible(); }));
    // A decimal comma is unclear (thousands?): the value stays as it was.
    // Nor in a box of seconds: "1.500" s of warm-up was 25 minutes. Of frames it groups.
    QTest::keyClick(f.window, Qt::Key_E, Qt::ControlModifier);
    QQuickItem* warmup = f.find("exportWarmup");
    QQuickItem* length = f.find("exportLength");
    REQUIRE((warmup && length));
    REQUIRE(EditorFixture::waitFor([&] { return warmup->isVisible(); }));
    for (const auto& boxTypedValue : {std::tuple{warmup, "1.500", 2}, {length, "2.500", 3}}) {
        f.typeInto(textInputOf(std::get<0>(boxTypedValue)), std::get<1>(boxTypedValue));
        QTest::keyClick(f.window, Qt::Key_Tab);
        CHECK(EditorFixture::waitFor([&] { return std::get<0>(boxTypedValue)->property("value").toInt() == std::get<2>(boxTypedValue); }));
    }
    f.find("exportUnit")->setProperty("currentIndex", 1);  // frames
    f.typeInto(textInputOf(length), "2.500");
    QTest::keyClick(f.window, Qt::Key_Tab);
    CHECK(EditorFixture::waitFor([&] { return length->property("value").toInt() == 2500; }));
    QTest::keyClick(f.window, Qt::Key_Escape);
    // In a box of less than a thousand, a point is no grouping: "1.500" s is 2 s.
    for (const auto& [typed, seconds] : {std::pair{"0.5", 1}, {"2,4 s", 1}, {".4", 0}, {"7.", 7}, {"1,000 s", 120},
                                         {"0.500", 1}, {"1.500 s", 2}, {"0,500", 2}}) {
        INFO(typed);
        f.typeInto(textInputOf(morph), typed);
        QTest::keyClick(f.window, Qt::Key_Return);
        CHECK(morph->property("value").toInt() == seconds);
    }
}

TEST_CASE("the fish box's arrows step by half the power of ten below the count, 1000 included") {
    // log(1000) / LN10 is 2.9999…: at 1000 the arrows stepped by 50.
    EditorFixture f;
    QQuickItem* box = fishCountBox(f);
    for (const auto& pair : {std::pair{7, 1}, {100, 50}, {999, 50}, {1000, 500}, {10'000, 5000}}) {
        const int count = pair.first;
        INFO(count << " fish");
        f.editor->setFishCount(count);
        REQUIRE(EditorFixture::waitFor([&] { return box->property("value").toInt() == count; }));
        CHECK(box->property("stepSize").toInt() == pair.second);
    }
}

TEST_CASE("at the window's smallest size every line of the help can be scrolled into view") {
    EditorFixture f(cli::kDefaultPreset, 800, 500);
    QTest::keyClick(f.window, Qt::Key_F1);
    auto* scroll = f.find("helpScroll");
    REQUIRE(scroll);
    REQUIRE(EditorFixture::waitFor([&] { return scroll->isVisible(); }));
    auto* content = scroll->property("contentItem").value<QQuickItem*>();
    REQUIRE(content);
    const double contentHeight = scroll->property("contentHeight").toDouble();
    CHECK(contentHeight > scroll->height());  // it does not fit: it scrolls
    int lines = 0;
    for (QQuickItem* item : selfAndDescendants(content)) {
        if (!item->inherits("QQuickText")) continue;
        ++lines;
        const QRectF r = item->mapRectToItem(content, QRectF(0, 0, item->width(), item->height()));
        INFO(item->property("text").toString().toStdString());
        CHECK(r.top() >= 0);
        CHECK(r.bottom() <= contentHeight);
    }
    CHECK(lines > 50);
    // Its bar shows that there is more before any scrolling: the last lines
    // were out of sight with no sign of them.
    auto* bar = f.find("helpScrollBar");
    REQUIRE(bar);
    auto* handle = bar->property("contentItem").value<QQuickItem*>();
    REQUIRE(handle);
    CHECK(EditorFixture::waitFor([&] { return bar->isVisible() && handle->opacity() > 0.5; }));
    // The wheel scrolls it.
    const QPointF middle = scroll->mapToScene(QPointF(scroll->width() / 2, scroll->height() / 2));
    QWheelEvent wheel(middle, f.window->mapToGlobal(middle), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(f.window, &wheel);
    CHECK(EditorFixture::waitFor([&] { return scroll->property("contentY").toDouble() > 0; }));
}

TEST_CASE("falling behind with quick steps blames the busy machine, not the fish count") {
    // A step of 0.03 ms, 0.2 % of real time, was told "fewer fish or a
    // smaller perception radius would keep up".
    CHECK_FALSE(editor::stepsTooSlow(0.03));
    CHECK_FALSE(editor::stepsTooSlow(8.0));  // 48 % of real time
    CHECK(editor::stepsTooSlow(8.4));        // 50 %
    CHECK(editor::stepsTooSlow(40.0));
    CHECK(editor::stepShareOfRealTime(1000.0 / 60.0) == Approx(1.0));
}

TEST_CASE("the neighbour count is coloured healthy exactly when the figure shown lies in 5.0 to 8.0") {
    // 4.96 showed as "5.0" in the out-of-range colour.
    CHECK(editor::neighboursHealthy(4.96));
    CHECK(editor::neighboursHealthy(8.04));
    CHECK(editor::neighboursHealthy(6.5));
    CHECK_FALSE(editor::neighboursHealthy(4.94));
    CHECK_FALSE(editor::neighboursHealthy(8.06));
}

TEST_CASE("with the help shown, the pointer over the side panel shows no parameter tip and the wheel does not scroll it") {
    // The tips drew over the help's lines, and the wheel scrolled the panel unseen.
    EditorFixture f;
    auto* list = f.find("paramList");
    REQUIRE(list);
    QTest::keyClick(f.window, Qt::Key_F1);
    REQUIRE(EditorFixture::waitFor([&] { return f.find("helpScroll")->isVisible(); }));
    const QPoint over = list->mapToScene(QPointF(list->width() / 2, 60)).toPoint();
    QTest::mouseMove(f.window, over - QPoint(5, 5));
    QTest::mouseMove(f.window, over);
    QTest::qWait(100);
    // A row's tip shows while its hover handler says hovered.
    bool rowHovered = false;
    for (QQuickItem* item : selfAndDescendants(list))
        for (QObject* handler : item->findChildren<QObject*>(QString(), Qt::FindDirectChildrenOnly))
            rowHovered = rowHovered || (handler->inherits("QQuickHoverHandler") && handler->property("hovered").toBool());
    CHECK_FALSE(rowHovered);

    const double before = list->property("contentY").toDouble();
    for (int i = 0; i < 6; ++i) {
        QWheelEvent wheel(QPointF(over), f.window->mapToGlobal(QPointF(over)), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(f.window, &wheel);
    }
    QTest::qWait(500);
    CHECK(list->property("contentY").toDouble() == before);
    QTest::keyClick(f.window, Qt::Key_F1);
}

TEST_CASE("a click on the stats panel over the view places nothing under it") {
    // The panel let clicks through: a predator appeared hidden under it.
    EditorFixture f;
    auto* stats = f.find("statsColumn");
    REQUIRE(stats);
    REQUIRE(EditorFixture::waitFor([&] { return stats->isVisible(); }));
    f.editor->setTool(editor::Editor::PlacePredator);
    const auto predators = [&] { return f.editor->host().stats().predators.size(); };
    const std::size_t before = predators();
    QTest::mouseClick(f.window, Qt::LeftButton, {}, stats->mapToScene(QPointF(stats->width() / 2, 10)).toPoint());
    QTest::qWait(300);
    CHECK(predators() == before);
    // Beside the panel, on the view, the click places one.
    QTest::mouseClick(f.window, Qt::LeftButton, {},
                      stats->mapToScene(QPointF(stats->width() + 200, stats->height() + 100)).toPoint());
    CHECK(EditorFixture::waitFor([&] { return predators() == before + 1; }));
}

TEST_CASE("a number confirmed with Return gives the keys back to the school") {
    // The field kept them: "3" for the obstacle tool was typed after the
    // count, and the next click on the view committed 15003 fish.
    EditorFixture f;
    QQuickItem* box = fishCountBox(f);
    QQuickItem* text = textInputOf(box);
    f.typeInto(text, "1500");
    QTest::keyClick(f.window, Qt::Key_Return);
    REQUIRE(EditorFixture::waitFor([&] { return f.editor->fishCount() == 1500; }, 5000));
    QTest::keyClick(f.window, Qt::Key_3);
    CHECK(f.editor->tool() == editor::Editor::PlaceObstacle);
    QTest::qWait(300);
    CHECK(box->property("displayText").toString() == "1500");

    auto* field = f.find("field_maxSpeed");
    REQUIRE(field);
    const bool paused = f.editor->paused();
    f.typeInto(field, "150");
    QTest::keyClick(f.window, Qt::Key_Return);
    CHECK(f.editor->params()->params().get(ParamId::MaxSpeed) == Approx(150));
    QTest::keyClick(f.window, Qt::Key_Space);
    CHECK(EditorFixture::waitFor([&] { return f.editor->paused() != paused; }));
    CHECK(field->property("text").toString() == "150");
    CHECK(f.editor->fishCount() == 1500);
}
