# ppsim.check is `ppsim check`: the same report, the same JSON, the same errors.
import os

import pytest

import ppsim
from conftest import SOURCE_DIR, as_python, run_cli

SCENE = os.path.join(SOURCE_DIR, "examples", "gpipe_vs_1f1b.toml")


def test_claims_hold_as_the_cli_says():
    r = ppsim.check(SCENE)
    code, out, _ = run_cli("check", SCENE)
    assert (r.ok, bool(r), code) == (True, True, 0)
    assert str(r) == out
    assert r.to_json() == run_cli("check", SCENE, "--json")[1]


def test_set_is_the_cli_set():
    r = ppsim.check(SCENE, set={"P": 8, "M": 16})
    assert r.to_json() == run_cli("check", SCENE, "--set", "P=8", "--set", "M=16", "--json")[1]


def test_sweep_finds_the_cli_counterexamples():
    r = ppsim.check(SCENE, sweep={"P": range(1, 9), "M": [1, 2, 3, 4, 5, 6, 7, 8]})
    code, out, _ = run_cli("check", SCENE, "--sweep", "P=1..8", "--sweep", "M=1,2,3,4,5,6,7,8", "--json")
    assert r.to_json() == out
    assert not r.ok and code == 11  # the folklore fails somewhere in the grid
    assert str(r) == run_cli("check", SCENE, "--sweep", "P=1..8", "--sweep", "M=1..8")[1]


def test_scene_errors_are_the_cli_errors():
    for args, call in [
        (["check", "/nonexistent.toml"], lambda: ppsim.check("/nonexistent.toml")),
        (["check", SCENE, "--set", "P=0"], lambda: ppsim.check(SCENE, set={"P": 0})),
        (["check", SCENE, "--sweep", "P=5..1"], lambda: ppsim.check(SCENE, sweep={"P": "5..1"})),
    ]:
        code, _, err = run_cli(*args)
        with pytest.raises(ppsim.Error) as e:
            call()
        assert (e.value.code, str(e.value)) == (code, as_python(err))
