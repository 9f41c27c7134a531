#!/usr/bin/env bash
# Installs the Debian 12 packages MiroFish needs, and only those missing.
# Quiet when everything is present. Usage: install-deps.sh [--tests]
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config nlohmann-json3-dev
  # The compiler scripts/build.sh uses (clang 14; g++ builds it too).
  clang
  # KissFFT, the audio analysis' FFT.
  libkissfft-dev
  # Qt 6.4 for the editor (qmlcachegen and qmltyperegistrar are in -dev-tools).
  qt6-base-dev qt6-declarative-dev qt6-declarative-dev-tools libxkbcommon-dev
  # Every QML module the interface imports; Debian's do not pull each other in.
  qml6-module-qtqml qml6-module-qtqml-models qml6-module-qtqml-workerscript qml6-module-qtquick
  qml6-module-qtquick-window qml6-module-qtquick-controls qml6-module-qtquick-templates
  qml6-module-qtquick-layouts qml6-module-qtquick-dialogs
  # The file dialog (non-native on Linux) is written with it.
  qml6-module-qt-labs-folderlistmodel
  # Qt Multimedia: audio playback and live input (QAudioSink, QAudioSource).
  qt6-multimedia-dev libqt6multimedia6
  # OpenGL drivers (llvmpipe where there is no GPU) and a font.
  libgl1-mesa-dri libglx-mesa0 fonts-dejavu-core
  # Decodes flac, mp3 and ogg (WAV is read without it).
  ffmpeg
  # Export: the offscreen renderer's OpenGL framebuffer, the trail shaders,
  # the PNG writer, the export dialog's file pickers, and a private X server
  # for 'mirofish render' on machines without a display (or whose $DISPLAY
  # does not open, which libxcb tells).
  libqt6opengl6-dev qt6-shadertools-dev libpng-dev libxcb1-dev xvfb xauth
  # Catch2 (headers only): CMake configures the tests with the app, in the
  # build/ folder scripts/test.sh shares; without it scripts/run.sh stopped
  # at "Could not find ... Catch2".
  catch2)
if [[ "${1:-}" == "--tests" ]]; then
  # The audio-device tests play and capture through a private PulseAudio
  # server's null output (the editor tests use the X server above).
  packages+=(pulseaudio pulseaudio-utils
    # A German locale built at test time (decimal comma): numbers in messages
    # are written with a point whatever the locale Qt sets.
    locales)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then sudo="sudo"; else
    echo "install-deps: missing packages: ${missing[*]}; run as root or install sudo" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
