# examples/choose_a_schedule.ipynb, executed headless: its code cells run in
# order in one namespace, as a kernel would run them, and each cell's last
# expression is shown the way Jupyter shows it (_repr_html_ / _repr_svg_).
# (No Jupyter kernel: Debian's python3-nbclient + python3-ipykernel are 34
# packages; see docs/python.md.)
import ast
import contextlib
import io
import json
import os
import re

from conftest import SOURCE_DIR

NOTEBOOK = os.path.join(SOURCE_DIR, "examples", "choose_a_schedule.ipynb")


def run_notebook(path):
    """(namespace, [(cell index, stdout, displayed object)]) after running every code cell."""
    with open(path) as f:
        nb = json.load(f)
    ns, shown = {"__name__": "__main__"}, []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(tree, f"{path}[{i}]", "exec"), ns)
            value = eval(compile(ast.Expression(last.value), f"{path}[{i}]", "eval"), ns) if last else None
        shown.append((i, out.getvalue(), value))
    return ns, shown


def test_notebook_chooses_the_fastest_schedule_that_fits():
    ns, shown = run_notebook(NOTEBOOK)
    runs, best, budget = ns["runs"], ns["best"], ns["BUDGET"]
    assert set(runs) == {"1F1B", "ZB-H1", "ZB-V", "DualPipeV"}
    # The choice is right: it fits, and nothing that fits is faster.
    assert max(runs[best].peak_bytes_per_device) <= budget
    for name, t in runs.items():
        fits = max(t.peak_bytes_per_device) <= budget
        assert fits == (not t.memory_limit_exceeded)
        assert not fits or t.makespan >= runs[best].makespan
    # The budget matters: the fastest schedule overall does not fit.
    fastest = min(runs, key=lambda n: runs[n].makespan)
    assert fastest != best and runs[fastest].memory_limit_exceeded
    printed = "".join(out for _, out, _ in shown)
    assert f"fastest within 16.5 GiB per GPU: {best} ({runs[best].makespan} ticks)" in printed

    # The table cell shows the runs' numbers; the last cell shows the chosen run's chart.
    tables = [v for _, _, v in shown if hasattr(v, "to_html")]
    assert tables and list(tables[0]["makespan (ticks)"]) == [t.makespan for t in runs.values()]
    _, _, chart = shown[-1]
    svg = chart._repr_svg_()
    assert chart is runs[best]
    status = f"makespan {runs[best].makespan} · idle {runs[best].idle} "
    assert any(text.startswith(status) for text in re.findall(r"<text[^>]*>([^<]*)</text>", svg))
    assert "<svg" in chart._repr_html_()
