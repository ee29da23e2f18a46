#!/usr/bin/env bash
# Installs what ppsim needs on Debian 12 (as root) and builds it into build/.
# Idempotent: a second run only rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake g++ make pkg-config
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libfmt-dev   # CLI, JSON, scene files, text
  libcairo2-dev libpango1.0-dev fonts-dejavu-core                  # rendering
  ffmpeg                                                           # video
  libgtest-dev libgmock-dev googletest libbenchmark-dev            # tests, benchmarks
  chromium                                                         # the HTML page's browser tests
  python3-dev pybind11-dev python3-numpy python3-pytest python3-pandas   # `import ppsim` (python/) and its tests
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build_dir=${PPSIM_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
