#include "sim/row_stretch.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish {

namespace {

constexpr double kGroup = 16;  // fish scanned together (the AVX-512 build's)

// The area within reach of a group's box, in squares of a cell's width, for
// n fish per such square in rows `stretch` cells tall (see the header).
double reachArea(double n, double stretch) {
    return (kGroup / (n * stretch) + 3.0) * (stretch + 2.0);
}

}  // namespace

float nextRowStretch(const UniformGrid& grid, std::size_t fish, float current) {
    if (fish == 0 || grid.subcolumns() > 1) return 1.0f;
    // The others in a fish's cell, per square of a cell's width; a fish
    // alone counts as a hundredth, which asks for the tallest rows.
    const double others = std::max(grid.meanFishSharingKey() - 1.0, 0.0);
    const double n = std::max(others * grid.cellWidth() / grid.cellHeight(), 0.01);
    const double ideal = std::clamp(std::sqrt(2.0 * kGroup / (3.0 * n)), 1.0, double{kMaxRowStretch});
    double chosen = std::round(ideal / kRowStretchStep) * kRowStretchStep;
    // An even spread of the fish must not crowd the cells, with a tenth more
    // fish to spare.
    const auto crowds = [&](double stretch) {
        return stretch > 1.0 && grid.crowdedWith(static_cast<float>(stretch), fish + fish / 9);
    };
    while (crowds(chosen)) chosen -= kRowStretchStep;
    const double was = validRowStretch(current) && !crowds(current) ? current : 1.0;
    const bool worthIt = reachArea(n, was) > (1.0 + kRowStretchGain) * reachArea(n, chosen);
    return static_cast<float>(worthIt ? chosen : was);
}

bool validRowStretch(float stretch) {
    return stretch >= 1.0f && stretch <= kMaxRowStretch &&
           std::round(stretch / kRowStretchStep) * kRowStretchStep == stretch;
}

}  // namespace mirofish
