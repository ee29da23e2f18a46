#include "pytorch_comms_check.h"

#include <map>
#include <tuple>

#include "schedule_shape.h"

namespace ppsim::io {
namespace {

using Key = std::tuple<int, ActionType, int>;  // stage, type, microbatch

Error Bad(const std::string& source, const CsvAction& a, const std::string& what) {
  return Fail(ErrorCode::kBadSchedule, Where(source, a.row, a.col) + ActionText(a) + " " + what);
}

// The action a SEND or RECV pairs with.
CsvAction Partner(const CsvAction& a) {
  switch (a.type) {
    case ActionType::kSendF: return {a.stage + 1, ActionType::kRecvF, a.microbatch};
    case ActionType::kRecvF: return {a.stage - 1, ActionType::kSendF, a.microbatch};
    case ActionType::kSendB: return {a.stage - 1, ActionType::kRecvB, a.microbatch};
    default: return {a.stage + 1, ActionType::kSendB, a.microbatch};  // kRecvB
  }
}

}  // namespace

Error CheckCommActions(const PytorchCsv& csv, const std::string& source) {
  std::map<int, int> rank_of;  // stage -> the rank that computes it
  std::map<Key, const CsvAction*> comms;
  bool any = false;  // a non-compute action (comm or FSDP)
  for (size_t r = 0; r < csv.rows.size(); ++r)
    for (const CsvCell& cell : csv.rows[r])
      for (const CsvAction& a : cell.actions) {
        if (IsCompute(a.type)) {
          rank_of.emplace(a.stage, static_cast<int>(r));
          continue;
        }
        any = true;
        if (a.type == ActionType::kUnshard || a.type == ActionType::kReshard || a.type == ActionType::kReduceGrad)
          continue;
        if (!comms.emplace(Key{a.stage, a.type, a.microbatch}, &a).second) {
          const CsvAction& first = *comms[Key{a.stage, a.type, a.microbatch}];
          return Bad(source, a, "appears twice (first at " + std::to_string(first.row) + ":" +
                                    std::to_string(first.col) + "): one transfer is sent and received once");
        }
      }
  if (!any) return Error::Ok();
  // Every action on the rank that computes its stage.
  for (size_t r = 0; r < csv.rows.size(); ++r)
    for (const CsvCell& cell : csv.rows[r])
      for (const CsvAction& a : cell.actions) {
        if (IsCompute(a.type)) continue;
        const auto it = rank_of.find(a.stage);
        if (it == rank_of.end()) return Bad(source, a, "names stage " + std::to_string(a.stage) + ", which no rank computes");
        if (it->second != static_cast<int>(r))
          return Bad(source, a, "is on rank " + std::to_string(r) + ", but stage " + std::to_string(a.stage) +
                                    " is computed on rank " + std::to_string(it->second));
      }
  for (const auto& [key, a] : comms) {
    const CsvAction partner = Partner(*a);
    if (comms.count(Key{partner.stage, partner.type, partner.microbatch})) continue;
    const auto it = rank_of.find(partner.stage);
    if (it == rank_of.end())
      return Bad(source, *a, "pairs with stage " + std::to_string(partner.stage) + ", which no rank computes");
    return Bad(source, *a, "has no matching " + ActionText(partner) + " on rank " + std::to_string(it->second));
  }
  return Error::Ok();
}

}  // namespace ppsim::io
