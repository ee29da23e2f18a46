# Bad input raises ppsim.Error (a ValueError) with the CLI's one-line message,
# naming the keyword argument where the CLI names its flag, and, as .code, the
# CLI's exit code; nothing else escapes.
import os
import tempfile

import pytest

import ppsim
from conftest import SOURCE_DIR, as_python, run_cli

HERE = os.path.dirname(os.path.abspath(__file__))  # a directory, not a file
SCENE = os.path.join(SOURCE_DIR, "examples", "gpipe_vs_1f1b.toml")
OUT = os.path.join(tempfile.gettempdir(), "ppsim_test_errors_never_written.svg")
BIG = 2**40  # the largest cost: P × M × Σ costs would overflow int64 at P=4096

CASES = [
    # (CLI arguments, the same call)
    (["simulate", "-P", "0"], lambda: ppsim.simulate("1f1b", P=0)),
    (["simulate", "-P", "x"], lambda: ppsim.simulate("1f1b", P="x")),
    (["simulate", "-M", "99999999999"], lambda: ppsim.simulate("1f1b", M=99999999999)),
    (["simulate", "--schedule", "nope"], lambda: ppsim.simulate("nope")),
    (["simulate", "--schedule", "dualpipe", "-P", "3"], lambda: ppsim.simulate("dualpipe", P=3)),
    (["simulate", "--cost", "F=0"], lambda: ppsim.simulate(costs={"F": 0})),
    (["simulate", "--cost", "X=1"], lambda: ppsim.simulate(costs={"X": 1})),
    (["simulate", "--comm", "-1"], lambda: ppsim.simulate(comm=-1)),
    (["simulate", "--hold", "always"], lambda: ppsim.simulate(hold="always")),
    (["simulate", "--schedule-file", "/nonexistent/a.csv"], lambda: ppsim.simulate(schedule_file="/nonexistent/a.csv")),
    (["compare", "--schedule", "1f1b,nope"], lambda: ppsim.compare(["1f1b", "nope"])),
    (["simulate", "-s", "zbv", "--chunks", "3"], lambda: ppsim.simulate("zbv", chunks=3)),
    (["simulate", "-s", "combined-1f1b", "-P", "4", "-M", "8"], lambda: ppsim.simulate("combined-1f1b", P=4, M=8)),
    (["check", "/dev/null", "--set", "P=0"], lambda: ppsim.check("/dev/null", set={"P": 0})),
    (["check", SCENE, "--set", "P=0"], lambda: ppsim.check(SCENE, set={"P": 0})),
    (["check", SCENE, "--sweep", "P=0..2"], lambda: ppsim.check(SCENE, sweep={"P": "0..2"})),
    (["simulate", "--memory-limit", "x"], lambda: ppsim.simulate(memory_limit="x")),
    (["render", SCENE, "-o", OUT, "--fps", "1000"], lambda: ppsim.render(SCENE, OUT, fps=1000)),
    (["render", SCENE, "-o", OUT, "--size", "1280x"], lambda: ppsim.render(SCENE, OUT, size="1280x")),
    (["render", SCENE, "-o", OUT, "--at-tick", "100000"], lambda: ppsim.render(SCENE, OUT, at_tick=100000)),
    (["render", SCENE, "-o", "x.bmp"], lambda: ppsim.render(SCENE, "x.bmp")),
    # The hardening's limits and input checks (docs/reliability.md) reach Python too.
    (["simulate", "-s", "gpipe", "-P", "4096", "-M", "1", "--cost", f"F={BIG},BW={BIG}"],
     lambda: ppsim.simulate("gpipe", P=4096, M=1, costs={"F": BIG, "BW": BIG})),
    (["compare", "-s", "gpipe,1f1b", "-P", "4096", "-M", "1", "--cost", f"F={BIG},BW={BIG}"],
     lambda: ppsim.compare(["gpipe", "1f1b"], P=4096, M=1, costs={"F": BIG, "BW": BIG})),
    (["simulate", "--schedule-file", HERE], lambda: ppsim.simulate(schedule_file=HERE)),
    (["simulate", "--cost-file", HERE], lambda: ppsim.simulate(cost_file=HERE)),
    (["check", HERE], lambda: ppsim.check(HERE)),
    (["check", "/dev/zero"], lambda: ppsim.check("/dev/zero")),
]


@pytest.mark.parametrize("args,call", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_same_message_and_code_as_cli(args, call):
    code, out, err = run_cli(*args)
    assert code not in (0, 70) and out == ""
    with pytest.raises(ppsim.Error) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert e.value.code == code
    assert str(e.value) == as_python(err)


def test_python_names_the_keyword_the_cli_its_flag():
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("zbv", chunks=3)
    assert str(e.value) == "chunks: zbv runs exactly 2 chunk(s) per device; got 3" and e.value.code == 5
    assert run_cli("simulate", "-s", "zbv", "--chunks", "3")[2] == \
        "ppsim: --chunks: zbv runs exactly 2 chunk(s) per device; got 3\n"
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate(P=0)
    assert str(e.value) == "P must be ≥ 1, got 0"
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate(memory_limit="x")
    assert str(e.value) == "memory_limit: 'x' is not a whole number"
    with pytest.raises(ppsim.Error) as e:
        ppsim.render(SCENE, OUT, fps=1000)
    assert str(e.value) == "fps 1000 is outside 1..240" and e.value.code == 3
    assert run_cli("render", SCENE, "-o", OUT, "--fps", "1000")[2] == "ppsim: --fps 1000 is outside 1..240\n"
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b").export("csv")
    assert str(e.value) == "format: 'csv' is not one of pytorch-csv, text, pytorch-comms-csv" and e.value.code == 2


def test_deadlock_names_the_waiting_ops():
    # Device 0 waits on 1B0, which device 1 runs after 1F1, which needs 0F1,
    # which device 0 runs after 0B0. (A backward before its own forward is
    # PyTorch's order rule instead: exit 8, test_pytorchs_order_rules_...)
    text = "0F0,0B0,0F1,0B1\r\n1F0,1F1,1B0,1B1\r\n"
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "dead.csv")
        with open(path, "w", newline="") as f:
            f.write(text)
        code, _, err = run_cli("simulate", "--schedule-file", path)
        with pytest.raises(ppsim.Error) as e:
            ppsim.simulate(schedule_file=path)
    assert e.value.code == code == 9
    assert "ppsim: " + str(e.value) + "\n" == err
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate_pytorch({0: ["0F0", "0B0", "0F1", "0B1"], 1: ["1F0", "1F1", "1B0", "1B1"]})
    assert e.value.code == 9 and str(e.value).startswith("pipeline_order: deadlock: device 0 waits on")


def test_bad_action_is_a_parse_error_at_its_position():
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate_pytorch({0: ["0F0", "0X0"]})
    assert e.value.code == 7 and str(e.value).startswith("pipeline_order:1:6: unknown action type 'X'")


def test_missing_rank():
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate_pytorch({0: ["0F0"], 2: ["1F0"]})
    assert e.value.code == 3


def test_wrong_argument_type_is_a_type_error():
    with pytest.raises(TypeError):
        ppsim.simulate(42)


def test_claim_nested_too_deep_is_the_cli_parse_error():
    scene = 'P = 4\nM = 6\n[[run]]\nname = "A"\nschedule = "gpipe"\n[[claim]]\ncheck = "' + "(" * 10000 + "P" + ")" * 10000 + ' == 4"\n'
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "deep.toml")
        with open(path, "w") as f:
            f.write(scene)
        code, _, err = run_cli("check", path)
        with pytest.raises(ppsim.Error) as e:
            ppsim.check(path)
    assert e.value.code == code == 7
    assert "ppsim: " + str(e.value) + "\n" == err
    assert "nests deeper than 256 levels" in str(e.value)


def test_pytorchs_order_rules_are_the_clis_error(tmp_path):
    # A backward input before its forward: PyTorch's _validate_schedule
    # message, the cell and exit 8, from Python as from the CLI.
    path = tmp_path / "bad.csv"
    path.write_text("0I0,0F0,0W0\r\n")
    code, out, err = run_cli("simulate", "--schedule-file", str(path))
    assert code == 8
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate(schedule_file=str(path))
    assert "ppsim: " + str(e.value) + "\n" == err
    assert "Running Backward Input for stage 0, microbatch 0 without first running Forward" in err
