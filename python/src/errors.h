// ppsim errors in Python. Every binding unwraps a Result with Unwrap(); an
// Error becomes ppsim.Error (a ValueError) carrying the one-line message
// (naming keyword arguments where the CLI names its flags) and, as .code,
// the CLI's exit code. Any other C++ exception is
// caught at the boundary too (ppsim.Error, code 70): none reaches Python.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <utility>

#include "ppsim/error.h"

namespace ppsim::py {

// Thrown inside a binding; translated to ppsim.Error at the boundary.
struct PyError {
  Error error;
};

// Raises unless ok.
inline void Check(const Error& e) {
  if (e.code != ErrorCode::kOk) throw PyError{e};
}

template <typename T>
T Unwrap(Result<T> r) {
  if (!r) throw PyError{r.error()};
  return std::move(*r);
}

// Installs the translator; `error_type` is ppsim.Error (defined in Python).
void RegisterErrors(pybind11::module_& m);

}  // namespace ppsim::py
