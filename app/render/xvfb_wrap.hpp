#pragma once
// Offscreen rendering still needs an X display (OpenGL through xcb). On a
// machine without one, `mirofish render` runs itself again inside Xvfb.
namespace mirofish::render {

// $DISPLAY or $WAYLAND_DISPLAY is set.
bool displayAvailable();

// Runs `xvfb-run -a mirofish ARGS...` (Qt on xcb) and returns its exit
// status once the render and xvfb-run have ended; Ctrl+C or a
// `kill` of this process stops the render as it would stop without Xvfb
// (stop_signals.hpp). Throws cli::ArgError saying what to install when
// xvfb-run is missing, or when this process is already that rerun and still
// has no display.
int runUnderXvfb(int argc, char** argv);

}  // namespace mirofish::render
