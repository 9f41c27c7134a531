#include "sim/obstacle_cover.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish {

namespace {

// The offset from a to b along one axis, across the seam where shorter.
float offset(float a, float b, float size, bool wrap) {
    float d = b - a;
    if (wrap) d -= std::round(d / size) * size;
    return d;
}

}  // namespace

bool insideObstacle(const Obstacle& o, float x, float y, float width, float height, bool wrap) {
    const float dx = offset(o.centre[0], x, width, wrap);
    const float dy = offset(o.centre[1], y, height, wrap);
    return dx * dx + dy * dy < o.radius * o.radius;
}

ObstacleCover::ObstacleCover(std::span<const Obstacle> obstacles, float width, float height, bool wrap)
    : obstacles_(obstacles),
      width_(width),
      height_(height),
      wrap_(wrap),
      cellWidth_(width / kCells),
      cellHeight_(height / kCells),
      covered_(kCells * kCells, 0),
      firstOf_(kCells * kCells + 1, 0) {
    if (obstacles.empty()) return;
    // The cells an obstacle's bounding box spans along one axis (all of
    // them, wrapping, where it spans the world), as indices that may lie
    // outside the world, wrapped round by the caller. Wrapping, a centre
    // worlds away is the same as its copy in the world (the indices were
    // clamped, and a rock five worlds out covered one column of cells).
    const auto cellRange = [&](float centre, float radius, float cell) {
        const float size = cell * kCells;
        if (wrap_) centre -= std::floor(centre / size) * size;
        const auto index = [&](float at) {
            return static_cast<int>(std::clamp(std::floor(static_cast<double>(at) / cell), -2.0 * kCells, 3.0 * kCells));
        };
        int first = index(centre - radius), last = index(centre + radius);
        if (wrap_ && last - first + 1 >= kCells) first = 0, last = kCells - 1;
        if (!wrap_) first = std::max(first, 0), last = std::min(last, kCells - 1);
        return std::pair{first, last};
    };
    // Calls visit(cell, nearest, farthest) for each cell near obstacle o,
    // with the squared distances from o's centre (its nearest copy to the
    // cell, wrapping) to the cell's nearest and farthest points, widened by
    // a thousandth of a cell against rounding.
    const float slack = 1e-3f * (cellWidth_ + cellHeight_);
    const auto forEachCell = [&](const Obstacle& o, auto&& visit) {
        const auto [x0, x1] = cellRange(o.centre[0], o.radius, cellWidth_);
        const auto [y0, y1] = cellRange(o.centre[1], o.radius, cellHeight_);
        for (int iy = y0; iy <= y1; ++iy) {
            const float dy = std::abs(offset(o.centre[1], (static_cast<float>(iy) + 0.5f) * cellHeight_, height_, wrap_));
            const float nearY = std::max(dy - 0.5f * cellHeight_ - slack, 0.0f), farY = dy + 0.5f * cellHeight_ + slack;
            for (int ix = x0; ix <= x1; ++ix) {
                const float dx = std::abs(offset(o.centre[0], (static_cast<float>(ix) + 0.5f) * cellWidth_, width_, wrap_));
                const float nearX = std::max(dx - 0.5f * cellWidth_ - slack, 0.0f), farX = dx + 0.5f * cellWidth_ + slack;
                const int cx = (ix % kCells + kCells) % kCells, cy = (iy % kCells + kCells) % kCells;
                visit(cy * kCells + cx, nearX * nearX + nearY * nearY, farX * farX + farY * farY);
            }
        }
    };
    for (const Obstacle& o : obstacles)
        forEachCell(o, [&](int cell, float, float farthest) {
            if (farthest < o.radius * o.radius) covered_[cell] = 1;
        });
    // The obstacles reaching into each cell not covered, counted, then listed.
    const auto reaching = [&](const Obstacle& o, auto&& note) {
        forEachCell(o, [&](int cell, float nearest, float) {
            if (!covered_[cell] && nearest <= o.radius * o.radius) note(cell);
        });
    };
    for (const Obstacle& o : obstacles) reaching(o, [&](int cell) { ++firstOf_[cell + 1]; });
    for (int c = 0; c < kCells * kCells; ++c) firstOf_[c + 1] += firstOf_[c];
    reaching_.resize(firstOf_.back());
    std::vector<std::uint32_t> next(firstOf_.begin(), firstOf_.end() - 1);
    for (std::uint32_t i = 0; i < obstacles.size(); ++i) reaching(obstacles[i], [&](int cell) { reaching_[next[cell]++] = i; });
}

int ObstacleCover::cellOf(float x, float y) const {
    const int cx = std::clamp(static_cast<int>(x / cellWidth_), 0, kCells - 1);
    const int cy = std::clamp(static_cast<int>(y / cellHeight_), 0, kCells - 1);
    return cy * kCells + cx;
}

bool ObstacleCover::contains(float x, float y) const {
    if (obstacles_.empty()) return false;
    const int cell = cellOf(x, y);
    if (covered_[cell]) return true;
    for (std::uint32_t k = firstOf_[cell]; k < firstOf_[cell + 1]; ++k)
        if (insideObstacle(obstacles_[reaching_[k]], x, y, width_, height_, wrap_)) return true;
    return false;
}

}  // namespace mirofish
