#include "errors.h"

#include <exception>
#include <new>

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

pyb::object& ErrorType() {
  static pyb::object* type = new pyb::object();  // leaked: lives as long as the interpreter
  return *type;
}

// The library's line: a field is named as its keyword argument ("chunks",
// "costs"), where the CLI names its flag ("--chunks", "--cost"). A key of a
// table ("memory.limit") is the keyword with '_' (memory_limit) when the
// value came from a keyword rather than a file.
void Raise(const Error& e) {
  std::string keyword = e.field;
  for (char& c : keyword)
    if (c == '.') c = '_';
  const std::string bytes = (e.file.empty() ? e.Renamed(keyword) : e).Text();
  // A message may quote bytes that are not UTF-8 (a path given as bytes, a
  // file's text): they are shown as \xff, never a UnicodeDecodeError.
  pyb::object text = pyb::reinterpret_steal<pyb::object>(
      PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "backslashreplace"));
  if (!text) throw pyb::error_already_set();
  if (!ErrorType()) {  // ppsim/__init__.py not imported: still a ValueError
    PyErr_SetObject(PyExc_ValueError, text.ptr());
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
