// Checked integer arithmetic: the one helper every boundary uses where a
// product or sum of user-supplied numbers could leave int64 (costs × counts,
// P × makespan, tick scaling, numbers read from JSON). Each function returns
// the exact result, or std::nullopt iff the exact result does not fit in T —
// never wraps, never undefined behaviour. The Error-returning forms name what
// overflowed, for callers that report it as-is (kTooLarge).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "ppsim/error.h"

namespace ppsim {

template <typename T>
[[nodiscard]] constexpr std::optional<T> CheckedAdd(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T out{};
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

template <typename T>
[[nodiscard]] constexpr std::optional<T> CheckedSub(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T out{};
  if (__builtin_sub_overflow(a, b, &out)) return std::nullopt;
  return out;
}

template <typename T>
[[nodiscard]] constexpr std::optional<T> CheckedMul(T a, T b) {
  static_assert(std::is_integral_v<T>);
  T out{};
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

// Converts `v` to To; std::nullopt iff it is out of To's range.
template <typename To, typename From>
[[nodiscard]] constexpr std::optional<To> CheckedCast(From v) {
  static_assert(std::is_integral_v<To> && std::is_integral_v<From>);
  To out{};
  if (__builtin_add_overflow(v, From{0}, &out)) return std::nullopt;
  return out;
}

// a × b as int64, or kTooLarge "WHAT = a × b overflows a 64-bit integer".
inline Result<std::int64_t> MulOrFail(std::int64_t a, std::int64_t b, const std::string& what) {
  if (std::optional<std::int64_t> r = CheckedMul(a, b)) return *r;
  return Fail(ErrorCode::kTooLarge, what + " = " + std::to_string(a) + " × " + std::to_string(b) +
                                        " overflows a 64-bit integer");
}

// a + b as int64, or kTooLarge "WHAT = a + b overflows a 64-bit integer".
inline Result<std::int64_t> AddOrFail(std::int64_t a, std::int64_t b, const std::string& what) {
  if (std::optional<std::int64_t> r = CheckedAdd(a, b)) return *r;
  return Fail(ErrorCode::kTooLarge, what + " = " + std::to_string(a) + " + " + std::to_string(b) +
                                        " overflows a 64-bit integer");
}

}  // namespace ppsim
