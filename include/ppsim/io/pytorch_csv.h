// PyTorch's schedule CSV (torch.distributed.pipelining, _dump_csv /
// _load_csv), in both of its formats: one row per rank, one cell per action
// in that rank's order. A cell is str(_Action): `<stage><type><microbatch>`
// with type F (forward), I (backward-input), W (backward-weight) or B (full
// backward), e.g. `0F0`, `4I2`; in the "compute_comms" format also
// SEND_F/RECV_F/SEND_B/RECV_B with a microbatch (`0SEND_F3`) and UNSHARD,
// RESHARD, REDUCE_GRAD without (`0UNSHARD`). An empty cell is an idle step;
// an overlapped forward/backward pair is `(7F0;3B1)OVERLAP_F_B`. Rows end in
// "\r\n" as Python's csv.writer writes them.
//
// ppsim reads it strictly: anything but those forms (trailing junk such as
// `2BW0`, which PyTorch's prefix match reads as `2B`, a missing or extra
// microbatch) is a kParse error "FILE:row:col: ...". PyTorch's I is ppsim's
// B of a split backward; a B in a file that also has I/W is a full backward
// (Slot::full: one op, no W). Communication actions are checked against the
// compute (each SEND has its RECV on the receiving stage's rank, once) and
// then set aside: ppsim models a transfer as the latency of the dependency it
// carries (docs/formats.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/io/imported_schedule.h"

namespace ppsim::io {

// Every action type of PyTorch's _ComputationType but OVERLAP_F_B (a cell of two).
enum class ActionType { kF, kI, kW, kB, kSendF, kRecvF, kSendB, kRecvB, kUnshard, kReshard, kReduceGrad };

// F, I, W or B: a compute action, ppsim's op.
bool IsCompute(ActionType type);

// One action as written.
struct CsvAction {
  int stage = 0;
  ActionType type = ActionType::kF;
  int microbatch = 0;    // -1 for UNSHARD, RESHARD and REDUCE_GRAD
  int row = 0, col = 0;  // where it was read (1-based); 0 when built in memory
};

// str(_Action): "0F3", "1SEND_B2", "0UNSHARD".
std::string ActionText(const CsvAction& action);

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

// The schedule the cells' compute actions describe (idle cells are dropped:
// they only delay). Communication actions, if any, must pair up
// (kBadSchedule, "FILE:row:col: 0SEND_F3 has no matching 1RECV_F3 on rank
// 1", a RECV on a rank that does not compute its stage, a transfer received
// twice); they are then left out.
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
