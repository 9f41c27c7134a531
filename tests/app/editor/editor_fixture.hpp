#pragma once
// The editor as a user gets it: the real Main.qml in a window under Xvfb
// (xcb, llvmpipe), the real Editor over its simulation thread, and a
// temporary folder for the user's presets.
#include <QGuiApplication>
#include <QStyleHints>
#include <QImage>
#include <QQmlApplicationEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QTest>
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <string>

#include "cli/preset_paths.hpp"
#include "editor.hpp"
#include "support/sim_fixtures.hpp"

namespace mirofish::test {

class EditorFixture {
public:
    // FullScreen: shown as `edit --fullscreen` shows it, fullscreen from the start.
    enum class Start { Windowed, FullScreen };
    explicit EditorFixture(const std::string& presetId = cli::kDefaultPreset, int width = 1280, int height = 720,
                           Start start = Start::Windowed) {
        const auto file = resolvePreset(presetId, cli::presetDirectories());
        if (!file) throw std::runtime_error("no preset " + presetId);
        editor = std::make_unique<editor::Editor>(loadPreset(*file), *file, false, cli::presetDirectories(),
                                                  userDir.path());
        editor::Editor::setInstance(editor.get());
        engine = std::make_unique<QQmlApplicationEngine>();
        engine->load(QUrl(QStringLiteral("qrc:/MiroFish/Main.qml")));
        if (engine->rootObjects().isEmpty()) throw std::runtime_error("Main.qml did not load");
        window = qobject_cast<QQuickWindow*>(engine->rootObjects().front());
        window->resize(width, height);
        if (start == Start::FullScreen) window->showFullScreen();
        else window->show();
        if (!QTest::qWaitForWindowExposed(window)) throw std::runtime_error("the window was never exposed");
        // Shortcuts only reach the active window.
        window->requestActivate();
        if (!QTest::qWaitForWindowActive(window)) throw std::runtime_error("the window never became active");
    }
    ~EditorFixture() {
        engine.reset();  // the QML goes before the editor it binds to
        editor::Editor::setInstance(nullptr);
    }

    // An item by objectName, searched through the visual tree (delegates of
    // views are not QObject children of the window).
    QQuickItem* find(const char* objectName) const { return findIn(window->contentItem(), QString::fromLatin1(objectName)); }

    // Waits (processing events) until pred() holds; false after `ms`.
    template <typename Pred>
    static bool waitFor(Pred pred, int ms = 5000) {
        return QTest::qWaitFor(pred, ms);
    }

    // Simulation steps taken so far (as the simulation thread reports them).
    std::uint64_t step() const { return editor->host().stats().step; }

    QImage grab() const { return window->grabWindow(); }

    // Types `text` into a text field over what it held, as from the keyboard.
    void typeInto(QQuickItem* field, const char* text) const {
        field->forceActiveFocus();
        QMetaObject::invokeMethod(field, "selectAll");
        for (const char* c = text; *c; ++c) QTest::keyClick(window, *c);
    }

    // A dialog's button by its text, once the dialog has laid its buttons out
    // (a change of its standard buttons leaves the old ones behind, unparented,
    // until they are deleted); null if it has none.
    static QQuickItem* dialogButton(QObject* dialog, const QString& text) {
        for (QQuickItem* item : dialog->findChildren<QQuickItem*>())
            if (item->inherits("QQuickAbstractButton") && item->parentItem() && item->isVisible() &&
                item->property("text").toString() == text)
                return item;
        return nullptr;
    }

    // Clicks a dialog's button, as a user does, once it is laid out.
    // Once it can be clicked: laid out, and enabled (a question's Yes waits
    // out a double click).
    void clickDialogButton(QObject* dialog, const QString& text) const {
        QQuickItem* button = nullptr;
        const auto laidOut = [&] {
            button = dialogButton(dialog, text);
            if (!button || button->width() <= 0 || !button->isEnabled()) return false;
            for (QQuickItem* other : button->parentItem()->childItems())
                if (other != button && other->inherits("QQuickAbstractButton") && other->x() == button->x()) return false;
            return true;
        };
        REQUIRE(waitFor(laidOut));
        QTest::mouseClick(window, Qt::LeftButton, {},
                          button->mapToScene(QPointF(button->width() / 2, button->height() / 2)).toPoint());
    }

    // Clicks the item named `objectName` near its top left corner, as a user does.
    void clickItem(const char* objectName) const {
        QQuickItem* item = find(objectName);
        REQUIRE(item);
        QTest::mouseClick(window, Qt::LeftButton, {}, item->mapToScene(QPointF(10, 10)).toPoint());
    }

    // A click of the pointer at a place of the world, as the view passes it
    // on with the world shown at `viewScale` view px per world px.
    void clickWorld(QPointF world, Qt::MouseButton button, double viewScale = 1.0) const {
        editor->pointerPressed(world, {}, button, viewScale);
        editor->pointerReleased(world, {}, viewScale);
    }

    // Clicks the tool bar's (or any visible) button showing `text`.
    void clickButton(const QString& text) const {
        QQuickItem* found = nullptr;
        const std::function<void(QQuickItem*)> look = [&](QQuickItem* item) {
            if (item->inherits("QQuickAbstractButton") && item->isVisible() && item->property("text").toString() == text)
                found = item;
            for (QQuickItem* child : item->childItems()) look(child);
        };
        look(window->contentItem());
        REQUIRE(found);
        QTest::mouseClick(window, Qt::LeftButton, {},
                          found->mapToScene(QPointF(found->width() / 2, found->height() / 2)).toPoint());
    }

    TempDir userDir;

private:
    static QQuickItem* findIn(QQuickItem* item, const QString& name) {
        if (item->objectName() == name) return item;
        for (QQuickItem* child : item->childItems())
            if (QQuickItem* found = findIn(child, name)) return found;
        return nullptr;
    }

public:
    std::unique_ptr<editor::Editor> editor;
    std::unique_ptr<QQmlApplicationEngine> engine;
    QQuickWindow* window = nullptr;
};

}  // namespace mirofish::test
