#pragma once
// The debug overlays and interaction objects as one list of coloured line
// segments (view pixels): grid cells, world edge and soft margin, obstacles,
// force fields, predators, the leader, neighbour lines, the three rule
// arrows, the FOV cone and radii of the selected fish.
#include <QSGGeometry>
#include <vector>

#include "fish_geometry.hpp"
#include "frame_snapshot.hpp"

namespace mirofish::editor {

struct LineColour {
    unsigned char r, g, b, a;
};

class LineList {
public:
    void clear() { vertices_.clear(); }
    void line(QPointF a, QPointF b, LineColour c);
    void circle(QPointF centre, float radius, LineColour c, int segments = 48);
    // An arc from angle a0 to a1 (radians) around centre.
    void arc(QPointF centre, float radius, float a0, float a1, LineColour c, int segments);
    void arrow(QPointF from, QPointF to, LineColour c);
    const std::vector<QSGGeometry::ColoredPoint2D>& vertices() const { return vertices_; }

private:
    std::vector<QSGGeometry::ColoredPoint2D> vertices_;
};

// In a wrapping world the obstacles, fields and predators go into `wrapped`
// instead, each also where its reach crosses the seam (to be clipped to the
// world); elsewhere `wrapped` stays empty.
void buildOverlayLines(const FrameSnapshot& frame, const ViewTransform& view, LineList& out, LineList& wrapped);

}  // namespace mirofish::editor
