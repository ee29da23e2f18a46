#include "schedule_file_options.h"

#include "ppsim/placement.h"
#include "ppsim/pytorch_csv.h"
#include "ppsim/schedule_file.h"
#include "ppsim/schedule_text.h"

namespace ppsim::cli {

Result<Timeline> SimulateScheduleFile(const std::string& path, const Problem& flags, bool shape_flags_given) {
  Result<ImportedSchedule> imported = ReadScheduleFile(path);
  if (!imported) return imported.error();
  Problem p = flags;
  const Problem& shape = imported->problem;
  if (shape_flags_given && (p.P != shape.P || p.M != shape.M || p.v != shape.v))
    return Fail(ErrorCode::kInvalidValue,
                "-P/-M/--chunks (P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " v=" +
                    std::to_string(p.v) + ") disagree with " + path + " (P=" + std::to_string(shape.P) +
                    " M=" + std::to_string(shape.M) + " v=" + std::to_string(shape.v) + "); drop them");
  p.P = shape.P;
  p.M = shape.M;
  p.v = shape.v;
  p.placement = shape.placement;
  Error e = ValidateProblem(p);
  if (e.code != ErrorCode::kOk) return e;
  Result<Timeline> t = Place(p, std::move(imported->schedule));
  if (!t) return Fail(t.error().code, path + ": " + t.error().message);
  return t;
}

Result<std::string> ExportSchedule(const std::string& format, const Timeline& t) {
  if (format == "pytorch-csv") return WritePytorchCsv(t.schedule);
  if (format == "text") return WriteScheduleText(t.problem, t.schedule);
  return Fail(ErrorCode::kUsage, "--export: '" + format + "' is not one of pytorch-csv, text");
}

}  // namespace ppsim::cli
