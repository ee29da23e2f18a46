// How io and scene print the JSON trees they build. Internal: public headers
// hand JSON out as its text, so nlohmann stays out of them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ppsim::io {

// One line, no trailing newline. A string that is not valid UTF-8 (a path
// with stray bytes) has those bytes replaced by U+FFFD instead of failing.
inline std::string DumpJson(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ppsim::io
