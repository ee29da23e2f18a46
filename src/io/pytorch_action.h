// A compute op as PyTorch's action names it: F, W, B for an unsplit
// schedule's backward or a full backward, I for a split one's input-gradient
// pass. The CSV writer and the comm-program reader both name ops this way.
#pragma once

#include "ppsim/io/pytorch_csv.h"
#include "ppsim/schedule.h"

namespace ppsim::io {

CsvAction PytorchComputeAction(const Schedule& schedule, OpId id, bool full);

}  // namespace ppsim::io
