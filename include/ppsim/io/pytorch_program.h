// PyTorch's compute_comms CSV (pytorch_csv.h) as a comm program
// (comm_model.h) and back: a compute cell is its schedule slot, in order;
// SEND_F/RECV_F/SEND_B/RECV_B, UNSHARD, RESHARD and REDUCE_GRAD are the
// program's actions of the same names (PyTorch's runtime posts them async).
// Idle cells are dropped, as the compute order drops them.
#pragma once

#include <optional>
#include <string>

#include "ppsim/comm_model.h"
#include "ppsim/error.h"
#include "ppsim/io/pytorch_csv.h"

namespace ppsim::io {

// The program of a file with communication actions, nullopt for a
// compute-only one. REQUIRES: `schedule` is ScheduleFromPytorchCsv(csv)'s.
std::optional<CommProgram> ProgramFromCsv(const PytorchCsv& csv, const Schedule& schedule);

// The cells PyTorch's _dump_csv(format="compute_comms") writes for `program`
// (a B of a split schedule is I unless full, as PytorchCsvFromSchedule).
PytorchCsv CsvFromProgram(const Schedule& schedule, const CommProgram& program);

}  // namespace ppsim::io
