#!/usr/bin/env bash
# Installs what is missing, builds, and starts MiroFish with the default
# preset. Arguments are passed to the mirofish executable, in the folder the
# script was run from: relative file names (--audio track.mp3) mean files there.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
"$repo/scripts/install-deps.sh"
# The build's progress and any compiler error go to stderr, so that the
# app's own output (mirofish presets, validate) stays alone on stdout.
"$repo/scripts/build.sh" >&2
exec "$repo/build/app/mirofish" "$@"
