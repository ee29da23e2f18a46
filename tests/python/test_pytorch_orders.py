# PyTorch's pipeline_order in, PyTorch's pipeline_order out: the orders
# PyTorch's own schedule classes produce (tests/data/pytorch_orders_public.json)
# simulate to ppsim's generators' timelines, and to_pytorch() gives them back.
import json

import numpy as np
import pytest

import ppsim

SAME = {"Schedule1F1B": "1f1b", "ScheduleGPipe": "gpipe", "ScheduleInterleaved1F1B": "interleaved",
        "ScheduleZBVZeroBubble": "zbv", "ScheduleDualPipeV": "dualpipev"}


def same_ops(a, b):
    for field in ("device", "stage", "kind", "microbatch", "start", "end"):
        np.testing.assert_array_equal(a.ops[field], b.ops[field], err_msg=field)


def test_every_entry_has_a_ppsim_schedule(pytorch_orders):
    assert {e["schedule"] for e in pytorch_orders} == set(SAME)


def test_pytorch_order_places_like_the_generator(pytorch_orders):
    for e in pytorch_orders:
        generated = ppsim.simulate(SAME[e["schedule"]], P=e["P"], M=e["M"], chunks=e["v"], costs="F=2,B=3,W=1", comm=1)
        imported = ppsim.simulate_pytorch(e["pipeline_order"], costs="F=2,B=3,W=1", comm=1)
        assert (imported.P, imported.M, imported.v) == (e["P"], e["M"], e["v"])
        same_ops(imported, generated)
        assert imported.makespan == generated.makespan


def test_to_pytorch_gives_pytorchs_order(pytorch_orders):
    for e in pytorch_orders:
        if e["schedule"] == "ScheduleDualPipeV":
            continue  # PyTorch writes DualPipeV's lone full backwards as B; ppsim as I then W (same placement)
        t = ppsim.simulate(SAME[e["schedule"]], P=e["P"], M=e["M"], chunks=e["v"])
        assert t.to_pytorch() == e["pipeline_order"], e["schedule"]


@pytest.mark.parametrize("schedule", ["1f1b", "interleaved", "zb-h1", "zbv", "dualpipev"])
def test_round_trip(schedule):
    t = ppsim.simulate(schedule, P=4, M=8, costs={"F": 2, "B": 2, "W": 1})
    back = ppsim.simulate_pytorch(t.to_pytorch(), costs={"F": 2, "B": 2, "W": 1})
    same_ops(back, t)
    assert back.to_pytorch() == t.to_pytorch()


def test_action_objects_and_idle_steps():
    class Action:  # like torch.distributed.pipelining's _Action: str() is "0F0"
        def __init__(self, text):
            self.text = text

        def __str__(self):
            return self.text

    order = ppsim.simulate("1f1b", P=2, M=2).to_pytorch()
    with_objects = {rank: [None] + [Action(a) for a in actions] for rank, actions in order.items()}
    same_ops(ppsim.simulate_pytorch(with_objects), ppsim.simulate("1f1b", P=2, M=2))


def test_dualpipe_cannot_be_exported():
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("dualpipe", P=4, M=8).to_pytorch()
    assert e.value.code == 5


def test_any_placement_is_the_orders_own_map():
    # Hanayo's wave over 3 chunks at P = 2: stages 0..5 on ranks 0 1 1 0 0 1.
    order = {0: "0F0,0F1,3F0,3F1,4F0,4F1,4B0,4B1,3B0,3B1,0B0,0B1".split(","),
             1: "1F0,1F1,2F0,2F1,5F0,5F1,5B0,5B1,2B0,2B1,1B0,1B1".split(",")}
    t = ppsim.simulate_pytorch(order, comm=1)
    assert t.placement == "map"
    assert json.loads(t.to_json())["stage_to_device"] == [0, 1, 1, 0, 0, 1]


def test_placement_keyword_is_the_clis():
    assert ppsim.simulate("zbv", P=4, M=8, placement="map:0,1,2,3,3,2,1,0").placement == "v-shape"
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", P=4, M=8, placement="map:0,1,3,2")
    assert e.value.code == 5
    assert str(e.value).startswith("placement: 1f1b is defined for the loop placement, which puts stage 2 on device 2")
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("zbv", P=4, M=8, placement="map:0,1,2,3,3,2,1,4")
    assert e.value.code == 3
    assert str(e.value) == "placement map (item 8): device 4, but devices are 0..3"
