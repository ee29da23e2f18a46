# ppsim.render: the same RenderScene as `ppsim render`, so the same files,
# the same --json report, and the same refusals.
import json
import os

import pytest

import ppsim
from conftest import SOURCE_DIR, run_cli

SCENE = os.path.join(SOURCE_DIR, "examples", "gpipe_vs_1f1b.toml")


def test_render_writes_the_same_svg_and_report_as_the_cli(tmp_path):
    py_svg, cli_svg = tmp_path / "py.svg", tmp_path / "cli.svg"
    r = ppsim.render(SCENE, str(py_svg), size="1280x720")
    code, out, err = run_cli("render", SCENE, "-o", str(cli_svg), "--size", "1280x720", "--json")
    assert code == 0, err
    assert py_svg.read_bytes() == cli_svg.read_bytes()
    cli = json.loads(out)
    mine = json.loads(r.to_json())
    assert mine["runs"] == cli["runs"] and mine["closing"] == cli["closing"]
    assert [o["width"] for o in mine["outputs"]] == [1280]
    # The numbers are the runs': GPipe and 1F1B finish together at 18.
    assert r.runs["GPipe"]["makespan"] == r.runs["1F1B"]["makespan"] == 18
    assert r.runs["GPipe"]["peak_activations"] == 23 and r.runs["1F1B"]["peak_activations"] == 9
    # r.runs has every metric of render --json's runs, with the same values.
    for run in cli["runs"]:
        mine_run = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in r.runs[run["name"]].items()}
        assert mine_run == {k: v for k, v in run.items() if k != "name"}
    assert r.runs["1F1B"]["bubble_ratio"] == 0.5
    assert "same finish: 18 cycles" in str(r)


def test_render_several_outputs_and_a_frame(tmp_path):
    outs = [str(tmp_path / "a.svg"), str(tmp_path / "a.png")]
    r = ppsim.render(SCENE, outs, size=(640, 360), at_tick=7)
    assert [o["path"] for o in r.outputs] == outs
    assert open(outs[1], "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    # The frame at tick 7 is the CLI's frame at tick 7.
    cli_svg = tmp_path / "cli.svg"
    code, _, err = run_cli("render", SCENE, "-o", str(cli_svg), "--size", "640x360", "--at-tick", "7")
    assert code == 0, err
    assert open(outs[0], "rb").read() == cli_svg.read_bytes()


def test_a_false_claim_raises_and_writes_nothing(tmp_path):
    out = tmp_path / "x.svg"
    with pytest.raises(ppsim.Error) as e:
        ppsim.render(SCENE, str(out), set={"comm": 3})
    assert e.value.code == 11
    assert "claim(s) false" in str(e.value) and "nothing rendered" in str(e.value)
    assert "makespan(GPipe)" in str(e.value)  # the false claim itself is named
    assert not out.exists() and os.listdir(tmp_path) == []


def test_gauge_per_device_is_the_clis(tmp_path):
    py_svg, cli_svg = tmp_path / "py.svg", tmp_path / "cli.svg"
    ppsim.render(SCENE, str(py_svg), gauge="device")
    code, _, err = run_cli("render", SCENE, "-o", str(cli_svg), "--gauge", "device")
    assert code == 0, err
    svg = py_svg.read_text()
    assert svg == cli_svg.read_text()
    assert "held per device" in svg and svg != ppsim_default_svg(tmp_path)


def ppsim_default_svg(tmp_path):
    path = tmp_path / "default.svg"
    ppsim.render(SCENE, str(path))
    return path.read_text()


@pytest.mark.parametrize(
    "kwargs, code, text",
    [
        ({"fps": 1000}, 3, "fps 1000 is outside 1..240"),
        ({"size": "1280x"}, 3, 'size "1280x" must be WIDTHxHEIGHT'),
        ({"out": []}, 2, "say where to write"),
        ({"out": "x.bmp"}, 2, "cannot tell the format"),
        ({"gauge": "stage"}, 3, 'gauge "stage" is not one of fullest, cluster, device'),
    ],
)
def test_bad_arguments_raise_with_the_cli_codes(tmp_path, kwargs, code, text):
    args = {"out": str(tmp_path / "x.svg"), **kwargs}
    with pytest.raises(ppsim.Error) as e:
        ppsim.render(SCENE, **args)
    assert e.value.code == code and text in str(e.value)


def test_a_picture_too_large_to_draw_is_refused_before_simulating(tmp_path):
    out = tmp_path / "big.svg"
    code, _, err = run_cli("render", SCENE, "--set", "P=4096", "--set", "M=2048", "-o", str(out))
    with pytest.raises(ppsim.Error) as e:
        ppsim.render(SCENE, str(out), set={"P": 4096, "M": 2048})
    assert e.value.code == code == 6
    assert "ppsim: " + str(e.value) + "\n" == err
    assert "over the limit 4194304" in str(e.value)
    assert not out.exists()
