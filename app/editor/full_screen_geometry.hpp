#pragma once
// Fullscreen where no window manager does it. Under X11 a window going
// fullscreen asks the window manager to cover the screen with it
// (_NET_WM_STATE_FULLSCREEN); without one (a bare X session on a performance
// machine, Xvfb) Qt changes the window's state and nothing else, and the
// window stays at its size in a corner of the screen. Where no running
// window manager says it does fullscreen, this gives the window its screen's
// geometry when it goes fullscreen, and its last geometry in the normal state
// back when it leaves. A window manager that does is left alone: setting the
// geometry beside it confused Openbox, whose next F11 then did nothing.
#include <QObject>
#include <QPointer>
#include <QRect>
#include <QQuickWindow>
#include <QtQml/qqmlregistration.h>

namespace mirofish::editor {

class FullScreenGeometry : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QQuickWindow* window READ window WRITE setWindow NOTIFY windowChanged)

public:
    explicit FullScreenGeometry(QObject* parent = nullptr) : QObject(parent) {}

    QQuickWindow* window() const { return window_; }
    void setWindow(QQuickWindow* window);

signals:
    void windowChanged();

private:
    void rememberNormalGeometry();
    void follow(Qt::WindowState state);

    QPointer<QQuickWindow> window_;
    QRect normalGeometry_;
    Qt::WindowState state_ = Qt::WindowNoState;
    bool coveredByUs_ = false;  // the window has the screen's geometry from follow()
};

}  // namespace mirofish::editor
