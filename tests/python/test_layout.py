# ppsim.layout is `ppsim layout --json`: the same object for the same
# arguments (plus the text the CLI prints), and the same errors with the
# CLI's exit codes.
import json

import pytest

import ppsim
from conftest import run_cli


def test_is_the_cli_json():
    code, out, err = run_cli("layout", "Et*3|(tt|)*29,m|L", "-P", "16", "--json")
    assert code == 0, err
    got = ppsim.layout("Et*3|(tt|)*29,m|L", P=16)
    text = got.pop("text")
    assert got == json.loads(out)
    assert got["v"] == 2
    assert got["stages"][0][1]["decoder_layer_ids"] == [33, 34]  # Megatron's numbering
    assert got["stages"][14][1]["layers"] == "m"
    code, out, err = run_cli("layout", "Et*3|(tt|)*29,m|L", "-P", "16")
    assert text == out


def test_recorded_megatron_layout():
    got = ppsim.layout("E|t|t*2|t||(t|)*2,t*2,L", P=4, num_layers=8)
    assert [[s["layers"] for s in rank] for rank in got["stages"]] == [["E", ""], ["t", "t"], ["tt", "t"], ["t", "ttL"]]
    # Its stage 4 is empty: torchtitan's optimizer refuses a model part without parameters.
    assert got["torchtitan_module_fqns_per_model_part"] is None
    assert got["torchtitan_refusal"].startswith("torchtitan: no module lists, as stage 4 (rank 0, vp stage 1) is empty")
    assert ppsim.layout("E|t|t|tL", P=4)["torchtitan_module_fqns_per_model_part"][0] == ["tok_embeddings"]


def test_warning_in_the_dict():
    got = ppsim.layout("|Ett|tt|ttL", P=4)
    assert got["warnings"] == [
        "layout (column 2): E is written in stage 1 (pp 1, vp 0), but Megatron builds the embedding on pp 0, vp 0"
    ]
    assert got["megatron_layout"] == "E|(tt|)*2,ttL"


@pytest.mark.parametrize(
    "args, kwargs, code, message",
    [
        (["E|(t|)*3,m|m||L", "-P", "2"], dict(P=2), 5,
         "layout (column 10): an MTP layer m in vp stage 2 of pp rank 0: Megatron puts MTP layers only in a rank's "
         "last virtual stage"),
        (["Ett|tL", "-P", "2", "--num-layers", "4"], dict(P=2, num_layers=4), 3,
         "layout (column 5): 3 decoder layers (t), but num_layers is 4"),
        (["E|((t)*2)*3|L", "-P", "3"], dict(P=3), 7,
         "layout (column 4): '(' is not a layer: E, t, m, L, | or a repeat (X)*n, X*n"),
        (["EtL", "-P", "0"], dict(P=0), 3, "P must be ≥ 1, got 0"),
    ],
)
def test_errors_are_the_clis(args, kwargs, code, message):
    cli_code, out, err = run_cli("layout", *args)
    assert cli_code == code and out == ""
    with pytest.raises(ppsim.Error) as e:
        ppsim.layout(args[0], **kwargs)
    assert e.value.code == code
    assert str(e.value) == message
    assert err.strip().endswith(message.replace("P must", "-P must"))


def test_wrong_type_names_the_keyword():
    with pytest.raises(TypeError, match="P"):
        ppsim.layout("EtL", P=[4])


def test_megatron_split_flags():
    got = ppsim.layout(P=8, num_layers=61, mtp_layers=1, decoder_first_pipeline_num_layers=5)
    assert got["megatron_layout"] == "Et*5|(t*8|)*6,t*8mL"
    code, out, err = run_cli(
        "layout", "-P", "8", "--num-layers", "61", "--mtp-layers", "1", "--decoder-first-pipeline-num-layers", "5",
        "--json")
    assert code == 0, err
    got.pop("text")
    assert got == json.loads(out)
    even = ppsim.layout(P=4, num_layers=14, account_for_embedding_in_pipeline_split=True,
                        account_for_loss_in_pipeline_split=True)
    assert [s["num_decoder_layers"] for rank in even["stages"] for s in rank] == [3, 4, 4, 3]


def test_simulate_a_model_split_by_a_layout(tmp_path):
    model = tmp_path / "m.toml"
    model.write_text('recompute = ["decoder"]\n[[layer]]\nkind = "embedding"\nF = 1\nB = 1\nparam_bytes = 100\n'
                     '[[layer]]\nkind = "decoder"\nrepeat = 4\nF = 2\nB = 2\nW = 1\nactivation_bytes = 1000\n'
                     'checkpoint_bytes = 10\nparam_bytes = 50\n[[layer]]\nkind = "loss"\nF = 1\nB = 1\n')
    code, out, err = run_cli("simulate", "-s", "1f1b", "-P", "2", "-M", "4", "--model", str(model), "--layout",
                             "Ett|ttL", "--json")
    assert code == 0, err
    cli = json.loads(out)
    t = ppsim.simulate("1f1b", P=2, M=4, model=str(model), layout="Ett|ttL")
    assert t.makespan == cli["makespan"]
    assert list(t.static_bytes_per_device) == cli["static_bytes_per_device"] == [1600, 800]
    assert list(t.peak_bytes_per_device) == cli["peak_bytes_per_device"]
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", P=2, M=4, model=str(model), layout="Et|ttL")
    assert str(e.value) == "layout (column 5): 3 decoder layers (t), but num_layers is 4"
    assert e.value.code == 3
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("zbv", P=2, M=4, model=str(model), layout="Et|t|t|tL")
    assert str(e.value) == ("layout: Megatron runs stage i on rank i mod P, and zbv places its stages otherwise "
                            "(docs/layouts.md)")
    assert e.value.code == 5
