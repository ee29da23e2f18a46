// PyTorch CSV text for the entries of tests/data/pytorch_orders_public.json (the orders
// PyTorch's schedules produce), rows joined with "\r\n" as _dump_csv writes.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ppsim::testing {

struct ConformanceEntry {
  std::string schedule;
  int P = 0, v = 0, M = 0;
  std::vector<int> stage_to_rank;
  std::string csv;
};

// "F3s1" -> "1F3"; "(F7s0;B3s7)OVERLAP_F_B" -> "(0F7;7B3)OVERLAP_F_B".
inline std::string ToPytorchAction(const std::string& op) {
  if (op.front() == '(') {
    const size_t semi = op.find(';'), close = op.find(')');
    std::string out(1, '(');
    out += ToPytorchAction(op.substr(1, semi - 1));
    out += ';';
    out += ToPytorchAction(op.substr(semi + 1, close - semi - 1));
    return out + op.substr(close);
  }
  const size_t s = op.find('s');
  return op.substr(s + 1) + op[0] + op.substr(1, s - 1);
}

inline std::vector<ConformanceEntry> LoadConformance() {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_orders_public.json");
  std::stringstream buf;
  buf << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(buf.str());
  std::vector<ConformanceEntry> out;
  for (const auto& e : j.at("entries")) {
    ConformanceEntry c;
    c.schedule = e.at("schedule");
    c.P = e.at("P");
    c.v = e.at("v");
    c.M = e.at("M");
    c.stage_to_rank = e.at("stage_to_rank").get<std::vector<int>>();
    for (const auto& rank : e.at("ranks")) {
      std::string row;
      for (const auto& op : rank) {
        if (!row.empty()) row += ',';
        row += ToPytorchAction(op.get<std::string>());
      }
      c.csv += row + "\r\n";
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ppsim::testing
