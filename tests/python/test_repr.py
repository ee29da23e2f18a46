# What a notebook cell shows: a Timeline or a Comparison as the chart
# `ppsim render` draws (SVG) and a short HTML table, numbers from the run.
import re

import ppsim

FORWARD, BACKWARD = 'fill="#265696"', 'fill="#faa03c"'


def rects(svg, fill):
    return len(re.findall(r"<rect [^>]*" + fill, svg))


def texts(svg):
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_timeline_svg_is_the_run():
    t = ppsim.simulate("1f1b", P=4, M=6)  # a notebook cell's last line: Jupyter calls _repr_svg_
    svg = t._repr_svg_()
    assert svg.startswith("<?xml") and "<svg" in svg
    # The run's own numbers in its status line; the gauge is what must fit on
    # one device (1F1B's first device holds P = 4 microbatches).
    assert any(s.startswith("makespan 18 · idle 24 ") and s.endswith("fullest device peak 4 stage-sets")
               for s in texts(svg))
    assert t.device_peak_stage_sets == 4
    # One cell per op, plus the legend's swatch of each kind.
    assert rects(svg, FORWARD) == 24 + 1
    assert rects(svg, BACKWARD) == 24 + 1


def test_comparison_svg_has_every_run():
    c = ppsim.compare(["gpipe", "1f1b"], P=4, M=6)
    svg = c._repr_svg_()
    labels = texts(svg)
    assert "gpipe" in labels and "1f1b" in labels
    # GPipe's fullest device holds all M = 6 (23 across the cluster).
    assert any(s.startswith("makespan 18 · idle 24 ") and s.endswith("fullest device peak 6 stage-sets") for s in labels)
    assert rects(svg, FORWARD) == 2 * 24 + 1


def table_rows(html):
    """Each row of the table: [(tag, style, text), ...]."""
    table = re.search(r"<table.*</table>", html).group(0)
    return [re.findall(r'<(th|td)(?: style="([^"]*)")?>([^<]*)</\1>', row)
            for row in re.findall(r"<tr>(.*?)</tr>", table)]


def test_html_table_beside_the_chart():
    html = ppsim.simulate("gpipe", P=4, M=6)._repr_html_()
    assert "<svg" in html
    rows = {r[0][2]: [c[2] for c in r[1:]] for r in table_rows(html)}
    assert rows["makespan"] == ["18"]
    # Every metric of the table, printed the one way (metric_table.h).
    assert rows["bubble_ratio"] == ["1/2 (0.5000)"]
    assert rows["bubble_rate_span"] == ["1/3 (0.3333)"]
    assert rows["peak per device"] == ["6 6 6 5"]


def test_html_table_is_aligned_and_in_one_unit():
    # The README's notebook line: each run's name heads its column, aligned
    # as its numbers are, and memory is in stage-sets only (ZB-V's cluster
    # peak 14 stage-sets, never beside its 28 chunk sets).
    html = ppsim.compare(["1f1b", "zb-h1", "zbv"], P=4, M=8)._repr_html_()
    rows = table_rows(html)
    head, body = rows[0], rows[1:]
    assert [c[2] for c in head[1:]] == ["1f1b", "zb-h1", "zbv"]
    for r in body:
        assert len(r) == len(head)  # a cell under every head
        for (tag, style, _), (_, head_style, _) in zip(r[1:], head[1:]):
            assert tag == "td" and "text-align:right" in style and style == head_style
    names = [r[0][2] for r in body]
    assert "peak_sets" not in names and "peak_sets per device" not in names
    values = {r[0][2]: [c[2] for c in r[1:]] for r in body}
    assert values["peak"][2] == "14" and values["device_peak"] == ["4", "4", "4"]
    assert "memory in stage-sets" in html


def test_a_chart_that_cannot_be_drawn_raises_the_cli_error():
    t = ppsim.simulate("1f1b", P=64, M=4096)
    try:
        t.svg(width=200, height=100)
    except ppsim.Error as e:
        assert e.code == 14  # illegible: the CLI's exit code for it
    else:
        raise AssertionError("64 device rows do not fit in 100 pixels")


def test_notebook_svg_scales_to_its_cell_and_stays_legible_there():
    # Drawn at the output cell's width (width 100 %, the frame's viewBox) and
    # laid out for a 760 px cell: no text under 9 px there.
    svg = ppsim.compare(["1f1b", "zb-h1", "zbv"], P=4, M=8)._repr_svg_()
    root = re.search(r"<svg [^>]*>", svg).group(0)
    assert 'width="100%"' in root and 'viewBox="0 0 1200 ' in root and "height=" not in root
    sizes = [float(s) for s in re.findall(r'font-size="([0-9.]+)"', svg)]
    assert sizes and min(sizes) * 760 / 1200 >= 9 - 1e-9


def test_subtitle_names_each_runs_chunks_when_they_differ():
    svg = ppsim.compare(["1f1b", "zb-h1", "zbv"], P=4, M=8)._repr_svg_()
    assert "4 devices · 8 microbatches · chunks per device: 1f1b 1 · zb-h1 1 · zbv 2 · one cell = one cycle" in texts(svg)


def test_html_escapes_a_run_name_as_the_painters_do(tmp_path):
    # A schedule file's path is its run's name; the table escapes it with the
    # painters' XmlEscape (" too), never as raw markup.
    path = tmp_path / 'a<b&"c.txt'
    path.write_text("F0 B0\n")
    html = ppsim.simulate(schedule_file=str(path))._repr_html_()
    head = table_rows(html)[0]
    assert head[1][2].endswith("a&lt;b&amp;&quot;c.txt")
    assert 'a<b&"c' not in html
