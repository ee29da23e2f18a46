// The CLI's spelling of a library's error: libraries name fields ("P",
// "chunks", "at_tick") and parameters ("set", "sweep"); the command line
// has flags for them ("-P", "--chunks", "--at-tick", "--set"), and only
// this file knows which.
#include <string>
#include <string_view>

#include "command.h"

namespace ppsim::cli {

std::string CliFlag(std::string_view field) {
  if (field == "P" || field == "M") return "-" + std::string(field);
  if (field == "costs") return "--cost";
  if (field == "memory.limit") return "--memory-limit";
  if (field == "out" || field == "output") return "-o";
  std::string flag = "--" + std::string(field);
  if (field.starts_with("link.")) flag[6] = '-';  // "--link-send-release"
  for (char& c : flag)
    if (c == '_') c = '-';
  return flag;
}

Error AsCliError(const Error& e) {
  Error out = e.field.empty() || !e.file.empty() ? e : e.Renamed(CliFlag(e.field));
  if (!out.via.empty()) out.via = CliFlag(out.via);
  return out;
}

}  // namespace ppsim::cli
