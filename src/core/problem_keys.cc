#include "ppsim/problem_keys.h"

#include <cctype>
#include <algorithm>

#include "ppsim/whole_number.h"

namespace ppsim {

KeyValue KeyValue::Int(std::int64_t v) { return {Kind::kInt, {v}, std::to_string(v)}; }

KeyValue KeyValue::List(std::vector<std::int64_t> v) {
  std::string text;
  for (std::int64_t x : v) text += (text.empty() ? "" : ":") + std::to_string(x);
  return {Kind::kList, std::move(v), "[" + text + "]"};
}

KeyValue KeyValue::Word(std::string w) {
  KeyValue k{Kind::kWord, {}, std::move(w)};
  return k;
}

KeyValue KeyValue::Other(std::string text) { return {Kind::kOther, {}, std::move(text)}; }

namespace {

bool Digits(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

bool IsWord(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isalpha(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  return true;
}

}  // namespace

KeyValue KeyValue::FromText(std::string_view text) {
  std::vector<std::int64_t> ints;
  bool huge = false;
  for (size_t from = 0;;) {
    const size_t colon = text.find(':', from);
    const std::string_view item = text.substr(from, colon == std::string_view::npos ? text.npos : colon - from);
    if (!Digits(item)) {
      return IsWord(text) ? Word(std::string(text)) : Other(std::string(text));
    }
    std::int64_t v = 0;
    if (!IsWhole(item, v)) huge = true;  // all digits, so too large
    ints.push_back(v);
    if (colon == std::string_view::npos) break;
    from = colon + 1;
  }
  KeyValue k{ints.size() == 1 ? Kind::kInt : Kind::kList, std::move(ints), std::string(text)};
  if (huge) k.kind = Kind::kHuge;
  return k;
}

bool ReadFraction(std::string_view text, std::int64_t& num, std::int64_t& den) {
  const size_t slash = text.find('/');
  if (slash != std::string_view::npos)
    return IsWhole(text.substr(0, slash), num) && IsWhole(text.substr(slash + 1), den) && den >= 1;
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos) {
    den = 1;
    return IsWhole(text, num);
  }
  const bool negative = !text.empty() && text[0] == '-';
  const std::string_view whole = text.substr(negative ? 1 : 0, dot - (negative ? 1 : 0)), digits = text.substr(dot + 1);
  if (digits.empty() || digits.size() > 17 || digits.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  std::int64_t w = 0, d = 0;
  if (!(whole.empty() || IsWhole(whole, w)) || !IsWhole(digits, d) || w < 0 || w > 1000) return false;
  den = 1;
  for (size_t i = 0; i < digits.size(); ++i) den *= 10;
  num = (w * den + d) * (negative ? -1 : 1);
  return true;
}

namespace {

using K = KeyType;

HoldMode HoldOf(const std::string& w) { return w == "resident" ? HoldMode::kResident : HoldMode::kHeld; }
CostBasis BasisOf(const std::string& w) { return w == "chunk" ? CostBasis::kChunk : CostBasis::kStage; }
int Narrow(const KeyValue& v) { return static_cast<int>(v.ints[0]); }

const std::vector<ProblemKey>& Table() {
  static const std::vector<ProblemKey> table = {
      {"P", K::kInt, 1, kMaxDevices, true, "", "4", "pipeline devices (ranks)",
       [](const KeyValue& v, Problem& p) { p.P = Narrow(v); }},
      {"M", K::kInt, 1, kMaxMicrobatches, true, "", "6", "microbatches per step",
       [](const KeyValue& v, Problem& p) { p.M = Narrow(v); }},
      {"chunks", K::kInt, 1, kMaxChunks, true, "", "1",
       "chunks (virtual stages) per device, v; a scene may write v",
       [](const KeyValue& v, Problem& p) { p.v = Narrow(v); }},
      {"group", K::kInt, 1, kMaxMicrobatches, true, "", "P",
       "microbatches per group (Megatron's microbatch_group_size_per_vp_stage; interleaved, combined-1f1b)",
       [](const KeyValue& v, Problem& p) { p.group = Narrow(v); }},
      {"comm", K::kIntOrList, 0, kMaxCost, true, "", "0",
       "latency in ticks on a cross-device dependency; a list: one per hop s->s+1 (S-1 values)",
       [](const KeyValue& v, Problem& p) {
         if (v.ints.size() == 1 && v.kind == KeyValue::Kind::kInt) {
           p.comm = v.ints[0];
           p.comm_hops.clear();
         } else {
           p.comm_hops = v.ints;
         }
       }},
      {"hold", K::kWord, 0, 0, false, "held, resident", "held",
       "activations held: held = [F end, B start), resident = [F start, B/W end]",
       [](const KeyValue& v, Problem& p) { p.hold = HoldOf(v.text); }},
      {"cost_per", K::kWord, 0, 0, false, "stage, chunk", "stage",
       "what a cost describes: stage = one device's share of the model (a chunk costs 1/v), chunk = one op",
       [](const KeyValue& v, Problem& p) { p.cost_basis = BasisOf(v.text); }},
      {"costs.F", K::kIntOrList, 1, kMaxCost, true, "", "1", "forward cost in ticks; a list: one per stage",
       [](const KeyValue& v, Problem& p) { p.costs.f = v.ints; }},
      {"costs.B", K::kIntOrList, 1, kMaxCost, true, "", "BW/2",
       "input-gradient pass of the backward (B + W = a whole backward); a list: one per stage",
       [](const KeyValue& v, Problem& p) { p.costs.b = v.ints; }},
      {"costs.W", K::kIntOrList, 1, kMaxCost, true, "", "BW/2",
       "weight-gradient pass of the backward; per stage", [](const KeyValue& v, Problem& p) { p.costs.w = v.ints; }},
      {"costs.FB", K::kIntOrList, 1, kMaxCost, true, "", "F + B",
       "overlapped forward+backward pair (DualPipe); per stage",
       [](const KeyValue& v, Problem& p) { p.costs.fb = v.ints; }},
      {"costs.BW", K::kIntOrList, 1, kMaxCost, true, "", "B + W, or 1",
       "a whole backward in one op, as a schedule that does not split it runs it; per stage",
       [](const KeyValue& v, Problem& p) { p.costs.bw = v.ints; }},
      {"slices", K::kInt, 1, kMaxSlices, true, "", "1",
       "sequence slices per microbatch, K (seq1f1b); each slice is an op of its own",
       [](const KeyValue& v, Problem& p) { p.slices = Narrow(v); }},
      {"slice_costs", K::kWordOrList, 1, kMaxCost, true, "equal, causal", "equal",
       "how a microbatch's cost splits over its slices: equal, causal (needs seq_len, hidden), or K relative costs",
       [](const KeyValue& v, Problem& p) {
         p.slice_rule = v.kind == KeyValue::Kind::kWord ? (v.text == "causal" ? SliceRule::kCausal : SliceRule::kEqual)
                                                        : SliceRule::kList;
         p.slice_weights = v.kind == KeyValue::Kind::kWord ? std::vector<Tick>{} : v.ints;
       }},
      {"seq_len", K::kInt, 1, 1 << 30, true, "", "none",
       "tokens per microbatch: slices must divide it; causal slice costs read it",
       [](const KeyValue& v, Problem& p) { p.seq_len = v.ints[0]; }},
      {"hidden", K::kInt, 1, 1 << 24, true, "", "none", "hidden size, for causal slice costs",
       [](const KeyValue& v, Problem& p) { p.hidden = v.ints[0]; }},
      {"microbatch_costs", K::kIntOrList, 1, 1 << 20, true, "", "1 each",
       "each microbatch's cost as a multiple of its stage's (M values: packed samples of unequal lengths)",
       [](const KeyValue& v, Problem& p) { p.microbatch_weights = v.ints; }},
      {"microbatch_lengths", K::kWordOrList, 1, 1 << 20, true, "uniform", "none",
       "each microbatch's length in tokens (M values), or uniform: seeded draws in length_range; costs by "
       "length_cost",
       [](const KeyValue& v, Problem& p) {
         p.lengths = v.kind == KeyValue::Kind::kWord ? LengthSource::kUniform : LengthSource::kList;
         p.length_list = v.kind == KeyValue::Kind::kWord ? std::vector<std::int64_t>{} : v.ints;
       }},
      {"length_range", K::kIntOrList, 1, 1 << 20, true, "", "none",
       "uniform microbatch lengths: MIN:MAX tokens, inclusive",
       [](const KeyValue& v, Problem& p) { p.length_range = v.ints; }},
      {"length_seed", K::kInt, 0, std::int64_t{1} << 32, false, "", "1",
       "uniform microbatch lengths: the seed of the draw (splitmix64; the same lengths on every machine)",
       [](const KeyValue& v, Problem& p) { p.length_seed = static_cast<std::uint64_t>(v.ints[0]); }},
      {"length_cost", K::kWord, 0, 0, false, "linear, causal", "linear",
       "a microbatch's cost weight from its length L: linear = L, causal = L(12 hidden + 1 + L) (needs hidden)",
       [](const KeyValue& v, Problem& p) {
         p.length_cost = v.text == "causal" ? LengthCost::kCausal : LengthCost::kLinear;
       }},
      {"recompute", K::kWord, 0, 0, false, "off, full, selective", "off",
       "recompute as an op R before each B (activation checkpointing): full = the stage's F again; selective = a "
       "model file's recomputed layers",
       [](const KeyValue& v, Problem& p) {
         p.recompute = v.text == "full"        ? RecomputeMode::kFull
                       : v.text == "selective" ? RecomputeMode::kSelective
                                               : RecomputeMode::kOff;
       }},
      {"recompute_at", K::kWord, 0, 0, false, "before_b, early", "before_b",
       "where R waits: before_b = after B's gradient arrives (Megatron), early = as soon as its device is free "
       "(Mario-like)",
       [](const KeyValue& v, Problem& p) {
         p.recompute_at = v.text == "early" ? RecomputeAt::kEarly : RecomputeAt::kBeforeB;
       }},
      {"recompute_inputs", K::kFraction, 0, 1, false, "", "0",
       "with recompute: share of a stage's activation bytes held between F and R (its layer inputs), 0..1",
       [](const KeyValue& v, Problem& p) {
         ReadFraction(v.text, p.recompute_inputs_num, p.recompute_inputs_den);
       }},
      {"memory.activation_bytes", K::kIntOrList, 0, kMaxBytes, true, "", "none",
       "activation bytes of one stage-microbatch; per stage",
       [](const KeyValue& v, Problem& p) { p.memory.activation_bytes = v.ints; }},
      {"memory.freed_by_b_percent", K::kInt, 0, 100, false, "", "0",
       "share of the activation bytes B frees when the backward is split (W frees the rest)",
       [](const KeyValue& v, Problem& p) { p.memory.freed_by_b_percent = Narrow(v); }},
      {"memory.param_bytes", K::kIntOrList, 0, kMaxBytes, true, "", "0", "parameter bytes; per stage",
       [](const KeyValue& v, Problem& p) { p.memory.param_bytes = v.ints; }},
      {"memory.grad_bytes", K::kIntOrList, 0, kMaxBytes, true, "", "0", "gradient bytes; per stage",
       [](const KeyValue& v, Problem& p) { p.memory.grad_bytes = v.ints; }},
      {"memory.optimizer_bytes", K::kIntOrList, 0, kMaxBytes, true, "", "0", "optimizer-state bytes; per stage",
       [](const KeyValue& v, Problem& p) { p.memory.optimizer_bytes = v.ints; }},
      {"memory.limit", K::kInt, 0, kMaxMemoryLimit, true, "", "0 (none)",
       "device memory limit in bytes: the first tick over it is reported",
       [](const KeyValue& v, Problem& p) { p.memory.limit = v.ints[0]; }},
      {"comms", K::kWord, 0, 0, false, "none, pytorch, pytorch-deferred, adjacent, megatron, megatron-overlap, dualpipe", "none",
       "communication as SEND/RECV ops lowered by this rule (docs/comms.md); none = the comm latency model",
       [](const KeyValue& v, Problem& p) {
         for (CommOrder o : {CommOrder::kNone, CommOrder::kPytorch, CommOrder::kPytorchDeferred, CommOrder::kAdjacent,
                             CommOrder::kMegatron, CommOrder::kMegatronOverlap,
                             CommOrder::kDualPipe})
           if (v.text == CommOrderName(o)) p.comms.order = o;
       }},
      {"link.latency", K::kInt, 0, kMaxCost, true, "", "0", "with comms: each transfer's latency, in cost units",
       [](const KeyValue& v, Problem& p) { p.comms.latency = v.ints[0]; }},
      {"link.bandwidth", K::kInt, 1, kMaxBytes, true, "", "none",
       "with comms: bytes a directed link carries per cost unit (none: no size term)",
       [](const KeyValue& v, Problem& p) { p.comms.bandwidth = v.ints[0]; }},
      {"link.concurrency", K::kInt, 0, 1024, false, "", "1",
       "with comms: calls one device has in flight with one peer, in posting order (0 = unlimited)",
       [](const KeyValue& v, Problem& p) { p.comms.concurrency = static_cast<int>(v.ints[0]); }},
      {"link.bytes", K::kIntOrList, 0, kMaxBytes, true, "", "0",
       "with comms: bytes of one transfer; a list: one per stage boundary",
       [](const KeyValue& v, Problem& p) { p.comms.transfer_bytes = v.ints; }},
      {"link.send_release", K::kWord, 0, 0, false, "step_end, completion", "step_end",
       "with comms: when a send's buffer is freed: at the step's end (PyTorch's runtime) or when its transfer completes",
       [](const KeyValue& v, Problem& p) {
         p.comms.send_release = v.text == "completion" ? SendRelease::kCompletion : SendRelease::kStepEnd;
       }},
  };
  return table;
}

// 1048576 as "2^20": a large power of two reads better as one.
std::string Number(std::int64_t v) {
  if (v >= (1 << 16) && (v & (v - 1)) == 0) {
    int k = 0;
    while ((std::int64_t{1} << k) != v) ++k;
    return "2^" + std::to_string(k);
  }
  return std::to_string(v);
}

std::string KnownKeys() {
  std::string s;
  for (const ProblemKey& k : Table()) s += (s.empty() ? "" : ", ") + std::string(k.name);
  return s;
}

// The key as the user spelled it ("v" as well as "chunks").
Error Bad(ErrorCode code, std::string_view name, std::string what) {
  return Error::Field(code, std::string(name), std::move(what));
}

}  // namespace

const std::vector<ProblemKey>& KeyTable() { return Table(); }

const ProblemKey* FindProblemKey(std::string_view name) {
  if (name == "v") name = "chunks";
  for (const ProblemKey& k : Table())
    if (name == k.name) return &k;
  return nullptr;
}

std::string KeyTypeName(KeyType type) {
  switch (type) {
    case K::kInt: return "integer";
    case K::kIntOrList: return "integer or list";
    case K::kWord: return "word";
    case K::kWordOrList: return "word or list";
    case K::kFraction: return "fraction";
  }
  return "";
}

std::string KeyRange(const ProblemKey& key) {
  if (key.type == K::kWord) return key.words;
  if (key.type == K::kWordOrList) return std::string(key.words) + "; " + Number(key.min) + ".." + Number(key.max);
  return Number(key.min) + ".." + Number(key.max);
}

std::string KeyTableText() {
  const char* head[] = {"key", "type", "range", "default"};
  size_t w[4] = {3, 4, 5, 7};
  for (const ProblemKey& k : Table()) {
    w[0] = std::max(w[0], std::string(k.name).size());
    w[1] = std::max(w[1], KeyTypeName(k.type).size());
    w[2] = std::max(w[2], KeyRange(k).size());
    w[3] = std::max(w[3], std::string(k.default_value).size());
  }
  auto row = [&](const std::string (&cells)[4], const std::string& doc) {
    std::string line;
    for (int i = 0; i < 4; ++i) line += cells[i] + std::string(w[i] - cells[i].size() + 2, ' ');
    return line + doc + "\n";
  };
  std::string out = row({head[0], head[1], head[2], head[3]}, "doc");
  for (const ProblemKey& k : Table()) out += row({k.name, KeyTypeName(k.type), KeyRange(k), k.default_value}, k.doc);
  return out;
}

std::string KeyTableMarkdown() {
  std::string out = "| key | type | range | default | doc |\n| --- | --- | --- | --- | --- |\n";
  for (const ProblemKey& k : Table())
    out += "| `" + std::string(k.name) + "` | " + KeyTypeName(k.type) + " | " + KeyRange(k) + " | " + k.default_value +
           " | " + k.doc + " |\n";
  return out;
}

Error SetProblemKey(std::string_view name, const KeyValue& value, Problem& problem) {
  const ProblemKey* key = FindProblemKey(name);
  if (key == nullptr)
    return Error::Field(ErrorCode::kUnknownName, std::string(name), ": no such key (known: " + KnownKeys() + ")");
  using VK = KeyValue::Kind;
  if (key->type == K::kFraction) {
    std::int64_t num = 0, den = 1;
    if (value.kind == VK::kList || !ReadFraction(value.text, num, den))
      return Bad(ErrorCode::kInvalidValue, name, ": '" + value.text + "' is not a number (0.125 or 1/8)");
    if (static_cast<__int128>(num) < static_cast<__int128>(key->min) * den ||
        static_cast<__int128>(num) > static_cast<__int128>(key->max) * den)
      return Bad(ErrorCode::kInvalidValue, name,
                 " must be in [" + std::to_string(key->min) + ", " + std::to_string(key->max) + "], got " + value.text);
  } else if (key->type == K::kWord || (key->type == K::kWordOrList && value.kind == VK::kWord)) {
    const std::string words = std::string(", ") + key->words + ",";
    if (value.kind != VK::kWord || words.find(", " + value.text + ",") == std::string::npos)
      return Bad(ErrorCode::kInvalidValue, name, ": '" + value.text + "' is not one of " + key->words);
  } else {
    const bool list_ok = key->type == K::kIntOrList || key->type == K::kWordOrList;
    if (value.kind == VK::kHuge)
      return Bad(key->limit ? ErrorCode::kTooLarge : ErrorCode::kInvalidValue, name,
                 ": " + value.text + " exceeds the limit " + std::to_string(key->max));
    if (value.kind != VK::kInt && !(list_ok && value.kind == VK::kList))
      return Bad(ErrorCode::kInvalidValue, name,
                 ": '" + value.text + "' is not a whole number" + (list_ok ? " or a list of them" : ""));
    if (value.ints.empty()) return Bad(ErrorCode::kInvalidValue, name, ": empty list");
    for (std::int64_t x : value.ints) {
      if (x < key->min)
        return Bad(ErrorCode::kInvalidValue, name,
                   " must be ≥ " + std::to_string(key->min) + ", got " + std::to_string(x));
      if (x > key->max && key->limit)
        return Bad(ErrorCode::kTooLarge, name,
                   ": " + std::to_string(x) + " exceeds the limit " + std::to_string(key->max));
      if (x > key->max)
        return Bad(ErrorCode::kInvalidValue, name,
                   " must be ≤ " + std::to_string(key->max) + ", got " + std::to_string(x));
    }
  }
  key->store(value, problem);
  return Error::Ok();
}

}  // namespace ppsim
