#include "errors.h"

#include <exception>
#include <new>

#include "ppsim/io/problem_options.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

pyb::object& ErrorType() {
  static pyb::object* type = new pyb::object();  // leaked: lives as long as the interpreter
  return *type;
}

// The CLI's line for the same mistake (the keyword arguments are the CLI's flags).
void Raise(const Error& e) {
  const std::string text = io::AsCliError(e).Text();
  if (!ErrorType()) {  // ppsim/__init__.py not imported: still a ValueError
    PyErr_SetString(PyExc_ValueError, text.c_str());
    return;
  }
  pyb::object err = ErrorType()(text, ExitCode(e.code));
  PyErr_SetObject(ErrorType().ptr(), err.ptr());
}

}  // namespace

void RegisterErrors(pyb::module_& m) {
  m.def("_set_error_type", [](pyb::object type) { ErrorType() = std::move(type); });
  pyb::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const PyError& e) {
      Raise(e.error);
    } catch (const pyb::builtin_exception&) {
      throw;  // pybind11's own (type errors in arguments, ...): Python exceptions already
    } catch (const pyb::error_already_set&) {
      throw;
    } catch (const std::bad_alloc&) {
      Raise(Fail(ErrorCode::kTooLarge, "out of memory"));
    } catch (const std::exception& e) {
      Raise(Fail(ErrorCode::kInternal, std::string("internal error: ") + e.what()));
    }
  });
}

}  // namespace ppsim::py
