#!/usr/bin/env bash
# The main job: GPipe vs 1F1B, P=4, M=6 — the numbers side by side, then the
# scene checked and drawn to out/ (.mp4, .html, .svg); prints the closing lines.
# Installs and builds only what this needs (scripts/test.sh adds the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
PPSIM_SETUP=run bash scripts/setup.sh
build=${PPSIM_BUILD_DIR:-build}
"$build"/ppsim compare --schedule gpipe,1f1b -P 4 -M 6
"$build"/ppsim render examples/gpipe_vs_1f1b.toml \
  -o out/gpipe_vs_1f1b.mp4 -o out/gpipe_vs_1f1b.html -o out/gpipe_vs_1f1b.svg
