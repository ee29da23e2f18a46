"""ppsim.simulate("1f1b", P=64, M=16384) from Python beside the same C++ call.

Run by scripts/python_bench.sh. Both sides are measured alike: each call
starts with no earlier timeline alive (Google Benchmark's loop frees each
result before the next call; here the previous Timeline is dropped first),
and both report the best of REPEATS, in wall-clock time and in process CPU
time (on a loaded machine the CPU time is the steadier of the two).
"""
import json
import subprocess
import sys
import time

import ppsim

REPEATS = 10


def python_ms():
    wall = cpu = float("inf")
    t = None
    for _ in range(REPEATS):
        t = None  # as in the C++ loop: nothing from the last call is alive
        w, c = time.perf_counter(), time.process_time()
        t = ppsim.simulate("1f1b", P=64, M=16384)
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    assert len(t) == 2 * 64 * 16384
    return 1000 * wall, 1000 * cpu


def cpp_ms(binary):
    out = subprocess.run([binary, "--benchmark_format=json", f"--benchmark_repetitions={REPEATS}"],
                         capture_output=True, text=True, check=True).stdout
    runs = [b for b in json.loads(out)["benchmarks"] if b.get("run_type") == "iteration"]
    assert runs and all(b["time_unit"] == "ms" for b in runs)
    return min(b["real_time"] for b in runs), min(b["cpu_time"] for b in runs)


def main():
    cpp_wall, cpp_cpu = cpp_ms(sys.argv[1])
    py_wall, py_cpu = python_ms()
    print(f"1f1b P=64 M=16384 (2,097,152 ops), best of {REPEATS}: "
          f"Python ppsim.simulate {py_wall:.0f} ms wall / {py_cpu:.0f} ms CPU; "
          f"C++ Simulate {cpp_wall:.0f} ms wall / {cpp_cpu:.0f} ms CPU; "
          f"Python/C++ {py_wall / cpp_wall:.2f}x wall, {py_cpu / cpp_cpu:.2f}x CPU")


if __name__ == "__main__":
    main()
