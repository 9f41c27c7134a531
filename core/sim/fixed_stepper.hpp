#pragma once
// Fixed time step driven by an accumulator. Parameters are tuned at 1/60 s,
// so the school behaves the same on a 60 Hz and a 144 Hz display. At most
// maxStepsPerFrame steps run per frame; time beyond that is dropped (and
// reported) rather than simulated with a bigger step, so a slow frame never
// gives fish a bigger turn.
#include <algorithm>

namespace mirofish {

class FixedStepper {
public:
    explicit FixedStepper(double stepSeconds = 1.0 / 60.0, int maxStepsPerFrame = 3)
        : step_(stepSeconds), maxSteps_(maxStepsPerFrame) {}

    struct Advance {
        int steps = 0;              // steps to run now
        double droppedSeconds = 0;  // simulated time skipped because the frame was too long
    };

    // Adds a frame's duration; tells how many fixed steps to run.
    Advance advance(double frameSeconds);
    // Steps that advance() handed out and the caller did not run (an edit
    // cut its frame short): they come due again with the next frame.
    void giveBack(int steps) { accumulator_ += std::max(steps, 0) * step_; }

    // Fraction of a step left in the accumulator, for interpolated drawing.
    double alpha() const { return accumulator_ / step_; }
    double stepSeconds() const { return step_; }

private:
    double step_;
    int maxSteps_;
    double accumulator_ = 0.0;
};

}  // namespace mirofish
