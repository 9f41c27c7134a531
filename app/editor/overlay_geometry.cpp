#include "overlay_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace mirofish::editor {

namespace {
// Premultiplied alpha (QSGVertexColorMaterial expects it).
LineColour colour(int r, int g, int b, int a) {
    auto pm = [a](int v) { return static_cast<unsigned char>(v * a / 255); };
    return {pm(r), pm(g), pm(b), static_cast<unsigned char>(a)};
}

const LineColour kGrid = colour(255, 255, 255, 28);
const LineColour kEdge = colour(120, 170, 220, 120);
const LineColour kMargin = colour(120, 170, 220, 50);
const LineColour kObstacle = colour(230, 225, 210, 220);
const LineColour kAttract = colour(90, 220, 120, 200);
const LineColour kRepel = colour(240, 90, 80, 200);
const LineColour kVortex = colour(190, 120, 250, 200);
const LineColour kPredator = colour(255, 70, 50, 255);
const LineColour kPredatorRange = colour(255, 70, 50, 60);
const LineColour kLeader = colour(255, 215, 80, 230);
// The leader's loop in the leader's gold, faint: in the margin's blue it read
// as one more wall.
const LineColour kLeaderPath = colour(255, 215, 80, 70);
const LineColour kNeighbour = colour(255, 240, 140, 110);
const LineColour kSeparation = colour(255, 80, 80, 255);
const LineColour kAlignment = colour(80, 230, 110, 255);
const LineColour kCohesion = colour(90, 150, 255, 255);
const LineColour kVision = colour(255, 255, 255, 150);
const LineColour kSelected = colour(255, 255, 255, 230);

// The rule arrows: a correction of the full max speed within one reference
// step (weight 1 at full strength, maxSpeed * 60 px/s^2) is this many pixels.
constexpr float kArrowPixelsAtFullCorrection = 40.0f;
// Separation grows like 1/distance^2 up close; longer arrows would cross the
// whole view, so they stop here (the stats panel has the numbers).
constexpr double kArrowMaxPixels = 90.0;
}  // namespace

void LineList::line(QPointF a, QPointF b, LineColour c) {
    QSGGeometry::ColoredPoint2D v;
    v.set(static_cast<float>(a.x()), static_cast<float>(a.y()), c.r, c.g, c.b, c.a);
    vertices_.push_back(v);
    v.set(static_cast<float>(b.x()), static_cast<float>(b.y()), c.r, c.g, c.b, c.a);
    vertices_.push_back(v);
}

void LineList::arc(QPointF centre, float radius, float a0, float a1, LineColour c, int segments) {
    QPointF prev = centre + QPointF(radius * std::cos(a0), radius * std::sin(a0));
    for (int i = 1; i <= segments; ++i) {
        const float a = a0 + (a1 - a0) * static_cast<float>(i) / static_cast<float>(segments);
        const QPointF next = centre + QPointF(radius * std::cos(a), radius * std::sin(a));
        line(prev, next, c);
        prev = next;
    }
}

void LineList::circle(QPointF centre, float radius, LineColour c, int segments) {
    arc(centre, radius, 0.0f, 2.0f * std::numbers::pi_v<float>, c, segments);
}

void LineList::arrow(QPointF from, QPointF to, LineColour c) {
    QPointF d = to - from;
    double len = std::hypot(d.x(), d.y());
    if (len > kArrowMaxPixels) {
        d *= kArrowMaxPixels / len;
        len = kArrowMaxPixels;
        to = from + d;
    }
    line(from, to, c);
    if (len < 4.0) return;
    const QPointF u = d / len;
    const QPointF n(-u.y(), u.x());
    const double head = std::min(6.0, len * 0.4);
    line(to, to - u * head + n * head * 0.5, c);
    line(to, to - u * head - n * head * 0.5, c);
}

void buildOverlayLines(const FrameSnapshot& frame, const ViewTransform& view, LineList& out, LineList& wrapped) {
    out.clear();
    const float w = frame.worldWidth, h = frame.worldHeight;
    auto at = [&](Vec2 p) { return view.toView(p[0], p[1]); };
    auto px = [&](float worldLength) { return worldLength * view.scale; };

    if (frame.gridCellWidth > 0 && frame.gridCellHeight > 0) {
        for (float x = frame.gridCellWidth; x < w; x += frame.gridCellWidth) out.line(view.toView(x, 0), view.toView(x, h), kGrid);
        for (float y = frame.gridCellHeight; y < h; y += frame.gridCellHeight) out.line(view.toView(0, y), view.toView(w, y), kGrid);
    }
    const QPointF c00 = view.toView(0, 0), c10 = view.toView(w, 0), c11 = view.toView(w, h), c01 = view.toView(0, h);
    out.line(c00, c10, kEdge);
    out.line(c10, c11, kEdge);
    out.line(c11, c01, kEdge);
    out.line(c01, c00, kEdge);
    const float m = frame.params.get(ParamId::BoundaryMargin);
    if (frame.params.boundaryMode() == BoundaryMode::Soft && m > 0 && 2 * m < std::min(w, h)) {
        const QPointF a = view.toView(m, m), b = view.toView(w - m, m), c = view.toView(w - m, h - m), d = view.toView(m, h - m);
        out.line(a, b, kMargin);
        out.line(b, c, kMargin);
        out.line(c, d, kMargin);
        out.line(d, a, kMargin);
    }

    // Obstacles, fields and predators act across a wrapping world's seam: there
    // each is drawn again on the other side where its reach crosses an edge,
    // into `wrapped`, which the view clips to the world.
    const bool wrap = frame.params.boundaryMode() == BoundaryMode::Wrap;
    LineList& objects = wrap ? wrapped : out;
    wrapped.clear();
    const auto drawAround = [&](Vec2 centre, float reach, const auto& draw) {
        if (!wrap) return draw(at(centre));
        forEachWrappedPlace(centre, reach, w, h, [&](float dx, float dy) { draw(at(centre + Vec2{{dx, dy}})); });
    };
    for (const Obstacle& o : frame.obstacles)
        drawAround(o.centre, o.radius, [&](QPointF centre) { objects.circle(centre, px(o.radius), kObstacle); });
    for (const ForceField& f : frame.fields) {
        const LineColour c = f.kind == FieldKind::Attract ? kAttract : f.kind == FieldKind::Repel ? kRepel : kVortex;
        drawAround(f.position, f.radius, [&](QPointF centre) {
            objects.circle(centre, px(f.radius), c);
            objects.line(centre - QPointF(5, 0), centre + QPointF(5, 0), c);
            objects.line(centre - QPointF(0, 5), centre + QPointF(0, 5), c);
        });
    }
    const float predatorRange = frame.params.get(ParamId::PredatorRadius);
    for (const Predator& p : frame.predators) {
        const float speed = length(p.velocity);
        const Vec2 dir = speed > 1e-3f ? p.velocity * (1.0f / speed) : Vec2{{1.0f, 0.0f}};
        const QPointF u(dir[0], dir[1]), n(-dir[1], dir[0]);
        drawAround(p.position, predatorRange, [&](QPointF centre) {
            const QPointF nose = centre + u * 14.0, tailL = centre - u * 8.0 + n * 7.0, tailR = centre - u * 8.0 - n * 7.0;
            objects.line(nose, tailL, kPredator);
            objects.line(tailL, tailR, kPredator);
            objects.line(tailR, nose, kPredator);
            objects.circle(centre, px(predatorRange), kPredatorRange);
        });
    }
    if (frame.leader) {
        const Leader& l = *frame.leader;
        for (std::size_t i = 0; i + 1 < l.path.size(); ++i) out.line(at(l.path[i]), at(l.path[i + 1]), kLeaderPath);
        if (l.path.size() > 2) out.line(at(l.path.back()), at(l.path.front()), kLeaderPath);
        out.circle(at(l.position), 6.0f, kLeader, 4);
    }

    const float fullCorrection = std::max(frame.params.get(ParamId::MaxSpeed) * 60.0f, 1e-3f);
    const double arrowScale = kArrowPixelsAtFullCorrection / fullCorrection;
    for (const FishInspection& f : frame.inspected) {
        const QPointF self = at(f.position);
        if (frame.drawNeighbours)
            for (const Vec2& n : f.neighbours) out.line(self, at(n), kNeighbour);
        if (frame.drawForces) {
            const QPointF sep(f.separation[0], f.separation[1]), ali(f.alignment[0], f.alignment[1]),
                coh(f.cohesion[0], f.cohesion[1]);
            out.arrow(self, self + sep * arrowScale, kSeparation);
            out.arrow(self, self + ali * arrowScale, kAlignment);
            out.arrow(self, self + coh * arrowScale, kCohesion);
        }
        // The cone and radii of one fish: the selected one, else the first.
        if (frame.drawVision && &f == &frame.inspected.front()) {
            // The cone is centred on the velocity (what the kernel tests against).
            const Vec2 dir = f.speed > 1e-3f ? f.velocity : f.heading;
            const float heading = std::atan2(dir[1], dir[0]);
            const float half = f.fovHalfAngleRadians;
            const float r = px(f.perceptionRadius);
            out.arc(self, r, heading - half, heading + half, kVision, 40);
            if (half < std::numbers::pi_v<float>) {
                out.line(self, self + QPointF(r * std::cos(heading - half), r * std::sin(heading - half)), kVision);
                out.line(self, self + QPointF(r * std::cos(heading + half), r * std::sin(heading + half)), kVision);
            }
            out.circle(self, px(f.separationRadius), kSeparation, 32);
        }
    }
    if (frame.selectedPosition) out.circle(at(*frame.selectedPosition), 10.0f, kSelected, 20);
}

}  // namespace mirofish::editor
