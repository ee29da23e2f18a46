// PyTorch's compute-only schedule CSV (torch.distributed.pipelining,
// PipelineScheduleMulti._dump_csv / _load_csv): one row per rank, one cell
// per action in that rank's order. A cell is `<stage><type><microbatch>`
// with type F (forward), I (backward-input), W (backward-weight) or B (full
// backward), e.g. `0F0`, `4I2`; an empty cell is an idle step; an
// overlapped forward/backward pair is `(7F0;3B1)OVERLAP_F_B`. Rows end in
// "\r\n" as Python's csv.writer writes them.
//
// ppsim reads it strictly: anything but those forms (trailing junk, another
// action type such as SEND_F, a missing microbatch) is a kParse error
// "FILE:row:col: ...". PyTorch's I is ppsim's B of a split backward; a B in
// a file that also has I/W is a full backward (Slot::full: one op, no W).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/io/imported_schedule.h"

namespace ppsim::io {

// One action as written: type is 'F', 'I', 'W' or 'B'.
struct CsvAction {
  int stage = 0;
  char type = 'F';
  int microbatch = 0;
  int row = 0, col = 0;  // where it was read (1-based); 0 when built in memory
};

// A cell: no actions = idle; one action; or two = an OVERLAP_F_B pair.
struct CsvCell {
  std::vector<CsvAction> actions;
};

struct PytorchCsv {
  std::vector<std::vector<CsvCell>> rows;  // rows[rank]
};

// Parses the text of a CSV. `source` names the file in messages.
Result<PytorchCsv> ParsePytorchCsv(std::string_view text, const std::string& source);

// The text of one cell as `str(_Action)` writes it: "0F0",
// "(7F0;3B1)OVERLAP_F_B", or "" for an idle step.
std::string PytorchCellText(const CsvCell& cell);

// The bytes PyTorch's _dump_csv would write for these cells ("\r\n" rows).
// ParsePytorchCsv followed by FormatPytorchCsv reproduces any file PyTorch
// wrote byte for byte.
std::string FormatPytorchCsv(const PytorchCsv& csv);

// The schedule the cells describe (idle cells are dropped: they only delay).
Result<ImportedSchedule> ScheduleFromPytorchCsv(const PytorchCsv& csv, const std::string& source);

// Cells for a ppsim schedule: B is written as I when the backward is split,
// B when it is full or the schedule unsplit (reading it back gives the same
// schedule; a file PyTorch wrote comes back byte for byte).
// kPrecondition for DualPipe's two pipelines, which PyTorch cannot express.
Result<PytorchCsv> PytorchCsvFromSchedule(const Schedule& schedule);

// Parse + ScheduleFromPytorchCsv.
Result<ImportedSchedule> ReadPytorchCsv(std::string_view text, const std::string& source);

// PytorchCsvFromSchedule + FormatPytorchCsv.
Result<std::string> WritePytorchCsv(const Schedule& schedule);

}  // namespace ppsim::io
