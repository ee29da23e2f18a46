# Arguments that once crashed the interpreter or escaped as a raw C++/pybind
# error (issue 21, item 5) raise ppsim.Error with a one-line message, or a
# TypeError naming the keyword and the type it takes. Each case runs in its
# own interpreter, so a segfault fails its test instead of killing pytest.
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

import ppsim
from conftest import BINARY, SOURCE_DIR

SCENE = os.path.join(SOURCE_DIR, "examples", "gpipe_vs_1f1b.toml")

# What each child runs before its case: `deep` is a list nested 2·10^5 deep
# around a 1, `loop` a list that holds itself.
PRELUDE = f"""
import json, pathlib, sys, ppsim
SCENE = {SCENE!r}
deep = 1
for _ in range(200_000):
    deep = [deep]
loop = [1]
loop.append(loop)
"""

CASES = [
    # (the call, the exception's type, its message, ppsim.Error's code or None)
    ("str(ppsim.compare([], P=4, M=6))", "Error", "schedules: give at least one schedule name", 2),
    ("ppsim.compare([], P=4, M=6)._repr_svg_()", "Error", "schedules: give at least one schedule name", 2),
    ("ppsim.simulate(costs={'F': deep})", "TypeError", "costs['F'][0]: expected int or str, got list", None),
    ("ppsim.simulate(comm=deep)", "TypeError", "comm[0]: expected int or str, got list", None),
    ("ppsim.simulate(costs={'F': loop})", "TypeError", "costs['F'][1]: expected int or str, got list", None),
    ("ppsim.simulate(comm=loop)", "TypeError", "comm[1]: expected int or str, got list", None),
    ("d = {}; d['F'] = d; ppsim.simulate(costs=d)", "TypeError",
     "costs['F']: expected int, str or a list of int, got dict", None),
    ("ppsim.check(SCENE, sweep={'P': loop})", "TypeError", "sweep['P'][1]: expected int or str, got list", None),
    ("ppsim.simulate_pytorch({0: [deep]})", "TypeError",
     "pipeline_order[0][0]: expected an action (str, None or an object whose str() is one), got list", None),
    ("ppsim.simulate(chunks='\\udcff')", "Error",
     "chunks: the text holds a lone surrogate (U+DCFF at index 0), which is not UTF-8", 3),
    ("ppsim.simulate('1f1b\\ud800')", "Error",
     "schedule: the text holds a lone surrogate (U+D800 at index 4), which is not UTF-8", 3),
    ("ppsim.render(SCENE, 'a\\udcff.svg')", "Error",
     "out: the text holds a lone surrogate (U+DCFF at index 1), which is not UTF-8", 3),
    ("ppsim.render(SCENE, 'a.svg\\0.png')", "Error", "out: the path holds a NUL character", 3),
    ("ppsim.render(SCENE, 42)", "TypeError", "out: expected str, os.PathLike or a list of them, got int", None),
    ("ppsim.render(SCENE, [pathlib.Path('a.svg'), 7])", "TypeError",
     "out[1]: expected str, bytes or os.PathLike, got int", None),
    ("ppsim.render(42, 'a.svg')", "TypeError", "scene: expected str, bytes or os.PathLike, got int", None),
    ("ppsim.render(SCENE, 'a.svg', fps='30')", "TypeError", "fps: expected int, got str", None),
    ("ppsim.render(SCENE, 'a.svg', fps=2**40)", "Error", "fps 1099511627776 is out of range", 3),
    ("ppsim.render(SCENE, 'a.svg', size=(1280, 720, 3))", "TypeError",
     'size: expected "WIDTHxHEIGHT" or a (width, height) pair, got tuple', None),
    ("ppsim.render(SCENE, 'a.svg', animated=1)", "TypeError", "animated: expected bool, got int", None),
    ("ppsim.check(SCENE, set=['P=8'])", "TypeError", 'set: expected a dict like {"P": 8}, got list', None),
    ("ppsim.check(SCENE, set={'P': [8]})", "TypeError", "set['P']: expected int, float, bool or str, got list", None),
    ("ppsim.simulate(42)", "TypeError", "schedule: expected str, got int", None),
    ("ppsim.simulate(P=4.5)", "TypeError", "P: expected int or str, got float", None),
    ("ppsim.simulate(P=True)", "TypeError", "P: expected int or str, got bool", None),
    ("ppsim.simulate(cost_file=3)", "TypeError", "cost_file: expected str, bytes or os.PathLike, got int", None),
    ("ppsim.compare('gpipe,1f1b')", "TypeError", "schedules: expected a list of str, got str", None),
    ("ppsim.search(P=4, M=8, max_activations=4, placement=1)", "TypeError", "placement: expected str, got int", None),
    ("ppsim.simulate_pytorch([['0F0']])", "TypeError",
     "pipeline_order: expected a dict {rank: [action, ...]}, got list", None),
    ("ppsim.simulate().svg(width='wide')", "TypeError", "width: expected int, got str", None),
    ("ppsim.simulate().export(b'text')", "TypeError", "format: expected str, got bytes", None),
    ("ppsim.compare()['0']", "TypeError", "index: expected int, got str", None),
]

CHILD = """
try:
    {call}
    print(json.dumps(None))
except Exception as e:
    print(json.dumps([type(e).__name__, str(e), getattr(e, "code", None)]))
"""


def child_env():
    """The environment with PYTHONPATH at the ppsim package this test imported."""
    return {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(ppsim.__file__)))}


def run_child(call):
    """(return code, what the child printed): the exception raised by `call` as
    [type name, message, code], or None if it raised nothing."""
    p = subprocess.run([sys.executable, "-c", PRELUDE + CHILD.format(call=call)], capture_output=True, text=True,
                       cwd=tempfile.gettempdir(), env=child_env(), timeout=120)
    return p.returncode, (json.loads(p.stdout) if p.returncode == 0 else p.stderr)


@pytest.mark.parametrize("call,kind,message,code", CASES, ids=[c for c, *_ in CASES])
def test_raises_a_clear_error_never_a_crash(call, kind, message, code):
    returncode, raised = run_child(call)
    assert returncode == 0, f"the interpreter died ({returncode}): {raised}"
    assert raised == [kind, message, code]


def test_a_path_like_is_a_path(tmp_path):
    # render: the same bytes through pathlib.Path as through str.
    ppsim.render(pathlib.Path(SCENE), tmp_path / "path.svg", size=(640, 360))
    ppsim.render(SCENE, str(tmp_path / "str.svg"), size="640x360")
    assert (tmp_path / "path.svg").read_bytes() == (tmp_path / "str.svg").read_bytes()
    r = ppsim.render(SCENE, [tmp_path / "a.svg", os.fsencode(tmp_path / "a.png")], size=(640, 360))
    assert [o["path"] for o in r.outputs] == [str(tmp_path / "a.svg"), str(tmp_path / "a.png")]
    assert ppsim.check(pathlib.Path(SCENE)).ok
    # simulate's files: the schedule file written by export, read back through a Path.
    order = tmp_path / "order.csv"
    order.write_text(ppsim.simulate("1f1b", P=4, M=6).export("pytorch-csv"))
    assert ppsim.simulate(schedule_file=order).makespan == 18


def test_a_message_quoting_bytes_that_are_not_utf8_is_still_one_line():
    path = b"/nonexistent/\xff.toml"
    p = subprocess.run([BINARY, "check", path], capture_output=True)
    with pytest.raises(ppsim.Error) as e:
        ppsim.check(path)
    assert e.value.code == p.returncode == 12
    assert "ppsim: " + str(e.value) + "\n" == p.stderr.decode("utf-8", "backslashreplace")
    assert "\\xff" in str(e.value)



def test_ctrl_c_stops_a_long_search():
    # A search given 10 minutes, interrupted after 1.5 s: KeyboardInterrupt, not
    # a result 10 minutes later (the child is killed long before that).
    child = """
import os, signal, threading, ppsim
threading.Timer(1.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    ppsim.search(P=16, M=64, comm=1, max_activations=6, costs="F=2,B=3,W=1", time_limit=600)
    print("returned")
except KeyboardInterrupt:
    print("interrupted", ppsim.search(P=4, M=8, comm=1, max_activations=4).makespan)
"""
    p = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=child_env(), timeout=120)
    assert (p.returncode, p.stdout) == (0, "interrupted 39\n"), p.stderr  # and the module still searches after it


def test_ctrl_c_stops_a_long_sweep():
    # ppsim.check over a 10^6-point sweep, interrupted after 1.5 s: the sweep's
    # workers stop after their point and KeyboardInterrupt is raised (issue 21).
    child = f"""
import os, signal, threading, ppsim
threading.Timer(1.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    ppsim.check({SCENE!r}, sweep={{"M": "1..1048576"}})
    print("returned")
except KeyboardInterrupt:
    print("interrupted", bool(ppsim.check({SCENE!r})))
"""
    p = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=child_env(), timeout=120)
    assert (p.returncode, p.stdout) == (0, "interrupted True\n"), p.stderr


def test_ctrl_c_stops_a_long_render_and_keeps_the_old_file(tmp_path):
    # A video whose encoder reads forever (a stand-in ffmpeg that swallows its
    # input): Ctrl-C stops ppsim.render at its next image with KeyboardInterrupt,
    # the previous a.mp4 is kept and no temporary is left (issue 21).
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "ffmpeg").write_text("#!/bin/sh\nexec cat > /dev/null\n")
    (bin_dir / "ffmpeg").chmod(0o755)
    out = tmp_path / "a.mp4"
    out.write_text("old")
    env = child_env()
    env["PATH"] = f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"
    env["TMPDIR"] = str(tmp_path)
    child = f"""
import os, signal, threading, ppsim
threading.Timer(1.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    ppsim.render({SCENE!r}, {str(out)!r}, set={{"M": 400}})
    print("returned")
except KeyboardInterrupt:
    print("interrupted")
"""
    p = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env, timeout=120)
    assert (p.returncode, p.stdout) == (0, "interrupted\n"), p.stderr
    assert out.read_text() == "old"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a.mp4", "bin"]
