#pragma once
// The live 2D view: every fish in one geometry node (rewritten each frame
// from the newest snapshot), the overlays in a second one, and the pointer
// handed to the editor in world coordinates.
#include <QQuickItem>
#include <QtQml/qqmlregistration.h>

#include "editor.hpp"
#include "fish_geometry.hpp"
#include "overlay_geometry.hpp"

namespace mirofish::editor {

class FishView : public QQuickItem {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(mirofish::editor::Editor* editor READ editor WRITE setEditor NOTIFY editorChanged)
    // View pixels per world unit (the world is fitted into the view).
    Q_PROPERTY(double worldScale READ worldScale NOTIFY editorChanged)

public:
    explicit FishView(QQuickItem* parent = nullptr);

    Editor* editor() const { return editor_; }
    void setEditor(Editor* editor);
    double worldScale() const { return transform_.scale; }
    Q_INVOKABLE QPointF worldToView(QPointF world) const { return transform_.toView(float(world.x()), float(world.y())); }

signals:
    void editorChanged();

protected:
    QSGNode* updatePaintNode(QSGNode* old, UpdatePaintNodeData*) override;
    void geometryChange(const QRectF& newGeometry, const QRectF& oldGeometry) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QPointF toWorld(QPointF viewPosition) const;

    Editor* editor_ = nullptr;
    bool haveFrame_ = false;
    // Written in updatePaintNode (the GUI thread is blocked then), read by
    // the mouse handlers on the GUI thread.
    ViewTransform transform_;
    LineList lines_;  // reused: no allocation per frame once warm
};

}  // namespace mirofish::editor
