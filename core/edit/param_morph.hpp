#pragma once
// A morph from parameters A to B over a duration, as the editor plays it when
// a preset is picked with morphing on. Every parameter moves on its slider:
//   value(t) = fromNormalized(def, lerp(toNormalized(def, a), toNormalized(def, b), s))
//   s = smoothstep(t / duration) = x^2 (3 - 2x)
// so a log-scale parameter passes its geometric midpoint halfway, and the
// change starts and ends gently. Choice parameters (boundary mode, colouring)
// cannot be in between: they switch to B's value at the halfway point.
// At t <= 0 the result is exactly A, at t >= duration exactly B (bitwise);
// parameters equal in A and B never change. A duration of 0 (or negative or
// not finite) jumps straight to B. A value outside its registry range moves
// from (or to) the nearest end of its slider, as the slider shows it.
#include "params/params.hpp"

namespace mirofish {

class ParamMorph {
public:
    ParamMorph(const Params& from, const Params& to, double durationSeconds);

    Params at(double elapsedSeconds) const;
    bool finished(double elapsedSeconds) const;
    const Params& target() const { return to_; }

private:
    Params from_;
    Params to_;
    double duration_;
};

}  // namespace mirofish
