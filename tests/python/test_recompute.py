# Recompute as an op from Python: ppsim.simulate(..., recompute="full") is
# the CLI's --recompute full (the same ops, R before each B), the time it
# costs and the bytes it saves, and bad recompute input raises ppsim.Error
# with the CLI's message and exit code.
import json

import pytest

import ppsim
from conftest import as_python, run_cli


def test_full_recompute_is_the_cli_json():
    code, out, err = run_cli("simulate", "-s", "1f1b", "-P", "2", "-M", "3", "--cost", "F=1,BW=2", "--recompute",
                             "full", "--json")
    assert code == 0, err
    t = ppsim.simulate("1f1b", P=2, M=3, costs={"F": 1, "BW": 2}, recompute="full")
    got = json.loads(t.to_json())
    assert got == json.loads(out)
    assert [o["kind"] for o in got["ops"] if o["device"] == 0] == ["F", "F", "R", "B", "F", "R", "B", "R", "B"]
    assert t.recompute_time == 6
    assert list(t.ops.kind[:3]) == ["F", "F", "R"]


def test_time_paid_and_memory_saved(tmp_path):
    memory = tmp_path / "m.toml"
    memory.write_text("[memory]\nactivation_bytes = 1000\n")
    off = ppsim.simulate("1f1b", P=4, M=8, costs={"F": 1, "BW": 2}, cost_file=str(memory))
    on = ppsim.simulate("1f1b", P=4, M=8, costs={"F": 1, "BW": 2}, cost_file=str(memory), recompute="full",
                        recompute_inputs=0.1)
    early = ppsim.simulate("1f1b", P=4, M=8, costs={"F": 1, "BW": 2}, cost_file=str(memory), recompute="full",
                           recompute_inputs="1/10", recompute_at="early")
    assert (off.makespan, on.makespan, early.makespan) == (33, 44, 41)
    assert list(off.peak_bytes_per_device) == [4000, 3000, 2000, 0]
    assert list(on.peak_bytes_per_device) == [1300, 1200, 1100, 1000]
    assert on.busy - off.busy == on.recompute_time == 32


CASES = [
    (["simulate", "-s", "1f1b", "--recompute", "full", "--recompute-inputs", "1.5"],
     lambda: ppsim.simulate("1f1b", recompute="full", recompute_inputs=1.5)),
    (["simulate", "-s", "1f1b", "--recompute", "partial"], lambda: ppsim.simulate("1f1b", recompute="partial")),
    (["simulate", "-s", "1f1b", "--recompute", "selective"], lambda: ppsim.simulate("1f1b", recompute="selective")),
]


@pytest.mark.parametrize("args,call", CASES)
def test_same_message_and_code_as_cli(args, call):
    code, out, err = run_cli(*args)
    assert code != 0 and out == ""
    with pytest.raises(ppsim.Error) as e:
        call()
    assert e.value.code == code
    assert str(e.value) == as_python(err)


def test_text_export_with_r_reads_back_as_the_same_run(tmp_path):
    # Early R and a tenth of the bytes held: the header carries both.
    t = ppsim.simulate("1f1b", P=4, M=8, costs={"F": 1, "BW": 2}, recompute="full", recompute_at="early",
                       recompute_inputs="1/10")
    text = t.export("text")
    code, out, err = run_cli("simulate", "-s", "1f1b", "-P", "4", "-M", "8", "--cost", "F=1,BW=2", "--recompute",
                             "full", "--recompute-at", "early", "--recompute-inputs", "1/10", "--export", "text")
    assert code == 0 and text == out
    assert text.splitlines()[0].endswith("recompute=full recompute_at=early recompute_inputs=1/10")
    assert text.splitlines()[1].startswith("F0 F1 F2 F3 R0 B0 F4 R1 B1")
    path = tmp_path / "order.txt"
    path.write_text(text)
    again = ppsim.simulate(schedule_file=str(path), costs={"F": 1, "BW": 2})
    assert json.loads(again.to_json())["ops"] == json.loads(t.to_json())["ops"]
    assert (again.makespan, again.recompute_time) == (41, 32)


@pytest.mark.parametrize("at,makespan", [("before_b", 44), ("early", 41)])
def test_timeline_with_r_validates(at, makespan):
    t = ppsim.simulate("1f1b", P=4, M=8, costs={"F": 1, "BW": 2}, recompute="full", recompute_at=at)
    assert t.makespan == makespan
    assert t.validate() == []


def test_pytorch_csv_refuses_r():
    code, out, err = run_cli("simulate", "-s", "1f1b", "--recompute", "full", "--export", "pytorch-csv")
    assert code == 5 and out == ""
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", recompute="full").export("pytorch-csv")
    assert e.value.code == code
    assert str(e.value) == "format: pytorch-csv has no recompute action to carry R ops; export text, or drop recompute"


@pytest.mark.parametrize("with_", [{"recompute": "full"}, ["recompute=full"], "recompute=full"])
def test_compare_with_is_the_cli_compare_with(with_):
    code, out, err = run_cli("compare", "-s", "1f1b", "-P", "4", "-M", "8", "--cost", "F=1,BW=2", "--with",
                             "recompute=full", "--json")
    assert code == 0, err
    c = ppsim.compare(["1f1b"], P=4, M=8, costs={"F": 1, "BW": 2}, with_=with_)
    assert json.loads(c.to_json()) == json.loads(out)
    assert [t.makespan for t in c.timelines] == [33, 44]
    assert c[1].recompute_time == 32


def test_compare_with_a_bad_setting_is_the_cli_error():
    code, out, err = run_cli("compare", "-s", "1f1b", "--with", "recompute=partial")
    assert code == 3 and out == ""
    with pytest.raises(ppsim.Error) as e:
        ppsim.compare(["1f1b"], with_={"recompute": "partial"})
    assert e.value.code == code
    assert str(e.value) == as_python(err)
