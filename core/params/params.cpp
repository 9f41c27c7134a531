#include "params/params.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "params/number_text.hpp"

namespace mirofish {

Params::Params() {
    for (const auto& d : paramRegistry()) values_[static_cast<std::size_t>(d.id)] = static_cast<float>(d.defaultValue);
}

void Params::set(ParamId id, float value) {
    if (std::isfinite(value)) values_[static_cast<std::size_t>(id)] = value;
}

BoundaryMode Params::boundaryMode() const {
    const float m = get(ParamId::BoundaryMode);
    if (m < 0.5f) return BoundaryMode::Wrap;
    if (m < 1.5f) return BoundaryMode::Bounce;
    return BoundaryMode::Soft;
}

std::string validateParam(ParamId id, double value, double slack) {
    const ParamDef& d = paramDef(id);
    const double past = d.isChoice() ? 0.0 : slack * std::max({std::abs(d.min), std::abs(d.max), 1.0});
    std::ostringstream s;
    if (!std::isfinite(value) || value < d.min - past || value > d.max + past) {
        s << "is " << numberText(value) << ", outside the allowed range " << d.rangeText();
        return s.str();
    }
    if (d.isChoice() && value != std::floor(value)) {
        s << "must be one of " << d.rangeText();
        return s.str();
    }
    return {};
}

}  // namespace mirofish
