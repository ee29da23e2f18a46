// Python arguments checked at the boundary, before any reaches the library.
// Every binding takes its arguments as plain objects and converts them here,
// so pybind11 never casts one (its "Unable to cast Python instance" names
// neither the argument nor the type):
//
//  - a wrong type is a TypeError naming the keyword, the types it takes and
//    the type it got: "out: expected str, os.PathLike or a list of them, got int";
//  - a str that has no UTF-8 encoding (a lone surrogate) or holds a NUL is
//    ppsim.Error (code 3) naming the keyword, never UnicodeEncodeError;
//  - a path is a str, bytes or an os.PathLike (pathlib.Path);
//  - lists are flat: an element that is itself a container is a wrong type,
//    so neither deep nesting nor a list that holds itself reaches a recursion.
// Numbers become the text of the CLI's flag ("4"), so the library checks the
// value and a bad one gets the CLI's message.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "ppsim/op.h"

namespace ppsim::py {

// Throws TypeError "<keyword>: expected <expected>, got <type of value>".
[[noreturn]] void WrongType(const std::string& keyword, const std::string& expected, pybind11::handle value);

// A str, as UTF-8. REQUIRES: value is a str.
std::string Utf8(pybind11::handle value, const std::string& keyword);

// str -> its text.
std::string TextArg(pybind11::handle value, const std::string& keyword);

// int (any object with __index__, not bool) or the flag's text (str).
std::string IntText(pybind11::handle value, const std::string& keyword);

// int, float or str (a number of seconds: time_limit).
std::string NumberText(pybind11::handle value, const std::string& keyword);

// A value that is a C++ int: an int within int's range, else ppsim.Error
// "<keyword> <value> is out of range".
int IntArg(pybind11::handle value, const std::string& keyword);
Tick TickArg(pybind11::handle value, const std::string& keyword);

bool BoolArg(pybind11::handle value, const std::string& keyword);

// str, bytes or os.PathLike -> the path's bytes.
std::string PathArg(pybind11::handle value, const std::string& keyword);

// A model (docs/costs.md): a path (str, bytes, os.PathLike) to a model
// file, TOML or .json, or a dict with the JSON twin's keys, which is
// written as JSON text (json.dumps, no NaN) for the library to read.
struct ModelArgument {
  std::string path, json;  // one of them
};
ModelArgument ModelArg(pybind11::handle value, const std::string& keyword);

// A path or a list/tuple of paths.
std::vector<std::string> PathListArg(pybind11::handle value, const std::string& keyword);

// A list/tuple of str.
std::vector<std::string> TextListArg(pybind11::handle value, const std::string& keyword);

// A dict {key: value} as the CLI's --set (sweep = false: a value is an int,
// float or str) or --sweep (sweep = true: also a range or a list/tuple of
// them) texts: {"P": 8} -> ["P=8"]; {"P": range(1, 9)} -> ["P=1..8"];
// {"comm": [0, 2]} -> ["comm=0,2"]. None -> none.
std::vector<std::string> AssignmentsArg(pybind11::handle value, const std::string& keyword, bool sweep);

// A path the library holds, as Python's str (bytes that are not UTF-8 kept
// as surrogates, as os.fsdecode does).
pybind11::str PathStr(const std::string& path);

}  // namespace ppsim::py
