#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, ASan+UBSan) into build-fuzz/ and
# runs each for SECONDS (default 600) — or, with PPSIM_FUZZ_RUNS=N, for N
# executions (SECONDS then caps it only if given) — seeded with the inputs kept in
# tests/fuzz/<target>/ (the examples, the docs' scenes, the hostile inputs of
# the bad-input catalogue). New corpus entries go to build-fuzz/corpus/<target>/,
# crashes and hangs to build-fuzz/findings/<target>/. Prints one line per
# target (executions, rate, verdict); exits 1 if any target found something.
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]      (CI: bash scripts/fuzz.sh 60)
#   PPSIM_FUZZ_RUNS=1000000 bash scripts/fuzz.sh    (docs/reliability.md's long run)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
runs_limit=${PPSIM_FUZZ_RUNS:-0}
if ((runs_limit > 0)); then seconds=${1:-0}; else seconds=${1:-600}; fi
shift || true
targets=("$@")
((${#targets[@]})) || targets=(claim_parser scene_loader pytorch_csv schedule_text timeline_json kineto_trace model_toml model_json megatron_log)

need=()
for p in clang-14 libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
done
if ((${#need[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "fuzz: installing ${need[*]}" >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 \
    "${need[@]}" >/dev/null
fi

dir=build-fuzz
# -O1 and line tables only: a quicker build than RelWithDebInfo, stack traces kept.
cmake -S . -B "$dir" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DPPSIM_FUZZ=ON \
  -DPPSIM_BUILD_TESTS=OFF -DPPSIM_BUILD_BENCH=OFF -DPPSIM_BUILD_PYTHON=OFF >/dev/null
cmake --build "$dir" -j"$(nproc)" --target "${targets[@]/#/ppsim_fuzz_}" >/dev/null
echo "fuzz: built ${#targets[@]} targets in $((SECONDS - start))s" >&2

export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=0
for t in "${targets[@]}"; do
  mkdir -p "$dir/corpus/$t" "$dir/findings/$t"
  log="$dir/$t.log"
  status=0
  t0=$SECONDS
  # -timeout: one input taking 30 s is a hang (the slowest kept input, a 1 KB
  # file naming microbatch 996995, takes about 4 s under ASan on a busy machine); -max_len bounds mutated inputs
  # (longer seeds, like the 200 KB claim, are still run whole).
  "$dir/ppsim_fuzz_$t" -max_total_time="$seconds" -runs="$((runs_limit > 0 ? runs_limit : -1))" -timeout=30 -rss_limit_mb=2048 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$dir/findings/$t/" "$dir/corpus/$t" "tests/fuzz/$t" >"$log" 2>&1 ||
    status=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  if [ "$status" -eq 0 ]; then
    verdict=clean
  else
    verdict="FOUND SOMETHING (exit $status): see $log and $dir/findings/$t/"
    failed=1
  fi
  printf 'fuzz: %-14s %10s executions in %ss (%s/s): %s\n' "$t" "${runs:-0}" "$((SECONDS - t0))" "${rate:-0}" "$verdict"
done
echo "fuzz: done in $((SECONDS - start))s" >&2
exit $failed
