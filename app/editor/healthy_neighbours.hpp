#pragma once
// Whether the mean of perceived neighbours lies in the articles' healthy
// range (5 to 8), judged on the figure the stats panel shows: one decimal.
#include <cmath>

namespace mirofish::editor {

inline constexpr double kHealthyNeighboursMin = 5.0, kHealthyNeighboursMax = 8.0;

// 4.96 shows as "5.0": it is not coloured as out of the range it shows inside.
inline bool neighboursHealthy(double meanNeighbours) {
    const double shown = std::round(meanNeighbours * 10.0) / 10.0;
    return shown >= kHealthyNeighboursMin && shown <= kHealthyNeighboursMax;
}

}  // namespace mirofish::editor
