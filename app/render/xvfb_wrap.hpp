#pragma once
// Offscreen rendering still needs an X display (OpenGL through xcb). On a
// machine without one, `mirofish render` runs itself again inside Xvfb.
#include <ostream>
#include <string>

namespace mirofish::render {

// $DISPLAY names an X server that lets this process connect, or, without
// $DISPLAY, $WAYLAND_DISPLAY names a Wayland display that listens and Qt
// has its Wayland plugin.
bool displayAvailable();
// Why there is none, in words that follow "needs a display, and ".
std::string whyNoDisplay();

// Runs `xvfb-run -a mirofish ARGS...` (Qt on xcb) and returns its exit
// status once the render and xvfb-run have ended; Ctrl+C or a
// `kill` of this process stops the render as it would stop without Xvfb
// (stop_signals.hpp). A $DISPLAY that cannot be opened is said on `err`.
// Throws cli::ArgError saying what to install when xvfb-run is missing, or
// when this process is already that rerun and still has no display.
int runUnderXvfb(int argc, char** argv, std::ostream& err);

}  // namespace mirofish::render
