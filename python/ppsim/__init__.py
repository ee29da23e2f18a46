"""ppsim: simulate pipeline-parallel training schedules exactly, in Python.

The same C++ core as the `ppsim` command line: every function here calls the
library the CLI calls, and returns what the CLI would print or write. See
docs/python.md.

    >>> import ppsim
    >>> t = ppsim.simulate("1f1b", P=4, M=6)
    >>> t.makespan, t.peak_activations
    (18, 9)
"""


class Error(ValueError):
    """A ppsim error: the CLI's one-line message, naming keyword arguments where the
    CLI names its flags ("chunks" for "--chunks"); `.code` is the CLI's exit code."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


from . import _ppsim  # noqa: E402  (needs Error first)

_ppsim._set_error_type(Error)

from ._ppsim import (  # noqa: E402
    CheckResult,
    Comparison,
    RenderResult,
    SearchResult,
    Timeline,
    __version__,
    check,
    compare,
    explain,
    layout,
    list_schedules,
    render,
    search,
    search_split,
    simulate,
    simulate_pytorch,
)

__all__ = [
    "__version__",
    "CheckResult",
    "Comparison",
    "Error",
    "RenderResult",
    "SearchResult",
    "Timeline",
    "check",
    "compare",
    "explain",
    "layout",
    "list_schedules",
    "render",
    "search",
    "search_split",
    "simulate",
    "simulate_pytorch",
]
