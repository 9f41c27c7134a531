#!/usr/bin/env bash
# Runs a command with a private PulseAudio server holding one null output
# ("mirofish_null") and an input ("MiroFish capture") that records what is
# played there (Qt lists no monitor sources): real audio devices for Qt
# Multimedia on a machine without sound hardware. Playback through the null
# output runs at real time.
set -euo pipefail
for tool in pulseaudio pactl paplay; do
  if ! command -v "$tool" >/dev/null; then
    echo "run-with-audio-server: $tool is missing; install the packages pulseaudio and pulseaudio-utils" >&2
    exit 1
  fi
done
runtime=$(mktemp -d)
export XDG_RUNTIME_DIR="$runtime"
pulseaudio --daemonize=no --exit-idle-time=-1 -n --log-target=stderr --log-level=error \
  --load="module-null-sink sink_name=mirofish_null" \
  --load="module-remap-source master=mirofish_null.monitor source_name=mirofish_capture source_properties=device.description=MiroFish_capture" \
  --load=module-native-protocol-unix 2>/dev/null &
server=$!
# The server may have ended already (a test ends it): that is no failure of the run.
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$runtime"' EXIT
for _ in $(seq 100); do
  pactl info >/dev/null 2>&1 && break
  sleep 0.1
done
pactl info >/dev/null
"$@"
