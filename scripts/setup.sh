#!/usr/bin/env bash
# Installs what ppsim needs on Debian 12 (as root) and builds it into build/.
# Idempotent: a second run only rebuilds what changed.
#
#   bash scripts/setup.sh [CMAKE_ARGS...]   everything: the tool, the tests, the benchmarks
#   PPSIM_SETUP=run bash scripts/setup.sh   the tool only (scripts/run.sh): no test
#                                           or browser packages, only the `ppsim` target
# Quiet: one line per phase; a failing phase prints the end of its log.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${PPSIM_SETUP:-all}

packages=(
  cmake g++ make pkg-config
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev              # CLI, JSON, scene files
  zlib1g-dev                                                       # gzip profiler traces (explain)
  libcairo2-dev libpango1.0-dev fonts-dejavu-core                  # rendering
  ffmpeg                                                           # video
)
test_packages=(
  libgtest-dev libgmock-dev googletest libbenchmark-dev            # tests, benchmarks
  chromium                                                         # the HTML page's browser tests
  python3-dev pybind11-dev python3-numpy python3-pytest python3-pandas   # `import ppsim` (python/) and its tests
  python3-venv python3-pip python3-setuptools                      # `pip install .` in a venv, tested once
  python3-nbclient python3-ipykernel                               # the example notebook, run by a Jupyter kernel
)
[ "$mode" = run ] || packages+=("${test_packages[@]}")

log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$SECONDS
# phase TEXT CMD...: one line, the command's output kept in $log for a failure.
phase() {
  local text=$1 t0=$SECONDS
  shift
  printf 'setup: %s ...' "$text" >&2
  if ! "$@" >"$log" 2>&1; then
    printf ' failed:\n' >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  printf ' done (%ds)\n' $((SECONDS - t0)) >&2
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  phase "apt-get update" $SUDO apt-get update -qq
  phase "installing ${#missing[@]} packages (${missing[*]})" \
    $SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}"
fi

build_dir=${PPSIM_BUILD_DIR:-build}
if [ "$mode" = run ]; then
  phase "configuring" cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DPPSIM_BUILD_TESTS=OFF \
    -DPPSIM_BUILD_BENCH=OFF "$@"
  phase "building ppsim" cmake --build "$build_dir" -j"$(nproc)" --target ppsim
else
  phase "configuring" cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DPPSIM_BUILD_TESTS=ON \
    -DPPSIM_BUILD_BENCH=ON "$@"
  phase "building ppsim, its tests and benchmarks" cmake --build "$build_dir" -j"$(nproc)"
fi
printf 'setup: ready in %ds\n' $((SECONDS - start)) >&2
