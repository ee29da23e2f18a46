# ppsim.explain is `ppsim explain --json`: the same dict for the same traces,
# and the same errors with the CLI's exit codes.
import json
import os

import pytest

import ppsim
from conftest import SOURCE_DIR, as_python, run_cli

TRACES = os.path.join(SOURCE_DIR, "tests", "data", "traces")
NONE = os.path.join(TRACES, "pub-1f1b-P2-M4-none")


def test_explain_is_the_clis_json():
    code, out, err = run_cli("explain", NONE, "--json")
    assert code == 0, err
    assert ppsim.explain(NONE) == json.loads(out)


def test_explain_reads_the_truths_orders_and_makespan():
    with open(os.path.join(NONE, "truth.json")) as f:
        truth = json.load(f)
    r = ppsim.explain([os.path.join(NONE, "rank1.json"), os.path.join(NONE, "rank0.json")])
    assert r["orders"] == truth["orders"]
    assert r["schedule"] == "1f1b"
    assert r["measured"]["makespan_us"] == pytest.approx(truth["measured"]["makespan_us"], rel=1e-3)


def test_explain_errors_are_the_clis(tmp_path):
    bad = tmp_path / "rank0.json.gz"
    bad.write_text("{}")
    code, _, err = run_cli("explain", str(bad))
    with pytest.raises(ppsim.Error) as e:
        ppsim.explain(bad)
    assert e.value.code == code == 12
    assert str(e.value) == as_python(err)


def test_explain_draws_the_clis_picture(tmp_path):
    # output= draws what `ppsim explain -o r.svg` draws, byte for byte.
    code, _, err = run_cli("explain", NONE, "-o", str(tmp_path / "cli.svg"))
    assert code == 0, err
    r = ppsim.explain(NONE, output=tmp_path / "py.svg")
    assert (tmp_path / "py.svg").read_bytes() == (tmp_path / "cli.svg").read_bytes()
    assert ("finish %.3f" % r["measured"]["makespan_us"]).rstrip("0") in (tmp_path / "py.svg").read_text()
    with pytest.raises(ppsim.Error) as e:
        ppsim.explain(NONE, output=tmp_path / "r.txt")
    assert e.value.code == 2
    # The pictures named are the format table's stills, as the CLI's help says them.
    assert "r.txt is no picture (.svg, .png or .html)" in str(e.value)
    _, help_text, _ = run_cli("explain", "--help")
    assert ".svg, .png or .html draws the measured run above its ideal" in help_text


def test_explain_reads_a_ppsim_timeline_as_the_measured_run(tmp_path):
    # A simulated 1F1B with one slow stage, written as simulate --json writes
    # it, then explained: ticks as ns, the slow stage's rank a straggler.
    run = ppsim.simulate("1f1b", P=4, M=8, costs="F=1000:1000:1500:1000,BW=2000:2000:3000:2000")
    path = tmp_path / "slow.json"
    path.write_text(run.to_json())
    r = ppsim.explain(path, equal_stages=True)
    assert r["schedule"] == "1f1b"
    assert r["measured"]["makespan_us"] == 43.5
    assert r["ideal"]["makespan_us"] == 33.0
    assert r["findings"][0]["kind"] == "straggler" and r["findings"][0]["rank"] == 2
    code, out, err = run_cli("explain", str(path), "--json", "--equal-stages")
    assert code == 0, err
    assert r == json.loads(out)


MEGATRON_LOG = os.path.join(SOURCE_DIR, "tests", "data", "megatron", "timers_1f1b_P4_tp2.log")


def test_explain_reads_a_megatron_timers_log():
    # Megatron-LM's per-rank timers (--timing-log-level 2 --timing-log-option
    # all): P, M, v from its arguments block, each stage's mean costs.
    r = ppsim.explain(MEGATRON_LOG, equal_stages=True)
    code, out, err = run_cli("explain", MEGATRON_LOG, "--json", "--equal-stages")
    assert code == 0, err
    assert r == json.loads(out)
    assert (r["P"], r["M"], r["v"], r["schedule"], r["step"]) == (4, 8, 1, "1f1b", 20)
    assert [c["F"] for c in r["costs_us"]] == [10016.25, 10006.25, 12513.75, 10026.25]
    assert r["replay"]["makespan_us"] == 382926.25
    assert r["findings"][0]["kind"] == "straggler" and r["findings"][0]["rank"] == 2


def test_explain_megatron_log_errors_are_the_clis(tmp_path):
    with open(MEGATRON_LOG) as f:
        lines = f.read().split("\n")
    no_p = tmp_path / "no_p.log"
    no_p.write_text("\n".join(l for l in lines if "pipeline_model_parallel_size" not in l))
    bad = tmp_path / "bad.log"
    bad.write_text("\n".join(l.replace("rank  3: 80.02", "rank  3: 80.x3") for l in lines))
    for path, exit_code, line in ((no_p, 7, 2), (bad, 7, 236)):
        code, _, err = run_cli("explain", str(path))
        with pytest.raises(ppsim.Error) as e:
            ppsim.explain(path)
        assert e.value.code == code == exit_code
        assert str(e.value) == as_python(err)
        assert str(e.value).startswith("%s:%d: " % (path, line))


def write_kineto(run, folder):
    """A ppsim run (simulate's JSON, ticks as ns) written one Kineto trace per
    device as PyTorch's runtime records it: a PP:<action> CPU range and its
    gpu_user_annotation (1 ns wider each side, as Kineto writes it) per
    action, an overlapped pair as one "(<F>;<B>)OVERLAP_F_B" range. Returns
    the orders written."""
    split = run["split_backward"]

    def action(o):
        kind = o["kind"]
        if kind == "B" and split and not o.get("full"):
            kind = "I"
        return "%d%s%d" % (o["stage"], kind, o["microbatch"])

    def us(ns):
        return round((1_000_000 + ns) / 1000, 3)

    orders = []
    for d in range(run["P"]):
        mine = sorted((o for o in run["ops"] if o["device"] == d), key=lambda o: (o["start"], o["kind"] != "F"))
        actions, pairs = [], {}
        for o in mine:
            if "overlap" not in o:
                actions.append((action(o), o["start"], o["end"]))
            elif o["overlap"] in pairs:
                f = pairs[o["overlap"]]
                actions.append(("(%s;%s)OVERLAP_F_B" % (action(f), action(o)), f["start"], f["end"]))
            else:
                pairs[o["overlap"]] = o  # the forward: sorted first
        orders.append([a[0] for a in actions])
        events = []
        for i, (name, start, end) in enumerate(actions):
            events.append({"ph": "X", "cat": "user_annotation", "name": "PP:" + name, "pid": 1, "tid": 1,
                           "ts": round(10.0 * i, 3), "dur": 5.0, "args": {"External id": i + 1}})
            events.append({"ph": "X", "cat": "gpu_user_annotation", "name": "PP:" + name, "pid": d, "tid": 7,
                           "ts": us(start - 1), "dur": round((end - start + 2) / 1000, 3),
                           "args": {"External id": i + 1}})
        (folder / ("rank%d.json" % d)).write_text(json.dumps(
            {"distributedInfo": {"rank": d, "world_size": run["P"]}, "traceEvents": events}))
    return orders


def test_explain_reads_overlapped_pairs(tmp_path):
    # DualPipeV with overlapped F&B pairs (FB cheaper than F + B + W), run
    # by ppsim and written as PyTorch's profiler would: read back to the same
    # orders, the schedule's name, the pair's cost and the same makespan.
    run = json.loads(ppsim.simulate("dualpipev", P=2, M=4, costs="F=400000,B=400000,W=300000,FB=800000").to_json())
    orders = write_kineto(run, tmp_path)
    assert any(a.endswith(")OVERLAP_F_B") for order in orders for a in order)
    r = ppsim.explain(tmp_path)
    assert r["orders"] == orders
    assert r["schedule"] == "dualpipev"
    assert r["measured"]["makespan_us"] == run["makespan"] / 1000
    assert r["replay"]["makespan_us"] == run["makespan"] / 1000
    assert r["ideal"]["makespan_us"] == run["makespan"] / 1000
    assert {c["FB"] for c in r["costs_us"] if "FB" in c} == {400.0}  # a chunk's share: v = 2
    code, out, err = run_cli("explain", str(tmp_path), "--json")
    assert code == 0, err
    assert r == json.loads(out)
    # A pair without its closing parenthesis: the CLI's error and exit code.
    rank0 = tmp_path / "rank0.json"
    pair = next(a for a in orders[0] if a.endswith(")OVERLAP_F_B"))
    rank0.write_text(rank0.read_text().replace('"PP:%s"' % pair, '"PP:%s"' % pair[: pair.index(")")]))
    code, _, err = run_cli("explain", str(tmp_path))
    with pytest.raises(ppsim.Error) as e:
        ppsim.explain(tmp_path)
    assert e.value.code == code == 8
    assert str(e.value) == as_python(err)
    assert str(e.value) == "%s: rank 0: action '%s' is no overlapped pair: it does not end in ')OVERLAP_F_B'" % (
        rank0, pair[: pair.index(")")])
