// _ppsim: the C++ core, io and render behind `import ppsim` (ppsim/__init__.py).
// Thin: each binding converts arguments (args.h: types checked, a TypeError
// naming the keyword), calls the library and converts the
// result; errors become ppsim.Error (errors.h).
#include "bindings.h"
#include "errors.h"

PYBIND11_MODULE(_ppsim, m) {
  m.doc() = "ppsim's C++ core (use `import ppsim`)";
  m.attr("__version__") = PPSIM_VERSION;  // VERSION, as `ppsim --version` and the package's metadata
  ppsim::py::RegisterErrors(m);
  ppsim::py::BindTimeline(m);
  ppsim::py::BindSimulate(m);
  ppsim::py::BindComparison(m);
  ppsim::py::BindCheck(m);
  ppsim::py::BindRender(m);
  ppsim::py::BindSearch(m);
  ppsim::py::BindLayout(m);
  ppsim::py::BindExplain(m);
}
