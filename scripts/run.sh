#!/usr/bin/env bash
# Installs what is missing, builds, and starts MiroFish with the default
# preset. Arguments are passed to the mirofish executable.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh >/dev/null
exec build/app/mirofish "$@"
