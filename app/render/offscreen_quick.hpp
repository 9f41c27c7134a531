#pragma once
// A Qt Quick scene rendered offscreen at any size: QQuickRenderControl into
// an OpenGL framebuffer, read back as an image. Not real time: each
// renderFrame() renders exactly one frame when asked. Needs an X display
// (xcb), like the window. GUI thread only.
#include <QImage>
#include <QSize>
#include <QUrl>
#include <QVariantMap>
#include <memory>
#include <stdexcept>

class QOffscreenSurface;
class QOpenGLContext;
class QOpenGLFramebufferObject;
class QQmlComponent;
class QQmlEngine;
class QQuickItem;
class QQuickRenderControl;
class QQuickWindow;

namespace mirofish::render {

struct RenderError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class OffscreenQuick {
public:
    // Loads `scene` (a QML Item) at `size` px; `transparent`: the background
    // is alpha 0 instead of the editor's water colour. Throws RenderError.
    OffscreenQuick(const QUrl& scene, QSize size, bool transparent, const QVariantMap& properties = {});
    ~OffscreenQuick();
    OffscreenQuick(const OffscreenQuick&) = delete;
    OffscreenQuick& operator=(const OffscreenQuick&) = delete;

    QQuickItem* root() const { return root_; }
    QSize size() const { return size_; }

    // Renders one frame and waits until it is drawn.
    void render();
    // Reads the last frame into `image` (RGBA8888 premultiplied, top row
    // first; reallocated only when the size changes).
    void readBack(QImage& image);

private:
    QSize size_;
    std::unique_ptr<QOpenGLContext> context_;
    std::unique_ptr<QOffscreenSurface> surface_;
    std::unique_ptr<QQuickRenderControl> control_;
    std::unique_ptr<QQuickWindow> window_;
    std::unique_ptr<QOpenGLFramebufferObject> fbo_;
    std::unique_ptr<QQmlEngine> engine_;
    std::unique_ptr<QQmlComponent> component_;
    QQuickItem* root_ = nullptr;
};

}  // namespace mirofish::render
