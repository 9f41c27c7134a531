#pragma once
// One value for every registry parameter. Plain data: the simulation reads
// it between steps; whoever edits it validates through the registry first.
#include <array>
#include <string>

#include "params/registry.hpp"

namespace mirofish {

enum class BoundaryMode { Wrap = 0, Bounce = 1, Soft = 2 };

class Params {
public:
    Params();  // every parameter at its registry default

    float get(ParamId id) const { return values_[static_cast<std::size_t>(id)]; }
    // Stores the value as given (finite values only; a non-finite one is
    // ignored). Range checks belong to validate(): the simulation itself must
    // survive any finite value, and the robustness tests rely on that.
    void set(ParamId id, float value);

    BoundaryMode boundaryMode() const;

    friend bool operator==(const Params&, const Params&) = default;

private:
    std::array<float, kParamCount> values_{};
};

// Empty if the value is allowed for the parameter, else what is wrong with
// it and the allowed range ("is 25, outside the allowed range 0 to 20"), to
// follow where the value was found (a preset's 'params.KEY').
// slack: how far past either end of a continuous range a value may lie,
// relative to the range's larger end (or 1): a float stored from a value
// computed in doubles, on a slider's log scale or by an audio route, may lie
// a hair outside it.
std::string validateParam(ParamId id, double value, double slack = 0);

// The slack for parameters read back as stored floats (a state file).
inline constexpr double kStoredParamSlack = 1e-6;

}  // namespace mirofish
