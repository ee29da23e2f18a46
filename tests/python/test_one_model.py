"""One model of work: every run of a comparison does the same work."""
import ppsim


def test_readme_compare_does_equal_work_and_zero_bubble_finishes_first():
    # The README's notebook line, with its default costs and with unit ones.
    for costs in (None, "F=1,B=1,W=1"):
        kwargs = {} if costs is None else {"costs": costs}
        one, h1, v = ppsim.compare(["1f1b", "zb-h1", "zbv"], P=4, M=8, **kwargs)
        assert one.busy == h1.busy == v.busy
        assert h1.makespan < one.makespan
        assert v.makespan < one.makespan


def test_b_alone_is_refused_with_the_reason():
    try:
        ppsim.simulate("1f1b", costs={"F": 1, "B": 2})
    except ppsim.Error as e:
        assert "B is given without W" in str(e)
        assert "give W too, or BW alone for a whole backward" in str(e)
    else:
        raise AssertionError("B alone was accepted")
