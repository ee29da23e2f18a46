#include "args.h"

#include <climits>
#include <cstdint>
#include <cstdio>

#include "errors.h"
#include "ppsim/scene/sweep.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

[[noreturn]] void Invalid(const std::string& keyword, const std::string& what) {
  throw PyError{Fail(ErrorCode::kInvalidValue, keyword + what)};  // no field: a keyword is never renamed
}

// The first lone surrogate of a str that failed to encode: "U+DCFF at index 0".
std::string FirstSurrogate(pyb::handle value) {
  const Py_ssize_t n = PyUnicode_GetLength(value.ptr());
  for (Py_ssize_t i = 0; i < n; ++i) {
    const Py_UCS4 c = PyUnicode_ReadChar(value.ptr(), i);
    if (c >= 0xD800 && c <= 0xDFFF) {
      char text[48];
      std::snprintf(text, sizeof text, "U+%04X at index %zd", static_cast<unsigned>(c), i);
      return text;
    }
  }
  return "a character";
}

std::string NoNul(std::string text, const std::string& keyword, const char* what) {
  if (text.find('\0') != std::string::npos) Invalid(keyword, std::string(": the ") + what + " holds a NUL character");
  return text;
}

// A str's UTF-8 bytes.
std::string Encoded(pyb::handle value, const std::string& keyword) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
  if (data == nullptr) {  // a lone surrogate ("\udcff"): UTF-8 has no encoding for it
    PyErr_Clear();
    Invalid(keyword, ": the text holds a lone surrogate (" + FirstSurrogate(value) + "), which is not UTF-8");
  }
  return std::string(data, size);
}

bool IsInt(pyb::handle v) { return !PyBool_Check(v.ptr()) && PyIndex_Check(v.ptr()); }

// An int's decimal digits (the flag's text).
std::string Digits(pyb::handle value, const std::string& keyword) {
  pyb::object i = pyb::reinterpret_steal<pyb::object>(PyNumber_Index(value.ptr()));
  if (!i) throw pyb::error_already_set();
  PyObject* text = PyObject_Str(i.ptr());
  if (text == nullptr) {  // over sys.get_int_max_str_digits() digits
    PyErr_Clear();
    Invalid(keyword, ": an int too long to print is out of range");
  }
  return Utf8(pyb::reinterpret_steal<pyb::object>(text), keyword);
}

long long LongArg(pyb::handle value, const std::string& keyword, long long min, long long max) {
  if (!IsInt(value)) WrongType(keyword, "int", value);
  pyb::object i = pyb::reinterpret_steal<pyb::object>(PyNumber_Index(value.ptr()));
  if (!i) throw pyb::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow != 0 || v < min || v > max) Invalid(keyword, " " + Digits(i, keyword) + " is out of range");
  return v;
}

bool IsPath(pyb::handle v) {
  return PyUnicode_Check(v.ptr()) || PyBytes_Check(v.ptr()) || pyb::hasattr(pyb::type::handle_of(v), "__fspath__");
}

// A value of --set or one value of --sweep: int, float, bool (TOML's
// true/false) or str; a swept value is a whole number.
std::string Scalar(pyb::handle v, const std::string& keyword, bool whole) {
  if (IsInt(v) || PyUnicode_Check(v.ptr())) return IntText(v, keyword);
  if (!whole && PyFloat_Check(v.ptr())) return pyb::repr(v);
  if (!whole && PyBool_Check(v.ptr())) return v.ptr() == Py_True ? "true" : "false";
  WrongType(keyword, whole ? "int or str" : "int, float, bool or str", v);
}

// range(a, b) -> "a..(b-1)"; another range or a list -> "x,y,z".
std::string SweepValues(pyb::handle v, const std::string& keyword) {
  if (PyRange_Check(v.ptr())) {
    const pyb::object start = v.attr("start"), stop = v.attr("stop"), one = pyb::int_(1);
    const pyb::object step = v.attr("step");
    if (step.equal(one) && start < stop) return Digits(start, keyword) + ".." + Digits(stop - one, keyword);
    if (PyObject_Length(v.ptr()) < 0 || pyb::len(v) > static_cast<size_t>(scene::kMaxSweepPoints)) {
      PyErr_Clear();
      throw PyError{Fail(ErrorCode::kTooLarge, keyword + ": more than " + std::to_string(scene::kMaxSweepPoints) + " values")};
    }
  } else if (!PyList_Check(v.ptr()) && !PyTuple_Check(v.ptr())) {
    return Scalar(v, keyword, true);
  }
  std::string text;
  size_t i = 0;
  for (pyb::handle item : v) {
    text += (i > 0 ? "," : "") + Scalar(item, keyword + "[" + std::to_string(i) + "]", true);
    ++i;
  }
  return text;
}

}  // namespace

void WrongType(const std::string& keyword, const std::string& expected, pyb::handle value) {
  throw pyb::type_error(keyword + ": expected " + expected + ", got " + Py_TYPE(value.ptr())->tp_name);
}

std::string Utf8(pyb::handle value, const std::string& keyword) {
  return NoNul(Encoded(value, keyword), keyword, "text");
}

std::string TextArg(pyb::handle value, const std::string& keyword) {
  if (!PyUnicode_Check(value.ptr())) WrongType(keyword, "str", value);
  return Utf8(value, keyword);
}

std::string IntText(pyb::handle value, const std::string& keyword) {
  if (PyUnicode_Check(value.ptr())) return Utf8(value, keyword);
  if (!IsInt(value)) WrongType(keyword, "int or str", value);
  return Digits(value, keyword);
}

std::string NumberText(pyb::handle value, const std::string& keyword) {
  if (PyFloat_Check(value.ptr())) return pyb::repr(value);
  if (PyUnicode_Check(value.ptr()) || IsInt(value)) return IntText(value, keyword);
  WrongType(keyword, "int, float or str", value);
}

int IntArg(pyb::handle value, const std::string& keyword) {
  return static_cast<int>(LongArg(value, keyword, INT_MIN, INT_MAX));
}

Tick TickArg(pyb::handle value, const std::string& keyword) { return LongArg(value, keyword, LLONG_MIN, LLONG_MAX); }

bool BoolArg(pyb::handle value, const std::string& keyword) {
  if (!PyBool_Check(value.ptr())) WrongType(keyword, "bool", value);
  return value.ptr() == Py_True;
}

std::string PathArg(pyb::handle value, const std::string& keyword) {
  if (!IsPath(value)) WrongType(keyword, "str, bytes or os.PathLike", value);
  pyb::object path = pyb::reinterpret_steal<pyb::object>(PyOS_FSPath(value.ptr()));  // pathlib.Path -> str
  if (!path) throw pyb::error_already_set();
  if (PyUnicode_Check(path.ptr())) return NoNul(Encoded(path, keyword), keyword, "path");
  return NoNul(std::string(PyBytes_AS_STRING(path.ptr()), PyBytes_GET_SIZE(path.ptr())), keyword, "path");
}

ModelArgument ModelArg(pyb::handle value, const std::string& keyword) {
  if (!PyDict_Check(value.ptr())) {
    if (!IsPath(value)) WrongType(keyword, "str, bytes, os.PathLike or a dict (docs/costs.md)", value);
    return {PathArg(value, keyword), ""};
  }
  pyb::object text = pyb::module_::import("json").attr("dumps")(value, pyb::arg("allow_nan") = false);
  return {"", pyb::cast<std::string>(text)};
}

std::vector<std::string> PathListArg(pyb::handle value, const std::string& keyword) {
  if (IsPath(value)) return {PathArg(value, keyword)};
  if (!PyList_Check(value.ptr()) && !PyTuple_Check(value.ptr()))
    WrongType(keyword, "str, os.PathLike or a list of them", value);
  std::vector<std::string> out;
  for (pyb::handle item : value) out.push_back(PathArg(item, keyword + "[" + std::to_string(out.size()) + "]"));
  return out;
}

std::vector<std::string> TextListArg(pyb::handle value, const std::string& keyword) {
  if (!PyList_Check(value.ptr()) && !PyTuple_Check(value.ptr())) WrongType(keyword, "a list of str", value);
  std::vector<std::string> out;
  for (pyb::handle item : value) out.push_back(TextArg(item, keyword + "[" + std::to_string(out.size()) + "]"));
  return out;
}

std::vector<std::string> AssignmentsArg(pyb::handle value, const std::string& keyword, bool sweep) {
  std::vector<std::string> out;
  if (value.is_none()) return out;
  if (!PyDict_Check(value.ptr())) WrongType(keyword, sweep ? "a dict like {\"P\": range(1, 9)}" : "a dict like {\"P\": 8}", value);
  for (auto [key, v] : pyb::reinterpret_borrow<pyb::dict>(value)) {
    const std::string name = TextArg(key, keyword + " key");
    const std::string where = keyword + "['" + name + "']";
    out.push_back(name + "=" + (sweep ? SweepValues(v, where) : Scalar(v, where, false)));
  }
  return out;
}

pyb::str PathStr(const std::string& path) {
  PyObject* s = PyUnicode_DecodeFSDefaultAndSize(path.data(), static_cast<Py_ssize_t>(path.size()));
  if (s == nullptr) throw pyb::error_already_set();
  return pyb::reinterpret_steal<pyb::str>(s);
}

}  // namespace ppsim::py
