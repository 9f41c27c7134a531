#pragma once
// The 2D view: every fish in one geometry node (rewritten each frame from the
// newest snapshot), the overlays in a second one, and the pointer handed to
// the editor in world coordinates. The live window and the offscreen export
// draw through it alike.
#include <QQuickItem>
#include <QVector3D>
#include <QtQml/qqmlregistration.h>

#include "editor.hpp"
#include "fish_geometry.hpp"
#include "overlay_geometry.hpp"
#include "trail_frame.hpp"
#include "triple_buffer.hpp"

namespace mirofish::editor {

class FishView : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(mirofish::editor::Editor* editor READ editor WRITE setEditor NOTIFY editorChanged)
    // View pixels per world unit (the world is fitted into the view).
    Q_PROPERTY(double worldScale READ worldScale NOTIFY editorChanged)
    // The world edge, soft margin, interaction objects and debug overlays
    // (the export leaves them out).
    Q_PROPERTY(bool guides READ guides WRITE setGuides NOTIFY guidesChanged)
    // Soft walls let fish overshoot by up to one margin: the editor keeps
    // that band in view so no fish is cut off; the export frames the world
    // itself.
    Q_PROPERTY(bool showOvershoot READ showOvershoot WRITE setShowOvershoot NOTIFY showOvershootChanged)
    // The trail canvas for the frame being drawn (FishCanvas.qml binds its
    // effects to these): see TrailFrame.
    Q_PROPERTY(bool trailsOn READ trailsOn NOTIFY trailFrameChanged)
    Q_PROPERTY(QVector3D trailKeep READ trailKeep NOTIFY trailFrameChanged)
    Q_PROPERTY(double trailDeposit READ trailDeposit NOTIFY trailFrameChanged)
    Q_PROPERTY(double trailExposure READ trailExposure NOTIFY trailFrameChanged)
    // Changes every frame the canvas is drawn: seeds the fade's stochastic rounding.
    Q_PROPERTY(double trailSeed READ trailSeed NOTIFY trailFrameChanged)
    // The frame covers no simulated time (a paused school) and is drawn as
    // the last one was: the canvas stays as it is and need not be drawn
    // again, unless trailCanvasStale says so.
    Q_PROPERTY(bool trailsHeld READ trailsHeld NOTIFY trailFrameChanged)

public:
    explicit FishView(QQuickItem* parent = nullptr);

    Editor* editor() const { return editor_; }
    void setEditor(Editor* editor);
    // Without an editor: draws the snapshots published into `frames` (the
    // offscreen export; call update() after each publish). Not owned.
    void setFrameFeed(TripleBuffer<FrameSnapshot>* frames);
    double worldScale() const { return transform_.scale; }
    Q_INVOKABLE QPointF worldToView(QPointF world) const { return transform_.toView(float(world.x()), float(world.y())); }

    bool guides() const { return guides_; }
    void setGuides(bool on);
    bool showOvershoot() const { return showOvershoot_; }
    void setShowOvershoot(bool on);
    bool trailsOn() const { return trail_.on; }
    QVector3D trailKeep() const { return {trail_.keep[0], trail_.keep[1], trail_.keep[2]}; }
    double trailDeposit() const { return trail_.deposit; }
    double trailExposure() const { return trail_.exposure; }
    double trailSeed() const { return trailSeed_; }
    bool trailsHeld() const { return trailsHeld_; }
    // The trail settings of the next frame. The live view sets them itself
    // each frame from the last frame's parameters and the wall time since
    // it; the export sets them with exactly 1/fps.
    void setTrailFrame(const TrailFrame& frame);
    // The next frame starts from an empty canvas.
    // A held canvas draws no frame of its own: ask for one.
    Q_INVOKABLE void clearTrails() {
        clearPending_ = true;
        update();
    }

signals:
    void editorChanged();
    void trailFrameChanged();
    // Held, the canvas shows the school itself (just cleared, paused), and
    // the school has changed: draw the canvas once.
    void trailCanvasStale();
    void guidesChanged();
    void showOvershootChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData*) override;
    void geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    // The press lost before its release (another window took the focus).
    void mouseUngrabEvent() override;
    void itemChange(ItemChange change, const ItemChangeData& data) override;

private:
    // update(), and the held canvas drawn again where it shows the school.
    void redraw();
    QPointF toWorld(QPointF viewPosition) const;
    void liveTrailFrame();

    Editor* editor_ = nullptr;
    TripleBuffer<FrameSnapshot>* frames_ = nullptr;
    bool haveFrame_ = false;
    // Written in updatePaintNode (the GUI thread is blocked then), read by
    // the mouse handlers on the GUI thread.
    ViewTransform transform_;
    LineList lines_, wrappedLines_;  // reused: no allocation per frame once warm
    std::vector<SeamCopy> seamCopies_;  // likewise (render thread); the trail stamps too
    bool guides_ = true;
    bool showOvershoot_ = true;
    TrailFrame trail_;
    // The parameters of the last frame drawn (morphs and audio routes
    // included): written in updatePaintNode, read on the GUI thread.
    Params drawnParams_;
    double trailSeed_ = 0;
    bool clearPending_ = false;
    bool canvasEmpty_ = false;  // cleared or turned on, and no step has laid down light since
    bool trailsHeld_ = false;
    std::uint64_t drawnStep_ = 0;  // the step of the last frame drawn (written like drawnParams_)
    std::uint64_t trailStep_ = 0;  // the step the canvas has been faded and lit up to
    static constexpr double kMaxTrailFrameSeconds = 0.1;
    QMetaObject::Connection windowConnection_;
};

}  // namespace mirofish::editor
