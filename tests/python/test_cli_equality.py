# The module and the CLI are one program: for every schedule in the registry,
# Timeline.to_json() is byte for byte what `ppsim simulate --json` prints.
import json

import pytest

import ppsim
from conftest import as_python, run_cli

SCHEDULES = [s["name"] for s in ppsim.list_schedules()]

# (CLI flags, the same as keyword arguments)
PROBLEMS = [
    (["-P", "4", "-M", "8"], dict(P=4, M=8)),
    (["-P", "2", "-M", "4", "--cost", "F=2,B=3,W=1", "--comm", "1"], dict(P=2, M=4, costs={"F": 2, "B": 3, "W": 1}, comm=1)),
    (["-P", "4", "-M", "8", "--cost", "F=3:1:1:2", "--hold", "resident"], dict(P=4, M=8, costs={"F": [3, 1, 1, 2]}, hold="resident")),
    (["-P", "4", "-M", "8", "--chunks", "2", "--cost", "F=2,B=3,W=1"], dict(P=4, M=8, chunks=2, costs={"F": 2, "B": 3, "W": 1})),
]


def test_registry_lists_what_cli_lists():
    code, out, _ = run_cli("list", "--json")
    assert code == 0
    assert ppsim.list_schedules() == json.loads(out)["schedules"]
    assert len(SCHEDULES) >= 10


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("flags,kwargs", PROBLEMS)
def test_to_json_is_the_cli_json(schedule, flags, kwargs):
    code, out, err = run_cli("simulate", "--schedule", schedule, *flags, "--json")
    if code != 0:  # a precondition: the same message and code
        with pytest.raises(ppsim.Error) as e:
            ppsim.simulate(schedule, **kwargs)
        assert (e.value.code, str(e.value)) == (code, as_python(err))
        return
    t = ppsim.simulate(schedule, **kwargs)
    assert t.to_json() == out
    # Every metric of the JSON is a property with the JSON's value.
    j = json.loads(out)
    for key in ("makespan", "busy", "idle", "bubble_ratio", "bubble_fraction", "bubble_rate_span", "max_span_idle",
                "max_device_idle", "transfers", "peak_stage_sets", "peak_activations"):
        assert getattr(t, key) == j[key] and type(getattr(t, key)) is type(j[key]), key
    assert t.peak_activations_per_device.tolist() == j["peak_activations_per_device"]
    assert t.to_json(critical_path=True) == run_cli("simulate", "--schedule", schedule, *flags, "--json",
                                                    "--critical-path")[1]


def test_every_schedule_runs_at_p4_m8():
    # The equality above is not vacuous: at P=4, M=8 every schedule simulates.
    for name in SCHEDULES:
        chunks = 2 if name == "combined-1f1b" else 1  # Megatron: chunks >= 2 when P > 1
        assert ppsim.simulate(name, P=4, M=8, chunks=chunks).makespan > 0


def test_compare_is_the_cli_compare():
    flags = ["--schedule", "1f1b,zb-h1,zbv,dualpipev", "-P", "4", "-M", "8", "--cost", "F=2,B=2,W=1"]
    c = ppsim.compare(["1f1b", "zb-h1", "zbv", "dualpipev"], P=4, M=8, costs="F=2,B=2,W=1")
    assert c.to_json() == run_cli("compare", *flags, "--json")[1]
    assert str(c) == run_cli("compare", *flags)[1]
    assert [t.schedule for t in c.timelines] == ["1f1b", "zb-h1", "zbv", "dualpipev"]
    assert c[2].to_json() == run_cli("simulate", "--schedule", "zbv", "-P", "4", "-M", "8", "--cost", "F=2,B=2,W=1",
                                     "--json")[1]


def test_canonical_numbers():
    # The seed's canonical example (docs/semantics.md): P=4, M=6, unit costs.
    g, f = ppsim.simulate("gpipe", P=4, M=6), ppsim.simulate("1f1b", P=4, M=6)
    assert (g.makespan, g.idle, g.bubble_ratio, g.peak_activations) == (18, 24, 0.5, 23)
    assert (f.makespan, f.idle, f.bubble_ratio, f.peak_activations) == (18, 24, 0.5, 9)
    code, out, _ = run_cli("simulate", "--schedule", "1f1b", "-P", "4", "-M", "6", "--json")
    assert list(f.peak_per_device) == json.loads(out)["peak_activations_per_device"]


def test_one_model_across_runs():
    # Costs per stage of the model (the default): interleaved v=2 does 1F1B's
    # work in half-cost chunks, on one tick (1 tick = 1/2 stage cost unit).
    c = ppsim.compare(["1f1b", "interleaved"], P=4, M=8, chunks=2)
    one, inter = c.timelines
    assert (one.busy, inter.busy) == (128, 128)
    assert (one.idle, inter.idle) == (48, 24)
    assert (one.cost_basis, one.ticks_per_unit, inter.ticks_per_unit) == ("stage", 2, 2)
    j = json.loads(c.to_json())
    assert (j["cost_basis"], j["ticks_per_unit"]) == ("stage", 2)
    # cost_per="chunk" keeps each value as one op's ticks, as --cost-per chunk does.
    c = ppsim.compare(["1f1b", "interleaved"], P=4, M=8, chunks=2, cost_per="chunk")
    assert [t.makespan for t in c.timelines] == [22, 38]
    assert c.to_json() == run_cli("compare", "-s", "1f1b,interleaved", "-P", "4", "-M", "8", "--chunks", "2",
                                  "--cost-per", "chunk", "--json")[1]
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", cost_per="op")
    assert str(e.value) == "cost_per: 'op' is not one of stage, chunk"
