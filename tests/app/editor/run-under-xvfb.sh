#!/usr/bin/env bash
# Runs a command on a private X server (Xvfb, 1920x1080, llvmpipe OpenGL)
# with Qt's xcb platform: the editor tests render for real.
set -euo pipefail
if ! command -v xvfb-run >/dev/null; then
  echo "run-under-xvfb: xvfb-run is missing; install the packages xvfb and xauth" >&2
  exit 1
fi
export QT_QPA_PLATFORM=xcb
exec xvfb-run -a -s "-screen 0 1920x1080x24" "$@"
