// The two schedule formats, each read and, when small, placed in time.
#include <string_view>

#include "ppsim/placement.h"
#include "ppsim/io/pytorch_csv.h"
#include "ppsim/io/schedule_text.h"
#include "small_runs.h"
#include "targets.h"

namespace ppsim::fuzz {
namespace {

void Place(Result<io::ImportedSchedule> imported) {
  if (!imported || !Small(imported->problem)) return;
  Problem p = imported->problem;
  if (ValidateProblem(p).code != ErrorCode::kOk) return;
  (void)ppsim::Place(p, std::move(imported->schedule));
}

}  // namespace

int PytorchCsv(const std::uint8_t* data, std::size_t size) {
  Place(io::ReadPytorchCsv(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv"));
  return 0;
}

int ScheduleText(const std::uint8_t* data, std::size_t size) {
  Place(io::ReadScheduleText(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.txt"));
  return 0;
}

}  // namespace ppsim::fuzz
