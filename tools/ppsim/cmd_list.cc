// ppsim list [--json]: every schedule with its preconditions and a one-line
// description, in the registry's order. `ppsim list --keys`: the table of
// problem keys (problem_keys.h).
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "command.h"
#include "ppsim/generators.h"
#include "ppsim/problem_keys.h"

namespace ppsim::cli {
namespace {

std::string Chunks(const GeneratorInfo& g) {
  return g.fixed_chunks == 0 ? "any v" : "v=" + std::to_string(g.fixed_chunks);
}

std::string Text() {
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

std::string Json() {
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

std::string KeysJson() {
  nlohmann::json list = nlohmann::json::array();
  for (const ProblemKey& k : KeyTable())
    list.push_back({{"key", k.name},
                    {"type", KeyTypeName(k.type)},
                    {"range", KeyRange(k)},
                    {"default", k.default_value},
                    {"doc", k.doc}});
  return nlohmann::json{{"keys", list}}.dump(2) + "\n";
}

const CommandRegistrar registrar(5, [](CLI::App& app, int* exit_code) {
  auto json = std::make_shared<bool>(false);
  auto keys = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("list", "every schedule with its preconditions and a one-line description");
  cmd->add_flag("--json", *json, "print {\"schedules\": [...]} instead");
  cmd->add_flag("--keys", *keys, "the problem's keys instead: type, range, default and doc of each (docs/keys.md)");
  cmd->callback([json, keys, exit_code] {
    const std::string out = *keys ? (*json ? KeysJson() : KeyTableText()) : *json ? Json() : Text();
    std::fwrite(out.data(), 1, out.size(), stdout);
    *exit_code = 0;
  });
});

}  // namespace
}  // namespace ppsim::cli
