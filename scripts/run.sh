#!/usr/bin/env bash
# The main job: GPipe vs 1F1B, P=4, M=6.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build/ppsim compare --schedule gpipe,1f1b -P 4 -M 6
