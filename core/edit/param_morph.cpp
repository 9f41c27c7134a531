#include "edit/param_morph.hpp"

#include <cmath>

namespace mirofish {

ParamMorph::ParamMorph(const Params& from, const Params& to, double durationSeconds)
    : from_(from), to_(to), duration_(std::isfinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : 0.0) {}

bool ParamMorph::finished(double elapsedSeconds) const { return duration_ == 0 || elapsedSeconds >= duration_; }

Params ParamMorph::at(double elapsedSeconds) const {
    if (finished(elapsedSeconds)) return to_;
    if (!(elapsedSeconds > 0)) return from_;  // also for NaN
    const double x = elapsedSeconds / duration_;
    const double s = x * x * (3.0 - 2.0 * x);
    Params p = from_;
    for (const ParamDef& d : paramRegistry()) {
        const float a = from_.get(d.id);
        const float b = to_.get(d.id);
        if (a == b) continue;  // the round trip through [0, 1] could move it by an ulp
        if (d.isChoice()) {
            p.set(d.id, x < 0.5 ? a : b);
            continue;
        }
        const double u = toNormalized(d, a) + (toNormalized(d, b) - toNormalized(d, a)) * s;
        p.set(d.id, static_cast<float>(fromNormalized(d, u)));
    }
    return p;
}

}  // namespace mirofish
