#include "offscreen_quick.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLFunctions>
#include <QQmlComponent>
#include <QQmlEngine>
#include <QQuickGraphicsDevice>
#include <QQuickItem>
#include <QQuickRenderControl>
#include <QQuickRenderTarget>
#include <QQuickWindow>

namespace mirofish::render {

namespace {
// The editor window's water.
const QColor kWater(0x0b, 0x16, 0x22);
}  // namespace

OffscreenQuick::OffscreenQuick(const QUrl& scene, QSize size, bool transparent, const QVariantMap& properties)
    : size_(size) {
    QQuickWindow::setGraphicsApi(QSGRendererInterface::OpenGL);
    context_ = std::make_unique<QOpenGLContext>();
    if (!context_->create()) throw RenderError("could not create an OpenGL context (is there an X display?)");
    surface_ = std::make_unique<QOffscreenSurface>();
    surface_->setFormat(context_->format());
    surface_->create();
    if (!context_->makeCurrent(surface_.get())) throw RenderError("could not make the OpenGL context current");

    GLint maxSize = 0;
    context_->functions()->glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
    if (size.width() > maxSize || size.height() > maxSize)
        throw RenderError("the size " + std::to_string(size.width()) + "x" + std::to_string(size.height()) +
                          " is beyond this OpenGL's largest texture (" + std::to_string(maxSize) + " px a side)");

    control_ = std::make_unique<QQuickRenderControl>();
    window_ = std::make_unique<QQuickWindow>(control_.get());
    window_->setColor(transparent ? QColor(Qt::transparent) : kWater);
    window_->setGraphicsDevice(QQuickGraphicsDevice::fromOpenGLContext(context_.get()));
    if (!control_->initialize()) throw RenderError("could not initialise Qt Quick's offscreen renderer");

    // Only the colour texture: Qt Quick brings its own depth-stencil buffer for it.
    fbo_ = std::make_unique<QOpenGLFramebufferObject>(size, QOpenGLFramebufferObject::NoAttachment);
    if (!fbo_->isValid()) throw RenderError("could not create the offscreen framebuffer");
    window_->setRenderTarget(QQuickRenderTarget::fromOpenGLTexture(fbo_->texture(), size));
    window_->setGeometry(0, 0, size.width(), size.height());
    window_->contentItem()->setSize(size);

    engine_ = std::make_unique<QQmlEngine>();
    component_ = std::make_unique<QQmlComponent>(engine_.get(), scene);
    if (component_->isError()) throw RenderError("the export scene failed to load: " + component_->errorString().toStdString());
    QObject* object = component_->createWithInitialProperties(properties);
    root_ = qobject_cast<QQuickItem*>(object);
    if (!root_) {
        delete object;
        throw RenderError("the export scene failed to load: " + component_->errorString().toStdString());
    }
    root_->setParentItem(window_->contentItem());
    root_->setSize(size);
}

OffscreenQuick::~OffscreenQuick() {
    // The scene graph's GL resources go while the context is current.
    context_->makeCurrent(surface_.get());
    delete root_;
    component_.reset();
    engine_.reset();
    window_.reset();
    control_.reset();
    fbo_.reset();
    context_->doneCurrent();
}

void OffscreenQuick::render() {
    if (!context_->makeCurrent(surface_.get())) throw RenderError("lost the OpenGL context");
    control_->polishItems();
    control_->beginFrame();
    control_->sync();
    control_->render();
    control_->endFrame();
    // Software OpenGL draws when flushed: finish here, so the time is counted as drawing.
    context_->functions()->glFinish();
}

void OffscreenQuick::readBack(QImage& image) {
    if (image.size() != size_ || image.format() != QImage::Format_RGBA8888_Premultiplied)
        image = QImage(size_, QImage::Format_RGBA8888_Premultiplied);
    QOpenGLFunctions* gl = context_->functions();
    fbo_->bind();
    gl->glPixelStorei(GL_PACK_ALIGNMENT, 4);
    gl->glReadPixels(0, 0, size_.width(), size_.height(), GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
    fbo_->release();
    // OpenGL's rows run bottom to top.
    image.mirror();
}

}  // namespace mirofish::render
