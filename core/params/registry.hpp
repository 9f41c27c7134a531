#pragma once
// The parameter registry: name, unit, range, default, scale and description
// of every tunable, generated from params/param_list.hpp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "params/param_list.hpp"

namespace mirofish {

enum class ParamId : std::uint16_t {
#define MIROFISH_PARAM_ENUM(e, ...) e,
    MIROFISH_PARAMS(MIROFISH_PARAM_ENUM)
#undef MIROFISH_PARAM_ENUM
};

#define MIROFISH_PARAM_COUNT(...) +1
inline constexpr std::size_t kParamCount = 0 MIROFISH_PARAMS(MIROFISH_PARAM_COUNT);
#undef MIROFISH_PARAM_COUNT

// How a slider (and a morph, and an audio route) spreads a parameter's
// range: evenly; logarithmically (a minimum above 0); or logarithmically
// above a knee of a thousandth of the range, reaching the minimum at the
// left end, for distances where 0 means "off" and the useful values are a
// few percent of the range (a linear 0-100000 px slider had them in its
// first 2 %, and an arrow key moved it 10000 px).
enum class ParamScale { Linear, Log, LogFromZero };

struct ParamDef {
    ParamId id;
    std::string_view key;
    std::string_view label;
    std::string_view unit;
    std::string_view group;
    double min;
    double max;
    double defaultValue;
    ParamScale scale;
    // Non-empty for a choice: '|'-separated labels, stored as their index.
    std::string_view choices;
    std::string_view description;

    bool isChoice() const { return !choices.empty(); }
    // How the school is drawn, not how it swims: the step never reads it.
    bool drawingOnly() const { return group == "Rendering" || group == "Trails"; }
    std::vector<std::string_view> choiceLabels() const;
    // The range as a person reads it, e.g. "0 to 20 px" or "wrap, bounce or soft".
    std::string rangeText() const;
};

const std::array<ParamDef, kParamCount>& paramRegistry();
inline const ParamDef& paramDef(ParamId id) { return paramRegistry()[static_cast<std::size_t>(id)]; }
std::optional<ParamId> findParam(std::string_view key);

// Position of a value on its slider in [0, 1], honouring the scale, and back.
// Interpolating in this space is what a morph between presets does.
double toNormalized(const ParamDef& def, double value);
double fromNormalized(const ParamDef& def, double t);

}  // namespace mirofish
