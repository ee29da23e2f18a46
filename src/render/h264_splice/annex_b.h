// The NAL units of an H.264 Annex B byte stream (ITU-T H.264, Annex B): the
// bytes between 00 00 01 start codes, header byte included, with the zero
// bytes before a start code (trailing_zero_8bits, the first byte of a 4-byte
// start code) dropped. The views point into the stream.
#pragma once

#include <string_view>
#include <vector>

namespace ppsim::render {

inline std::vector<std::string_view> SplitAnnexB(std::string_view s) {
  std::vector<std::string_view> nals;
  size_t start = std::string_view::npos;
  auto close = [&](size_t end) {
    if (start == std::string_view::npos) return;
    while (end > start && s[end - 1] == 0) --end;
    if (end > start) nals.push_back(s.substr(start, end - start));
  };
  for (size_t i = 0; i + 3 <= s.size();) {
    if (s[i] == 0 && s[i + 1] == 0 && s[i + 2] == 1) {
      close(i);
      i += 3;
      start = i;
    } else {
      ++i;
    }
  }
  close(s.size());
  return nals;
}

}  // namespace ppsim::render
