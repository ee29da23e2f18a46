# Malformed TOML files (tests/malformed/) through the module a user imports:
# each raises ppsim.Error with the CLI's exit code (7) and its one line. A
# toml++ parse error once aborted the `ppsim` binary (issue 21); the module
# must never crash on one either.
import os

import pytest

import ppsim
from conftest import SOURCE_DIR, as_python, run_cli

MALFORMED = os.path.join(SOURCE_DIR, "tests", "malformed")
SCENES = sorted(os.listdir(os.path.join(MALFORMED, "scene")))
COSTS = sorted(os.listdir(os.path.join(MALFORMED, "cost")))


@pytest.mark.parametrize("name", SCENES)
def test_a_malformed_scene(name):
    path = os.path.join(MALFORMED, "scene", name)
    code, out, err = run_cli("check", path)
    assert code == 7 and out == "" and err.count("\n") == 1
    for call in (lambda: ppsim.check(path), lambda: ppsim.render(path, "/nonexistent/never.svg")):
        with pytest.raises(ppsim.Error) as e:
            call()
        assert e.value.code == 7
        assert str(e.value) == as_python(err)


@pytest.mark.parametrize("name", COSTS)
def test_a_malformed_cost_file(name):
    path = os.path.join(MALFORMED, "cost", name)
    code, out, err = run_cli("simulate", "--cost-file", path)
    assert code == 7 and out == "" and err.count("\n") == 1
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", cost_file=path)
    assert e.value.code == 7
    assert str(e.value) == as_python(err)
