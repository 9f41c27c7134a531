#!/usr/bin/env bash
# Installs the Debian 12 packages MiroFish needs, and only those missing.
# Quiet when everything is present. Usage: install-deps.sh [--tests]
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config nlohmann-json3-dev)
if [[ "${1:-}" == "--tests" ]]; then
  packages+=(catch2)
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
