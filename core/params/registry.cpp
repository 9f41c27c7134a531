#include "params/registry.hpp"

#include "params/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace mirofish {

const std::array<ParamDef, kParamCount>& paramRegistry() {
    static const std::array<ParamDef, kParamCount> table = {{
#define MIROFISH_PARAM_DEF(e, key, label, unit, group, lo, hi, def, scale, choices, desc) \
    {ParamId::e, key, label, unit, group, lo, hi, def, ParamScale::scale, choices, desc},
        MIROFISH_PARAMS(MIROFISH_PARAM_DEF)
#undef MIROFISH_PARAM_DEF
    }};
    return table;
}

std::optional<ParamId> findParam(std::string_view key) {
    for (const auto& d : paramRegistry())
        if (d.key == key) return d.id;
    return std::nullopt;
}

std::vector<std::string_view> ParamDef::choiceLabels() const {
    std::vector<std::string_view> out;
    std::string_view rest = choices;
    while (!rest.empty()) {
        const auto bar = rest.find('|');
        out.push_back(rest.substr(0, bar));
        if (bar == std::string_view::npos) break;
        rest.remove_prefix(bar + 1);
    }
    return out;
}

std::string ParamDef::rangeText() const {
    std::ostringstream s;
    if (isChoice()) {
        const auto labels = choiceLabels();
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if (i > 0) s << (i + 1 == labels.size() ? " or " : ", ");
            s << labels[i];
        }
        return s.str();
    }
    s << numberText(min) << " to " << numberText(max);
    if (!unit.empty()) s << ' ' << unit;
    return s.str();
}

namespace {
// LogFromZero: v = min + knee ((1 + range/knee)^t - 1), a thousandth of the range as the knee.
constexpr double kKneeShare = 1e-3;
}  // namespace

double toNormalized(const ParamDef& def, double value) {
    const double v = std::clamp(value, def.min, def.max);
    if (def.max <= def.min) return 0.0;
    if (def.scale == ParamScale::Log && def.min > 0.0) return std::log(v / def.min) / std::log(def.max / def.min);
    if (def.scale == ParamScale::LogFromZero)
        return std::log1p((v - def.min) / (kKneeShare * (def.max - def.min))) / std::log1p(1.0 / kKneeShare);
    return (v - def.min) / (def.max - def.min);
}

double fromNormalized(const ParamDef& def, double t) {
    const double u = std::clamp(t, 0.0, 1.0);
    if (def.scale == ParamScale::Log && def.min > 0.0) return def.min * std::pow(def.max / def.min, u);
    if (def.scale == ParamScale::LogFromZero) {
        if (u >= 1.0) return def.max;  // exactly, not a rounding below it
        return def.min + kKneeShare * (def.max - def.min) * std::expm1(u * std::log1p(1.0 / kKneeShare));
    }
    return def.min + (def.max - def.min) * u;
}

}  // namespace mirofish
