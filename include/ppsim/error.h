// Errors are values. An Error names what failed in one line; the CLI turns
// its code into a distinct process exit code (see ExitCode) and prints its
// Text(), never a stack trace.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "ppsim/one_line.h"

namespace ppsim {

// Each code is a distinct exit status of the `ppsim` tool.
enum class ErrorCode : int {
  kOk = 0,
  kUsage = 2,          // bad command line (unknown flag, missing argument)
  kInvalidValue = 3,   // a value out of range: P, M, v, a cost ≤ 0, overflow
  kUnknownName = 4,    // unknown schedule / kind / metric
  kPrecondition = 5,   // a schedule's own precondition (e.g. M % P for interleaved)
  kTooLarge = 6,       // refuse before allocating: size limit exceeded
  kParse = 7,          // syntax error in a file (file:line:col in the message)
  kBadSchedule = 8,    // custom schedule with missing, duplicate or unknown ops
  kDeadlock = 9,       // an order whose dependencies can never be met
  kInvalidTimeline = 10,  // `validate` found a violation
  kClaimFalse = 11,    // a claim does not hold
  kIo = 12,            // unreadable input, unwritable output
  kMissingTool = 13,   // ffmpeg / fonts / chromium missing
  kLegibility = 14,    // rendered text would overlap, clip or leave the frame
  kOutOfMemory = 15,   // memory ran out within the limits (docs/reliability.md): the machine has too little
  kInternal = 70,
  // SIGINT or SIGTERM stopped a long run (a sweep): it says how far it got,
  // then dies of the signal, so a shell shows 128 + its number (130, 143).
  kInterrupted = 130,
};

// What failed, as a value (leveldb's Status). `field` names the value at
// fault and `message` says what is wrong with it; where it happened (a file,
// a line, a column) is kept apart, and context is added by wrapping with
// With(), never by editing the message. Text() is the one line a user sees:
//
//   "scene.toml:3:5: run A: P must be ≥ 1, got 0"
//    `-- position --' `With'  `-- field + message --'
//
// A library names its own fields ("P", "chunks", "fps"); a front end that
// spells them otherwise (the CLI's "-P", "--chunks") renames `field` before
// printing (Renamed), so only the front end knows its flags. A value given
// through a parameter rather than a file ("set P=0", a scene override) is
// placed with Via(): `via` names the parameter, and the front end renames it
// too ("--set P=0: P must be ≥ 1, got 0").
class Error {
 public:
  ErrorCode code = ErrorCode::kOk;  // a default Error is success, Error::Ok()
  std::string message;  // follows `field` when there is one: " must be ≥ 1, got 0", ": 'x' is not ..."
  std::string field;    // the value at fault, named at the front of Text(); "" = none
  std::string file;     // where: a file path, or the value given through `via` ("P=0"); "" = none
  std::string via;      // the parameter `file` was given through ("set", "sweep", "shard"); "" = a file
  int line = 0;         // 1-based; 0 = none
  int column = 0;       // 1-based; 0 = none

  Error() = default;
  Error(ErrorCode c, std::string what) : code(c), message(std::move(what)) {}

  static Error Ok() { return Error(ErrorCode::kOk, {}); }
  bool ok() const { return code == ErrorCode::kOk; }

  // "P must be ≥ 1, got 0": Field(kInvalidValue, "P", " must be ≥ 1, got 0").
  static Error Field(ErrorCode code, std::string field, std::string what) {
    Error e(code, std::move(what));
    e.field = std::move(field);
    return e;
  }

  // The same error, with `prefix: ` in front of the field and message. The
  // field is folded into the message: only a bare field may be renamed.
  Error With(std::string_view prefix) const {
    Error e = *this;
    e.message = std::string(prefix) + ": " + e.field + e.message;
    e.field.clear();
    return e;
  }
  // The same error, placed at file:line:column. A column the error already
  // has counts within the text that starts at `column` (a claim's text in a
  // scene), so the two add up. An error placed in a file already stays there
  // (the innermost source is the one to look at).
  Error At(std::string in_file, int at_line = 0, int at_column = 0) const {
    Error e = *this;
    if (!e.file.empty()) return e;
    e.file = std::move(in_file);
    if (e.line == 0) {
      e.line = at_line;
      e.column = e.column > 0 && at_column > 0 ? at_column + e.column - 1 : (at_column > 0 ? at_column : e.column);
    }
    return e;
  }
  // The same error, placed at `value` given through the parameter `param`
  // ("set", "P=0"): Text() says "set P=0: ...". Like At, an error already
  // placed stays where it is.
  Error Via(std::string param, std::string value) const {
    if (!file.empty()) return *this;
    Error e = At(std::move(value));
    e.via = std::move(param);
    return e;
  }
  // The same error with its field called `name` (the CLI's flag for it).
  Error Renamed(std::string name) const {
    Error e = *this;
    if (!e.field.empty()) e.field = std::move(name);
    return e;
  }

  // "file:line:col: field message", "column C: ...", or "field message";
  // always one line: a value echoed in it keeps no control character nor a
  // byte that is not UTF-8 (OneLine, one_line.h).
  std::string Text() const {
    std::string at;
    if (!file.empty()) {
      at = via.empty() ? file : via + " " + file;
      if (line > 0) at += ":" + std::to_string(line) + (column > 0 ? ":" + std::to_string(column) : "");
      else if (column > 0) at += " (column " + std::to_string(column) + ")";
      at += ": ";
    } else if (column > 0) {
      at = "column " + std::to_string(column) + ": ";
    }
    return OneLine(at + field + message);
  }
};

// A value or an Error.
template <typename T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  // REQUIRES: ok()
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  // REQUIRES: !ok()
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Returns an Error (a convenience for `return Fail(...)`).
inline Error Fail(ErrorCode code, std::string message) {
  return Error(code, std::move(message));
}

inline int ExitCode(ErrorCode code) { return static_cast<int>(code); }

}  // namespace ppsim
