// Megatron-LM's training log: the arguments block and the per-rank timers
// blocks (megatron_log.h). Lines may carry a prefix a launcher adds (srun
// -l's "0: "): the text before a block's header is taken off its lines.
#include "ppsim/io/megatron_log.h"

#include <fstream>
#include <optional>

#include "ppsim/io/atomic_file.h"

namespace ppsim::io {
namespace {

constexpr std::string_view kTimesHeader = "times across ranks (ms):";  // _get_all_ranks_time_string
constexpr std::string_view kArgsHeader = "------------------------ arguments ------------------------";
constexpr std::string_view kArgsFooter = "-------------------- end of arguments ---------------------";

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '\t' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// "1234.56" (ms, as '{:.2f}' prints it) -> 1234560000 ns, exactly.
std::optional<Tick> MsToNs(std::string_view s) {
  Tick whole = 0;
  size_t i = 0;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    if (whole > (Tick{1} << 62) / 10'000'000) return std::nullopt;  // past 2^62 ns
    whole = whole * 10 + (s[i] - '0');
  }
  if (i == 0) return std::nullopt;
  Tick frac = 0;
  int digits = 0;
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && IsDigit(s[i]); ++i)
      if (digits < 6) frac = frac * 10 + (s[i] - '0'), ++digits;
  }
  if (i != s.size()) return std::nullopt;
  for (; digits < 6; ++digits) frac *= 10;
  return whole * 1'000'000 + frac;
}

std::optional<std::int64_t> ReadWhole(std::string_view s) {
  std::int64_t v = 0;
  if (s.empty() || s.size() > 15) return std::nullopt;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// The N of " iteration       N/       T |" (training.py training_log).
std::optional<std::int64_t> IterationOf(std::string_view line) {
  const size_t at = line.find(" iteration ");
  if (at == std::string_view::npos) return std::nullopt;
  size_t i = at + 11;
  while (i < line.size() && line[i] == ' ') ++i;
  const size_t from = i;
  while (i < line.size() && IsDigit(line[i])) ++i;
  if (i == from || i >= line.size() || line[i] != '/') return std::nullopt;
  return ReadWhole(line.substr(from, i - from));
}

struct Reader {
  std::string shown;
  int line_no = 0;
  MegatronArgs args;  // the last arguments block read
  bool have_args = false;
  std::int64_t iteration = -1;  // of the last iteration line
  std::optional<MegatronLog> chosen;
  std::vector<std::int64_t> iterations;  // of the blocks with forward-compute
  int minmax_line = 0, level1_line = 0;

  Error At(int line, const std::string& what) const {
    return Fail(ErrorCode::kParse, shown + ":" + std::to_string(line) + ": " + what);
  }
};

// One "  name .... value" line of the arguments block; false if it is not one.
bool SplitArg(std::string_view s, std::string_view& name, std::string_view& value) {
  if (s.size() < 4 || s[0] != ' ' || s[1] != ' ' || s[2] == ' ') return false;
  const size_t space = s.find(' ', 2);
  if (space == std::string_view::npos) return false;
  name = s.substr(2, space - 2);
  size_t i = space + 1;
  while (i < s.size() && s[i] == '.') ++i;
  if (i >= s.size() || s[i] != ' ') return false;
  value = s.substr(i + 1);
  return true;
}

Error ReadArg(Reader& r, std::string_view name, std::string_view value) {
  struct Key {
    const char* name;
    std::int64_t* value;
  };
  std::int64_t P = 0, v = 0, tp = 0, cp = 0, dp = 0, world = 0, group = 0, interval = 0;
  const Key keys[] = {{"pipeline_model_parallel_size", &P},
                      {"virtual_pipeline_model_parallel_size", &v},
                      {"tensor_model_parallel_size", &tp},
                      {"context_parallel_size", &cp},
                      {"data_parallel_size", &dp},
                      {"world_size", &world},
                      {"global_batch_size", &r.args.global_batch},
                      {"micro_batch_size", &r.args.micro_batch},
                      {"microbatch_group_size_per_vp_stage", &group},
                      {"log_interval", &interval}};
  if (name == "use_tp_pp_dp_mapping") {
    if (value != "True" && value != "False")
      return r.At(r.line_no, "use_tp_pp_dp_mapping: '" + std::string(value) + "' is not True or False");
    r.args.tp_pp_dp = value == "True";
    return Error::Ok();
  }
  for (const Key& k : keys) {
    if (name != k.name) continue;
    if (value == "None") return Error::Ok();  // Megatron's default then (virtual stages: none)
    const std::optional<std::int64_t> n = ReadWhole(value);
    if (!n || *n < 1 || *n > (std::int64_t{1} << 40))
      return r.At(r.line_no, std::string(k.name) + ": '" + std::string(value) + "' is not a whole number ≥ 1");
    *k.value = *n;
  }
  auto narrow = [](std::int64_t x, int& into) {
    if (x > 0) into = static_cast<int>(std::min<std::int64_t>(x, 1 << 30));
  };
  narrow(P, r.args.P), narrow(v, r.args.v), narrow(tp, r.args.tp), narrow(cp, r.args.cp), narrow(dp, r.args.dp);
  narrow(world, r.args.world_size), narrow(group, r.args.group), narrow(interval, r.args.log_interval);
  return Error::Ok();
}

// Reads the arguments block whose header was the last line; a fresh block.
Error ReadArgs(Reader& r, std::istream& in, const std::string& prefix) {
  r.args = MegatronArgs{};
  r.args.line = r.line_no;
  r.have_args = true;
  std::string raw;
  while (std::getline(in, raw)) {
    ++r.line_no;
    std::string_view s = TrimRight(raw);
    if (!prefix.empty() && s.starts_with(prefix)) s.remove_prefix(prefix.size());
    if (s.find(kArgsFooter) != std::string_view::npos) return Error::Ok();
    std::string_view name, value;
    if (!SplitArg(s, name, value)) continue;  // a value printed over several lines
    if (Error e = ReadArg(r, name, value); !e.ok()) return e;
  }
  return r.At(r.args.line, "the arguments block has no end ('" + std::string(kArgsFooter) + "')");
}

// Reads the timers block whose header was the last line. Returns the line
// that ended it (not part of it), or nothing at the end of the file.
Result<std::optional<std::string>> ReadTimers(Reader& r, std::istream& in, const std::string& prefix,
                                              MegatronTimers& t) {
  t.line = r.line_no;
  t.iteration = r.iteration;
  std::vector<Tick>* current = nullptr;
  std::string current_name;
  std::string raw;
  while (std::getline(in, raw)) {
    ++r.line_no;
    std::string_view s = TrimRight(raw);
    if (!prefix.empty()) {
      if (!s.starts_with(prefix)) return std::optional<std::string>(raw);
      s.remove_prefix(prefix.size());
    }
    if (s.starts_with("     rank ")) {  // '\n     rank {:2d}: {:.2f}'
      size_t i = 10;
      while (i < s.size() && s[i] == ' ') ++i;
      const size_t colon = s.find(": ", i);
      const std::optional<std::int64_t> rank =
          colon == std::string_view::npos ? std::nullopt : ReadWhole(s.substr(i, colon - i));
      const std::optional<Tick> ns = colon == std::string_view::npos ? std::nullopt : MsToNs(s.substr(colon + 2));
      if (!rank || !ns || *rank > (1 << 20))
        return r.At(r.line_no, "'" + std::string(s) + "' is no timer line (Megatron prints '     rank NN: MS.MS')");
      if (current == nullptr) return r.At(r.line_no, "a rank's time before any timer name");
      if (static_cast<std::int64_t>(current->size()) <= *rank) current->resize(*rank + 1, -1);
      if ((*current)[*rank] >= 0)
        return r.At(r.line_no, current_name + ": rank " + std::to_string(*rank) + " printed twice");
      (*current)[*rank] = *ns;
      continue;
    }
    if (s.size() > 3 && s.starts_with("  ") && s[2] != ' ' && s.back() == ':') {  // '\n  {}:'
      current_name = std::string(s.substr(2, s.size() - 3));
      if (t.by_name.count(current_name))
        return r.At(r.line_no, "timer '" + current_name + "' printed twice in one block");
      current = &t.by_name[current_name];
      t.name_line[current_name] = r.line_no;
      continue;
    }
    return std::optional<std::string>(raw);
  }
  return std::optional<std::string>();
}

// One line outside any block: a header starts one.
Error ReadLine(Reader& r, std::istream& in, std::string raw, std::int64_t want) {
  while (true) {
    const std::string_view s = TrimRight(raw);
    if (const size_t at = s.find(kArgsHeader); at != std::string_view::npos)
      return ReadArgs(r, in, std::string(s.substr(0, at)));
    if (s.ends_with("(min, max) time across ranks (ms):") || s.ends_with("max time across ranks (ms):")) {
      if (r.minmax_line == 0) r.minmax_line = r.line_no;
      return Error::Ok();
    }
    if (std::optional<std::int64_t> it = IterationOf(s)) r.iteration = *it;
    if (!s.ends_with(kTimesHeader)) return Error::Ok();
    MegatronTimers t;
    Result<std::optional<std::string>> next =
        ReadTimers(r, in, std::string(s.substr(0, s.size() - kTimesHeader.size())), t);
    if (!next) return next.error();
    if (t.by_name.count("forward-compute")) {
      r.iterations.push_back(t.iteration);
      if (!r.have_args) return r.At(t.line, "timers before any arguments block ('" + std::string(kArgsHeader) + "')");
      if (want < 0 || t.iteration == want) r.chosen = MegatronLog{r.shown, r.args, std::move(t)};
    } else if (t.by_name.count("forward-backward") && r.level1_line == 0) {
      r.level1_line = t.line;
    }
    if (!next->has_value()) return Error::Ok();
    raw = std::move(**next);  // the line that ended the block starts over
  }
}

Error CheckArgs(const Reader& r, const MegatronArgs& a) {
  for (auto [missing, name] :
       {std::pair{a.P == 0, "pipeline_model_parallel_size"}, std::pair{a.dp == 0, "data_parallel_size"},
        std::pair{a.global_batch == 0, "global_batch_size"}, std::pair{a.micro_batch == 0, "micro_batch_size"}})
    if (missing) return r.At(a.line, std::string("the arguments block has no ") + name + " (P and M come from it)");
  return Error::Ok();
}

}  // namespace

bool LooksLikeTextLog(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  int seen = 0;
  while (in.get(c)) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (seen++ == 0 && u == 0x1f) return false;  // gzip's magic
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || u == 0xef || u == 0xbb || u == 0xbf) continue;  // blank, BOM
    return c != '{' && c != '[';
  }
  return false;  // empty or unreadable: the JSON readers say why
}

Result<MegatronLog> ReadMegatronLog(const std::string& path, std::int64_t iteration) {
  Reader r;
  r.shown = DisplayPath(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(ErrorCode::kIo, r.shown + ": cannot read");
  std::string raw;
  while (std::getline(in, raw)) {
    ++r.line_no;
    if (Error e = ReadLine(r, in, std::move(raw), iteration); !e.ok()) return e;
  }
  if (in.bad()) return Fail(ErrorCode::kIo, r.shown + ": read error");
  if (!r.chosen) {
    if (iteration >= 0 && !r.iterations.empty()) {
      std::string seen;
      for (std::int64_t it : r.iterations) seen += (seen.empty() ? "" : ", ") + std::to_string(it);
      return Fail(ErrorCode::kInvalidValue, r.shown + ": --step " + std::to_string(iteration) +
                                                ": no per-rank timers after that iteration (iterations: " + seen + ")");
    }
    if (r.minmax_line > 0)
      return r.At(r.minmax_line,
                  "the timers are (min, max) across ranks (Megatron's --timing-log-option minmax, its "
                  "default); explain needs each rank's: --timing-log-option all");
    if (r.level1_line > 0)
      return r.At(r.level1_line,
                  "the timers have no forward-compute (--timing-log-level 1); explain needs "
                  "--timing-log-level 2");
    return Fail(ErrorCode::kParse, r.shown +
                                       ": not a profiler trace nor a ppsim timeline (not JSON), nor a "
                                       "Megatron-LM timers log (no '" +
                                       std::string(kTimesHeader) + "' block with forward-compute)");
  }
  if (Error e = CheckArgs(r, r.chosen->args); !e.ok()) return e;
  return std::move(*r.chosen);
}

}  // namespace ppsim::io
