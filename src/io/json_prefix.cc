#include "json_prefix.h"

namespace ppsim::io {

size_t JsonPrefix::Feed(std::string_view chunk) {
  for (size_t i = 0; i < chunk.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(chunk[i]);
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (c < 0x20 && !space) return i;  // never in JSON text, not even in a string
    if (in_string_) {
      if (space && c != ' ') return i;  // a raw tab or newline in a string
      if (escaped_) escaped_ = false;
      else if (c == '\\') escaped_ = true;
      else if (c == '"') in_string_ = false;
      continue;
    }
    if (space) continue;
    if (!started_) {
      if (c != '{' && c != '[') return i;
      started_ = true;
    } else if (depth_ == 0) {
      return i;  // the value has closed: only white space may follow
    }
    if (c == '"') in_string_ = true;
    else if (c == '{' || c == '[') {
      if (++depth_ > max_depth_) return i;
    } else if (c == '}' || c == ']') {
      --depth_;
    }
  }
  return std::string_view::npos;
}

}  // namespace ppsim::io
