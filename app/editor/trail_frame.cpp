#include "trail_frame.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish::editor {

namespace {
// The age palette's fade per channel, as powers of the keep factor: red goes
// fastest, blue slowest, so a white stroke cools to deep blue as it fades.
constexpr float kAgeFade[3] = {2.2f, 1.3f, 0.75f};
}  // namespace

TrailFrame trailFrame(const Params& params, double frameSeconds) {
    TrailFrame t;
    t.on = params.get(ParamId::Trails) >= 0.5f;
    const double dt = std::max(frameSeconds, 0.0);
    const double persistence = std::clamp(static_cast<double>(params.get(ParamId::TrailPersistence)), 0.0, 1.0);
    const double keep = persistence >= 1.0 ? 1.0 : std::pow(persistence, dt);
    const bool age = static_cast<int>(params.get(ParamId::TrailPalette)) == static_cast<int>(TrailPalette::Age);
    for (int c = 0; c < 3; ++c) t.keep[c] = static_cast<float>(age ? std::pow(keep, kAgeFade[c]) : keep);
    t.deposit = static_cast<float>(std::clamp(params.get(ParamId::TrailOpacity) * dt * 60.0, 0.0, 1.0));
    t.exposure = std::max(params.get(ParamId::TrailExposure), 0.0f);
    t.seconds = static_cast<float>(dt);
    return t;
}

}  // namespace mirofish::editor
