#pragma once
// All fish as one triangle list: each fish a triangle pointing along its
// drawn heading, stretched with speed, coloured by speed, heading or a fixed
// palette; with trails on, a stroke of light in the trail palette, added to
// the canvas. Runs on the render thread from a FrameSnapshot.
#include <QPointF>
#include <QSGGeometry>
#include <cstdint>
#include <vector>

#include "frame_snapshot.hpp"

namespace mirofish::editor {

// World to view pixels: uniform scale and an offset (the world is letterboxed
// into the view at its own aspect).
struct ViewTransform {
    float scale = 1.0f;
    float offsetX = 0.0f, offsetY = 0.0f;

    // Fits [-border, world + border] on both axes into the view.
    static ViewTransform fit(float viewWidth, float viewHeight, float worldWidth, float worldHeight, float border = 0);
    QPointF toView(float x, float y) const { return {offsetX + scale * x, offsetY + scale * y}; }
    QPointF toWorld(QPointF p) const { return {(p.x() - offsetX) / scale, (p.y() - offsetY) / scale}; }
};

inline constexpr int kVerticesPerFish = 3;

// Writes kVerticesPerFish vertices for each fish in [first, last).
void writeFishTriangles(const FrameSnapshot& frame, const ViewTransform& view, std::size_t first, std::size_t last,
                        QSGGeometry::ColoredPoint2D* out);

// In a wrapping world a fish within a body's length of an edge shows on the
// other side too, as the simulation has it there: fish `index` drawn again
// `dx`, `dy` world px away (a world's width or height; near a corner, three
// copies). The view clips what lies outside the world.
struct SeamCopy {
    std::uint32_t index;
    float dx, dy;
};
void findSeamCopies(const FrameSnapshot& frame, const ViewTransform& view, std::vector<SeamCopy>& out);
// Writes kVerticesPerFish vertices for each copy in [first, last).
void writeSeamCopies(const FrameSnapshot& frame, const ViewTransform& view, const std::vector<SeamCopy>& copies,
                     std::size_t first, std::size_t last, QSGGeometry::ColoredPoint2D* out);

}  // namespace mirofish::editor
