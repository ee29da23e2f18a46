// A message is one line: what a user typed or a file held is echoed into it
// with its control characters (a newline, a tab, DEL) and the bytes that are
// not UTF-8 written as `\xNN`, so `--set $'P=4\nQ=5'` is reported on one
// line as "--set P=4\x0aQ=5: ...". Well-formed UTF-8 ("≥", "é") is kept, and
// so is a backslash: text escaped once (io::DisplayPath) is left as it was.
#pragma once

#include <string>
#include <string_view>

namespace ppsim {

// The length of the well-formed UTF-8 sequence (no overlongs, no
// surrogates, ≤ U+10FFFF) that starts at text[i], or 0 if none does.
// REQUIRES: i < text.size().
inline size_t Utf8Length(std::string_view text, size_t i) {
  const unsigned char c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) return 1;
  const size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
  if (len == 0 || i + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  const unsigned char c1 = static_cast<unsigned char>(text[i + 1]);
  if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90))
    return 0;
  return len;
}

// Returns `text` with every byte below 0x20, 0x7f, and every byte that does
// not start a well-formed UTF-8 sequence (no overlongs, no surrogates,
// ≤ U+10FFFF), as `\xNN`. Idempotent.
inline std::string OneLine(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto hex = [&out](unsigned char c) {
    constexpr char kDigits[] = "0123456789abcdef";
    out += "\\x";
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  };
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const size_t len = Utf8Length(text, i);
    if (len == 0 || c < 0x20 || c == 0x7f) {
      hex(c);
      ++i;
      continue;
    }
    out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace ppsim
