// The flags every simulating command shares: -P, -M, --chunks, --cost,
// --comm, --hold. Values are read as text and checked here, so that a bad
// value is reported with its flag's name and the invalid-value exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim::cli {

struct ProblemOptions {
  std::string P = "4";
  std::string M = "6";
  std::string chunks = "1";
  std::string group;  // "" = the schedule's default
  std::string cost;
  std::string comm;  // "" = 0, or the cost file's
  std::string hold = "held";
  std::string cost_file;     // docs/costs.md; the flags above win over it
  std::string memory_limit;  // bytes per device; wins over the file's
};

void AddProblemOptions(CLI::App& cmd, ProblemOptions& options);

// Builds the Problem; kInvalidValue naming the flag on a bad value.
Result<Problem> ToProblem(const ProblemOptions& options);

// Parses an int flag: "-P: 'x' is not a whole number".
Error ParseIntFlag(const std::string& flag, const std::string& text, long long min, long long max, int& out);

}  // namespace ppsim::cli
