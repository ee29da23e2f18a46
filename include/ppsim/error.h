// Errors are values. A Status names what failed in one line; the CLI turns
// its code into a distinct process exit code (see ExitCode) and prints the
// message, never a stack trace.
#pragma once

#include <string>
#include <utility>
#include <variant>

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
  kInternal = 70,
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
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
  return Error{code, std::move(message)};
}

inline int ExitCode(ErrorCode code) { return static_cast<int>(code); }

}  // namespace ppsim
