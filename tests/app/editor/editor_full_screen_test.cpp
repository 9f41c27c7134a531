// Fullscreen (F11, --fullscreen) on X11 with and without a window manager
// that does it. The tests' Xvfb runs none, as a bare X session on a
// performance machine: the window itself has to cover the screen.
#include <QScreen>
#include <QtGui/qguiapplication_platform.h>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <xcb/xcb.h>

#include "editor_fixture.hpp"

using namespace mirofish;
using namespace mirofish::test;

namespace {
// The root window's hints of a window manager that does fullscreen (EWMH),
// with no window manager behind them, for as long as it lives. A stopped one
// leaves them naming its check window, which is gone.
class PretendWindowManager {
public:
    enum class State { Running, Stopped };
    explicit PretendWindowManager(State state)
        : c_(qGuiApp->nativeInterface<QNativeInterface::QX11Application>()->connection()),
          root_(xcb_setup_roots_iterator(xcb_get_setup(c_)).data->root),
          check_(xcb_generate_id(c_)),
          state_(state) {
        xcb_create_window(c_, XCB_COPY_FROM_PARENT, check_, root_, -1, -1, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY,
                          XCB_COPY_FROM_PARENT, 0, nullptr);
        for (xcb_window_t w : {root_, check_})
            xcb_change_property(c_, XCB_PROP_MODE_REPLACE, w, atom("_NET_SUPPORTING_WM_CHECK"), XCB_ATOM_WINDOW, 32, 1,
                                &check_);
        const xcb_atom_t supported[] = {atom("_NET_WM_STATE"), atom("_NET_WM_STATE_FULLSCREEN")};
        xcb_change_property(c_, XCB_PROP_MODE_REPLACE, root_, atom("_NET_SUPPORTED"), XCB_ATOM_ATOM, 32, 2, supported);
        if (state == State::Stopped) xcb_destroy_window(c_, check_);
        xcb_flush(c_);
    }
    ~PretendWindowManager() {
        xcb_delete_property(c_, root_, atom("_NET_SUPPORTING_WM_CHECK"));
        xcb_delete_property(c_, root_, atom("_NET_SUPPORTED"));
        if (state_ == State::Running) xcb_destroy_window(c_, check_);
        xcb_flush(c_);
    }
    PretendWindowManager(const PretendWindowManager&) = delete;
    PretendWindowManager& operator=(const PretendWindowManager&) = delete;

private:
    xcb_atom_t atom(const char* name) const {
        xcb_intern_atom_reply_t* r =
            xcb_intern_atom_reply(c_, xcb_intern_atom(c_, 0, static_cast<std::uint16_t>(std::strlen(name)), name), nullptr);
        const xcb_atom_t a = r->atom;
        std::free(r);
        return a;
    }
    xcb_connection_t* c_;
    xcb_window_t root_;
    xcb_window_t check_;
    State state_;
};
}  // namespace

TEST_CASE("F11 fills the screen without a window manager, and F11 again gives the window its size back") {
    EditorFixture f;
    const QRect before = f.window->geometry();
    const QRect screen = f.window->screen()->geometry();
    REQUIRE(before.size() != screen.size());
    auto* canvas = f.find("fishView");
    REQUIRE(canvas);
    const double canvasWidth = canvas->width();
    for (int round = 0; round < 2; ++round) {
        INFO("round " << round);
        QTest::keyClick(f.window, Qt::Key_F11);
        CHECK(f.window->visibility() == QWindow::FullScreen);
        CHECK(EditorFixture::waitFor([&] { return f.window->geometry() == screen; }));
        CHECK(EditorFixture::waitFor([&] { return canvas->width() == canvasWidth + screen.width() - before.width(); }));
        QTest::keyClick(f.window, Qt::Key_F11);
        CHECK(f.window->visibility() == QWindow::Windowed);
        CHECK(EditorFixture::waitFor([&] { return f.window->geometry() == before; }));
        CHECK(EditorFixture::waitFor([&] { return canvas->width() == canvasWidth; }));
    }
}

TEST_CASE("started fullscreen without a window manager, the first F11 or Escape gives the window its size back") {
    for (const Qt::Key leave : {Qt::Key_F11, Qt::Key_Escape}) {
        INFO(QTest::toString(leave));
        EditorFixture f(cli::kDefaultPreset, 1280, 720, EditorFixture::Start::FullScreen);
        const QRect screen = f.window->screen()->geometry();
        REQUIRE(EditorFixture::waitFor([&] { return f.window->geometry() == screen; }));
        // Qt reports the fullscreen state once more after the window appears.
        QTest::qWait(300);
        QTest::keyClick(f.window, leave);
        // Escape asks the simulation thread first whether a fish is selected:
        // under load its answer took longer than a look straight after the key.
        CHECK(EditorFixture::waitFor([&] { return f.window->visibility() == QWindow::Windowed; }));
        CHECK(EditorFixture::waitFor([&] { return f.window->geometry().size() == QSize(1280, 720); }));
    }
}

TEST_CASE("a maximised window leaves fullscreen maximised again, by F11 or by Escape") {
    EditorFixture f;
    f.window->showMaximized();
    REQUIRE(EditorFixture::waitFor([&] { return f.window->visibility() == QWindow::Maximized; }));
    for (const Qt::Key leave : {Qt::Key_F11, Qt::Key_Escape}) {
        QTest::keyClick(f.window, Qt::Key_F11);
        CHECK(f.window->visibility() == QWindow::FullScreen);
        QTest::keyClick(f.window, leave);
        CHECK(EditorFixture::waitFor([&] { return f.window->visibility() == QWindow::Maximized; }));
    }
    f.window->showNormal();
    REQUIRE(EditorFixture::waitFor([&] { return f.window->visibility() == QWindow::Windowed; }));
    QTest::keyClick(f.window, Qt::Key_F11);
    QTest::keyClick(f.window, Qt::Key_F11);
    CHECK(f.window->visibility() == QWindow::Windowed);
}

TEST_CASE("in fullscreen Escape first lets the selected fish go and then leaves fullscreen") {
    EditorFixture f;
    QTest::keyClick(f.window, Qt::Key_F11);
    REQUIRE(f.window->visibility() == QWindow::FullScreen);
    // Escape at once, before the window's copy of the selection (a quarter
    // second old) shows the fish.
    f.editor->selectFish(4);
    QTest::keyClick(f.window, Qt::Key_Escape);
    QTest::qWait(600);
    CHECK(f.editor->selectedFish().isEmpty());
    CHECK(f.window->visibility() == QWindow::FullScreen);
    QTest::keyClick(f.window, Qt::Key_Escape);
    CHECK(EditorFixture::waitFor([&] { return f.window->visibility() == QWindow::Windowed; }));
    // Windowed, Escape lets go of a fish just selected, too.
    f.editor->selectFish(5);
    QTest::keyClick(f.window, Qt::Key_Escape);
    QTest::qWait(600);
    CHECK(f.editor->selectedFish().isEmpty());
}

TEST_CASE("a window manager that says it does fullscreen is left to size the window itself") {
    EditorFixture f;
    const PretendWindowManager wm(PretendWindowManager::State::Running);
    const QRect before = f.window->geometry();
    QTest::keyClick(f.window, Qt::Key_F11);
    CHECK(f.window->visibility() == QWindow::FullScreen);
    // Nobody resizes it here: the window manager would have.
    QTest::qWait(500);
    CHECK(f.window->geometry() == before);
    QTest::keyClick(f.window, Qt::Key_F11);
    CHECK(f.window->visibility() == QWindow::Windowed);
    QTest::qWait(200);
    CHECK(f.window->geometry() == before);
}

TEST_CASE("the hints a stopped window manager left behind do not keep the window from covering the screen") {
    EditorFixture f;
    const PretendWindowManager wm(PretendWindowManager::State::Stopped);
    QTest::keyClick(f.window, Qt::Key_F11);
    CHECK(EditorFixture::waitFor([&] { return f.window->geometry() == f.window->screen()->geometry(); }));
}

TEST_CASE("on a stage, full screen with the panel hidden and every overlay off, a confirmation is not drawn over the school, an error is") {
    // Each PgDown put "Morphing to ..." across the bottom of the projected view.
    EditorFixture f(cli::kDefaultPreset, 1280, 720, EditorFixture::Start::FullScreen);
    auto* banner = f.find("messageBanner");
    REQUIRE(banner);
    f.window->setProperty("panelVisible", false);
    for (const auto off : {&editor::Editor::setShowNeighbours, &editor::Editor::setShowForces, &editor::Editor::setShowVision,
                           &editor::Editor::setShowGrid, &editor::Editor::setShowStats})
        (f.editor.get()->*off)(false);
    f.editor->showMessage("Morphing to Highly parallel over 5 s", false);
    QTest::qWait(100);
    CHECK_FALSE(banner->isVisible());
    // The stats back on: a designer at work, who wants to see it.
    f.editor->setShowStats(true);
    CHECK(EditorFixture::waitFor([&] { return banner->isVisible(); }));
    f.editor->setShowStats(false);
    CHECK(EditorFixture::waitFor([&] { return !banner->isVisible(); }));
    // So with the panel shown: "Saved ..." after Ctrl+S there is not lost.
    f.window->setProperty("panelVisible", true);
    CHECK(EditorFixture::waitFor([&] { return banner->isVisible(); }));
    f.window->setProperty("panelVisible", false);
    CHECK(EditorFixture::waitFor([&] { return !banner->isVisible(); }));
    f.editor->showMessage("could not read the preset", true);
    CHECK(EditorFixture::waitFor([&] { return banner->isVisible(); }));
    // In a window, the same confirmation shows.
    f.editor->clearMessage();
    QTest::keyClick(f.window, Qt::Key_F11);
    REQUIRE(EditorFixture::waitFor([&] { return f.window->visibility() == QWindow::Windowed; }));
    f.editor->showMessage("Morphing to Highly parallel over 5 s", false);
    CHECK(EditorFixture::waitFor([&] { return banner->isVisible(); }));
}
