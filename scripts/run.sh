#!/usr/bin/env bash
# Installs what is missing, builds, and starts MiroFish with the default
# preset. Arguments are passed to the mirofish executable.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The build's progress and any compiler error go to stderr, so that the
# app's own output (mirofish presets, validate) stays alone on stdout.
scripts/build.sh >&2
exec build/app/mirofish "$@"
