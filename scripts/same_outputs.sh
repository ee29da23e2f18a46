#!/usr/bin/env bash
# Byte-identical check across a change (issue 22): runs the README's tour,
# every example scene in every still format and as text, and every registry
# schedule's --json, --format text, trace and exports, through two ppsim
# binaries, each in its own scratch folder, and diffs everything they print
# and write.
#
#   scripts/same_outputs.sh OLD_PPSIM NEW_PPSIM
#
# Build the old binary from the commit before the change, for example:
#   git worktree add /tmp/old HEAD~1 && cmake -S /tmp/old -B /tmp/old/build \
#     -DPPSIM_BUILD_TESTS=OFF -DPPSIM_BUILD_BENCH=OFF && cmake --build /tmp/old/build --target ppsim
#
# Exit 0 and "same outputs: N commands, M files" when nothing differs; else
# the diff and exit 1. Videos are left out (ffmpeg's own version may
# differ between machines); every other format is compared byte for byte,
# but for the time a search took, which is masked.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The commands, one per line, with "ppsim" for the binary: the README tour
# (videos dropped), then the examples and the registry.
commands() {
  sed -n '/^## A tour/,/^## /p' "$root/README.md" | sed -n 's/^    build\/ppsim \(.*\)$/ppsim \1/p' |
    sed 's/ *#.*$//' | grep -v -e '\.mp4' -e '\.webm' -e '\.gif'
  for scene in "$root"/examples/*.toml; do
    name=$(basename "$scene" .toml)
    echo "ppsim render examples/$name.toml -o out/$name.svg -o out/$name.png -o out/$name.html"
    echo "ppsim render examples/$name.toml -o - --format text"
    echo "ppsim check examples/$name.toml --json"
  done
  local names
  names=$("$1" list --json | python3 -c 'import json, sys; print(" ".join(s["name"] for s in json.load(sys.stdin)["schedules"]))')
  for s in $names; do
    echo "ppsim simulate -s $s -P 4 -M 8 --json"
    echo "ppsim simulate -s $s -P 4 -M 8 --format text --width 100"
    echo "ppsim simulate -s $s -P 4 -M 8 --format trace -o out/$s.trace.json"
    for e in pytorch-csv text pytorch-comms-csv; do echo "ppsim simulate -s $s -P 4 -M 8 --export $e"; done
  done
  echo "ppsim compare -s gpipe,1f1b,zb-h1,zbv -P 4 -M 8 --json"
}

run_all() {  # run_all BINARY DIR
  local bin=$1 dir=$2 i=0
  mkdir -p "$dir"
  cp -r "$root/examples" "$dir/examples"
  while IFS= read -r line; do
    i=$((i + 1))
    (cd "$dir" && PPSIM_BIN="$bin" bash -c 'ppsim() { "$PPSIM_BIN" "$@"; }; '"$line" \
      >"$dir/$i.out" 2>"$dir/$i.err"; echo "exit $?" >>"$dir/$i.err") || true
    echo "$line" >"$dir/$i.cmd"
  done <"$work/commands"
  echo "$i"
}

# The one thing that may differ between two runs of one binary: the time a
# search took ("candidates in 0.06 s", "seconds": 0.06).
normalize() {
  find "$1" -name '*.out' -o -name '*.err' | xargs sed -i -E \
    -e 's/candidates in [0-9.]+ s/candidates in T s/g' -e 's/"seconds": ?[0-9.eE+-]+/"seconds":T/g'
}

commands "$1" >"$work/commands"
n=$(run_all "$(realpath "$1")" "$work/old")
run_all "$(realpath "$2")" "$work/new" >/dev/null
normalize "$work/old"
normalize "$work/new"
if diff -r "$work/old" "$work/new" >"$work/diff"; then
  echo "same outputs: $n commands, $(find "$work/new" -type f | wc -l) files"
else
  cat "$work/diff"
  exit 1
fi
