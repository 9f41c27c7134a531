#pragma once
// Offscreen rendering still needs an X display (OpenGL through xcb). On a
// machine without one, `mirofish render` runs itself again inside Xvfb.
namespace mirofish::render {

// $DISPLAY or $WAYLAND_DISPLAY is set.
bool displayAvailable();

// Replaces this process with `xvfb-run -a mirofish ARGS...` (Qt on xcb).
// Throws cli::ArgError saying what to install when xvfb-run is missing, or
// when this process is already that rerun and still has no display.
[[noreturn]] void rerunUnderXvfb(int argc, char** argv);

}  // namespace mirofish::render
