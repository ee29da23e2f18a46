// Checked integer arithmetic: the one helper every boundary uses where a
// product or sum of user-supplied numbers could leave int64 (costs × counts,
// P × makespan, tick scaling, numbers read from JSON). Each function returns
// the exact result, or std::nullopt iff the exact result does not fit in T —
// never wraps, never undefined behaviour.
#pragma once

#include <optional>
#include <type_traits>

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

}  // namespace ppsim
