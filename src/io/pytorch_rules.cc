#include "pytorch_rules.h"

#include <map>
#include <set>
#include <utility>

#include "schedule_shape.h"

namespace ppsim::io {
namespace {

using Done = std::set<std::pair<int, int>>;  // (stage, microbatch)

Error Refuse(const std::string& source, const CsvAction& a, const std::string& rule, const std::string& pytorch) {
  return Fail(ErrorCode::kBadSchedule, Where(source, a.row, a.col) + ActionText(a) + " " + rule +
                                           " (PyTorch's _validate_schedule: '" + pytorch + "')");
}

}  // namespace

Error CheckPytorchRules(const PytorchCsv& csv, const std::string& source) {
  Done forward, input;
  std::map<int, int> rank_of;  // stage -> the first rank that runs it
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    const int rank = static_cast<int>(r);
    for (size_t step = 0; step < csv.rows[r].size(); ++step) {
      for (const CsvAction& a : csv.rows[r][step].actions) {
        if (!IsCompute(a.type)) continue;
        const std::string at = "Rank " + std::to_string(rank) + ", step " + std::to_string(step) + ": ";
        const std::string of = "stage " + std::to_string(a.stage) + ", microbatch " + std::to_string(a.microbatch);
        const std::string fwd = std::to_string(a.stage) + "F" + std::to_string(a.microbatch);
        const std::pair<int, int> key{a.stage, a.microbatch};
        switch (a.type) {
          case ActionType::kF: forward.insert(key); break;
          case ActionType::kB:
          case ActionType::kI:
            if (!forward.count(key)) {
              const bool full = a.type == ActionType::kB;
              return Refuse(source, a, std::string("runs the ") + (full ? "full backward" : "backward input") +
                                           " without its forward " + fwd + " before it",
                            at + "Running " + (full ? "Full Backward" : "Backward Input") + " for " + of +
                                " without first running Forward");
            }
            if (a.type == ActionType::kI) input.insert(key);
            break;
          case ActionType::kW:
            if (!input.count(key))
              return Refuse(source, a,
                            "runs the backward weight without its backward input " + std::to_string(a.stage) + "I" +
                                std::to_string(a.microbatch) + " before it",
                            at + "Running Backward Weight for " + of + " without first running Backward Input");
            break;
          default: break;
        }
        const auto [it, first] = rank_of.emplace(a.stage, rank);
        if (!first && it->second != rank)
          return Refuse(source, a,
                        "runs stage " + std::to_string(a.stage) + " on rank " + std::to_string(rank) +
                            ", which rank " + std::to_string(it->second) + " runs too",
                        at + "Stage " + std::to_string(a.stage) + " is assigned to both rank " +
                            std::to_string(rank) + " and rank " + std::to_string(it->second));
      }
    }
  }
  return Error::Ok();
}

}  // namespace ppsim::io
