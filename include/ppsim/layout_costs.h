// A model as its layers in order, and its costs summed into the stages of a
// layout (ppsim/layout.h): stage s holds the embedding if Megatron builds
// it there, the decoder and MTP layers whose ids the layout gives it, and
// the loss if built there. The sums are the per-op costs of each virtual
// stage (CostBasis::kChunk) and its bytes, so a problem simulates the split
// the layout describes. docs/costs.md ("Models and layouts") has the file.
//
// Memory (docs/costs.md, "A model's memory"): a layer's parameters are
// param_bytes of weights; its gradients and optimizer state are counted
// from them at the model's bytes per parameter (Adam in mixed precision by
// default: 2 + 2 + 12). A recomputed layer holds only checkpoint_bytes (its
// input) between its forward and the recompute, and its forward runs again
// before its backward: the stage's `recompute` ticks, an op R of their own
// (recompute.h), which holds the layer's full activation bytes again.
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
  std::int64_t param_bytes = 0;       // the layer's weights, bytes
  std::int64_t checkpoint_bytes = 0;  // held per microbatch instead when recomputed (its input)
  bool recompute = false;             // its forward runs again before its backward
};

// Bytes each parameter costs (ZeRO, Rajbhandari et al. 2020, §3.1: Adam in
// mixed precision keeps fp16/bf16 weights and gradients, 2 bytes each, and
// an fp32 master copy, momentum and variance, 4 bytes each).
struct BytesPerParam {
  int weight = 2;      // what a layer's param_bytes counts
  int grad = 2;        // its gradient
  int optimizer = 12;  // optimizer state: 4 + 4 + 4 for Adam in mixed precision
};

struct Model {
  std::vector<ModelLayer> layers;  // in order, repeats unrolled
  BytesPerParam bytes_per_param;
};

// A layer's gradient and optimizer bytes: param_bytes / weight parameters
// at grad (optimizer) bytes each, rounded down.
std::int64_t GradBytes(const ModelLayer& layer, const BytesPerParam& per);
std::int64_t OptimizerBytes(const ModelLayer& layer, const BytesPerParam& per);
// What the layer holds per microbatch between its passes.
std::int64_t HeldBytes(const ModelLayer& layer);

// Per virtual stage, in the layout's order.
struct StageCosts {
  std::vector<Tick> f, b, w;
  std::vector<Tick> recompute;  // forward ticks run again before B (recomputed layers' F): R's cost
  // activation_bytes: every layer's, held in full; input_bytes: what the
  // stage holds between F and R (recomputed layers' checkpoint_bytes, the
  // others' activation_bytes).
  std::vector<std::int64_t> activation_bytes, param_bytes, grad_bytes, optimizer_bytes, input_bytes;
};

// The model's layers summed into the layout's stages. kInvalidValue naming
// "model" when the model's decoder or MTP layers are not as many as the
// layout's, or it has more than one embedding or loss layer. A stage may sum
// to 0 (an empty stage).
Result<StageCosts> SumStageCosts(const Model& model, const Layout& layout);

// Sets `problem` to simulate the sums: P, v and the layout's stages, costs
// per virtual stage as op costs (CostBasis::kChunk), activation,
// parameter, gradient and optimizer bytes per stage when the model gives
// any. A model that recomputes a layer sets recompute = selective, the R
// cost of each stage (Costs::r) and the bytes held between F and R
// (MemoryModel::input_bytes). Every op must cost
// ≥ 1 tick, so a stage whose F, B or W sums to 0 — an empty stage — is
// refused (kInvalidValue) naming the stage: zero-duration ops are not
// simulated yet.
Error ApplyStageCosts(const StageCosts& costs, const Layout& layout, Problem& problem);

}  // namespace ppsim
