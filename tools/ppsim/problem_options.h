// The flags every simulating command shares: -P, -M, --chunks, --cost,
// --comm, --hold, --cost-per, --cost-file, --memory-limit. Values are read as text into
// a ProblemOptions and checked by ToProblem (io), so that a bad value is
// reported with its flag's name and the invalid-value exit code.
#pragma once

#include <CLI/CLI.hpp>

#include "ppsim/io/problem_options.h"

namespace ppsim::cli {

void AddProblemOptions(CLI::App& cmd, io::ProblemOptions& options);
// --model FILE and --layout STRING (simulate, compare): a model's layers
// summed into the stages of a Megatron layout (docs/layouts.md).
void AddModelOptions(CLI::App& cmd, io::ProblemOptions& options);

}  // namespace ppsim::cli
