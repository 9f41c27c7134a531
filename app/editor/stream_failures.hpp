#pragma once
// How many audio streams have failed under the process so far (a device
// unplugged, its sound server gone). Qt 6.4's PulseAudio backend neither
// changes a failed stream's state nor signals it: it only says so, as the
// warning "Stream error: ...", from the sound server's thread. That
// warning is counted here. A paused stream that failed must not be resumed:
// resuming it aborts inside libpulse, even when a device of the same name is
// back by then (TrackPlayback::play).
#include <cstdint>

namespace mirofish::editor {

// Starts counting (once per process; every message still goes on to the
// handler installed before). Call it on the GUI thread, before any stream.
void countStreamFailures();
std::uint64_t streamFailures();

}  // namespace mirofish::editor
