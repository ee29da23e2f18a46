#!/usr/bin/env python3
"""Regenerates every figure of docs/search.md from ppsim's own output.

The results table: every cell is one `ppsim search ... --json` run, written
between the markers <!-- search-table:begin --> and <!-- search-table:end -->.
The examples: each block between <!-- run: COMMAND --> and <!-- run:end -->
is COMMAND's output, run from the repository's root, written as a console
block (`$ COMMAND`, then its lines up to the first blank line) followed by
the markdown table it prints, if any; <!-- run-table: COMMAND --> writes
the table only, <!-- run-all: COMMAND --> every line in the console block.
A command cut by --time-limit depends on the machine; the others do not.
Run after a build:  python3 scripts/search_doc.py [--time-limit S] [--runs-only] [OUT]
PPSIM=/path/to/ppsim runs another binary.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PPSIM = os.environ.get("PPSIM", os.path.join(ROOT, "build", "ppsim"))
BEGIN, END = "<!-- search-table:begin -->", "<!-- search-table:end -->"


def cell(P, M, cost, comm, budget, limit):
    f, b, w = cost
    args = [PPSIM, "search", "-P", str(P), "-M", str(M), "--cost", f"F={f},B={b},W={w}", "--comm", str(comm),
            "--max-activations", str(budget), "--time-limit", str(limit), "--json"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def fixed(j):
    fits = [s for s in j["fixed_schedules"] if s["fits"]]
    if not fits:
        return None
    return min(fits, key=lambda s: (s["makespan"], s["schedule"]))


def table(limit):
    rows = []
    header = ("| P | M | F,B,W | comm | budget | found | lower bound | gap | optimal | found by "
              "| best fixed that fits | shorter by | Zero Bubble greedy |")
    rows.append(header)
    rows.append("|" + " --- |" * 13)
    stats = {"cells": 0, "shorter": 0, "optimal": 0, "longer": 0, "zb_shorter": 0}
    for P in (4, 8):
        for M in (8, 16, 24):
            for cost in ((1, 1, 1), (2, 2, 1), (3, 2, 2)):
                for comm in (0, 1):
                    for budget in (P, 2 * P):
                        j = cell(P, M, cost, comm, budget, limit)
                        fx = fixed(j)
                        found = j["makespan"]
                        stats["cells"] += 1
                        stats["optimal"] += j["optimal"]
                        if fx is not None and found < fx["makespan"]:
                            stats["shorter"] += 1
                        if fx is not None and found > fx["makespan"]:
                            stats["longer"] += 1
                        best = f"{fx['schedule']} {fx['makespan']}" if fx else "none fits"
                        saved = f"{fx['makespan'] - found}" if fx else "—"
                        zb = j.get("zb_auto_makespan")
                        if zb is not None and found < zb:
                            stats["zb_shorter"] += 1
                        rows.append(f"| {P} | {M} | {cost[0]},{cost[1]},{cost[2]} | {comm} | {budget} | {found} "
                                    f"| {j['lower_bound']} | {100 * j['gap']:.1f}% | {'yes' if j['optimal'] else 'no'} "
                                    f"| {j['found_by']} | {best} | {saved} | {zb if zb is not None else 'fails'} |")
    summary = (f"{stats['cells']} cells: shorter than the best fixed schedule that fits in {stats['shorter']}, "
               f"longer in {stats['longer']}, proven optimal in {stats['optimal']}; shorter than the Zero Bubble "
               f"greedy in {stats['zb_shorter']} (never longer: its variants are among the candidates).")
    return "\n".join(rows), summary


RUN = re.compile(r"<!-- (run|run-table|run-all): (.*?) -->\n.*?<!-- run:end -->", re.S)


def run_block(match):
    kind, command = match.group(1), match.group(2)
    args = shlex.split(command)
    assert args[0] == "ppsim", command
    done = subprocess.run([PPSIM] + args[1:], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{command}: exit {done.returncode}: {done.stderr.strip()}")
    lines = done.stdout.rstrip("\n").split("\n")
    head = lines if kind == "run-all" else lines[:lines.index("")] if "" in lines else lines
    rows = [] if kind == "run-all" else [l for l in lines if l.startswith("| ")]
    parts = [] if kind == "run-table" else ["```console", "$ " + command] + head + ["```"]
    if rows:
        parts += ([""] if parts else []) + rows
    return f"<!-- {kind}: {command} -->\n" + "\n".join(parts) + "\n<!-- run:end -->"


def runs(text):
    started = time.time()
    count = len(RUN.findall(text))
    text = RUN.sub(run_block, text)
    print(f"regenerated {count} command outputs in {time.time() - started:.0f} s")
    return text


def main():
    limit = 2.0
    argv = sys.argv[1:]
    runs_only = "--runs-only" in argv
    argv = [a for a in argv if a != "--runs-only"]
    if argv[:1] == ["--time-limit"]:
        limit = float(argv[1])
        argv = argv[2:]
    out = argv[0] if argv else os.path.join(ROOT, "docs", "search.md")
    text = runs(open(out).read())
    if runs_only:
        open(out, "w").write(text)
        return
    started = time.time()
    rows, summary = table(limit)
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    block = (f"{BEGIN}\nGenerated by `python3 scripts/search_doc.py --time-limit {limit:g}` "
             f"(each cell: `ppsim search -P P -M M --cost F=..,B=..,W=.. --comm c --max-activations N "
             f"--time-limit {limit:g} --json`).\n\n{rows}\n\n{summary}\n{END}")
    open(out, "w").write(head + block + tail)
    print(f"wrote {out} in {time.time() - started:.0f} s: {summary}")


if __name__ == "__main__":
    main()
