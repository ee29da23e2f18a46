#!/usr/bin/env bash
# Python vs C++: one ppsim.simulate("1f1b", P=64, M=16384) call beside the
# C++ Simulate() it wraps. Builds what it needs into build/ (after setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --build build --target _ppsim simulate_bench >/dev/null
PYTHONPATH=build/python /usr/bin/python3 bench/python_bench.py build/bench/simulate_bench
