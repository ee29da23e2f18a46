# Sequence slices from Python: ppsim.simulate(..., slices=K) is the CLI's
# --slices K (the same ops, each with its slice), and bad slice input raises
# ppsim.Error with the CLI's message and exit code.
import json

import pytest

import ppsim
from conftest import as_python, run_cli


def test_seq1f1b_is_the_cli_json():
    code, out, err = run_cli("simulate", "-s", "seq1f1b", "-P", "2", "-M", "4", "--slices", "2", "--json")
    assert code == 0, err
    t = ppsim.simulate("seq1f1b", P=2, M=4, slices=2)
    assert t.slices == 2
    got = json.loads(t.to_json())
    assert got["ops"] == json.loads(out)["ops"]
    assert [(o["microbatch"], o["slice"]) for o in got["ops"] if o["device"] == 1][:4] == [(0, 0), (0, 1), (0, 1), (1, 0)]


def test_causal_slices_cost_more_later():
    t = json.loads(ppsim.simulate("seq1f1b", P=2, M=2, slices=4, slice_costs="causal", seq_len=4096,
                                  hidden=1024).to_json())
    forward = [o["end"] - o["start"] for o in t["ops"] if o["device"] == 0 and o["kind"] == "F" and o["microbatch"] == 0]
    assert forward == sorted(forward) and forward[0] < forward[-1]


CASES = [
    (["simulate", "-s", "seq1f1b", "--slices", "100000"], lambda: ppsim.simulate("seq1f1b", slices=100000)),
    (["simulate", "-s", "seq1f1b", "--slices", "2", "--slice-costs", "1:2:3"],
     lambda: ppsim.simulate("seq1f1b", slices=2, slice_costs=[1, 2, 3])),
    (["simulate", "-s", "seq1f1b", "--slices", "3", "--seq-len", "4096"],
     lambda: ppsim.simulate("seq1f1b", slices=3, seq_len=4096)),
    (["simulate", "-s", "1f1b", "--slices", "2"], lambda: ppsim.simulate("1f1b", slices=2)),
]


@pytest.mark.parametrize("args,call", CASES)
def test_same_message_and_code_as_cli(args, call):
    code, out, err = run_cli(*args)
    assert code != 0 and out == ""
    with pytest.raises(ppsim.Error) as e:
        call()
    assert e.value.code == code
    assert str(e.value) == as_python(err)


def test_microbatch_costs_are_the_cli_json():
    code, out, err = run_cli("simulate", "-s", "1f1b", "-P", "2", "-M", "2", "--microbatch-costs", "2:1", "--json")
    assert code == 0, err
    got = json.loads(ppsim.simulate("1f1b", P=2, M=2, microbatch_costs=[2, 1]).to_json())
    assert got == json.loads(out)
    assert got["makespan"] == 9


def test_microbatch_costs_of_the_wrong_length():
    code, out, err = run_cli("simulate", "-M", "2", "--microbatch-costs", "1:2:3")
    assert code == 3 and out == ""
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate(M=2, microbatch_costs=[1, 2, 3])
    assert e.value.code == code
    assert str(e.value) == as_python(err)


def test_text_export_carries_slices_and_reads_back(tmp_path):
    t = ppsim.simulate("seq1f1b", P=2, M=4, slices=2)
    text = t.export("text")
    code, out, err = run_cli("simulate", "-s", "seq1f1b", "-P", "2", "-M", "4", "--slices", "2", "--export", "text")
    assert code == 0 and text == out
    assert text.splitlines()[1].startswith("F0.0 F0.1 F1.0 B0.1")
    path = tmp_path / "order.txt"
    path.write_text(text)
    again = ppsim.simulate(schedule_file=str(path))
    assert json.loads(again.to_json())["ops"] == json.loads(t.to_json())["ops"]


def test_pytorch_csv_refuses_a_sliced_run():
    code, out, err = run_cli("simulate", "-s", "seq1f1b", "--slices", "2", "--export", "pytorch-csv")
    assert code == 5 and out == ""
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("seq1f1b", slices=2).export("pytorch-csv")
    assert e.value.code == 5
    assert "PyTorch's actions have no sequence slices (this run has 2 per microbatch)" in str(e.value)


def test_sliced_timeline_validates():
    # Legal and tight under the slice dependencies (docs/semantics.md), as `ppsim validate` finds it.
    t = ppsim.simulate("seq1f1b", P=2, M=4, slices=2, costs={"F": 2, "B": 2, "W": 2})
    assert t.validate() == []
    assert t.makespan == 27
