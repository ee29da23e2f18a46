# examples/choose_a_schedule.ipynb, executed by a real Jupyter kernel the way
# `jupyter nbconvert --execute` runs it: Debian's python3-nbclient drives
# python3-ipykernel, and the outputs are what a notebook user sees.
# (test_notebook.py runs the same cells in-process, for finer assertions.)
import os
import re

from conftest import SOURCE_DIR

NOTEBOOK = os.path.join(SOURCE_DIR, "examples", "choose_a_schedule.ipynb")


def executed_notebook():
    import nbclient  # python3-nbclient and python3-ipykernel: scripts/setup.sh installs them
    import nbformat
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # The kernel inherits this environment, so it imports the ppsim under test.
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=300,
                                     resources={"metadata": {"path": os.path.dirname(NOTEBOOK)}})
    client.execute()
    return nb


def test_notebook_runs_in_a_kernel_and_shows_the_chosen_chart():
    nb = executed_notebook()
    code = [c for c in nb.cells if c.cell_type == "code"]
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, errors
    printed = "".join(o.text for c in code for o in c.outputs if o.output_type == "stream")
    found = re.search(r"fastest within 16\.5 GiB per GPU: (\S+) \((\d+) ticks\)", printed)
    assert found, printed
    makespan = int(found.group(2))

    # The table cell renders as HTML with the chosen run's makespan in it.
    html = [o.data["text/html"] for c in code for o in c.outputs
            if o.output_type == "execute_result" and "text/html" in o.data]
    assert any(f"<td>{makespan}</td>" in h or f">{makespan}<" in h for h in html)

    # The last cell shows the chart as SVG, and the chart's status line is the
    # chosen run's own makespan.
    last = code[-1].outputs[-1]
    assert last.output_type == "execute_result" and "image/svg+xml" in last.data
    svg = last.data["image/svg+xml"]
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert any(t.startswith(f"makespan {makespan} · idle ") for t in texts), texts[:20]
