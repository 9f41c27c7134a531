#include "full_screen_geometry.hpp"

#include <QGuiApplication>
#include <QScreen>
#include <QtGui/qguiapplication_platform.h>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <xcb/xcb.h>

namespace mirofish::editor {

namespace {
template <typename Reply>
using XcbReply = std::unique_ptr<Reply, decltype(&std::free)>;

xcb_atom_t atomNamed(xcb_connection_t* c, const char* name) {
    const XcbReply<xcb_intern_atom_reply_t> r(
        xcb_intern_atom_reply(c, xcb_intern_atom(c, 1, static_cast<std::uint16_t>(std::strlen(name)), name), nullptr),
        &std::free);
    return r ? r->atom : static_cast<xcb_atom_t>(XCB_ATOM_NONE);
}

XcbReply<xcb_get_property_reply_t> property(xcb_connection_t* c, xcb_window_t window, xcb_atom_t name, xcb_atom_t type,
                                            std::uint32_t longs) {
    return {xcb_get_property_reply(c, xcb_get_property(c, 0, window, name, type, 0, longs), nullptr), &std::free};
}

std::optional<xcb_window_t> windowIn(xcb_connection_t* c, xcb_window_t window, xcb_atom_t name) {
    const auto r = property(c, window, name, XCB_ATOM_WINDOW, 1);
    if (!r || r->format != 32 || xcb_get_property_value_length(r.get()) < 4) return std::nullopt;
    return *static_cast<const xcb_window_t*>(xcb_get_property_value(r.get()));
}

// Whether a window manager runs and does fullscreen, by the freedesktop
// window manager spec (EWMH): the root's _NET_SUPPORTING_WM_CHECK names a
// window that names itself (a window manager that died leaves a name of a
// window that is gone), and the root's _NET_SUPPORTED lists
// _NET_WM_STATE_FULLSCREEN. Asked at each change, so a window manager started
// after the editor counts. On the first X screen's root: Xinerama and RandR
// show all monitors as one X screen, and a window manager sets its hints on
// the root of every screen it manages.
bool windowManagerDoesFullScreen() {
    const auto* x11 = qGuiApp->nativeInterface<QNativeInterface::QX11Application>();
    if (x11 == nullptr) return true;
    xcb_connection_t* c = x11->connection();
    xcb_screen_iterator_t roots = xcb_setup_roots_iterator(xcb_get_setup(c));
    if (roots.rem == 0) return true;
    const xcb_window_t root = roots.data->root;
    const xcb_atom_t check = atomNamed(c, "_NET_SUPPORTING_WM_CHECK");
    const xcb_atom_t fullScreen = atomNamed(c, "_NET_WM_STATE_FULLSCREEN");
    if (check == XCB_ATOM_NONE || fullScreen == XCB_ATOM_NONE) return false;
    const std::optional<xcb_window_t> wm = windowIn(c, root, check);
    if (!wm || windowIn(c, *wm, check) != wm) return false;
    const auto supported = property(c, root, atomNamed(c, "_NET_SUPPORTED"), XCB_ATOM_ATOM, 4096);
    if (!supported || supported->format != 32) return false;
    const auto* atoms = static_cast<const xcb_atom_t*>(xcb_get_property_value(supported.get()));
    const int count = xcb_get_property_value_length(supported.get()) / 4;
    return std::find(atoms, atoms + count, fullScreen) != atoms + count;
}
}  // namespace

void FullScreenGeometry::setWindow(QQuickWindow* window) {
    if (window == window_) return;
    if (window_) disconnect(window_, nullptr, this, nullptr);
    window_ = window;
    coveredByUs_ = false;
    // Other platforms (Wayland, Windows, macOS) size a fullscreen window themselves.
    if (window_ && QGuiApplication::platformName() == QLatin1String("xcb")) {
        state_ = window_->windowState();
        rememberNormalGeometry();
        for (auto changed : {&QWindow::xChanged, &QWindow::yChanged, &QWindow::widthChanged, &QWindow::heightChanged})
            connect(window_, changed, this, &FullScreenGeometry::rememberNormalGeometry);
        connect(window_, &QWindow::windowStateChanged, this, &FullScreenGeometry::follow);
    }
    emit windowChanged();
}

// Only in the normal state: the fullscreen or maximised geometry is not the
// one to go back to.
void FullScreenGeometry::rememberNormalGeometry() {
    if (window_->windowState() == Qt::WindowNoState) normalGeometry_ = window_->geometry();
}

void FullScreenGeometry::follow(Qt::WindowState state) {
    const Qt::WindowState before = state_;
    state_ = state;
    // Shown fullscreen from the start, the window hears that state twice (the
    // second time once it is on screen): the repeat is no change of state.
    if (state == before) return;
    if (state == Qt::WindowFullScreen && before != Qt::WindowFullScreen) {
        const QScreen* screen = window_->screen();
        if (screen == nullptr || windowManagerDoesFullScreen()) return;
        coveredByUs_ = true;
        window_->setGeometry(screen->geometry());
    } else if (before == Qt::WindowFullScreen && coveredByUs_) {
        coveredByUs_ = false;
        if (state == Qt::WindowNoState && normalGeometry_.isValid()) window_->setGeometry(normalGeometry_);
    }
}

}  // namespace mirofish::editor
