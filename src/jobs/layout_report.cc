#include "ppsim/jobs/layout_report.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "ppsim/io/json_out.h"
#include "ppsim/io/problem_options.h"
#include "ppsim/layout_flags.h"

namespace ppsim::jobs {

Result<LayoutOptions> ParseLayoutArgs(const LayoutArgs& args) {
  LayoutOptions o;
  if (args.P.empty()) return Error::Field(ErrorCode::kInvalidValue, "P", " is required: the pipeline ranks");
  const int max = static_cast<int>(kMaxLayoutLength);
  if (Error e = io::ParseIntField("P", args.P, 1, max, o.P); !e.ok()) return e;
  if (!args.chunks.empty())
    if (Error e = io::ParseIntField("chunks", args.chunks, 1, max, o.chunks); !e.ok()) return e;
  if (!args.num_layers.empty())
    if (Error e = io::ParseIntField("num_layers", args.num_layers, 0, max, o.num_layers); !e.ok()) return e;
  if (!args.mtp_layers.empty())
    if (Error e = io::ParseIntField("mtp_layers", args.mtp_layers, 0, max, o.mtp_layers); !e.ok()) return e;
  return o;
}

namespace {

std::string IdRange(const std::vector<int>& ids) {
  if (ids.empty()) return "";
  return std::to_string(ids.front()) + (ids.size() > 1 ? "-" + std::to_string(ids.back()) : "");
}

// A table cell: the stage as Megatron builds it, run-length coded, and its decoder layer ids.
std::string Cell(const std::string& built, const LayoutStage& s) {
  if (built.empty()) return "(empty)";
  std::string cell = WriteLayoutString({built});
  if (!s.decoder_layer_ids.empty()) cell += " (" + IdRange(s.decoder_layer_ids) + ")";
  return cell;
}

std::string Pad(const std::string& s, size_t width) {
  return s + std::string(width > s.size() ? width - s.size() : 0, ' ');
}

std::string Table(const Layout& l, const std::vector<std::string>& built) {
  std::vector<std::vector<std::string>> rows{{"pp \\ vp"}};
  for (int vp = 0; vp < l.v; ++vp) rows[0].push_back(std::to_string(vp));
  for (int pp = 0; pp < l.P; ++pp) {
    rows.push_back({std::to_string(pp)});
    for (int vp = 0; vp < l.v; ++vp) {
      const LayoutStage& s = l.At(pp, vp);
      rows.back().push_back(Cell(built[s.virtual_stage], s));
    }
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) line += c + 1 < row.size() ? Pad(row[c], width[c] + 3) : row[c];
    out += line + "\n";
  }
  return out;
}

std::string Plural(int n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string Flags(const Layout& l, const std::string& text) {
  std::string flags = "--pipeline-model-parallel-size " + std::to_string(l.P) + " --pipeline-model-parallel-layout '" +
                      text + "' --num-layers " + std::to_string(l.num_layers);
  if (l.mtp_layers > 0) flags += " --mtp-num-layers " + std::to_string(l.mtp_layers);
  return flags;
}

std::string ModulesJson(const std::vector<std::vector<std::string>>& parts) {
  std::string out;
  io::JsonOut json([&out](std::string_view s) {
    out += s;
    return true;
  });
  json.Char('[');
  for (size_t i = 0; i < parts.size(); ++i) {
    json.Raw(i ? ", [" : "[");
    for (size_t k = 0; k < parts[i].size(); ++k) {
      if (k) json.Raw(", ");
      json.String(parts[i][k]);
    }
    json.Char(']');
  }
  json.Char(']');
  json.Finish();
  return out;
}

void StageJson(io::JsonOut& json, const LayoutStage& s) {
  auto ids = [&json](const std::vector<int>& v) {
    json.Char('[');
    for (size_t i = 0; i < v.size(); ++i) (i ? json.Char(',') : json).Int(v[i]);
    json.Char(']');
  };
  json.Char('{').Key("pp_rank").Int(s.pp_rank).Char(',').Key("vp_stage").Int(s.vp_stage);
  json.Char(',').Key("virtual_stage").Int(s.virtual_stage).Char(',').Key("layers").String(s.layers);
  json.Char(',').Key("num_decoder_layers").Int(static_cast<std::int64_t>(s.decoder_layer_ids.size()));
  json.Char(',').Key("decoder_layer_ids");
  ids(s.decoder_layer_ids);
  json.Char(',').Key("mtp_layer_ids");
  ids(s.mtp_layer_ids);
  json.Char(',').Key("builds_embedding").Bool(s.builds_embedding);
  json.Char(',').Key("builds_loss").Bool(s.builds_loss).Char(',').Key("column").Int(s.column).Char('}');
}

std::string ReportJson(const LayoutReport& r, std::string_view text) {
  const Layout& l = r.layout;
  std::string out;
  io::JsonOut json([&out](std::string_view s) {
    out += s;
    return true;
  });
  json.Char('{').Key("layout").String(text).Char(',').Key("P").Int(l.P).Char(',').Key("v").Int(l.v);
  json.Char(',').Key("num_layers").Int(l.num_layers).Char(',').Key("mtp_layers").Int(l.mtp_layers);
  json.Char(',').Key("stages").Char('[');
  for (int pp = 0; pp < l.P; ++pp) {
    json.Raw(pp ? ",[" : "[");
    for (int vp = 0; vp < l.v; ++vp) {
      if (vp) json.Char(',');
      StageJson(json, l.At(pp, vp));
    }
    json.Char(']');
  }
  json.Char(']').Char(',').Key("megatron_layout").String(r.megatron_layout);
  json.Char(',').Key("megatron_flags").String(r.megatron_flags).Char(',').Key("torchtitan_module_fqns_per_model_part");
  if (r.torchtitan_modules.empty())
    json.Raw("null");
  else
    json.Raw(r.torchtitan_modules);
  json.Char(',').Key("torchtitan_refusal").String(r.torchtitan_refusal).Char(',').Key("warnings").Char('[');
  for (size_t i = 0; i < l.warnings.size(); ++i) (i ? json.Char(',') : json).String(l.warnings[i]);
  json.Raw("]}");
  json.Finish();
  return out;
}

}  // namespace

Result<LayoutReport> MakeLayoutReport(std::string_view text, const LayoutOptions& options) {
  Result<Layout> layout = ReadLayout(text, options);
  if (!layout) return layout.error();
  LayoutReport r;
  r.layout = std::move(*layout);
  const Layout& l = r.layout;
  const std::vector<std::string> built = BuiltStages(l);
  r.megatron_layout = WriteLayoutString(built);
  r.megatron_flags = Flags(l, r.megatron_layout);
  Result<std::vector<std::vector<std::string>>> modules = TorchtitanModules(l);
  if (modules)
    r.torchtitan_modules = ModulesJson(*modules);
  else
    r.torchtitan_refusal = modules.error().Text();
  r.text = "layout '" + std::string(text) + "': P = " + std::to_string(l.P) + ", v = " + std::to_string(l.v) + ", " +
           Plural(l.num_layers, "decoder layer") + ", " + Plural(l.mtp_layers, "MTP layer") +
           "; stage i runs on pp i mod P, vp i div P\n" + Table(l, built) + "megatron: " + r.megatron_flags + "\n" +
           (modules ? "torchtitan: parallelism.module_fqns_per_model_part = " + r.torchtitan_modules
                    : r.torchtitan_refusal) +
           "\n";
  r.json = ReportJson(r, text);
  return r;
}

namespace {

bool SplitFlagsGiven(const LayoutArgs& a) {
  return !a.decoder_first_pipeline_num_layers.empty() || !a.decoder_last_pipeline_num_layers.empty() ||
         a.account_for_embedding_in_pipeline_split || a.account_for_loss_in_pipeline_split;
}

// The layout string of the split Megatron's flags give.
Result<std::string> FlagLayout(const LayoutArgs& a, const LayoutOptions& o) {
  if (o.num_layers < 0)
    return Error::Field(ErrorCode::kInvalidValue, "num_layers", " is required without a layout string");
  MegatronSplitFlags f{.num_layers = o.num_layers, .P = o.P, .chunks = o.chunks > 0 ? o.chunks : 1};
  const int max = static_cast<int>(kMaxLayoutLength);
  for (const auto& [text, field, out] :
       {std::tuple{&a.decoder_first_pipeline_num_layers, "decoder_first_pipeline_num_layers", &f.first_layers},
        std::tuple{&a.decoder_last_pipeline_num_layers, "decoder_last_pipeline_num_layers", &f.last_layers}}) {
    if (text->empty()) continue;
    int value = 0;
    if (Error e = io::ParseIntField(field, *text, 1, max, value); !e.ok()) return e;
    *out = value;
  }
  f.account_for_embedding = a.account_for_embedding_in_pipeline_split;
  f.account_for_loss = a.account_for_loss_in_pipeline_split;
  f.mtp_layers = o.mtp_layers > 0 ? o.mtp_layers : 0;
  Result<std::vector<std::string>> stages = MegatronFlagStages(f);
  if (!stages) return stages.error();
  return WriteLayoutString(*stages);
}

}  // namespace

Result<LayoutReport> LayoutReportFor(std::string_view text, const LayoutArgs& args) {
  Result<LayoutOptions> options = ParseLayoutArgs(args);
  if (!options) return options.error();
  if (!text.empty()) {
    if (SplitFlagsGiven(args))
      return Fail(ErrorCode::kPrecondition,
                  "a layout string cannot be given with Megatron's split flags "
                  "(decoder_first/last_pipeline_num_layers, account_for_embedding/loss_in_pipeline_split), "
                  "as Megatron refuses them together");
    return MakeLayoutReport(text, *options);
  }
  Result<std::string> built = FlagLayout(args, *options);
  if (!built) return built.error();
  return MakeLayoutReport(*built, *options);
}

}  // namespace ppsim::jobs
