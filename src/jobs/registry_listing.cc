#include "ppsim/jobs/registry_listing.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "ppsim/generators.h"
#include "ppsim/problem_keys.h"

namespace ppsim::jobs {
namespace {

std::string Chunks(const GeneratorInfo& g) {
  return g.fixed_chunks == 0 ? "any v" : "v=" + std::to_string(g.fixed_chunks);
}

}  // namespace

std::string ScheduleListText() {
  size_t width = 0;
  for (const GeneratorInfo& g : Generators()) width = std::max(width, g.name.size());
  std::string out;
  for (const GeneratorInfo& g : Generators()) {
    const std::string pad(width - g.name.size() + 2, ' ');
    const std::string indent(width + 2, ' ');
    out += g.name + pad + g.description + "\n";
    out += indent + "placement " + PlacementName(g.placement) + ", " + Chunks(g) +
           (g.split_backward ? ", backward split into B and W" : "") + "\n";
    out += indent + "requires: " + (g.preconditions.empty() ? "nothing" : g.preconditions) + "\n";
  }
  return out;
}

std::string ScheduleListJson() {
  nlohmann::json list = nlohmann::json::array();
  for (const GeneratorInfo& g : Generators())
    list.push_back({{"name", g.name},
                    {"description", g.description},
                    {"preconditions", g.preconditions},
                    {"placement", PlacementName(g.placement)},
                    {"chunks", g.fixed_chunks == 0 ? nlohmann::json("any") : nlohmann::json(g.fixed_chunks)},
                    {"split_backward", g.split_backward}});
  return nlohmann::json{{"schedules", list}}.dump(2) + "\n";
}

std::string KeyTableJson() {
  nlohmann::json list = nlohmann::json::array();
  for (const ProblemKey& k : KeyTable())
    list.push_back({{"key", k.name},
                    {"type", KeyTypeName(k.type)},
                    {"range", KeyRange(k)},
                    {"default", k.default_value},
                    {"doc", k.doc}});
  return nlohmann::json{{"keys", list}}.dump(2) + "\n";
}

}  // namespace ppsim::jobs
