#include "ppsim/io/pytorch_lowering.h"

#include "ppsim/comm_lowering.h"
#include "ppsim/io/pytorch_csv.h"
#include "ppsim/io/pytorch_program.h"

namespace ppsim::io {

Result<std::string> WritePytorchCommsCsv(const Problem& problem, const Schedule& schedule) {
  // What the compute-only CSV cannot express is refused in its words first.
  Result<PytorchCsv> compute = PytorchCsvFromSchedule(schedule);
  if (!compute) return compute.error();
  Result<CommProgram> program = LowerPytorch(problem, schedule);
  if (!program) return program.error();
  return FormatPytorchCsv(CsvFromProgram(schedule, *program));
}

}  // namespace ppsim::io
