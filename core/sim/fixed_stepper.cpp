#include "sim/fixed_stepper.hpp"

#include <algorithm>
#include <cmath>

namespace mirofish {

FixedStepper::Advance FixedStepper::advance(double frameSeconds) {
    Advance a;
    if (!(frameSeconds > 0.0) || !std::isfinite(frameSeconds)) return a;
    accumulator_ += frameSeconds;
    // The tolerance absorbs the rounding of summed frame times: 144 frames of
    // 1/144 s must make exactly 60 steps, not 59.
    const double due = std::floor(accumulator_ / step_ + 1e-6);
    accumulator_ = std::max(0.0, accumulator_ - due * step_);
    const int steps = static_cast<int>(std::min(due, static_cast<double>(maxSteps_)));
    a.steps = steps;
    a.droppedSeconds = (due - steps) * step_;
    return a;
}

}  // namespace mirofish
