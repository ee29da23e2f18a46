// The communication actions of a PyTorch "compute_comms" CSV checked
// against its compute actions: each SEND_F(s, m) has one RECV_F(s+1, m) on
// the rank that computes stage s+1, each SEND_B(s, m) one RECV_B(s-1, m) on
// stage s-1's rank, every RECV its SEND, and every action sits on the rank
// that computes its stage. A file without communication passes untouched.
#pragma once

#include <string>

#include "ppsim/error.h"
#include "ppsim/io/pytorch_csv.h"

namespace ppsim::io {

// kBadSchedule naming the action and its file:row:col, and the one it lacks.
Error CheckCommActions(const PytorchCsv& csv, const std::string& source);

}  // namespace ppsim::io
