#include "ppsim/io/schedule_file.h"

#include <cctype>
#include <memory>

#include "ppsim/io/atomic_file.h"
#include "ppsim/io/pytorch_lowering.h"
#include "ppsim/comm_lowering.h"
#include "ppsim/comm_run.h"
#include "ppsim/cost_scale.h"
#include "ppsim/placement.h"
#include "ppsim/recompute.h"
#include "ppsim/io/pytorch_csv.h"
#include "ppsim/io/pytorch_program.h"
#include "ppsim/io/schedule_text.h"

namespace ppsim::io {

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

namespace {

// A file's own SEND/RECV when comms are modelled; else its compute order,
// lowered by the problem's rule when comms are on (PlaceRun). The file's
// own program stays with the run either way, for --export.
Result<Timeline> SimulateWithComms(const Problem& p, ImportedSchedule imported) {
  std::shared_ptr<const CommProgram> own;
  if (imported.comms) own = std::make_shared<const CommProgram>(std::move(*imported.comms));
  if (!p.comms.enabled() || !own) {
    Result<Timeline> t = PlaceRun(p, std::move(imported.schedule));
    if (t) t->own_program = std::move(own);
    return t;
  }
  Result<CommRun> run = RunComms(p, imported.schedule, *own, p.comms);
  if (!run) return run.error();
  Timeline t = std::move(run->timeline);
  t.comms = std::make_shared<const CommFigures>(std::move(static_cast<CommFigures&>(*run)));
  t.own_program = std::move(own);
  return t;
}

}  // namespace

Result<Timeline> SimulateImported(ImportedSchedule imported, const Problem& flags, bool shape_given,
                                  const std::string& source) {
  Problem p = flags;
  const Problem& shape = imported.problem;
  if (shape_given && (p.P != shape.P || p.M != shape.M || p.v != shape.v)) {
    // Named by the first value that disagrees; the message gives all three.
    const char* field = p.P != shape.P ? "P" : p.M != shape.M ? "M" : "chunks";
    return Error::Field(ErrorCode::kInvalidValue, field,
                        ": P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) + " v=" + std::to_string(p.v) +
                            " disagree with " + source + " (P=" + std::to_string(shape.P) + " M=" +
                            std::to_string(shape.M) + " v=" + std::to_string(shape.v) + "); drop them");
  }
  if (shape.slices > 1 && p.slices > 1 && p.slices != shape.slices)
    return Error::Field(ErrorCode::kInvalidValue, "slices",
                        ": " + std::to_string(p.slices) + " disagrees with " + source + " (" +
                            std::to_string(shape.slices) + " slices per microbatch); drop it");
  p.P = shape.P;
  p.M = shape.M;
  p.v = shape.v;
  if (shape.slices > 1) p.slices = shape.slices;
  p.placement = shape.placement;
  p.stage_device = shape.stage_device;
  // A file with R ops, or a header that names recompute, recomputes as it
  // says, unless the run's own recompute (--recompute) is given.
  if (Recomputes(shape) && !Recomputes(p)) {
    p.recompute = shape.recompute;
    p.recompute_at = shape.recompute_at;
    p.recompute_inputs_num = shape.recompute_inputs_num;
    p.recompute_inputs_den = shape.recompute_inputs_den;
  }
  Error e = ValidateProblem(p);
  if (e.code != ErrorCode::kOk) return e;
  // The file's R ops against the run's R costs: none where a stage
  // recomputes nothing, all where it does.
  if (imported.schedule.space.recompute())
    if (e = CheckComplete(p, imported.schedule); !e.ok()) return e.At(source);
  // One model (cost_scale.h): the file's chunks cost 1/v of a stage each.
  const bool split = imported.schedule.split_backward;
  Result<std::int64_t> k = TicksPerUnit({p}, {split});
  if (!k) return k.error();
  e = ScaleCosts(p, *k, split);
  if (e.code != ErrorCode::kOk) return e;
  Result<Timeline> t = SimulateWithComms(p, std::move(imported));
  if (!t) return t.error().At(source);
  return t;
}

Result<Timeline> SimulateScheduleFile(const std::string& path, const Problem& flags, bool shape_given) {
  Result<ImportedSchedule> imported = ReadScheduleFile(path);
  if (!imported) return imported.error();
  return SimulateImported(std::move(*imported), flags, shape_given, path);
}

namespace {
// PyTorch's _Action names a microbatch, never a part of one: a sliced run
// has no PyTorch spelling, and writing slice units as microbatches would be
// a different schedule.
Error NoSlices(const char* format, const Timeline& t) {
  if (t.problem.slices <= 1) return Error::Ok();
  return Error::Field(ErrorCode::kPrecondition, "export",
                      std::string(" ") + format + ": PyTorch's actions have no sequence slices (this run has " +
                          std::to_string(t.problem.slices) + " per microbatch); use --export text or --json");
}
}  // namespace

const std::vector<ExportFormat>& ExportFormats() {
  static const std::vector<ExportFormat> formats = {
      {"pytorch-csv",
       [](const Timeline& t) -> Result<std::string> {
         if (Error e = NoSlices("pytorch-csv", t); !e.ok()) return e;
         return WritePytorchCsv(t.schedule);
       }},
      {"text", [](const Timeline& t) -> Result<std::string> { return WriteScheduleText(t.problem, t.schedule); }},
      {"pytorch-comms-csv",
       [](const Timeline& t) -> Result<std::string> {
         if (Error e = NoSlices("pytorch-comms-csv", t); !e.ok()) return e;
         // A compute_comms file's own program, as read; else PyTorch's lowering.
         if (t.own_program) return FormatPytorchCsv(CsvFromProgram(t.schedule, *t.own_program));
         return WritePytorchCommsCsv(t.problem, t.schedule);
       }},
  };
  return formats;
}

std::string ExportFormatList() {
  std::string list;
  for (const ExportFormat& f : ExportFormats()) list += (list.empty() ? "" : ", ") + std::string(f.name);
  return list;
}

Result<std::string> ExportSchedule(const std::string& format, const Timeline& t) {
  // PyTorch's schedule actions have no recompute (its B recomputes inside a
  // checkpointed module): a CSV would have to drop R or call it B.
  if (t.schedule.space.recompute() && format != "text")
    return Error::Field(ErrorCode::kPrecondition, "export",
                        ": " + format + " has no recompute action to carry R ops; export text, or drop recompute");
  for (const ExportFormat& f : ExportFormats())
    if (format == f.name) return f.write(t);
  return Error::Field(ErrorCode::kUsage, "export", ": '" + format + "' is not one of " + ExportFormatList());
}

}  // namespace ppsim::io
