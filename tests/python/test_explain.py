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
