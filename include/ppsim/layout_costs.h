// A model as its layers in order, and its costs summed into the stages of a
// layout (ppsim/layout.h): stage s holds the embedding if Megatron builds
// it there, the decoder and MTP layers whose ids the layout gives it, and
// the loss if built there. The sums are the per-op costs of each virtual
// stage (CostBasis::kChunk) and its bytes, so a problem simulates the split
// the layout describes. docs/costs.md ("Models and layouts") has the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/layout.h"
#include "ppsim/problem.h"

namespace ppsim {

struct ModelLayer {
  char kind = 't';                    // 'E' embedding, 't' decoder, 'm' MTP, 'L' loss: the layout's letters
  std::string name;                   // the model's own label ("dense", "moe"); "" = none
  Tick f = 0;                         // ticks of one microbatch's forward through the layer, ≥ 0
  Tick b = 0;                         // its input-gradient pass
  Tick w = 0;                         // its weight-gradient pass
  std::int64_t activation_bytes = 0;  // held per microbatch, F to backward
  std::int64_t param_bytes = 0;
};

struct Model {
  std::vector<ModelLayer> layers;  // in order, repeats unrolled
};

// Per virtual stage, in the layout's order.
struct StageCosts {
  std::vector<Tick> f, b, w;
  std::vector<std::int64_t> activation_bytes, param_bytes;
};

// The model's layers summed into the layout's stages. kInvalidValue naming
// "model" when the model's decoder or MTP layers are not as many as the
// layout's, or it has more than one embedding or loss layer. A stage may sum
// to 0 (an empty stage).
Result<StageCosts> SumStageCosts(const Model& model, const Layout& layout);

// Sets `problem` to simulate the sums: P, v and the layout's stages, costs
// per virtual stage as op costs (CostBasis::kChunk), activation and
// parameter bytes per stage when the model gives any. Every op must cost
// ≥ 1 tick, so a stage whose F, B or W sums to 0 — an empty stage — is
// refused (kInvalidValue) naming the stage: zero-duration ops are not
// simulated yet.
Error ApplyStageCosts(const StageCosts& costs, const Layout& layout, Problem& problem);

}  // namespace ppsim
