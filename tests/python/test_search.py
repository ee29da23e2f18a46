# ppsim.search is `ppsim search`: the same result (JSON, summary, order) for
# the same arguments, and the same errors with the CLI's exit codes.
import json
import re
import subprocess

import pytest

import ppsim
from conftest import BINARY, as_python, run_cli

# A time limit far above the search's own length (0.4 s on main), so that
# the heuristics, not the clock, end it: the result is then the same on any
# machine and under any load.
FLAGS = ["-P", "4", "-M", "8", "--comm", "1", "--max-activations", "4", "--time-limit", "60"]
KWARGS = dict(P=4, M=8, comm=1, max_activations=4, time_limit=60)


def timeless(j):
    """A search's JSON without its wall-clock time."""
    j = dict(j)
    del j["seconds"]
    return j


@pytest.fixture(scope="module")
def found():
    return ppsim.search(**KWARGS)


def test_json_is_the_cli_json(found):
    code, out, err = run_cli("search", *FLAGS, "--json")
    assert code == 0, err
    cli = json.loads(out)
    assert cli["makespan"] == 39 and cli["lower_bound"] == 33  # docs/search.md, on main
    assert timeless(json.loads(found.to_json())) == timeless(cli)


def test_fields(found):
    assert (found.makespan, found.lower_bound) == (39, 33)
    assert found.gap == pytest.approx((39 - 33) / 39)
    assert found.timeline.makespan == 39
    assert max(found.timeline.peak_per_device) <= 4  # the budget, v = 1
    assert found.budget == 4 and found.budget_unit == "stage-sets"
    cli = json.loads(found.to_json())
    assert found.fixed_schedules == cli["fixed_schedules"]
    assert (found.optimal, found.found_by, found.evaluated) == (cli["optimal"], cli["found_by"], cli["evaluated"])


def test_summary_and_order_are_the_clis(found):
    no_time = lambda s: re.sub(r"in [0-9.]+ s;", "in _ s;", s)
    code, out, _ = run_cli("search", *FLAGS)
    assert code == 0
    assert no_time(str(found)) == no_time(out)
    assert "makespan 39  lower bound 33" in out
    for fmt in ("text", "pytorch-csv"):  # byte for byte: the CSV ends its rows in CRLF
        cli = subprocess.run([BINARY, "search", *FLAGS, "--export", fmt], capture_output=True, check=True).stdout
        assert found.order(fmt).encode() == cli
    assert found.order() == found.order("text")


def test_vshape_placement_runs_two_chunks():
    flags = ["-P", "2", "-M", "4", "--max-activations", "2", "--placement", "vshape", "--time-limit", "60", "--json"]
    r = ppsim.search(P=2, M=4, max_activations=2, placement="vshape", time_limit=60)
    j = json.loads(r.to_json())
    assert j["v"] == 2 and max(r.peak_per_device) <= 2 * 2  # budget in stage-sets, two chunk sets each
    cli = json.loads(run_cli("search", *flags)[1])
    assert (cli["v"], cli["makespan"], cli["lower_bound"]) == (2, r.makespan, r.lower_bound)


BASE = ["-P", "4", "-M", "8"]
ERRORS = [
    # (CLI flags after BASE, the same keyword arguments)
    (["--max-activations", "4", "--time-limit", "0"], dict(max_activations=4, time_limit=0)),
    (["--max-activations", "4", "--time-limit", "soon"], dict(max_activations=4, time_limit="soon")),
    (["--max-activations", "4", "--seed", "-1"], dict(max_activations=4, seed=-1)),
    (["--max-activations", "0"], dict(max_activations=0)),
    (["--max-activations", "4", "--placement", "ring"], dict(max_activations=4, placement="ring")),
    ([], dict()),  # no budget
    (["--max-activations", "4", "--cost", "F=0"], dict(max_activations=4, costs={"F": 0})),
]


@pytest.mark.parametrize("flags,kwargs", ERRORS, ids=[" ".join(f) or "no budget" for f, _ in ERRORS])
def test_errors_are_the_clis(flags, kwargs):
    code, out, err = run_cli("search", *BASE, *flags)
    assert code != 0 and out == ""
    with pytest.raises(ppsim.Error) as e:
        ppsim.search(P=4, M=8, **kwargs)
    assert (e.value.code, str(e.value)) == (code, as_python(err))


def test_search_split_is_the_clis_json(tmp_path):
    model = tmp_path / "m.toml"
    model.write_text('[[layer]]\nkind = "embedding"\nF = 2\nB = 2\nW = 2\nparam_bytes = 1000\n'
                     '[[layer]]\nkind = "decoder"\nrepeat = 6\nF = 2\nB = 2\nW = 1\nactivation_bytes = 100\n'
                     'param_bytes = 500\n[[layer]]\nkind = "loss"\nF = 3\nB = 3\nW = 3\nparam_bytes = 1000\n')
    code, out, err = run_cli("search", "--model", str(model), "-P", "2", "-M", "4", "--memory-limit", "1MiB", "--json")
    assert code == 0, err
    cli = json.loads(out)
    got = ppsim.search_split(str(model), P=2, M=4, memory_limit="1MiB")
    got.pop("text")
    for key in ("decoder_layers_per_stage", "makespan", "lower_bound", "optimal", "compared", "megatron", "placement"):
        assert got[key] == cli[key], key
    with pytest.raises(ppsim.Error) as e:
        ppsim.search_split(str(model), P=2, M=4, memory_limit=1000)
    assert e.value.code == 5
    assert str(e.value).startswith("memory_limit 1000 bytes is below what the lightest split needs: the minimum "
                                   "that works is 20300")


# With communication as ops (docs/search.md, "With communication"): P = 2,
# M = 4, two stage-sets, unit costs, PyTorch's lowering, one tick a transfer.
COMMS_FLAGS = ["-P", "2", "-M", "4", "--cost", "F=1,B=1,W=1", "--max-activations", "2", "--comms", "pytorch",
               "--link-latency", "1", "--time-limit", "60"]
COMMS_KWARGS = dict(P=2, M=4, costs={"F": 1, "B": 1, "W": 1}, max_activations=2, comms="pytorch", link_latency=1,
                    time_limit=60)


def test_comms_search_is_the_clis_and_places_as_simulate(tmp_path):
    r = ppsim.search(**COMMS_KWARGS)
    assert (r.makespan, r.lower_bound, r.optimal) == (18, 17, False)
    assert "search  P=2 M=4 v=1 comms=pytorch link.latency=1\n" in str(r)
    j = json.loads(r.to_json())
    assert j["comms"]["rule"] == "pytorch" and j["comms"]["latency"] == {"ticks": 1, "units": 1}
    assert j["validated"] is False
    cli = json.loads(run_cli("search", *COMMS_FLAGS, "--json")[1])
    assert timeless(cli) == timeless(j)
    order = tmp_path / "found.txt"
    order.write_text(r.order("text"))
    placed = ppsim.simulate(schedule_file=str(order), costs={"F": 1, "B": 1, "W": 1}, comms="pytorch", link_latency=1)
    assert placed.makespan == r.makespan


COMMS_ERRORS = [
    (["--max-activations", "4", "--comms", "megatron"], dict(max_activations=4, comms="megatron")),
    (["--max-activations", "4", "--link-latency", "1"], dict(max_activations=4, link_latency=1)),
]


@pytest.mark.parametrize("flags,kwargs", COMMS_ERRORS, ids=[" ".join(f) for f, _ in COMMS_ERRORS])
def test_comms_errors_are_the_clis(flags, kwargs):
    code, out, err = run_cli("search", *BASE, *flags)
    assert code in (2, 5) and out == "" and err.count("\n") == 1
    with pytest.raises(ppsim.Error) as e:
        ppsim.search(P=4, M=8, **kwargs)
    assert (e.value.code, str(e.value)) == (code, as_python(err))
