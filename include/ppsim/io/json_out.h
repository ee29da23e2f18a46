// JsonOut: JSON written as it is produced, into a fixed buffer that is
// handed to a sink whenever it fills — no document tree, so memory does not
// grow with the output. The bytes equal nlohmann::json::dump() of the same
// values (compact, shortest round-trip doubles, the same string escapes), so
// streamed and tree-built outputs are interchangeable; keys are written in
// the order the caller gives (nlohmann sorts them: callers keep that order).
// Bytes that are not valid UTF-8 in a string are written as the text \xNN
// ("\\xNN" in JSON), so any path can be printed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ppsim::io {

class JsonOut {
 public:
  // `sink` receives the bytes in order; it returns false on a write error,
  // after which nothing more is written and ok() is false.
  using Sink = std::function<bool(std::string_view)>;
  explicit JsonOut(Sink sink, size_t capacity = size_t{1} << 20);
  ~JsonOut() = default;
  JsonOut(const JsonOut&) = delete;
  JsonOut& operator=(const JsonOut&) = delete;

  JsonOut& Raw(std::string_view s);
  JsonOut& Char(char c) {
    if (end_ - pos_ < 1) Drain();
    *pos_++ = c;
    return *this;
  }
  JsonOut& Int(std::int64_t v);
  JsonOut& Int128(__int128 v);  // for exact products that overflow int64
  JsonOut& Double(double v);    // as nlohmann: shortest round trip, "null" if not finite
  JsonOut& Bool(bool v) { return Raw(v ? "true" : "false"); }
  // `short_escapes` false writes \b and \f as \u0008 and \u000c.
  JsonOut& String(std::string_view s, bool short_escapes = true);
  JsonOut& Key(std::string_view key) { return String(key).Char(':'); }
  JsonOut& Ints(const std::vector<std::int64_t>& v);  // [a,b,...]
  // Makes room for `n` bytes written through Reserve()'s pointer, then
  // Commit(p) with the pointer past the last byte written.
  char* Reserve(size_t n) {
    if (static_cast<size_t>(end_ - pos_) < n) Drain();
    return pos_;
  }
  void Commit(char* p) { pos_ = p; }
  // Hands the rest to the sink. Returns ok().
  bool Finish();
  bool ok() const { return ok_; }

 private:
  void Drain();
  Sink sink_;
  std::vector<char> buffer_;
  char* pos_;
  char* end_;
  bool ok_ = true;
};

// A sink that appends to a string (for callers that want the whole text).
inline JsonOut::Sink AppendTo(std::string& out) {
  return [&out](std::string_view s) {
    out.append(s);
    return true;
  };
}

}  // namespace ppsim::io
