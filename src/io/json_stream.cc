#include "json_stream.h"

#include <cstdio>

namespace ppsim::io::json_stream_detail {

std::string Shown(char c) {
  const auto b = static_cast<unsigned char>(c);
  if (b >= 0x20 && b < 0x7F) return "'" + std::string(1, c) + "'";
  char text[16];
  std::snprintf(text, sizeof text, "byte 0x%02X", b);
  return text;
}

}  // namespace ppsim::io::json_stream_detail
