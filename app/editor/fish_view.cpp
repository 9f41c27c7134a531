#include "fish_view.hpp"

#include <QQuickWindow>
#include <QSGClipNode>
#include <QSGGeometryNode>
#include <QSGVertexColorMaterial>
#include <algorithm>
#include <cmath>

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
    frames_ = editor_ ? &editor_->host().frames() : nullptr;
    haveFrame_ = false;
    if (editor_) {
        connect(editor_, &Editor::frameReady, this, &FishView::redraw);
        editor_->setViewSize(size());
    }
    emit editorChanged();
    update();
}

void FishView::setFrameFeed(TripleBuffer<FrameSnapshot>* frames) {
    if (editor_) setEditor(nullptr);
    frames_ = frames;
    haveFrame_ = false;
    update();
}

void FishView::geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) {
    QQuickItem::geometryChange(newGeometry, oldGeometry);
    if (editor_) editor_->setViewSize(newGeometry.size());
    // The trail canvas of a new size starts empty (the scene graph makes its
    // texture afresh): as after C, so that paused, the school shows rather
    // than empty water.
    if (newGeometry.size() != oldGeometry.size()) clearPending_ = true;
    update();
}

QSGNode* FishView::updatePaintNode(QSGNode* old, UpdatePaintNodeData*) {
    if (!frames_) {
        delete old;
        return nullptr;
    }
    // The fish, clipped to the world (and the overshoot band kept in view):
    // their own nodes and, in a wrapping world, the copies of those at an
    // edge on the other side; then the overlays on top, unclipped (a
    // neighbour across the seam lies outside the world).
    auto* root = old;
    if (!root) {
        root = new QSGNode;
        auto* clip = new QSGClipNode;
        clip->setIsRectangular(true);
        clip->setGeometry(new QSGGeometry(QSGGeometry::defaultAttributes_Point2D(), 4));
        clip->setFlag(QSGNode::OwnsGeometry);
        clip->appendChildNode(new QSGNode);
        clip->appendChildNode(new QSGNode);
        clip->appendChildNode(new QSGNode);
        root->appendChildNode(clip);
        root->appendChildNode(new QSGNode);
    }
    auto* clip = static_cast<QSGClipNode*>(root->firstChild());
    QSGNode* fishNodes = clip->firstChild();
    QSGNode* seamNodes = fishNodes->nextSibling();
    QSGNode* wrappedObjectNodes = clip->lastChild();  // a wrapping world's objects, with their copies at the seam
    QSGNode* overlayNodes = root->lastChild();

    // The only reader of the triple buffer; the GUI thread is blocked while
    // this runs, so transform_ may be written here.
    const FrameSnapshot* newest = frames_->readNewest();
    if (newest) haveFrame_ = true;
    if (!haveFrame_) return root;
    const FrameSnapshot& frame = frames_->current();
    drawnParams_ = frame.params;
    drawnStep_ = frame.step;
    // Soft walls let fish overshoot by up to one margin (the core's backstop):
    // keep that band in view so no fish is cut off.
    const bool soft = showOvershoot_ && frame.params.boundaryMode() == BoundaryMode::Soft;
    const float border =
        soft ? std::clamp(frame.viewMargin, 0.0f, 0.5f * std::min(frame.worldWidth, frame.worldHeight)) : 0.0f;
    transform_ = ViewTransform::fit(static_cast<float>(width()), static_cast<float>(height()), frame.worldWidth,
                                    frame.worldHeight, border);

    // Past this, nothing of the school shows: in an export (no band) the
    // letterbox stays water, and a fish at a seam is cut at the world's edge.
    const QRectF shown(transform_.offsetX - border * transform_.scale, transform_.offsetY - border * transform_.scale,
                       (frame.worldWidth + 2 * border) * transform_.scale, (frame.worldHeight + 2 * border) * transform_.scale);
    if (clip->clipRect() != shown) {
        QSGGeometry::updateRectGeometry(clip->geometry(), shown);
        clip->setClipRect(shown);
        clip->markDirty(QSGNode::DirtyGeometry);
    }
    fillChunked(fishNodes, QSGGeometry::DrawTriangles, frame.count(), kVerticesPerFish,
                [&](std::size_t first, std::size_t last, QSGGeometry::ColoredPoint2D* v) {
                    writeFishTriangles(frame, transform_, trail_.seconds, first, last, v);
                });
    findSeamCopies(frame, transform_, trail_.seconds, seamCopies_);
    addTrailStamps(frame, transform_, trail_.seconds, seamCopies_);
    fillChunked(seamNodes, QSGGeometry::DrawTriangles, seamCopies_.size(), kVerticesPerFish,
                [&](std::size_t first, std::size_t last, QSGGeometry::ColoredPoint2D* v) {
                    writeSeamCopies(frame, transform_, trail_.seconds, seamCopies_, first, last, v);
                });
    // With trails on, the guides would pile up on the canvas like the fish.
    if (!guides_ || frame.params.get(ParamId::Trails) >= 0.5f) {
        lines_.clear();
        wrappedLines_.clear();
    } else {
        buildOverlayLines(frame, transform_, lines_, wrappedLines_);
    }
    for (const auto& [nodes, list] : {std::pair{overlayNodes, &lines_}, std::pair{wrappedObjectNodes, &wrappedLines_}}) {
        const auto& lines = list->vertices();
        fillChunked(nodes, QSGGeometry::DrawLines, lines.size() / 2, 2,
                    [&](std::size_t first, std::size_t last, QSGGeometry::ColoredPoint2D* v) {
                        std::copy(lines.begin() + 2 * first, lines.begin() + 2 * last, v);
                    });
    }
    if (editor_) editor_->countFrame();
    return root;
}

void FishView::setGuides(bool on) {
    if (guides_ == on) return;
    guides_ = on;
    emit guidesChanged();
    redraw();
}

void FishView::setShowOvershoot(bool on) {
    if (showOvershoot_ == on) return;
    showOvershoot_ = on;
    emit showOvershootChanged();
    redraw();
}

void FishView::redraw() {
    update();
    // Held, the school shown at full light on a clear canvas is not drawn
    // into the canvas again by itself.
    if (trailsHeld_ && canvasEmpty_) emit trailCanvasStale();
}

void FishView::setTrailFrame(const TrailFrame& frame) {
    // Trails off, and off before: nothing to draw again. (A new seed every
    // frame had the hidden fade redrawn, and a paused window drew for ever.)
    if (!frame.on && !trail_.on) return;
    if (frame.on && (!trail_.on || clearPending_)) canvasEmpty_ = true;
    const TrailFrame before = trail_;
    const bool clearing = clearPending_;
    trail_ = frame;
    if (clearPending_) {
        std::fill(std::begin(trail_.keep), std::end(trail_.keep), 0.0f);
        clearPending_ = false;
    }
    // A paused school lays down no light: on a canvas just cleared or just
    // turned on it is drawn at full light on a clear canvas every frame (as
    // without trails) until steps lay down light, not left as empty water.
    if (trail_.on && canvasEmpty_ && trail_.deposit == 0.0f) {
        std::fill(std::begin(trail_.keep), std::end(trail_.keep), 0.0f);
        trail_.deposit = 1.0f;
    } else if (trail_.deposit > 0.0f) {
        // The first light laid down wipes what stood in for it: the school
        // at full light, which faded like a stroke (with persistence 1,
        // never) where the paused school had been.
        if (canvasEmpty_) std::fill(std::begin(trail_.keep), std::end(trail_.keep), 0.0f);
        canvasEmpty_ = false;
    }
    // A frame of no simulated time (paused), drawn as the last one was, gives
    // back the canvas as it was, bit for bit: kept whole with no light added,
    // or the school at full light on a clear canvas. FishCanvas.qml stops
    // drawing it; where the school on the clear canvas changes (dragged,
    // selected), it is drawn once (trailCanvasStale). Such a frame changes
    // nothing at all, not even the seed (a new seed had the hidden fade
    // redrawn, and a paused window with trails on drew for ever).
    const bool held = trail_.on && frame.seconds == 0.0f && !clearing && trail_ == before;
    if (held && trailsHeld_) return;
    trailsHeld_ = held;
    // Any sequence that does not repeat within a few frames will do.
    if (!held) trailSeed_ = std::fmod(trailSeed_ + 0.618034, 1.0);
    emit trailFrameChanged();
}

void FishView::itemChange(ItemChange change, const ItemChangeData& data) {
    QQuickItem::itemChange(change, data);
    if (change != ItemSceneChange) return;
    disconnect(windowConnection_);
    if (data.window)
        windowConnection_ = connect(data.window, &QQuickWindow::afterAnimating, this, &FishView::liveTrailFrame);
}

void FishView::liveTrailFrame() {
    if (!editor_) return;
    // The simulated time since the last trail frame, as the export counts it:
    // paused, the canvas holds (no fade, no new light on still fish); a single
    // step adds one step of light. Within reason: a stall must not wipe it.
    const std::uint64_t steps = drawnStep_ >= trailStep_ ? drawnStep_ - trailStep_ : 0;  // 0 after a reset
    trailStep_ = drawnStep_;
    const double seconds = std::min(static_cast<double>(steps) * Simulation::kStepSeconds, kMaxTrailFrameSeconds);
    setTrailFrame(trailFrame(drawnParams_, seconds));
}

QPointF FishView::toWorld(QPointF viewPosition) const { return transform_.toWorld(viewPosition); }

void FishView::mousePressEvent(QMouseEvent* event) {
    if (!editor_) return;
    forceActiveFocus();
    editor_->pointerPressed(toWorld(event->position()), event->position(), event->button(), transform_.scale);
    event->accept();
}

void FishView::mouseMoveEvent(QMouseEvent* event) {
    if (!editor_) return;
    editor_->pointerMoved(toWorld(event->position()), event->position());
    event->accept();
}

void FishView::mouseReleaseEvent(QMouseEvent* event) {
    if (!editor_) return;
    // A second button let go while the first is held ends nothing: the press
    // that began the drag or the pull ends it.
    if (event->buttons() == Qt::NoButton)
        editor_->pointerReleased(toWorld(event->position()), event->position(), transform_.scale);
    event->accept();
}

// Also called after an ordinary release, when nothing is held any more.
void FishView::mouseUngrabEvent() {
    if (editor_) editor_->pointerCancelled();
}

}  // namespace mirofish::editor
