// Model files: layers in order, repeats, each error with file:line:col; and
// a model's layers summed into a layout's stages simulate exactly as the
// same per-stage costs given by hand.
#include "ppsim/io/model_file.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ppsim/layout.h"
#include "ppsim/layout_costs.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

const char* const kSmall = R"(name = "small"
[[layer]]
kind = "embedding"
F = 1
B = 1
W = 1
param_bytes = 100
[[layer]]
kind = "decoder"
repeat = 4
F = 2
B = 2
W = 1
activation_bytes = 10
param_bytes = 50
[[layer]]
kind = "loss"
F = 1
B = 1
)";

Layout Read(const std::string& text, int P) {
  Result<Layout> l = ReadLayout(text, {.P = P});
  EXPECT_TRUE(l.ok()) << l.error().Text();
  return *l;
}

TEST(ModelFile, LayersInOrderWithRepeats) {
  Result<Model> m = io::ParseModelText(kSmall, "small.toml");
  ASSERT_TRUE(m.ok()) << m.error().Text();
  ASSERT_EQ(m->layers.size(), 6u);
  EXPECT_EQ(m->layers[0].kind, 'E');
  EXPECT_EQ(m->layers[4].kind, 't');
  EXPECT_EQ(m->layers[4].activation_bytes, 10);
  EXPECT_EQ(m->layers[5].kind, 'L');
  EXPECT_EQ(m->layers[5].w, 0);
}

TEST(ModelFile, SummedIntoTheLayoutsStages) {
  const Model m = *io::ParseModelText(kSmall, "small.toml");
  Result<StageCosts> c = SumStageCosts(m, Read("Et|tt|tL", 3));
  ASSERT_TRUE(c.ok()) << c.error().Text();
  EXPECT_EQ(c->f, (std::vector<Tick>{3, 4, 3}));
  EXPECT_EQ(c->w, (std::vector<Tick>{2, 2, 1}));
  EXPECT_EQ(c->param_bytes, (std::vector<std::int64_t>{150, 100, 50}));
  EXPECT_EQ(c->activation_bytes, (std::vector<std::int64_t>{10, 20, 10}));
  // Megatron builds the embedding on stage 0 even where the string writes it later.
  EXPECT_EQ(SumStageCosts(m, Read("|Et|tt|tL", 4))->f, (std::vector<Tick>{1, 2, 4, 3}));
}

// The model's sums simulate as the same costs given per stage by hand.
TEST(ModelFile, SimulatesAsTheSamePerStageCosts) {
  const Model m = *io::ParseModelText(kSmall, "small.toml");
  const Layout layout = Read("Et|t|||t|tL", 2);  // 2 ranks, 3 virtual stages each; (pp 0, vp 1) and (pp 1, vp 1) empty
  Result<StageCosts> c = SumStageCosts(m, layout);
  ASSERT_TRUE(c.ok());
  Problem from_model;
  from_model.M = 4;
  // Stages 2 and 3 have no layer: their ops take no time, and only they may cost 0.
  ASSERT_TRUE(ApplyStageCosts(*c, layout, from_model).ok());
  EXPECT_EQ(from_model.empty_stages, (std::vector<int>{2, 3}));
  EXPECT_EQ(from_model.costs.f, (std::vector<Tick>{3, 2, 0, 0, 2, 3}));
  EXPECT_TRUE(ValidateProblem(from_model).ok());
  from_model.empty_stages.clear();
  EXPECT_EQ(ValidateProblem(from_model).Text(), "cost F[2] must be ≥ 1 tick, got 0");
  // A stage with layers still sums to ≥ 1 tick of each kind: the loss alone has no W.
  const Layout loss_alone = Read("Et|t|t|t||L", 2);
  EXPECT_EQ(ApplyStageCosts(*SumStageCosts(m, loss_alone), loss_alone, from_model).Text(),
            "layout: stage 5 (pp 1, vp 2) sums to W = 0 ticks; every op must take ≥ 1");
  from_model = Problem{};
  from_model.M = 4;
  const Layout even = Read("Et|t|t|tL", 2);
  ASSERT_TRUE(ApplyStageCosts(*SumStageCosts(m, even), even, from_model).ok());
  EXPECT_EQ(from_model.v, 2);
  Problem by_hand;
  by_hand.P = 2;
  by_hand.v = 2;
  by_hand.M = 4;
  by_hand.cost_basis = CostBasis::kChunk;
  by_hand.costs.f = {3, 2, 2, 3};
  by_hand.costs.b = {3, 2, 2, 3};
  by_hand.costs.w = {2, 1, 1, 1};
  Result<Timeline> a = Simulate("interleaved", from_model), b = Simulate("interleaved", by_hand);
  ASSERT_TRUE(a.ok()) << a.error().Text();
  ASSERT_TRUE(b.ok()) << b.error().Text();
  EXPECT_EQ(a->makespan, b->makespan);
  EXPECT_EQ(a->end, b->end);
  EXPECT_EQ(from_model.memory.param_bytes, (std::vector<std::int64_t>{150, 50, 50, 50}));
}

// Adam in mixed precision by default: per 2 bytes of weights, 2 of gradient
// and 12 of optimizer state, so a stage holds 8 times its param_bytes.
TEST(ModelFile, StaticBytesAreAdamMixedPrecisionByDefault) {
  const Model m = *io::ParseModelText(kSmall, "small.toml");
  const Layout layout = Read("Et|tt|tL", 3);
  Problem p;
  ASSERT_TRUE(ApplyStageCosts(*SumStageCosts(m, layout), layout, p).ok());
  EXPECT_EQ(p.memory.param_bytes, (std::vector<std::int64_t>{150, 100, 50}));
  EXPECT_EQ(p.memory.grad_bytes, (std::vector<std::int64_t>{150, 100, 50}));
  EXPECT_EQ(p.memory.optimizer_bytes, (std::vector<std::int64_t>{900, 600, 300}));
  EXPECT_EQ(p.memory.StaticBytes(0), 1200);
  // fp32 gradients, plain SGD with momentum in fp32: 2 + 4 + 4 per parameter.
  const Model sgd =
      *io::ParseModelText(std::string(kSmall) + "[bytes_per_param]\ngrad = 4\noptimizer = 4\n", "sgd.toml");
  ASSERT_TRUE(ApplyStageCosts(*SumStageCosts(sgd, layout), layout, p).ok());
  EXPECT_EQ(p.memory.StaticBytes(0), 150 + 300 + 300);
}

// A recomputed layer holds only its checkpoint between F and R, and its
// forward runs again as an op R of its own (recompute.h), not inside B.
TEST(ModelFile, RecomputeHoldsTheCheckpointAndMakesROps) {
  const std::string text = std::string("recompute = [\"decoder\"]\n") + kSmall;
  std::string with_checkpoint = text;
  with_checkpoint.insert(with_checkpoint.find("param_bytes = 50"), "checkpoint_bytes = 3\n");
  const Model m = *io::ParseModelText(with_checkpoint, "r.toml");
  const Layout layout = Read("Et|tt|tL", 3);
  Result<StageCosts> c = SumStageCosts(m, layout);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->input_bytes, (std::vector<std::int64_t>{3, 6, 3}));
  EXPECT_EQ(c->activation_bytes, (std::vector<std::int64_t>{10, 20, 10}));
  EXPECT_EQ(c->recompute, (std::vector<Tick>{2, 4, 2}));
  Problem p;
  ASSERT_TRUE(ApplyStageCosts(*c, layout, p).ok());
  EXPECT_EQ(p.costs.b, (std::vector<Tick>{3, 4, 3}));  // B is B: R carries the recomputed F
  EXPECT_EQ(p.costs.r, (std::vector<Tick>{2, 4, 2}));
  EXPECT_EQ(p.recompute, RecomputeMode::kSelective);
  EXPECT_EQ(p.memory.input_bytes, (std::vector<std::int64_t>{3, 6, 3}));
  EXPECT_EQ(p.memory.activation_bytes, (std::vector<std::int64_t>{10, 20, 10}));
  EXPECT_EQ(p.costs.f, (std::vector<Tick>{3, 4, 3}));
  // By a layer's name too: only the layers so named.
  const Model named = *io::ParseModelText(
      "recompute = [\"moe\"]\n[[layer]]\nkind = \"decoder\"\nF = 1\n[[layer]]\nkind = \"decoder\"\nname = "
      "\"moe\"\nF = 5\n",
      "n.toml");
  EXPECT_FALSE(named.layers[0].recompute);
  EXPECT_TRUE(named.layers[1].recompute);
}

TEST(ModelFile, CountsMustMatchTheLayout) {
  const Model m = *io::ParseModelText(kSmall, "small.toml");
  Result<StageCosts> c = SumStageCosts(m, Read("Et|ttL", 2));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().Text(), "model: 4 decoder layers, but the layout has 3");
}

TEST(ModelFile, ErrorsNameFileLineColumn) {
  struct Case {
    std::string text;
    ErrorCode code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"[[layer]]\nkind = \"moe\"\n", ErrorCode::kUnknownName,
       "m.toml:2:8: kind: 'moe' is not a layer kind (embedding, decoder, mtp, loss)"},
      {"[[layer]]\nkind = \"decoder\"\nF = -1\n", ErrorCode::kInvalidValue, "m.toml:3:5: F must be ≥ 0, got -1"},
      {"[[layer]]\nkind = \"decoder\"\nF = \"2\"\n", ErrorCode::kInvalidValue,
       "m.toml:3:5: F: expected a whole number"},
      {"[[layer]]\nkind = \"decoder\"\nrepeat = 0\n", ErrorCode::kInvalidValue,
       "m.toml:3:10: repeat must be ≥ 1, got 0"},
      {"[[layer]]\nkind = \"decoder\"\nFLOPS = 1\n", ErrorCode::kUnknownName,
       "m.toml:3:1: unknown key 'FLOPS' (known: kind, name, repeat, F, B, W, activation_bytes, checkpoint_bytes, "
       "param_bytes)"},
      {"recompute = [\"moe\"]\n[[layer]]\nkind = \"decoder\"\n", ErrorCode::kUnknownName,
       "m.toml:1:14: recompute: 'moe' is neither a layer kind (embedding, decoder, mtp, loss) nor the name of a "
       "layer of this model"},
      {"[bytes_per_param]\nweight = 0\n[[layer]]\nkind = \"decoder\"\n", ErrorCode::kInvalidValue,
       "m.toml:2:10: bytes_per_param.weight must be ≥ 1, got 0"},
      {"[bytes_per_param]\nadam = 8\n[[layer]]\nkind = \"decoder\"\n", ErrorCode::kUnknownName,
       "m.toml:2:1: bytes_per_param: unknown key 'adam' (known: weight, grad, optimizer)"},
      {"[[layer]]\nF = 1\n", ErrorCode::kInvalidValue, "m.toml:1:1: layer: no kind (embedding, decoder, mtp, loss)"},
      {"name = \"x\"\n", ErrorCode::kInvalidValue, "m.toml:1:1: no [[layer]]: a model has at least one layer"},
      {"[[layer]\n", ErrorCode::kParse, ""},
      {"[[layer]]\nkind = \"decoder\"\nrepeat = 2000000\n", ErrorCode::kTooLarge,
       "m.toml:3:10: repeat: 2000000 exceeds the limit 1048576"},
  };
  for (const Case& c : cases) {
    Result<Model> m = io::ParseModelText(c.text, "m.toml");
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_EQ(m.error().code, c.code) << c.text;
    if (!c.message.empty()) {
      EXPECT_EQ(m.error().Text(), c.message) << c.text;
    }
  }
}

}  // namespace
}  // namespace ppsim
