# Shared by the Python tests (run by ctest: PYTHONPATH=<build>/python,
# PPSIM_BINARY=<build>/ppsim, PPSIM_SOURCE_DIR=the repository).
import json
import os
import subprocess

import pytest

SOURCE_DIR = os.environ.get("PPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("PPSIM_BINARY", os.path.join(SOURCE_DIR, "build", "ppsim"))


def run_cli(*args):
    """(exit code, stdout, stderr) of the ppsim CLI."""
    p = subprocess.run([BINARY, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# The CLI's flags that are not "--" + the keyword with "_" as "-".
_KEYWORDS = {"--cost": "costs", "-o": "out"}


def as_python(cli_err):
    """The CLI's stderr line as ppsim.Error's message: without "ppsim: " and with
    a leading flag ("--chunks", "--set") named as the library names it ("chunks",
    "set"). Only the CLI knows its flags (tools/ppsim/cli_error.cc)."""
    line = cli_err[len("ppsim: "):].rstrip("\n")
    if not line.startswith("-"):
        return line
    end = min((i for i in (line.find(" "), line.find(":")) if i >= 0), default=len(line))
    flag = line[:end]
    return _KEYWORDS.get(flag, flag.lstrip("-").replace("-", "_")) + line[end:]


def data_path(name):
    return os.path.join(SOURCE_DIR, "tests", "data", name)


def pytorch_action(op):
    """The orders file's "F3s1" -> PyTorch's "1F3"; "(F7s0;B3s7)OVERLAP_F_B" -> "(0F7;7B3)OVERLAP_F_B"."""
    if op.startswith("("):
        inner, rest = op[1:].split(")", 1)
        return "(" + ";".join(pytorch_action(a) for a in inner.split(";")) + ")" + rest
    kind, rest = op[0], op[1:]
    microbatch, stage = rest.split("s")
    return stage + kind + microbatch


@pytest.fixture(scope="session")
def pytorch_orders():
    with open(data_path("pytorch_orders_public.json")) as f:
        entries = json.load(f)["entries"]
    for e in entries:
        e["pipeline_order"] = {rank: [pytorch_action(op) for op in ops] for rank, ops in enumerate(e["ranks"])}
    return entries
