// A split written back out: as a Megatron layout string and as torchtitan's
// per-stage module lists.
#include <string>
#include <vector>

#include "ppsim/layout.h"

namespace ppsim {
namespace {

// One stage's letters, a run of three or more written `t*n` (Megatron's `X*n`).
std::string Encode(const std::string& layers) {
  std::string out;
  for (size_t i = 0; i < layers.size();) {
    size_t j = i;
    while (j < layers.size() && layers[j] == layers[i]) ++j;
    const size_t run = j - i;
    out += run >= 3 ? std::string(1, layers[i]) + "*" + std::to_string(run) : layers.substr(i, run);
    i = j;
  }
  return out;
}

}  // namespace

// Each stage but the last is followed by `|`; a run of k ≥ 2 equal stages so
// followed is written `(S|)*k`, and a comma after it keeps it readable. The
// group's text holds no `)` and is never empty (it ends in `|`), so
// Megatron's first pattern unrolls exactly it.
std::string WriteLayoutString(const std::vector<std::string>& stages) {
  std::string out;
  const size_t n = stages.size();
  for (size_t i = 0; i < n;) {
    if (i + 1 == n) {
      out += Encode(stages[i]);
      break;
    }
    size_t j = i + 1;
    while (j + 1 < n && stages[j] == stages[i]) ++j;  // [i, j) equal, each followed by `|`
    const std::string one = Encode(stages[i]) + "|";
    if (j - i >= 2) {
      out += "(" + one + ")*" + std::to_string(j - i);
      if (j < n) out += ",";
    } else {
      out += one;
    }
    i = j;
  }
  return out;
}

std::vector<std::string> BuiltStages(const Layout& layout) {
  std::vector<std::string> out;
  for (const LayoutStage& s : layout.stages) {
    std::string layers;
    for (char c : s.layers)
      if (c != 'E' && c != 'L') layers += c;
    if (s.builds_embedding) layers.insert(layers.begin(), 'E');
    if (s.builds_loss) layers += 'L';
    out.push_back(std::move(layers));
  }
  return out;
}

Result<std::vector<std::vector<std::string>>> TorchtitanModules(const Layout& layout) {
  if (layout.mtp_layers > 0)
    return Fail(ErrorCode::kPrecondition,
                "torchtitan: no module lists, as torchtitan refuses pipeline parallelism with MTP layers "
                "(models/deepseek_v3/MTP.md)");
  std::vector<std::vector<std::string>> out;
  const std::vector<std::string> built = BuiltStages(layout);
  for (size_t i = 0; i < built.size(); ++i)
    if (built[i].empty())
      return Fail(ErrorCode::kPrecondition,
                  "torchtitan: no module lists, as stage " + std::to_string(i) + " (rank " +
                      std::to_string(layout.stages[i].pp_rank) + ", vp stage " +
                      std::to_string(layout.stages[i].vp_stage) +
                      ") is empty and torchtitan builds an optimizer for each model part, which refuses a part "
                      "without parameters (\"matched no parameters\", components/optimizer/optimizer.py)");
  for (size_t i = 0; i < built.size(); ++i) {
    std::vector<std::string> modules;
    size_t next_id = 0;
    for (char c : built[i]) {
      if (c == 'E') modules.push_back("tok_embeddings");
      if (c == 't') modules.push_back("layers." + std::to_string(layout.stages[i].decoder_layer_ids[next_id++]));
      if (c == 'L') {
        modules.push_back("norm");
        modules.push_back("lm_head");
      }
    }
    out.push_back(std::move(modules));
  }
  return out;
}

}  // namespace ppsim
