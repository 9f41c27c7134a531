#include "fish_view.hpp"

#include <QSGGeometryNode>
#include <QSGVertexColorMaterial>
#include <algorithm>

namespace mirofish::editor {

namespace {
QSGGeometryNode* makeNode(QSGGeometry::DrawingMode mode) {
    auto* geometry = new QSGGeometry(QSGGeometry::defaultAttributes_ColoredPoint2D(), 0);
    geometry->setDrawingMode(mode);
    geometry->setVertexDataPattern(QSGGeometry::StreamPattern);
    auto* node = new QSGGeometryNode;
    node->setGeometry(geometry);
    node->setFlag(QSGNode::OwnsGeometry);
    node->setMaterial(new QSGVertexColorMaterial);
    node->setFlag(QSGNode::OwnsMaterial);
    return node;
}

void fill(QSGGeometryNode* node, int vertexCount, const auto& write) {
    QSGGeometry* g = node->geometry();
    if (g->vertexCount() != vertexCount) g->allocate(vertexCount);
    if (vertexCount > 0) write(g->vertexDataAsColoredPoint2D());
    node->markDirty(QSGNode::DirtyGeometry);
}
}  // namespace

FishView::FishView(QQuickItem* parent) : QQuickItem(parent) {
    setFlag(ItemHasContents);
    setAcceptedMouseButtons(Qt::LeftButton | Qt::RightButton);
}

void FishView::setEditor(Editor* editor) {
    if (editor_ == editor) return;
    if (editor_) disconnect(editor_, nullptr, this, nullptr);
    editor_ = editor;
    if (editor_) {
        connect(editor_, &Editor::frameReady, this, &QQuickItem::update);
        editor_->setViewSize(size());
    }
    emit editorChanged();
    update();
}

void FishView::geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) {
    QQuickItem::geometryChange(newGeometry, oldGeometry);
    if (editor_) editor_->setViewSize(newGeometry.size());
    update();
}

QSGNode* FishView::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    if (!editor_) {
        delete old;
        return nullptr;
    }
    auto* root = old;
    if (!root) {
        root = new QSGNode;
        root->appendChildNode(makeNode(QSGGeometry::DrawTriangles));
        root->appendChildNode(makeNode(QSGGeometry::DrawLines));
    }
    auto* fishNode = static_cast<QSGGeometryNode*>(root->firstChild());
    auto* overlayNode = static_cast<QSGGeometryNode*>(root->lastChild());

    // The only reader of the triple buffer; the GUI thread is blocked while
    // this runs, so transform_ may be written here.
    const FrameSnapshot* newest = editor_->host().frames().readNewest();
    if (newest) haveFrame_ = true;
    if (!haveFrame_) return root;
    const FrameSnapshot& frame = editor_->host().frames().current();
    // Soft walls let fish overshoot by up to one margin (the core's backstop):
    // keep that band in view so no fish is cut off.
    const bool soft = frame.params.boundaryMode() == BoundaryMode::Soft;
    const float border = soft ? std::clamp(frame.params.get(ParamId::BoundaryMargin), 0.0f,
                                           0.5f * std::min(frame.worldWidth, frame.worldHeight))
                              : 0.0f;
    transform_ = ViewTransform::fit(static_cast<float>(width()), static_cast<float>(height()), frame.worldWidth,
                                    frame.worldHeight, border);

    fill(fishNode, static_cast<int>(frame.count()) * kVerticesPerFish,
         [&](QSGGeometry::ColoredPoint2D* v) { writeFishTriangles(frame, transform_, v); });
    buildOverlayLines(frame, transform_, lines_);
    const auto& lines = lines_.vertices();
    fill(overlayNode, static_cast<int>(lines.size()),
         [&](QSGGeometry::ColoredPoint2D* v) { std::copy(lines.begin(), lines.end(), v); });
    editor_->countFrame();
    return root;
}

QPointF FishView::toWorld(QPointF viewPosition) const { return transform_.toWorld(viewPosition); }

void FishView::mousePressEvent(QMouseEvent* event) {
    if (!editor_) return;
    forceActiveFocus();
    editor_->pointerPressed(toWorld(event->position()), event->position(), event->button());
    event->accept();
}

void FishView::mouseMoveEvent(QMouseEvent* event) {
    if (!editor_) return;
    editor_->pointerMoved(toWorld(event->position()), event->position());
    event->accept();
}

void FishView::mouseReleaseEvent(QMouseEvent* event) {
    if (!editor_) return;
    editor_->pointerReleased(toWorld(event->position()), event->position());
    event->accept();
}

}  // namespace mirofish::editor
