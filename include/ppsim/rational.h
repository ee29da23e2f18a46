// An exact rational number p/q with 64-bit parts, always reduced and with
// q > 0. Claims compare metrics with it, so that "bubble_ratio(X) == (P-1)/M"
// is decided exactly, never by floating point. Intermediate products are
// computed in 128 bits; a result whose reduced parts do not fit in 64 bits is
// reported as an overflow (nullopt) instead of wrapping.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>

namespace ppsim {

class Rational {
 public:
  Rational() = default;
  Rational(std::int64_t integer) : num_(integer) {}  // NOLINT: implicit by design
  // nullopt if den == 0 or the reduced value does not fit.
  static std::optional<Rational> Of(std::int64_t num, std::int64_t den);

  std::int64_t num() const { return num_; }
  std::int64_t den() const { return den_; }
  bool integral() const { return den_ == 1; }

  // nullopt on overflow (and on division by zero for Div).
  std::optional<Rational> Add(const Rational& o) const;
  std::optional<Rational> Sub(const Rational& o) const;
  std::optional<Rational> Mul(const Rational& o) const;
  std::optional<Rational> Div(const Rational& o) const;
  std::optional<Rational> Neg() const;

  // Exact: cross-multiplied in 128 bits.
  friend bool operator==(const Rational& a, const Rational& b) { return a.num_ == b.num_ && a.den_ == b.den_; }
  friend std::strong_ordering operator<=>(const Rational& a, const Rational& b) {
    const __int128 l = static_cast<__int128>(a.num_) * b.den_;
    const __int128 r = static_cast<__int128>(b.num_) * a.den_;
    return l < r ? std::strong_ordering::less : l > r ? std::strong_ordering::greater : std::strong_ordering::equal;
  }

  double ToDouble() const { return static_cast<double>(num_) / static_cast<double>(den_); }
  // "18", "-3", "1/2": exact, always.
  std::string ToString() const;
  // For people: "18", "0.5", "0.125" when the decimal expansion is finite
  // (denominator 2^a·5^b), else the reduced fraction "1/3". Scene templates.
  std::string ToDisplay() const;
  // The value rounded half away from zero to `digits` decimals: "0.3333".
  std::string ToFixed(int digits) const;
  // How every text output prints a metric (metric_table.h): "18" when
  // whole, else the exact fraction and four decimals, "1/3 (0.3333)".
  std::string ToText() const;

 private:
  std::int64_t num_ = 0;
  std::int64_t den_ = 1;
};

}  // namespace ppsim
