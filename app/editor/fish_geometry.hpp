#pragma once
// All fish as one triangle list: each fish a triangle pointing along its
// drawn heading, stretched with speed, coloured by speed, heading or a fixed
// palette; with trails on, a stroke of light in the trail palette, added to
// the canvas. Runs on the render thread from a FrameSnapshot.
#include <QPointF>
#include <QSGGeometry>
#include <array>
#include <cstdint>
#include <utility>
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
// strokeSeconds: with trails on, the trail frame's simulated time (a fish
// that swam far in it is drawn as several stamps, addTrailStamps, each with
// its share of the light); 0 for none.
void writeFishTriangles(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds, std::size_t first,
                        std::size_t last, QSGGeometry::ColoredPoint2D* out);

// In a wrapping world of w x h, something at `at` reaching `reach` every way
// shows where it is and again a world's width or height on where it reaches
// past an edge: place(dx, dy) for each of those world offsets, (0, 0) first.
template <typename Place>
void forEachWrappedPlace(Vec2 at, float reach, float w, float h, Place place) {
    const auto offsets = [reach](float x, float size) {
        std::array<float, 3> o{0.0f, 0.0f, 0.0f};
        int n = 1;
        if (x - reach < 0.0f) o[n++] = size;
        if (x + reach > size) o[n++] = -size;
        return std::pair{o, n};
    };
    const auto [xs, nx] = offsets(at[0], w);
    const auto [ys, ny] = offsets(at[1], h);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) place(xs[i], ys[j]);
}

// In a wrapping world a fish within a body's length of an edge shows on the
// other side too, as the simulation has it there: fish `index` drawn again
// `dx`, `dy` world px away (a world's width or height; near a corner, three
// copies). The view clips what lies outside the world.
struct SeamCopy {
    std::uint32_t index;
    float dx, dy;
};
// strokeSeconds: the trail frame's, as the fish is drawn with (its stamp
// may be drawn longer, addTrailStamps), 0 without trails.
void findSeamCopies(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds,
                    std::vector<SeamCopy>& out);
// With trails on, the stamps of each fish along the way it swam in the
// trail frame (strokeSeconds) besides the one where it is, as copies drawn
// that far back along the way it moves (FrameSnapshot::mx, my), appended to `out`.
void addTrailStamps(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds,
                    std::vector<SeamCopy>& out);
// Writes kVerticesPerFish vertices for each copy in [first, last).
void writeSeamCopies(const FrameSnapshot& frame, const ViewTransform& view, float strokeSeconds,
                     const std::vector<SeamCopy>& copies, std::size_t first, std::size_t last,
                     QSGGeometry::ColoredPoint2D* out);

}  // namespace mirofish::editor
