#include "ppsim/schedule_file.h"

#include <cctype>

#include "ppsim/atomic_file.h"
#include "ppsim/pytorch_csv.h"
#include "ppsim/schedule_text.h"

namespace ppsim {

bool IsPytorchCsvPath(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".csv";
}

Result<ImportedSchedule> ReadScheduleFile(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text) return text.error();
  return IsPytorchCsvPath(path) ? ReadPytorchCsv(*text, path) : ReadScheduleText(*text, path);
}

}  // namespace ppsim
