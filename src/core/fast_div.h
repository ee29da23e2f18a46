// Exact division of 32-bit non-negative integers by a divisor fixed at run
// time, by one multiply (Lemire, Kaser, Kurz 2019). Placement divides every
// op id by M; a hardware divide there would cost more than the rest of the
// loop.
#pragma once

#include <cstdint>

namespace ppsim {

class FastDiv {
 public:
  // REQUIRES: d >= 1.
  explicit FastDiv(std::uint32_t d)
      : d_(d), m_(d == 1 ? 0 : UINT64_C(0xFFFFFFFFFFFFFFFF) / d + 1) {}
  std::uint32_t Div(std::uint32_t a) const {
    if (d_ == 1) return a;
    __extension__ using u128 = unsigned __int128;
    return static_cast<std::uint32_t>((static_cast<u128>(m_) * a) >> 64);
  }

 private:
  std::uint32_t d_;
  std::uint64_t m_;
};

}  // namespace ppsim
