# ppsim.compare(model=..., layout=...) is `ppsim compare --model --layout`:
# 1F1B with and without full recompute on the DeepSeek-V3-like model, the
# CLI's bytes and table, with the exact makespans and peak bytes.
import json
import os

import ppsim
from conftest import SOURCE_DIR, run_cli

MODEL = os.path.join(SOURCE_DIR, "examples", "models", "deepseek_v3_like.toml")
LAYOUT = "Et*7|(t*8|)*5,t*7|t*7mL"


def test_compare_with_a_model_is_the_cli_compare():
    flags = ["--schedule", "1f1b", "-P", "8", "-M", "32", "--model", MODEL, "--layout", LAYOUT, "--hold", "resident",
             "--with", "recompute=full"]
    c = ppsim.compare(["1f1b"], P=8, M=32, model=MODEL, layout=LAYOUT, hold="resident", with_={"recompute": "full"})
    code, out, err = run_cli("compare", *flags, "--json")
    assert code == 0, err
    assert c.to_json() == out
    assert str(c) == run_cli("compare", *flags)[1]
    runs = json.loads(out)["runs"]
    assert [r["makespan"] for r in runs] == [16556316, 22075088]
    assert runs[0]["peak_bytes_per_device"][0] == 116292714496
    assert c[1].recompute_time == 28398880
