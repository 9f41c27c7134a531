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

// The scene graph's batches index vertices with 16 bits: a node with more
// than 65 535 vertices is drawn only in part (seen: 200 000 fish drew the
// first 21 845). Large geometry is therefore split over several nodes of at
// most kMaxVerticesPerNode, a multiple of the primitive's vertex count.
constexpr int kMaxVerticesPerNode = 65'532;

// Fills `container`'s children with `items` items of `perItem` vertices;
// write(first, last, out) writes the vertices of items [first, last).
void fillChunked(QSGNode* container, QSGGeometry::DrawingMode mode, std::size_t items, int perItem, const auto& write) {
    const std::size_t perNode = static_cast<std::size_t>(kMaxVerticesPerNode / perItem);
    const int nodes = static_cast<int>((items + perNode - 1) / perNode);
    while (container->childCount() < nodes) container->appendChildNode(makeNode(mode));
    while (container->childCount() > nodes) {
        QSGNode* last = container->lastChild();
        container->removeChildNode(last);
        delete last;
    }
    std::size_t first = 0;
    for (QSGNode* n = container->firstChild(); n; n = n->nextSibling(), first += perNode) {
        auto* node = static_cast<QSGGeometryNode*>(n);
        const std::size_t last = std::min(items, first + perNode);
        const int vertexCount = static_cast<int>(last - first) * perItem;
        QSGGeometry* g = node->geometry();
        if (g->vertexCount() != vertexCount) g->allocate(vertexCount);
        write(first, last, g->vertexDataAsColoredPoint2D());
        node->markDirty(QSGNode::DirtyGeometry);
    }
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
    // Two containers: the fish, then the overlays on top.
    auto* root = old;
    if (!root) {
        root = new QSGNode;
        root->appendChildNode(new QSGNode);
        root->appendChildNode(new QSGNode);
    }
    QSGNode* fishNodes = root->firstChild();
    QSGNode* overlayNodes = root->lastChild();

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

    fillChunked(fishNodes, QSGGeometry::DrawTriangles, frame.count(), kVerticesPerFish,
                [&](std::size_t first, std::size_t last, QSGGeometry::ColoredPoint2D* v) {
                    writeFishTriangles(frame, transform_, first, last, v);
                });
    buildOverlayLines(frame, transform_, lines_);
    const auto& lines = lines_.vertices();
    fillChunked(overlayNodes, QSGGeometry::DrawLines, lines.size() / 2, 2,
                [&](std::size_t first, std::size_t last, QSGGeometry::ColoredPoint2D* v) {
                    std::copy(lines.begin() + 2 * first, lines.begin() + 2 * last, v);
                });
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
