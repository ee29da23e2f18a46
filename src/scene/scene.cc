// Loading a scene: TOML -> Scene, every key checked with its position.
#include "ppsim/scene/scene.h"

#include <charconv>
#include <sstream>
#include <toml++/toml.h>

#include "toml_key_value.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/io/model_file.h"
#include "ppsim/cost_spec.h"
#include "ppsim/generators.h"
#include "ppsim/problem_keys.h"
#include "ppsim/render/render_settings.h"
#include "ppsim/whole_number.h"

namespace ppsim::scene {
namespace {

// Where a value came from, for messages: scene.toml at 3:5, or "P=0" given
// through the parameter "set" (no line).
struct Origin {
  std::string file;
  SourcePos pos;
  std::string via;  // "" = a file; "set" = an override (Error::Via)
};

class SceneLoader {
 public:
  SceneLoader(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  Result<Scene> Load(const std::vector<std::string>& overrides) {
    toml::table root;
    try {
      root = toml::parse(text_, path_);
    } catch (const toml::parse_error& e) {
      const auto& b = e.source().begin;
      return Fail(ErrorCode::kParse, std::string(e.description()))
          .At(path_, static_cast<int>(b.line), static_cast<int>(b.column));
    }
    return Load(root, overrides);
  }
  Result<Scene> Load(const toml::table& root, const std::vector<std::string>& overrides) {
    if (!Values(root, overrides)) return err_;
    if (auto* runs = root.get("run"); runs && !Runs(*runs)) return err_;
    if (scene_.runs.empty()) return Fail(ErrorCode::kInvalidValue, "the scene has no [[run]]").At(path_);
    if (auto* claims = root.get("claim"); claims && !Claims(*claims)) return err_;
    if (auto* closing = root.get("closing"); closing && !Closing(*closing)) return err_;
    if (auto* render = root.get("render"); render && !Render(*render)) return err_;
    for (auto* field : {&scene_.title, &scene_.subtitle})
      if (!CheckTemplate(*field, title_origin_[field == &scene_.title ? 0 : 1])) return err_;
    return std::move(scene_);
  }

  // What --set values can change: sets out->problem, params, title, subtitle
  // and every run's problem as Load(root, overrides) would, and returns true;
  // false with *out untouched when Load is needed (it would fail, or a name
  // that claims and templates may read appears or disappears). REQUIRES: *out
  // is Load(root, base_overrides) for some overrides (the rest of a scene —
  // runs' names, claims, templates, [render] — depends on the text alone).
  bool Reload(const toml::table& root, const std::vector<std::string>& overrides, Scene* out) {
    if (!Values(root, overrides)) return false;
    if (scene_.params.size() != out->params.size() ||
        !std::equal(scene_.params.begin(), scene_.params.end(), out->params.begin(),
                    [](const auto& a, const auto& b) { return a.first == b.first; }))
      return false;
    if (scene_.title != out->title || scene_.subtitle != out->subtitle) return false;  // templates to check
    const toml::array* runs = root.get("run")->as_array();
    std::vector<Problem> problems;
    problems.reserve(runs->size());
    for (const toml::node& r : *runs) {
      problems.push_back(scene_.problem);
      for (auto&& [key, value] : *r.as_table())
        if (ProblemKey(std::string(key.str()), value, At(value), &problems.back()) < 0) return false;
    }
    out->problem = scene_.problem;
    out->params.swap(scene_.params);
    for (size_t i = 0; i < problems.size(); ++i) out->runs[i].problem = std::move(problems[i]);
    return true;
  }

 private:
  // Top-level values first, then --set on top, then the parameters that depend on them.
  bool Values(const toml::table& root, const std::vector<std::string>& overrides) {
    scene_.path = path_;
    for (auto&& [key, node] : root) {
      const std::string k(key.str());
      if (k == "run" || k == "claim" || k == "closing" || k == "render") continue;
      if (!TopLevel(k, node, At(node))) return false;
    }
    for (const std::string& o : overrides)
      if (!Override(o)) return false;
    for (const auto& [k, v] : ProblemParams(scene_.problem)) scene_.params[k] = v;
    return true;
  }

  Origin At(const toml::node& node) const {
    const auto& b = node.source().begin;
    return {path_, {static_cast<int>(b.line), static_cast<int>(b.column)}, ""};
  }
  Origin At(const toml::key& key) const {
    const auto& b = key.source().begin;
    return {path_, {static_cast<int>(b.line), static_cast<int>(b.column)}, ""};
  }
  bool Bad(ErrorCode code, const Origin& o, const std::string& what) { return Bad(Fail(code, what), o); }
  // `e` placed at `o` (a column `e` has counts from o's).
  bool Bad(const Error& e, const Origin& o) {
    err_ = o.via.empty() ? e.At(o.file, o.pos.line, o.pos.column) : e.Via(o.via, o.file);
    return false;
  }

  // An integer value in [min, max].
  bool Int(const std::string& key, const toml::node& node, const Origin& o, std::int64_t min, std::int64_t max,
           std::int64_t* out) {
    if (!node.is_integer()) return Bad(ErrorCode::kInvalidValue, o, key + " must be a whole number");
    const std::int64_t v = node.as_integer()->get();
    if (v < min) return Bad(ErrorCode::kInvalidValue, o, key + " must be ≥ " + std::to_string(min) + ", got " + std::to_string(v));
    if (v > max)
      return Bad(ErrorCode::kTooLarge, o, key + " = " + std::to_string(v) + " exceeds the limit " + std::to_string(max));
    *out = v;
    return true;
  }
  bool String(const std::string& key, const toml::node& node, const Origin& o, std::string* out) {
    if (!node.is_string()) return Bad(ErrorCode::kInvalidValue, o, key + " must be a string");
    *out = node.as_string()->get();
    return true;
  }

  // The key table's keys (problem_keys.h), shared by the top level and
  // [[run]]: P, M, v/chunks, comm, hold, comms, ...; costs, memory and link
  // as tables (costs also as the --cost string). Returns 1 if handled, 0 if
  // `key` is not a problem key, -1 on error.
  int ProblemKey(const std::string& key, const toml::node& node, const Origin& o, Problem* p) {
    if (key == "costs") return Costs(node, o, p) ? 1 : -1;
    if (IsKeyGroup(key)) return Table(key, node, o, p) ? 1 : -1;
    if (FindProblemKey(key) == nullptr) return 0;
    const Error e = SetProblemKey(key, io::ToKeyValue(node), *p);
    return e.ok() ? 1 : (Bad(e, o), -1);
  }
  bool CostSpec(const std::string& spec, const Origin& o, Problem* p) {
    const Error e = ApplyCostSpec(spec, p->costs);
    return e.ok() || Bad(e, o);
  }
  // costs = "F=1,B=2" (the --cost syntax) or costs = { F = 1, B = [2, 2, 1, 1] }.
  bool Costs(const toml::node& node, const Origin& o, Problem* p) {
    if (node.is_string()) return CostSpec(node.as_string()->get(), o, p);
    if (!node.is_table())
      return Bad(ErrorCode::kInvalidValue, o, "costs must be a table like { F = 1, B = 2 } or a string \"F=1,B=2\"");
    return Table("costs", node, o, p);
  }
  // True iff the key table has keys "name.*" (memory.limit, link.latency):
  // a scene writes them as a table, [link] or link.latency = 1.
  static bool IsKeyGroup(const std::string& name) {
    for (const ppsim::ProblemKey& row : KeyTable())
      if (std::string_view(row.name).rfind(name + ".", 0) == 0) return true;
    return false;
  }
  // [costs] / [memory] / [link]: each entry is the key "costs.F", "memory.limit", "link.latency", ...
  bool Table(const std::string& name, const toml::node& node, const Origin& o, Problem* p) {
    if (!node.is_table()) return Bad(ErrorCode::kInvalidValue, o, name + " must be a table");
    for (auto&& [key, value] : *node.as_table()) {
      const std::string k = name + "." + std::string(key.str());
      if (FindProblemKey(k) == nullptr) {
        std::string known;
        for (const ppsim::ProblemKey& row : KeyTable())
          if (std::string_view(row.name).rfind(name + ".", 0) == 0)
            known += (known.empty() ? "" : ", ") + std::string(row.name + name.size() + 1);
        return Bad(ErrorCode::kUnknownName, At(key), "unknown key '" + k + "' (known: " + known + ")");
      }
      const Error e = SetProblemKey(k, io::ToKeyValue(value), *p);
      if (!e.ok()) return Bad(e, At(value));
    }
    return true;
  }
  // Every top-level key a scene knows, for messages.
  static std::string TopLevelKeys() {
    std::string keys = "title, subtitle";
    for (const ppsim::ProblemKey& row : KeyTable())
      if (std::string_view(row.name).find('.') == std::string_view::npos) keys += ", " + std::string(row.name);
    return keys + ", v, costs, memory, link";
  }

  bool TopLevel(const std::string& key, const toml::node& node, const Origin& o) {
    const int handled = ProblemKey(key, node, o, &scene_.problem);
    if (handled != 0) return handled > 0;
    if (key == "model") {  // a model file (docs/costs.md) the runs' layouts split, relative to the scene
      std::string path;
      if (!String(key, node, o, &path)) return false;
      const size_t slash = path_.rfind('/');
      scene_.model = path.empty() || path[0] == '/' || slash == std::string::npos ? path
                                                                                  : path_.substr(0, slash + 1) + path;
      return true;
    }
    if (key == "title" || key == "subtitle") {
      std::string* field = key == "title" ? &scene_.title : &scene_.subtitle;
      title_origin_[key == "title" ? 0 : 1] = o.pos.line > 0 ? TextOrigin(node) : o;
      return String(key, node, o, field);
    }
    if (key == "F" || key == "B" || key == "W" || key == "FB")
      return Bad(ErrorCode::kInvalidValue, o,
                 key + " is a cost, named by claims from costs: write costs = { " + key + " = ... }");
    if (node.is_integer() || node.is_floating_point()) {
      Result<Rational> r = Number(node);
      if (!r.ok()) return Bad(Error(ErrorCode::kInvalidValue, r.error().message).With(key), o);
      if (!IsIdentifier(key))
        return Bad(ErrorCode::kInvalidValue, o, "parameter '" + key + "' is not a name claims can use (letters, digits, _)");
      scene_.params[key] = *r;
      return true;
    }
    return Bad(ErrorCode::kUnknownName, o,
               "unknown key '" + key + "' (known: " + TopLevelKeys() +
                   ", [[run]], [[claim]], [closing], [render]; any other top-level number is a parameter)");
  }
  static bool IsIdentifier(const std::string& k) {
    if (k.empty() || std::isdigit(static_cast<unsigned char>(k[0]))) return false;
    for (char c : k)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return !(k == "and" || k == "or" || k == "not");
  }
  // A TOML number, exactly: a float is read back from its shortest decimal form.
  static Result<Rational> Number(const toml::node& node) {
    if (node.is_integer()) return Rational(node.as_integer()->get());
    const double d = node.as_floating_point()->get();
    char buf[400];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
    if (ec != std::errc()) return Fail(ErrorCode::kInvalidValue, "not a finite number");
    Result<Claim> c = ParseExpression(std::string_view(buf, end - buf));
    if (!c.ok()) return Fail(ErrorCode::kTooLarge, "too large for exact arithmetic");
    Result<Evaluation> e = Evaluate(*c, {}, {});
    if (!e.ok()) return Fail(ErrorCode::kTooLarge, "too large for exact arithmetic");
    return e->value.number;
  }

  // An override KEY=VALUE (the CLI's --set).
  bool Override(const std::string& item) {
    const Origin o{item, {}, "set"};
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return Bad(ErrorCode::kUsage, o, "expected KEY=VALUE, e.g. P=8");
    const std::string key = item.substr(0, eq), raw = item.substr(eq + 1);
    std::string unquoted = raw;
    if (unquoted.size() >= 2 && unquoted.front() == '"' && unquoted.back() == '"')
      unquoted = unquoted.substr(1, unquoted.size() - 2);
    if (key == "title" || key == "subtitle") {
      (key == "title" ? scene_.title : scene_.subtitle) = unquoted;
      title_origin_[key == "title" ? 0 : 1] = o;
      return true;
    }
    if (FindProblemKey(key) != nullptr) {  // as the CLI reads its flags: "8", "1:8:1", "resident"
      const Error e = SetProblemKey(key, KeyValue::FromText(unquoted), scene_.problem);
      return e.ok() || Bad(e, o);
    }
    toml::table parsed;
    std::int64_t whole = 0;
    if (IsWhole(raw, whole) && raw == std::to_string(whole)) {
      parsed.insert("x", whole);  // a plain whole number, as TOML reads it (a sweep's every point)
    } else {
      try {
        parsed = toml::parse("x = " + raw);
      } catch (const toml::parse_error&) {
        if (key == "costs") return CostSpec(raw, o, &scene_.problem);
        return Bad(ErrorCode::kInvalidValue, o, "'" + raw + "' is not a value (a number, or a TOML value)");
      }
    }
    const toml::node& value = *parsed.get("x");
    if (key == "run" || key == "claim" || key == "closing" || key == "render")
      return Bad(ErrorCode::kUsage, o, "an override changes top-level values only, not [" + key + "]");
    if (key != "costs" && scene_.params.count(key) == 0) {
      std::string names = "title, subtitle, costs";
      for (const ppsim::ProblemKey& row : KeyTable()) names += ", " + std::string(row.name);
      for (const auto& [k, v] : scene_.params) names += ", " + k;
      return Bad(ErrorCode::kUsage, o, "the scene has no top-level key '" + key + "' (known: " + names + ")");
    }
    return TopLevel(key, value, o);
  }

  // A run's layout: the scene's model summed into its stages (io::ApplyModelLayout).
  bool ApplyLayout(SceneRun& run, const Origin& o) {
    if (scene_.model.empty())
      return Bad(ErrorCode::kUsage, o, "layout needs the scene's model = \"FILE\" (docs/costs.md): the layers it splits");
    if (run.schedule != "search")
      if (Error e = io::LayoutRunsSchedule(run.schedule); !e.ok()) return Bad(e, o);
    Error e = io::ApplyModelLayout(scene_.model, run.layout, false, run.problem);
    return e.ok() || Bad(e, o);
  }

  bool Runs(const toml::node& node) {
    const toml::array* runs = node.as_array();
    if (!runs || !runs->is_array_of_tables())
      return Bad(ErrorCode::kInvalidValue, At(node), "'run' must be an array of tables: write [[run]]");
    for (const toml::node& r : *runs) {
      const toml::table& t = *r.as_table();
      SceneRun run;
      run.problem = scene_.problem;
      const Origin ro = At(r);
      run.pos = ro.pos;
      bool has_name = false, has_schedule = false;
      Origin caption_origin, layout_origin, as_origin, expect_origin;
      for (auto&& [key, value] : t) {
        const std::string k(key.str());
        const Origin o = At(value);
        const int handled = ProblemKey(k, value, o, &run.problem);
        if (handled < 0) return false;
        if (handled > 0) continue;
        if (k == "name") {
          if (!String(k, value, o, &run.name)) return false;
          has_name = true;
          if (run.name.empty() || run.name.find_first_of("\"(),") != std::string::npos ||
              std::isspace(static_cast<unsigned char>(run.name.front())) ||
              std::isspace(static_cast<unsigned char>(run.name.back())))
            return Bad(ErrorCode::kInvalidValue, o,
                       "run name \"" + run.name + "\" must be non-empty, without quotes, parentheses, commas or "
                       "surrounding spaces (claims write makespan(NAME))");
          for (const SceneRun& other : scene_.runs)
            if (other.name == run.name)
              return Bad(ErrorCode::kInvalidValue, o,
                         "two runs named \"" + run.name + "\" (the other at line " + std::to_string(other.pos.line) + ")");
        } else if (k == "schedule") {
          if (!String(k, value, o, &run.schedule)) return false;
          has_schedule = true;
          if (!FindGenerator(run.schedule) && run.schedule != "search")
            return Bad(ErrorCode::kUnknownName, o,
                       "unknown schedule '" + run.schedule + "'; known: " + KnownScheduleNames() + ", search");
        } else if (k == "layout") {  // a Megatron layout string splitting the scene's model
          if (!String(k, value, o, &run.layout)) return false;
          layout_origin = TextOrigin(value);
        } else if (k == "max_activations") {  // the budget of schedule = "search", in stage-sets per device
          if (!Int(k, value, o, 1, 1 << 30, &run.max_activations)) return false;
        } else if (k == "caption") {
          if (!String(k, value, o, &run.caption)) return false;
          caption_origin = TextOrigin(value);
        } else if (k == "trace") {  // profiler traces of a measured run, relative to the scene (docs/explain.md)
          std::string path;
          if (!String(k, value, o, &path)) return false;
          if (path.empty()) return Bad(ErrorCode::kInvalidValue, o, "trace must name a folder or file of traces");
          const size_t slash = path_.rfind('/');
          run.trace = path[0] == '/' || slash == std::string::npos ? path : path_.substr(0, slash + 1) + path;
        } else if (k == "expect") {  // the trace's expected costs: a cost file, relative to the scene
          std::string path;
          if (!String(k, value, o, &path)) return false;
          if (path.empty()) return Bad(ErrorCode::kInvalidValue, o, "expect must name a cost file");
          const size_t slash = path_.rfind('/');
          run.expect = path[0] == '/' || slash == std::string::npos ? path : path_.substr(0, slash + 1) + path;
          expect_origin = o;
        } else if (k == "equal_stages") {  // the trace's stages are declared equal
          if (!value.is_boolean())
            return Bad(ErrorCode::kInvalidValue, o, "equal_stages must be true or false");
          run.equal_stages = value.as_boolean()->get();
          if (run.equal_stages) expect_origin = expect_origin.pos.line > 0 ? expect_origin : o;
        } else if (k == "as") {  // which run of the trace: measured or ideal
          if (!String(k, value, o, &run.as)) return false;
          if (run.as != "measured" && run.as != "ideal")
            return Bad(ErrorCode::kInvalidValue, o, "as = \"" + run.as + "\": a trace's run is \"measured\" or \"ideal\"");
          as_origin = o;
        } else {
          return Bad(ErrorCode::kUnknownName, At(key),
                     "unknown key '" + k +
                         "' in [[run]] (known: name, schedule, trace, as, expect, equal_stages, caption, P, M, v, "
                         "chunks, comm, hold, costs, cost_per, max_activations, layout)");
        }
      }
      if (!run.layout.empty() && !ApplyLayout(run, layout_origin)) return false;
      if (!has_name) return Bad(ErrorCode::kInvalidValue, ro, "[[run]] needs a name");
      if (has_schedule && !run.trace.empty())
        return Bad(ErrorCode::kInvalidValue, ro, "[[run]] \"" + run.name + "\": a schedule or a trace, not both");
      if (run.trace.empty() && as_origin.pos.line > 0)
        return Bad(ErrorCode::kInvalidValue, as_origin, "as names a run of a trace: give trace = \"DIR/\" too");
      if (run.trace.empty() && expect_origin.pos.line > 0)
        return Bad(ErrorCode::kInvalidValue, expect_origin,
                   "expect and equal_stages judge a trace's run: give trace = \"DIR/\" too");
      if (!run.expect.empty() && run.equal_stages)
        return Bad(ErrorCode::kInvalidValue, expect_origin, "expect or equal_stages, not both (as ppsim explain)");
      if (!has_schedule && run.trace.empty())
        return Bad(ErrorCode::kInvalidValue, ro, "[[run]] \"" + run.name + "\" needs a schedule (or a trace)");
      if (!scene_.runs.empty() && scene_.traces != !run.trace.empty())
        return Bad(ErrorCode::kInvalidValue, ro, "[[run]] \"" + run.name + "\": a scene's runs are all traces "
                   "(ns ticks) or all schedules (cycles), not some of each");
      scene_.traces = !run.trace.empty();
      if (run.schedule == "search" && run.max_activations == 0)
        return Bad(ErrorCode::kInvalidValue, ro, "[[run]] \"" + run.name + "\": schedule \"search\" needs max_activations");
      scene_.runs.push_back(std::move(run));
      caption_origins_.push_back(caption_origin);
    }
    for (const SceneRun& run : scene_.runs) run_names_.push_back(run.name);
    for (size_t i = 0; i < scene_.runs.size(); ++i)
      if (!CheckTemplate(scene_.runs[i].caption, caption_origins_[i])) return false;
    return true;
  }

  // Position of a string value's first character: after its opening quote(s).
  // Columns count characters, as toml++ does.
  SourcePos TextStart(const toml::node& value) const {
    const auto& b = value.source().begin;
    SourcePos pos{static_cast<int>(b.line), static_cast<int>(b.column)};
    size_t byte = 0;
    for (int line = 1; line < pos.line; ++line) {
      byte = text_.find('\n', byte);
      if (byte == std::string_view::npos) return pos;
      ++byte;
    }
    for (int col = 1; col < pos.column && byte < text_.size(); ++col) {
      ++byte;
      while (byte < text_.size() && (static_cast<unsigned char>(text_[byte]) & 0xC0) == 0x80) ++byte;
    }
    const std::string_view rest = text_.substr(std::min(byte, text_.size()));
    pos.column += (rest.rfind("\"\"\"", 0) == 0 || rest.rfind("'''", 0) == 0) ? 3 : 1;
    return pos;
  }
  Origin TextOrigin(const toml::node& value) const { return {path_, TextStart(value), ""}; }

  bool Claims(const toml::node& node) {
    const toml::array* claims = node.as_array();
    if (!claims || !claims->is_array_of_tables())
      return Bad(ErrorCode::kInvalidValue, At(node), "'claim' must be an array of tables: write [[claim]]");
    for (const toml::node& c : *claims) {
      const toml::table& t = *c.as_table();
      SceneClaim claim;
      bool has_check = false;
      for (auto&& [key, value] : t) {
        const std::string k(key.str());
        if (k != "check")
          return Bad(ErrorCode::kUnknownName, At(key), "unknown key '" + k + "' in [[claim]] (known: check)");
        if (!String(k, value, At(value), &claim.check)) return false;
        claim.pos = TextStart(value);
        has_check = true;
      }
      if (!has_check) return Bad(ErrorCode::kInvalidValue, At(c), "[[claim]] needs check = \"...\"");
      const Origin o{path_, claim.pos, ""};
      Result<Claim> parsed = ParseClaim(claim.check);
      if (!parsed.ok()) return Bad(parsed.error().With("claim"), o);
      const Error e = CheckNames(*parsed, run_names_, scene_.params);
      if (!e.ok()) return Bad(e.With("claim"), o);
      scene_.claims.push_back(std::move(claim));
    }
    return true;
  }

  bool CheckTemplate(const std::string& tmpl, const Origin& at) {
    if (tmpl.empty()) return true;
    Result<std::vector<TemplatePiece>> pieces = ParseTemplate(tmpl);
    if (!pieces.ok()) return Bad(pieces.error(), at);
    for (const TemplatePiece& p : *pieces) {
      if (!p.is_expr) continue;
      const Error e = CheckNames(*p.expr, run_names_, scene_.params);
      if (e.ok()) continue;
      Error in = e.With("in '{" + p.expr->text() + "}'");
      in.column = p.column + e.column;  // the expression starts one after its '{'
      return Bad(in, at);
    }
    return true;
  }

  bool Closing(const toml::node& node) {
    if (!node.is_table()) return Bad(ErrorCode::kInvalidValue, At(node), "closing must be a table: [closing]");
    for (auto&& [key, value] : *node.as_table()) {
      const std::string k(key.str());
      if (k != "lines") return Bad(ErrorCode::kUnknownName, At(key), "unknown key '" + k + "' in [closing] (known: lines)");
      if (!value.is_array()) return Bad(ErrorCode::kInvalidValue, At(value), "closing.lines must be a list of strings");
      for (const toml::node& line : *value.as_array()) {
        std::string s;
        if (!String("closing.lines[]", line, At(line), &s)) return false;
        if (!CheckTemplate(s, TextOrigin(line))) return false;
        scene_.closing.push_back(std::move(s));
      }
    }
    return true;
  }

  // [render]: the settings of render_settings.h's table that a scene takes;
  // anything else is an error. Checked by the table, as the same setting
  // given as a flag or a Python argument: "render.fps 1000 is outside 1..240".
  bool Render(const toml::node& node) {
    if (!node.is_table()) return Bad(ErrorCode::kInvalidValue, At(node), "render must be a table: [render]");
    for (auto&& [key, value] : *node.as_table()) {
      const std::string k(key.str());
      const render::RenderSetting* row = render::FindRenderSetting(k);
      if (!row || !row->in_scene) {
        return Bad(ErrorCode::kUnknownName, At(key),
                   "unknown key '" + k + "' in [render] (known: " + render::SceneRenderKeys() + ")");
      }
      if (row->type != render::SettingType::kInt && !value.is_string()) {
        return Bad(ErrorCode::kInvalidValue, At(value), "render." + k + " must be a string");
      }
      KeyValue v;
      if (value.is_integer()) {
        v = KeyValue::Int(value.as_integer()->get());
      } else if (value.is_string()) {
        const std::string text = value.as_string()->get();
        v = KeyValue::FromText(text);
        if (v.kind != KeyValue::Kind::kWord) v = KeyValue::Other(text);  // "30" in quotes is not a number
      } else {
        v = KeyValue::Other(value.is_table() ? "a table" : value.is_array() ? "an array" : "this value");
      }
      if (Error e = render::SetRenderSetting(k, v, scene_.render); !e.ok()) {
        return Bad(e.code, At(value), "render." + e.field + e.message);
      }
    }
    return true;
  }

  std::string_view text_;
  std::string path_;
  Scene scene_;
  Error err_{ErrorCode::kInternal, "the scene loader failed without saying why"};  // set by every failing step
  Origin title_origin_[2];
  std::vector<Origin> caption_origins_;
  std::vector<std::string> run_names_;
};

}  // namespace

Result<Scene> LoadSceneText(std::string_view text, const std::string& path, const std::vector<std::string>& overrides) {
  return SceneLoader(text, path).Load(overrides);
}

struct SceneSource::Impl {
  std::string text, path;
  std::vector<std::string> overrides;
  toml::table root;
  Scene scene;
};

Result<SceneSource> SceneSource::Load(std::string_view text, const std::string& path,
                                      const std::vector<std::string>& overrides) {
  auto impl = std::make_shared<Impl>();
  impl->text = std::string(text);
  impl->path = path;
  impl->overrides = overrides;
  try {
    impl->root = toml::parse(impl->text, path);
  } catch (const toml::parse_error&) {
    return SceneLoader(impl->text, path).Load(overrides).error();  // its message
  }
  Result<Scene> scene = SceneLoader(impl->text, path).Load(impl->root, overrides);
  if (!scene.ok()) return scene.error();
  impl->scene = std::move(*scene);
  SceneSource source;
  source.impl_ = std::move(impl);
  return source;
}

const Scene& SceneSource::scene() const { return impl_->scene; }

Error SceneSource::Reload(const std::vector<std::string>& more, Scene* out) const {
  std::vector<std::string> overrides = impl_->overrides;
  overrides.insert(overrides.end(), more.begin(), more.end());
  if (SceneLoader(impl_->text, impl_->path).Reload(impl_->root, overrides, out)) return Error::Ok();
  Result<Scene> scene = SceneLoader(impl_->text, impl_->path).Load(impl_->root, overrides);
  if (!scene.ok()) return scene.error();
  *out = std::move(*scene);
  return Error::Ok();
}

Result<Scene> LoadScene(const std::string& path, const std::vector<std::string>& overrides) {
  Result<std::string> text = io::ReadFile(path);
  if (!text.ok()) return text.error();
  return LoadSceneText(*text, path, overrides);
}

}  // namespace ppsim::scene
