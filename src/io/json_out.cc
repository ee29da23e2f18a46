#include "ppsim/io/json_out.h"

#include <charconv>
#include <cstring>

#include <nlohmann/json.hpp>

namespace ppsim::io {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 if it is not one.
size_t Utf8Length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  std::uint32_t min = 0;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) n = 2, min = 0x80;
  else if ((c & 0xF0) == 0xE0) n = 3, min = 0x800;
  else if ((c & 0xF8) == 0xF0) n = 4, min = 0x10000;
  else return 0;
  if (i + n > s.size()) return 0;
  std::uint32_t cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto x = static_cast<unsigned char>(s[i + k]);
    if ((x & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (x & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

JsonOut::JsonOut(Sink sink, size_t capacity) : sink_(std::move(sink)), buffer_(std::max<size_t>(capacity, 4096)) {
  pos_ = buffer_.data();
  end_ = buffer_.data() + buffer_.size();
}

void JsonOut::Drain() {
  if (ok_ && pos_ != buffer_.data()) ok_ = sink_(std::string_view(buffer_.data(), pos_ - buffer_.data()));
  pos_ = buffer_.data();
}

bool JsonOut::Finish() {
  Drain();
  return ok_;
}

JsonOut& JsonOut::Raw(std::string_view s) {
  while (!s.empty()) {
    if (pos_ == end_) Drain();
    const size_t n = std::min(s.size(), static_cast<size_t>(end_ - pos_));
    std::memcpy(pos_, s.data(), n);
    pos_ += n;
    s.remove_prefix(n);
  }
  return *this;
}

JsonOut& JsonOut::Int(std::int64_t v) {
  char* p = Reserve(24);
  pos_ = std::to_chars(p, p + 24, v).ptr;
  return *this;
}

JsonOut& JsonOut::Int128(__int128 v) {
  char digits[48];
  char* d = digits + sizeof digits;
  const bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  do {
    *--d = static_cast<char>('0' + static_cast<int>(u % 10));
    u /= 10;
  } while (u != 0);
  if (negative) *--d = '-';
  return Raw(std::string_view(d, digits + sizeof digits - d));
}

JsonOut& JsonOut::Double(double v) {
  if (!std::isfinite(v)) return Raw("null");
  char* p = Reserve(64);
  pos_ = nlohmann::detail::to_chars(p, p + 64, v);
  return *this;
}

JsonOut& JsonOut::String(std::string_view s, bool short_escapes) {
  Char('"');
  for (size_t i = 0; i < s.size();) {
    char* p = Reserve(16);
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      *p++ = static_cast<char>(c);
      ++i;
    } else if (c < 0x80) {
      *p++ = '\\';
      const bool u_escape = c < 0x20 && !(short_escapes && (c == '\b' || c == '\f')) && c != '\t' && c != '\n' &&
                            c != '\r';
      if (u_escape) {
        p = std::copy_n("u00", 3, p);
        *p++ = kHex[c >> 4];
        *p++ = kHex[c & 15];
      } else {
        *p++ = c == '\b' ? 'b' : c == '\t' ? 't' : c == '\n' ? 'n' : c == '\f' ? 'f' : c == '\r' ? 'r' : static_cast<char>(c);
      }
      ++i;
    } else if (const size_t n = Utf8Length(s, i); n > 0) {
      p = std::copy_n(s.data() + i, n, p);
      i += n;
    } else {  // not UTF-8: the text \xNN
      p = std::copy_n("\\\\x", 3, p);
      *p++ = kHex[c >> 4];
      *p++ = kHex[c & 15];
      ++i;
    }
    Commit(p);
  }
  return Char('"');
}

JsonOut& JsonOut::Ints(const std::vector<std::int64_t>& v) {
  Char('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) Char(',');
    Int(v[i]);
  }
  return Char(']');
}

}  // namespace ppsim::io
