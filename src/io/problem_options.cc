#include "ppsim/io/problem_options.h"

#include <string>
#include <utility>

#include "ppsim/io/cost_file.h"
#include "ppsim/io/memory_room.h"
#include "ppsim/io/model_file.h"
#include "ppsim/cost_spec.h"
#include "ppsim/problem_keys.h"
#include "ppsim/whole_number.h"

namespace ppsim::io {

Error ParseIntField(const std::string& field, const std::string& text, long long min, long long max, int& out) {
  std::int64_t v = 0;
  const WholeRead read = ReadWhole(text, v);
  if (read == WholeRead::kNotWhole)
    return Error::Field(ErrorCode::kInvalidValue, field, ": '" + text + "' is not a whole number");
  if (read == WholeRead::kTooLarge || v > max)
    return Error::Field(ErrorCode::kTooLarge, field, ": " + text + " exceeds the limit " + std::to_string(max));
  if (v < min)
    return Error::Field(ErrorCode::kInvalidValue, field, " must be ≥ " + std::to_string(min) + ", got " + text);
  out = static_cast<int>(v);
  return Error::Ok();
}

std::string FirstLinkKey(const ProblemOptions& o) {
  for (auto [key, text] : {std::pair<const char*, const std::string*>{"link.latency", &o.link_latency},
                           {"link.bandwidth", &o.link_bandwidth},
                           {"link.concurrency", &o.link_concurrency},
                           {"link.bytes", &o.link_bytes},
                           {"link.send_release", &o.link_send_release}})
    if (!text->empty()) return key;
  return "";
}

Error CheckLinkHasComms(const ProblemOptions& o) {
  const std::string link = FirstLinkKey(o);
  if (!link.empty() && (o.comms.empty() || o.comms == "none"))
    return Error::Field(ErrorCode::kUsage, link,
                        " is a parameter of the comm model: give comms (a rule, docs/comms.md) or drop it");
  return Error::Ok();
}

Result<Problem> ToProblem(const ProblemOptions& o) {
  Problem p;
  auto set = [&p](const char* key, const std::string& text) {
    return SetProblemKey(key, KeyValue::FromText(text), p);
  };
  for (auto [key, text] : {std::pair<const char*, const std::string*>{"P", &o.P}, {"M", &o.M}, {"chunks", &o.chunks}})
    if (Error e = set(key, *text); !e.ok()) return e;
  if (!o.cost_file.empty())
    if (Error e = ApplyCostFile(o.cost_file, p); !e.ok()) return e;
  if (!o.cost.empty())
    if (Error e = ApplyCostSpec(o.cost, p.costs); !e.ok()) return e;
  for (auto [key, text] : {std::pair<const char*, const std::string*>{"comm", &o.comm},
                           {"memory.limit", &o.memory_limit},
                           {"group", &o.group},
                           {"slices", &o.slices},
                           {"slice_costs", &o.slice_costs},
                           {"seq_len", &o.seq_len},
                           {"hidden", &o.hidden},
                           {"microbatch_costs", &o.microbatch_costs},
                           {"microbatch_lengths", &o.microbatch_lengths},
                           {"length_range", &o.length_range},
                           {"length_seed", &o.length_seed},
                           {"length_cost", &o.length_cost},
                           {"recompute", &o.recompute},
                           {"recompute_at", &o.recompute_at},
                           {"recompute_inputs", &o.recompute_inputs},
                           {"comms", &o.comms},
                           {"link.latency", &o.link_latency},
                           {"link.bandwidth", &o.link_bandwidth},
                           {"link.concurrency", &o.link_concurrency},
                           {"link.bytes", &o.link_bytes},
                           {"link.send_release", &o.link_send_release}})
    if (!text->empty())
      if (Error e = set(key, *text); !e.ok()) return e;
  p.overlap = !o.no_overlap;
  for (auto [key, text] : {std::pair<const char*, const std::string*>{"cost_per", &o.cost_per}, {"hold", &o.hold}})
    if (Error e = set(key, *text); !e.ok()) return e;
  if (!o.model.empty() || !o.model_json.empty() || !o.layout.empty()) {
    if (!o.cost.empty())
      return Error::Field(ErrorCode::kUsage, "costs", " cannot be given with a model: its layers give the costs");
    if (Error e = ApplyModelLayout(o.model, o.layout, o.chunks != "1", p, o.model_json); !e.ok()) return e;
  }
  if (Error e = CheckMemoryRoom(p); !e.ok()) return e;  // before anything is sized by P·v·M
  return p;
}

}  // namespace ppsim::io
