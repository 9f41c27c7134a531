#pragma once
// Copies what the view draws (fish, world, parameters, interaction objects)
// from a Simulation into a FrameSnapshot, reusing the snapshot's vectors.
// The live simulation thread and the offscreen export both use it.
#include "frame_snapshot.hpp"
#include "sim/simulation.hpp"

namespace mirofish::editor {

// `ran`: the parameters the last step ran with (with audio driving, the
// routes' values), which the view draws with.
void captureDrawable(const Simulation& sim, const Params& ran, FrameSnapshot& frame);

}  // namespace mirofish::editor
