#!/usr/bin/env bash
# Configures (once) and builds MiroFish into build/ with two jobs.
# Compiled with clang, whose code for the simulation's kernel ran faster than
# GCC 12's on the AMD Zen 5 (README, Benchmark); CXX=g++ CC=gcc before the
# first build chooses GCC (a build/ folder keeps the compiler it was first
# configured with).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f build/build.ninja ]]; then
  CXX="${CXX:-clang++}" CC="${CC:-clang}" cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build -j2
