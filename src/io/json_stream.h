// A streaming JSON reader for profiler traces of any size: a SAX parser
// that reads a KinetoSource's chunks in place and hands its handler views
// of keys, strings and numbers' text. It checks the whole grammar (RFC 8259:
// strings' escapes and UTF-8, numbers, nesting, nothing after the document),
// and keeps no more than one chunk and the token it is in: memory is bounded
// by the longest string, not by the file (a token over kMaxToken is refused).
//
// The handler has
//   bool StartObject(), EndObject(), StartArray(), EndArray();
//   bool Key(std::string_view), String(std::string_view);
//   bool Number(std::string_view text, bool integral);  // a valid JSON number's text; integral: no fraction, no exponent
//   bool Literal();                      // true, false or null
// each returning false to stop the parse (the handler then says why).
// A view is valid only during the call. Strings with escapes are decoded.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "kineto_source.h"

namespace ppsim::io {

template <class Handler>
class JsonStream {
 public:
  static constexpr std::size_t kMaxDepth = 10000;
  static constexpr std::ptrdiff_t kMaxToken = std::ptrdiff_t{64} << 20;

  JsonStream(KinetoSource& source, Handler& handler) : s_(source), h_(handler) {}

  // True when the whole input is one JSON document and the handler took it.
  // False on a syntax error (error() is set, at error_byte()), a read error
  // (the source's), or a handler's stop (error() is empty).
  bool Parse();
  const std::string& error() const { return error_; }
  std::int64_t error_byte() const { return error_byte_; }

 private:
  enum class Want : std::uint8_t { kValue, kValueOrClose, kKey, kKeyOrClose, kColon, kCommaOrClose, kEnd };

  // Makes `n` bytes available from p_, keeping [tok_, p_) in the buffer.
  bool Need(std::ptrdiff_t n);
  bool SkipSpace();
  bool ReadString(std::string_view& out);
  bool ReadNumber(std::string_view& out, bool& integral);
  bool ReadLiteral();
  bool CheckUtf8();
  bool Unescape(const char* from, const char* to);
  bool Fail(const std::string& what);
  bool Close(char c);
  Want AfterValue() const { return stack_.empty() ? Want::kEnd : Want::kCommaOrClose; }

  KinetoSource& s_;
  Handler& h_;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  const char* tok_ = nullptr;  // the token being read, kept over a refill; null between tokens
  std::vector<char> stack_;    // '{' or '[' per open container
  std::string scratch_;        // a string with escapes, decoded
  std::string error_;
  std::int64_t error_byte_ = 0;
};

namespace json_stream_detail {

// Bytes a string's fast scan stops at: '"', '\\', control characters, non-ASCII.
inline constexpr auto kStop = [] {
  struct Table {
    bool v[256] = {};
  } t;
  for (int c = 0; c < 0x20; ++c) t.v[c] = true;
  for (int c = 0x80; c < 256; ++c) t.v[c] = true;
  t.v[static_cast<unsigned char>('"')] = t.v[static_cast<unsigned char>('\\')] = true;
  return t;
}();

// Bytes a number's scan takes: digits, sign, point, exponent (the grammar is checked after).
inline constexpr auto kNumber = [] {
  struct Table {
    bool v[256] = {};
  } t;
  for (const char c : std::string_view("0123456789+-.eE")) t.v[static_cast<unsigned char>(c)] = true;
  return t;
}();

// Whether any of the 8 bytes at p is one kStop holds: '"', '\\', < 0x20 or >= 0x80.
inline bool AnyStop(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  auto zero = [](std::uint64_t x) { return (x - kOnes) & ~x & kHigh; };  // a zero byte in x
  return ((zero(w ^ (kOnes * '"')) | zero(w ^ (kOnes * '\\')) | ((w - kOnes * 0x20) & ~w) | w) & kHigh) != 0;
}

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
std::string Shown(char c);  // 'x', or U+XXXX for a byte that is no printable ASCII

}  // namespace json_stream_detail

template <class Handler>
bool JsonStream<Handler>::Need(std::ptrdiff_t n) {
  while (end_ - p_ < n) {
    if (tok_ != nullptr && end_ - tok_ > kMaxToken) return Fail("a string or number longer than 64 MiB");
    s_.pos_ = p_;
    const std::ptrdiff_t at = p_ - (tok_ != nullptr ? tok_ : p_);
    const char* keep = tok_ != nullptr ? tok_ : p_;
    if (!s_.Refill(&keep)) {
      p_ = keep + at;
      end_ = s_.end_;
      if (tok_ != nullptr) tok_ = keep;
      return false;
    }
    if (tok_ != nullptr) tok_ = keep;
    p_ = keep + at;
    end_ = s_.end_;
  }
  return true;
}

template <class Handler>
bool JsonStream<Handler>::Fail(const std::string& what) {
  if (s_.failed() || !error_.empty()) return false;  // the read error, or the first error, is said instead
  s_.pos_ = p_;
  error_byte_ = s_.consumed();
  error_ = what;
  return false;
}

template <class Handler>
bool JsonStream<Handler>::SkipSpace() {
  for (;;) {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    if (p_ < end_) return true;
    if (!Need(1)) return false;
  }
}

template <class Handler>
bool JsonStream<Handler>::CheckUtf8() {
  // RFC 3629's well-formed sequences (no overlongs, no surrogates, <= U+10FFFF).
  const auto b0 = static_cast<unsigned char>(*p_);
  int len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (b0 >= 0xC2 && b0 <= 0xDF) len = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF) len = 3, lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
  else if (b0 >= 0xF0 && b0 <= 0xF4) len = 4, lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
  else return Fail("invalid UTF-8 (" + json_stream_detail::Shown(*p_) + ") in a string");
  if (!Need(len)) return Fail("unexpected end of input in a string");
  for (int i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(p_[i]);
    if (i == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) {
      p_ += i;
      return Fail("invalid UTF-8 sequence in a string");
    }
  }
  p_ += len;
  return true;
}

template <class Handler>
bool JsonStream<Handler>::ReadString(std::string_view& out) {
  using json_stream_detail::HexValue;
  ++p_;  // the opening quote
  tok_ = p_;
  bool escaped = false;
  for (;;) {
    while (end_ - p_ >= 8 && !json_stream_detail::AnyStop(p_)) p_ += 8;
    while (p_ < end_ && !json_stream_detail::kStop.v[static_cast<unsigned char>(*p_)]) ++p_;
    if (p_ == end_) {
      if (!Need(1)) return Fail("unexpected end of input in a string");
      continue;
    }
    const char c = *p_;
    if (c == '"') break;
    if (c == '\\') {
      if (!Need(2)) return Fail("unexpected end of input in a string");
      const char e = p_[1];
      if (e == 'u') {
        if (!Need(6)) return Fail("unexpected end of input in a string");
        for (int i = 2; i < 6; ++i)
          if (HexValue(p_[i]) < 0) {
            p_ += i;
            return Fail("\\u must be followed by 4 hex digits");
          }
        p_ += 6;
      } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
        p_ += 2;
      } else {
        ++p_;
        return Fail("invalid escape \\" + json_stream_detail::Shown(e) + " in a string");
      }
      escaped = true;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      return Fail("a control character (" + json_stream_detail::Shown(c) + ") in a string must be escaped");
    } else if (!CheckUtf8()) {
      return false;
    }
  }
  const char* from = tok_;
  const char* to = p_;
  ++p_;  // the closing quote
  tok_ = nullptr;
  if (!escaped) {
    out = std::string_view(from, static_cast<std::size_t>(to - from));
    return true;
  }
  if (!Unescape(from, to)) return false;
  out = scratch_;
  return true;
}

template <class Handler>
bool JsonStream<Handler>::Unescape(const char* from, const char* to) {
  using json_stream_detail::HexValue;
  scratch_.clear();
  auto hex4 = [](const char* q) {
    return (HexValue(q[0]) << 12) | (HexValue(q[1]) << 8) | (HexValue(q[2]) << 4) | HexValue(q[3]);
  };
  for (const char* q = from; q < to;) {
    if (*q != '\\') {
      scratch_ += *q++;
      continue;
    }
    const char e = q[1];
    if (e != 'u') {
      scratch_ += e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
      q += 2;
      continue;
    }
    std::uint32_t cp = static_cast<std::uint32_t>(hex4(q + 2));
    q += 6;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return Fail("lone low surrogate \\u" + std::string(q - 4, 4) + " in a string");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (to - q < 6 || q[0] != '\\' || q[1] != 'u') return Fail("high surrogate without its low surrogate in a string");
      const auto lo = static_cast<std::uint32_t>(hex4(q + 2));
      if (lo < 0xDC00 || lo > 0xDFFF) return Fail("high surrogate without its low surrogate in a string");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      q += 6;
    }
    if (cp < 0x80) {
      scratch_ += static_cast<char>(cp);
    } else if (cp < 0x800) {
      scratch_ += static_cast<char>(0xC0 | (cp >> 6));
      scratch_ += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      scratch_ += static_cast<char>(0xE0 | (cp >> 12));
      scratch_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      scratch_ += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      scratch_ += static_cast<char>(0xF0 | (cp >> 18));
      scratch_ += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      scratch_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      scratch_ += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  return true;
}

template <class Handler>
bool JsonStream<Handler>::ReadNumber(std::string_view& out, bool& integral) {
  using json_stream_detail::IsDigit;
  tok_ = p_;
  for (;;) {
    while (p_ < end_ && json_stream_detail::kNumber.v[static_cast<unsigned char>(*p_)]) ++p_;
    if (p_ < end_ || !Need(1)) break;
  }
  if (s_.failed() || !error_.empty()) return false;
  const char* q = tok_;
  const char* e = p_;
  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  auto digits = [&] {
    const char* b = q;
    while (q < e && IsDigit(*q)) ++q;
    return q > b;
  };
  bool ok = true;
  integral = true;
  if (q < e && *q == '-') ++q;
  if (q < e && *q == '0') ++q;
  else ok = digits();
  if (ok && q < e && *q == '.') ++q, ok = digits(), integral = false;
  if (ok && q < e && (*q == 'e' || *q == 'E')) {
    ++q, integral = false;
    if (q < e && (*q == '+' || *q == '-')) ++q;
    ok = digits();
  }
  if (!ok || q != e) {
    const std::string text(tok_, static_cast<std::size_t>(std::min<std::ptrdiff_t>(e - tok_, 40)));
    tok_ = nullptr;
    return Fail("invalid number '" + text + "'");
  }
  out = std::string_view(tok_, static_cast<std::size_t>(e - tok_));
  tok_ = nullptr;
  return true;
}

template <class Handler>
bool JsonStream<Handler>::ReadLiteral() {
  const char c = *p_;
  const std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
  tok_ = p_;
  const bool have = Need(static_cast<std::ptrdiff_t>(word.size()));
  tok_ = nullptr;
  if (!have) return Fail("unexpected end of input in '" + std::string(word) + "'");
  if (std::string_view(p_, word.size()) != word) return Fail("invalid literal; expected '" + std::string(word) + "'");
  p_ += word.size();
  return true;
}

template <class Handler>
bool JsonStream<Handler>::Close(char c) {
  stack_.pop_back();
  ++p_;
  return c == '}' ? h_.EndObject() : h_.EndArray();
}

template <class Handler>
bool JsonStream<Handler>::Parse() {
  p_ = s_.pos_;
  end_ = s_.end_;
  Want want = Want::kValue;
  std::string_view text;
  bool integral = false;
  for (;;) {
    if (!SkipSpace()) {
      if (s_.failed()) return false;
      if (want == Want::kEnd) return true;
      return Fail(stack_.empty() && want == Want::kValue && s_.consumed() == 0
                      ? "empty input; expected a JSON document"
                      : "unexpected end of input; expected " +
                            std::string(want == Want::kColon ? "':'"
                                        : want == Want::kKey || want == Want::kKeyOrClose ? "a key"
                                        : want == Want::kCommaOrClose                      ? "',' or a closing bracket"
                                                                                           : "a value"));
    }
    const char c = *p_;
    switch (want) {
      case Want::kEnd:
        return Fail("unexpected " + json_stream_detail::Shown(c) + " after the end of the document");
      case Want::kColon:
        if (c != ':') return Fail("expected ':' after a key, found " + json_stream_detail::Shown(c));
        ++p_;
        want = Want::kValue;
        continue;
      case Want::kKey:
      case Want::kKeyOrClose:
        if (c == '}' && want == Want::kKeyOrClose) {
          if (!Close(c)) return false;
          want = AfterValue();
          continue;
        }
        if (c != '"') return Fail("expected a key (a string), found " + json_stream_detail::Shown(c));
        if (!ReadString(text)) return false;
        if (!h_.Key(text)) return false;
        want = Want::kColon;
        continue;
      case Want::kCommaOrClose: {
        const char close = stack_.back() == '{' ? '}' : ']';
        if (c == ',') {
          ++p_;
          want = stack_.back() == '{' ? Want::kKey : Want::kValue;
          continue;
        }
        if (c != close)
          return Fail("expected ',' or '" + std::string(1, close) + "', found " + json_stream_detail::Shown(c));
        if (!Close(c)) return false;
        want = AfterValue();
        continue;
      }
      case Want::kValue:
      case Want::kValueOrClose:
        break;
    }
    if (c == ']' && want == Want::kValueOrClose) {
      if (!Close(c)) return false;
      want = AfterValue();
      continue;
    }
    bool ok = true;
    if (c == '{' || c == '[') {
      if (stack_.size() >= kMaxDepth) return Fail("nesting deeper than 10000");
      stack_.push_back(c);
      ++p_;
      if (!(c == '{' ? h_.StartObject() : h_.StartArray())) return false;
      want = c == '{' ? Want::kKeyOrClose : Want::kValueOrClose;
      continue;
    }
    if (c == '"') ok = ReadString(text) && h_.String(text);
    else if (c == '-' || json_stream_detail::IsDigit(c)) ok = ReadNumber(text, integral) && h_.Number(text, integral);
    else if (c == 't' || c == 'f' || c == 'n') ok = ReadLiteral() && h_.Literal();
    else return Fail("unexpected " + json_stream_detail::Shown(c) + "; expected a value");
    if (!ok) return false;
    want = AfterValue();
  }
}

}  // namespace ppsim::io
