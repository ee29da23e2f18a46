// `ppsim simulate ARGS --json` through the built binary, parsed; a failed
// run is a test failure naming the arguments (and a discarded JSON value).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/run_tool.h"

namespace ppsim::testing {

inline nlohmann::json SimulateJson(const std::string& args) {
  const ToolRun run = RunPpsim("simulate " + args + " --json");
  EXPECT_EQ(run.exit_code, 0) << args << ": " << run.err;
  return nlohmann::json::parse(run.out, nullptr, false);
}

}  // namespace ppsim::testing
