#include "ppsim/io/pytorch_program.h"

#include <utility>

#include "pytorch_action.h"

namespace ppsim::io {
namespace {

struct KindPair {
  ActionType csv;
  CommKind comm;
};
constexpr KindPair kPairs[] = {
    {ActionType::kSendF, CommKind::kSendF},     {ActionType::kRecvF, CommKind::kRecvF},
    {ActionType::kSendB, CommKind::kSendB},     {ActionType::kRecvB, CommKind::kRecvB},
    {ActionType::kUnshard, CommKind::kUnshard}, {ActionType::kReshard, CommKind::kReshard},
    {ActionType::kReduceGrad, CommKind::kReduceGrad},
};

}  // namespace

CsvAction PytorchComputeAction(const Schedule& schedule, OpId id, bool full) {
  const Op op = schedule.space.At(id);
  const ActionType type = op.kind == OpKind::kF                   ? ActionType::kF
                          : op.kind == OpKind::kW                 ? ActionType::kW
                          : schedule.split_backward && !full ? ActionType::kI
                                                             : ActionType::kB;
  return CsvAction{op.stage, type, op.microbatch, 0, 0};
}

std::optional<CommProgram> ProgramFromCsv(const PytorchCsv& csv, const Schedule& schedule) {
  CommProgram program;
  bool comms = false;
  for (size_t d = 0; d < csv.rows.size(); ++d) {
    std::vector<CommAction>& out = program.devices.emplace_back();
    size_t slot = 0;
    for (const CsvCell& cell : csv.rows[d]) {
      if (cell.actions.empty()) continue;
      const CsvAction& a = cell.actions[0];
      if (IsCompute(a.type)) {
        CommAction c;
        c.slot = schedule.devices[d][slot++];
        out.push_back(c);
        continue;
      }
      comms = true;
      for (const KindPair& k : kPairs)
        if (k.csv == a.type) out.push_back(CommAction{k.comm, {}, a.stage, a.microbatch, -1});
    }
  }
  if (!comms) return std::nullopt;
  return program;
}

PytorchCsv CsvFromProgram(const Schedule& schedule, const CommProgram& program) {
  PytorchCsv csv;
  for (const std::vector<CommAction>& device : program.devices) {
    std::vector<CsvCell>& row = csv.rows.emplace_back();
    for (const CommAction& a : device) {
      CsvCell& cell = row.emplace_back();
      if (a.kind == CommKind::kCompute) {
        cell.actions.push_back(PytorchComputeAction(schedule, a.slot.op, a.slot.full));
        if (a.slot.pair()) cell.actions.push_back(PytorchComputeAction(schedule, a.slot.overlapped, a.slot.full));
        continue;
      }
      for (const KindPair& k : kPairs)
        if (k.comm == a.kind) cell.actions.push_back(CsvAction{a.stage, k.csv, a.microbatch, 0, 0});
    }
  }
  return csv;
}

}  // namespace ppsim::io
