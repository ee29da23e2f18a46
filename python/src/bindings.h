// The pieces of the _ppsim extension, one function per source file.
#pragma once

#include <pybind11/pybind11.h>

namespace ppsim::py {

void BindSimulate(pybind11::module_& m);     // simulate_py.cc
void BindTimeline(pybind11::module_& m);     // timeline_py.cc
void BindComparison(pybind11::module_& m);   // comparison_py.cc
void BindCheck(pybind11::module_& m);        // check_py.cc
void BindRender(pybind11::module_& m);       // render_py.cc
void BindSearch(pybind11::module_& m);       // search_py.cc
void BindLayout(pybind11::module_& m);       // layout_py.cc
void BindExplain(pybind11::module_& m);      // explain_py.cc

}  // namespace ppsim::py
