#include "ppsim/rational.h"

#include <limits>

namespace ppsim {
namespace {

using i128 = __int128;

i128 Abs(i128 x) { return x < 0 ? -x : x; }

i128 Gcd(i128 a, i128 b) {
  a = Abs(a);
  b = Abs(b);
  while (b != 0) {
    const i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

bool Fits(i128 x) {
  return x >= std::numeric_limits<std::int64_t>::min() && x <= std::numeric_limits<std::int64_t>::max();
}

std::optional<Rational> Reduce(i128 num, i128 den) {
  if (den == 0) return std::nullopt;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  const i128 g = Gcd(num, den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
  if (!Fits(num) || !Fits(den)) return std::nullopt;
  return Rational::Of(static_cast<std::int64_t>(num), static_cast<std::int64_t>(den));
}

}  // namespace

std::optional<Rational> Rational::Of(std::int64_t num, std::int64_t den) {
  if (den == 0) return std::nullopt;
  i128 n = num, d = den;
  if (d < 0) {
    n = -n;
    d = -d;
  }
  const i128 g = Gcd(n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  if (!Fits(n) || !Fits(d)) return std::nullopt;
  Rational r;
  r.num_ = static_cast<std::int64_t>(n);
  r.den_ = static_cast<std::int64_t>(d);
  return r;
}

std::optional<Rational> Rational::Add(const Rational& o) const {
  return Reduce(static_cast<i128>(num_) * o.den_ + static_cast<i128>(o.num_) * den_, static_cast<i128>(den_) * o.den_);
}

std::optional<Rational> Rational::Sub(const Rational& o) const {
  return Reduce(static_cast<i128>(num_) * o.den_ - static_cast<i128>(o.num_) * den_, static_cast<i128>(den_) * o.den_);
}

std::optional<Rational> Rational::Mul(const Rational& o) const {
  // Cross-reduce first so that in-range results never overflow 128 bits.
  const i128 g1 = Gcd(num_, o.den_), g2 = Gcd(o.num_, den_);
  const i128 n = (num_ / (g1 ? g1 : 1)) * static_cast<i128>(o.num_ / (g2 ? g2 : 1));
  const i128 d = (den_ / (g2 ? g2 : 1)) * static_cast<i128>(o.den_ / (g1 ? g1 : 1));
  return Reduce(n, d);
}

std::optional<Rational> Rational::Div(const Rational& o) const {
  if (o.num_ == 0) return std::nullopt;
  return Reduce(static_cast<i128>(num_) * o.den_, static_cast<i128>(den_) * o.num_);
}

std::optional<Rational> Rational::Neg() const { return Reduce(-static_cast<i128>(num_), den_); }

std::string Rational::ToString() const {
  if (den_ == 1) return std::to_string(num_);
  return std::to_string(num_) + "/" + std::to_string(den_);
}

std::string Rational::ToDisplay() const {
  if (den_ == 1) return std::to_string(num_);
  std::int64_t d = den_;
  int twos = 0, fives = 0;
  while (d % 2 == 0) d /= 2, ++twos;
  while (d % 5 == 0) d /= 5, ++fives;
  if (d != 1 || twos > 18 || fives > 18) return ToString();  // keep 10^k within 128 bits
  // num/den = num·2^(k-twos)·5^(k-fives) / 10^k with k = max(twos, fives).
  const int k = twos > fives ? twos : fives;
  i128 scaled = Abs(num_);
  for (int i = twos; i < k; ++i) scaled *= 2;
  for (int i = fives; i < k; ++i) scaled *= 5;
  std::string digits;
  for (i128 x = scaled; x > 0 || static_cast<int>(digits.size()) <= k; x /= 10)
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(x % 10)));
  digits.insert(digits.end() - k, '.');
  return (num_ < 0 ? "-" : "") + digits;
}

std::string Rational::ToFixed(int digits) const {
  i128 scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  const i128 n = Abs(num_) * scale;
  i128 q = n / den_;
  if ((n % den_) * 2 >= den_) ++q;  // half away from zero
  std::string s = std::to_string(static_cast<std::uint64_t>(q / scale));  // |value| < 2^63: fits
  if (digits > 0) {
    std::string frac = std::to_string(static_cast<std::uint64_t>(q % scale));
    s += "." + std::string(digits - frac.size(), '0') + frac;
  }
  return (num_ < 0 && q != 0 ? "-" : "") + s;
}

std::string Rational::ToText() const { return den_ == 1 ? ToString() : ToString() + " (" + ToFixed(4) + ")"; }

}  // namespace ppsim
