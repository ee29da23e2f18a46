"""The model file's JSON twin: a dict (or a .json file) with the TOML's keys
runs exactly as the TOML file does, and a bad value raises ppsim.Error naming
its JSON path with the CLI's exit code."""
import json
import os
import tomllib

import pytest

import ppsim
from conftest import SOURCE_DIR, as_python, run_cli

MODELS = os.path.join(SOURCE_DIR, "examples", "models")

# Each example model with a layout that splits it (docs/search.md's even splits).
EXAMPLES = [("llama_like.toml", "Et*8|(t*8|)*2,t*8L", 4), ("deepseek_v3_like.toml", "Et*7|(t*8|)*5,t*7|t*7mL", 8)]


@pytest.mark.parametrize("name,layout,P", EXAMPLES)
def test_a_dict_and_a_json_file_run_as_the_toml(tmp_path, name, layout, P):
    path = os.path.join(MODELS, name)
    with open(path, "rb") as f:
        model = tomllib.load(f)  # the TOML's own keys, as a dict
    as_file = tmp_path / (name[:-len(".toml")] + ".json")
    as_file.write_text(json.dumps(model))
    runs = [ppsim.simulate("1f1b", P=P, M=2 * P, model=m, layout=layout) for m in (path, model, str(as_file))]
    for t in runs[1:]:
        assert t.makespan == runs[0].makespan
        assert list(t.static_bytes_per_device) == list(runs[0].static_bytes_per_device)
        assert list(t.peak_bytes_per_device) == list(runs[0].peak_bytes_per_device)
    code, out, err = run_cli("simulate", "-s", "1f1b", "-P", str(P), "-M", str(2 * P), "--model", str(as_file),
                             "--layout", layout, "--json")
    assert code == 0, err
    assert json.loads(out)["makespan"] == runs[0].makespan


def test_search_split_takes_a_dict():
    model = {"layer": [{"kind": "embedding", "F": 2, "B": 2, "W": 2, "param_bytes": 1000},
                       {"kind": "decoder", "repeat": 6, "F": 2, "B": 2, "W": 1, "activation_bytes": 100,
                        "param_bytes": 500},
                       {"kind": "loss", "F": 3, "B": 3, "W": 3, "param_bytes": 1000}]}
    got = ppsim.search_split(model, P=2, M=4, memory_limit="1MiB", placement="loop")
    assert sum(got["decoder_layers_per_stage"]) == 6
    assert got["lower_bound"] <= got["makespan"]


def test_bad_values_name_their_json_path(tmp_path):
    bad = {"layer": [{"kind": "embedding"}, {"kind": "decoder"}, {"kind": "decoder"}, {"kind": "decoder", "F": -1}]}
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", P=1, model=bad, layout="Ettt")
    assert str(e.value) == "model: layer[3].F must be ≥ 0, got -1"
    assert e.value.code == 3
    with pytest.raises(ppsim.Error) as e:
        ppsim.search_split({"layer": [{"kind": "moe"}]}, P=2, M=2, memory_limit="1GiB")
    assert str(e.value) == "model: layer[0].kind: 'moe' is not a layer kind (embedding, decoder, mtp, loss)"
    assert e.value.code == 4
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", P=1, model={"layer": [{"kind": "decoder", "F": 1.5}]}, layout="t")
    assert str(e.value) == "model: layer[0].F: expected a whole number"
    assert e.value.code == 3
    # A .json file: the same message as the CLI's, placed in the file.
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    code, out, err = run_cli("simulate", "-P", "1", "--model", str(path), "--layout", "Ettt")
    assert (code, out) == (3, "")
    with pytest.raises(ppsim.Error) as e:
        ppsim.simulate("1f1b", P=1, model=str(path), layout="Ettt")
    assert str(e.value) == as_python(err) == f"{path}: layer[3].F must be ≥ 0, got -1"
    assert e.value.code == code
    with pytest.raises(TypeError):
        ppsim.simulate("1f1b", P=1, model=3, layout="t")
