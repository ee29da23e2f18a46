// A model split into stages without a layout string: the Layout a split
// describes, built by hand in chain order, so that the sums are exactly
// ApplyStageCosts's (layout_costs.h).
#include <algorithm>
#include <string>
#include <vector>

#include "ppsim/recompute.h"
#include "ppsim/split_search.h"

namespace ppsim {
namespace {

int CountKind(const Model& model, char kind) {
  return static_cast<int>(std::count_if(model.layers.begin(), model.layers.end(),
                                        [kind](const ModelLayer& l) { return l.kind == kind; }));
}

}  // namespace

// Stage s of the chain on its device, the decoder ids in order, E on the
// first stage and the MTP layers and L on the last (where Megatron builds
// them).
Layout SplitAsLayout(const Model& model, const ModelSplit& split, int P) {
  Layout l;
  l.P = P;
  l.v = split.v;
  l.num_layers = CountKind(model, 't');
  l.mtp_layers = CountKind(model, 'm');
  const int S = static_cast<int>(split.decoder.size());
  Problem shape;
  shape.P = P;
  shape.v = split.v;
  shape.placement = split.placement;
  int next = 0;
  const std::vector<std::string> letters = SplitStageLetters(model, split);
  for (int s = 0; s < S; ++s) {
    LayoutStage st;
    st.layers = letters[s];
    st.pp_rank = shape.DeviceOf(s);
    st.vp_stage = s / P;
    st.virtual_stage = s;
    for (int i = 0; i < split.decoder[s]; ++i) st.decoder_layer_ids.push_back(next++);
    st.builds_embedding = s == 0;
    st.builds_loss = s == S - 1;
    if (s == S - 1)
      for (int i = 0; i < l.mtp_layers; ++i) st.mtp_layer_ids.push_back(i);
    l.stages.push_back(std::move(st));
  }
  return l;
}

std::string SplitFamilyName(const ModelSplit& split) {
  if (split.placement == Placement::kVShape) return "v-shape";
  return "loop v=" + std::to_string(split.v);
}

std::vector<std::string> SplitStageLetters(const Model& model, const ModelSplit& split) {
  const int S = static_cast<int>(split.decoder.size());
  const bool has_e = CountKind(model, 'E') > 0, has_l = CountKind(model, 'L') > 0;
  const int mtp = CountKind(model, 'm');
  std::vector<std::string> out;
  for (int s = 0; s < S; ++s) {
    std::string letters = s == 0 && has_e ? "E" : "";
    letters += std::string(static_cast<size_t>(split.decoder[s]), 't');
    if (s == S - 1) letters += std::string(static_cast<size_t>(mtp), 'm') + (has_l ? "L" : "");
    out.push_back(letters);
  }
  return out;
}

Error ApplySplit(const Model& model, const ModelSplit& split, Problem& problem) {
  const int P = problem.P;
  const Layout layout = SplitAsLayout(model, split, P);
  Result<StageCosts> costs = SumStageCosts(model, layout);
  if (!costs) return costs.error();
  const std::int64_t limit = problem.memory.limit;
  const int freed = problem.memory.freed_by_b_percent;
  problem.memory = MemoryModel{};
  problem.memory.limit = limit;
  problem.memory.freed_by_b_percent = freed;
  if (Error e = ApplyStageCosts(*costs, layout, problem); !e.ok()) return e;
  FoldRecomputeIntoB(problem);  // the layout search orders no R op: R's ticks count in B
  problem.placement = split.placement;
  return Error::Ok();
}

}  // namespace ppsim
