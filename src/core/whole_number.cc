#include "ppsim/whole_number.h"

#include <charconv>

namespace ppsim {

WholeRead ReadWhole(std::string_view text, std::int64_t& out) {
  if (text.empty()) return WholeRead::kNotWhole;
  const char* end = text.data() + text.size();
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec == std::errc::invalid_argument || ptr != end) return WholeRead::kNotWhole;
  if (ec == std::errc::result_out_of_range) return WholeRead::kTooLarge;
  out = v;
  return WholeRead::kOk;
}

}  // namespace ppsim
