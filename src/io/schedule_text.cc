#include "ppsim/io/schedule_text.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "ppsim/problem_keys.h"
#include "ppsim/recompute.h"
#include "schedule_shape.h"

namespace ppsim::io {
namespace {

using io::SourceOp;
using io::SourceSlot;
using io::Where;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }
std::string Quoted(char c) { return std::string{'\'', c, '\''}; }

class LineParser {
 public:
  LineParser(std::string_view line, const std::string& source, int line_no, int device)
      : s_(line), source_(source), line_(line_no), device_(device) {}

  // Appends the line's slots to `out`; false if the line has no ops.
  Result<bool> Parse(std::vector<SourceSlot>& out, bool& has_w) {
    bool any = false;
    for (;;) {
      SkipSpace();
      if (AtEnd()) return any;
      any = true;
      full_ = false;
      if (s_[i_] == '(') {
        const int open = Col();
        ++i_;
        SkipSpace();
        Result<SourceOp> a = OpAt();
        if (!a) return a.error();
        SkipSpace();
        if (!Eat(';')) return Err(Col(), "expected ';' between the two ops of an overlapped pair");
        SkipSpace();
        Result<SourceOp> b = OpAt();
        if (!b) return b.error();
        SkipSpace();
        if (!Eat(')')) return Err(Col(), "expected ')' closing the overlapped pair opened at column " +
                                             std::to_string(open));
        const bool a_f = a->op.kind == OpKind::kF, b_f = b->op.kind == OpKind::kF;
        if (a_f == b_f || (a_f ? b->op.kind : a->op.kind) != OpKind::kB)
          return Err(open, "an overlapped pair needs one F and one B, got " + OpName(a->op) + " and " +
                               OpName(b->op));
        has_w |= full_;
        out.push_back({*a, *b, full_});
      } else {
        Result<SourceOp> a = OpAt();
        if (!a) return a.error();
        has_w |= a->op.kind == OpKind::kW || full_;
        out.push_back({*a, std::nullopt, full_});
      }
      if (!AtEnd() && !IsSpace(s_[i_]))
        return Err(Col(), "unexpected " + Quoted(s_[i_]) + " after an op (ops are separated by spaces)");
    }
  }

 private:
  bool AtEnd() const { return i_ >= s_.size() || s_[i_] == '#'; }
  int Col() const { return static_cast<int>(i_) + 1; }
  void SkipSpace() {
    while (i_ < s_.size() && IsSpace(s_[i_])) ++i_;
  }
  bool Eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  Error Err(int col, const std::string& what) const {
    return Fail(ErrorCode::kParse, Where(source_, line_, col) + what);
  }

  Result<int> Number(int max, const char* what) {
    const size_t from = i_;
    long long v = 0;
    while (i_ < s_.size() && IsDigit(s_[i_])) {
      v = v * 10 + (s_[i_] - '0');
      if (v > max)
        return Fail(ErrorCode::kTooLarge, Where(source_, line_, static_cast<int>(from) + 1) + what + " " +
                                              std::string(s_.substr(from, i_ + 1 - from)) +
                                              "... exceeds the limit " + std::to_string(max));
      ++i_;
    }
    if (i_ == from) {
      const std::string got = AtEnd() ? std::string("end of line") : Quoted(s_[i_]);
      return Err(Col(), std::string("expected a ") + what + " number, got " + got);
    }
    return static_cast<int>(v);
  }

  // Reads one op; `BW` (a full backward) sets full_ for the current slot.
  Result<SourceOp> OpAt() {
    SourceOp o;
    o.line = line_;
    o.col = Col();
    const std::optional<OpKind> kind = i_ < s_.size() ? KindFromChar(s_[i_]) : std::nullopt;
    if (!kind) {
      const std::string got = AtEnd() ? std::string("end of line") : Quoted(s_[i_]);
      return Err(Col(), "expected an op (F, B, W or R and a microbatch, e.g. F3 or B1@s5), got " + got);
    }
    ++i_;
    o.op.kind = *kind;
    if (o.op.kind == OpKind::kB && Eat('W')) full_ = true;
    Result<int> m = Number(io::kMaxMicrobatchIndex, "microbatch");
    if (!m) return m.error();
    o.op.microbatch = *m;
    if (Eat('.')) {  // "F3.1": slice 1 of microbatch 3 (sequence slices, slices.h)
      Result<int> j = Number(kMaxSlices - 1, "slice");
      if (!j) return j.error();
      o.slice = *j;
    }
    o.op.stage = device_;
    if (Eat('@')) {
      if (!Eat('s')) return Err(Col(), "expected 's' and a stage number after '@' (as in F3@s5)");
      Result<int> s = Number(io::kMaxStageIndex, "stage");
      if (!s) return s.error();
      o.op.stage = *s;
    }
    return o;
  }

  std::string_view s_;
  const std::string& source_;
  int line_;
  int device_;
  size_t i_ = 0;
  bool full_ = false;  // the current slot's B is a full backward (BW)
};

// The header's recompute keys ("# 1f1b: P=2 ... recompute=full
// recompute_at=early recompute_inputs=1/10"): in a comment line before the
// first op, each word KEY=VALUE with one of these keys is set on `header`
// (SetProblemKey: the same checks and words as --recompute...). Other words
// are for the reader only: the ops fix the shape.
Error ReadHeaderKeys(std::string_view line, const std::string& source, int line_no, Problem& header) {
  size_t i = 0;
  while (i < line.size() && IsSpace(line[i])) ++i;
  if (i >= line.size() || line[i] != '#') return Error::Ok();
  while (i < line.size()) {
    while (i < line.size() && (IsSpace(line[i]) || line[i] == '#')) ++i;
    const size_t from = i;
    while (i < line.size() && !IsSpace(line[i])) ++i;
    const std::string_view word = line.substr(from, i - from);
    const size_t eq = word.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = word.substr(0, eq);
    if (key != "recompute" && key != "recompute_at" && key != "recompute_inputs") continue;
    if (Error e = SetProblemKey(key, KeyValue::FromText(word.substr(eq + 1)), header); !e.ok())
      return e.At(source, line_no, static_cast<int>(from) + 1);
  }
  return Error::Ok();
}

}  // namespace

Result<ImportedSchedule> ReadScheduleText(std::string_view text, const std::string& source) {
  std::vector<std::vector<SourceSlot>> rows;
  bool has_w = false;
  int line_no = 0;
  Problem header;  // the header's recompute keys, if any
  while (!text.empty()) {
    ++line_no;
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (rows.empty())
      if (Error e = ReadHeaderKeys(line, source, line_no, header); !e.ok()) return e;
    std::vector<SourceSlot> slots;
    Result<bool> any = LineParser(line, source, line_no, static_cast<int>(rows.size())).Parse(slots, has_w);
    if (!any) return any.error();
    if (*any) rows.push_back(std::move(slots));
    if (static_cast<int>(rows.size()) > kMaxDevices)
      return Fail(ErrorCode::kTooLarge, Where(source, line_no, 1) + "more than " + std::to_string(kMaxDevices) +
                                            " devices (lines of ops)");
  }
  // Sequence slices: every op names its slice or none does; K is the
  // largest slice + 1, and op ids count slice units (m·K + j, slices.h).
  int K = 0;
  const SourceOp* with = nullptr;
  const SourceOp* without = nullptr;
  auto each = [&](auto&& fn) {
    for (auto& row : rows)
      for (SourceSlot& slot : row) {
        fn(slot.first);
        if (slot.second) fn(*slot.second);
      }
  };
  each([&](SourceOp& o) {
    if (o.slice >= 0) {
      K = std::max(K, o.slice + 1);
      if (!with) with = &o;
    } else if (!without) {
      without = &o;
    }
  });
  if (K == 0) {
    Result<ImportedSchedule> imported = io::BuildImportedSchedule(source, rows, has_w);
    if (imported && Recomputes(header)) {  // the run's recompute settings (SimulateImported applies them)
      Problem& p = imported->problem;
      p.recompute = header.recompute;
      p.recompute_at = header.recompute_at;
      p.recompute_inputs_num = header.recompute_inputs_num;
      p.recompute_inputs_den = header.recompute_inputs_den;
    }
    return imported;
  }
  if (without)
    return Fail(ErrorCode::kParse, Where(source, without->line, without->col) + KindChar(without->op.kind) +
                                       std::to_string(without->op.microbatch) + " names no slice, but " +
                                       KindChar(with->op.kind) + std::to_string(with->op.microbatch) + "." +
                                       std::to_string(with->slice) + " at " + std::to_string(with->line) + ":" +
                                       std::to_string(with->col) + " does (F3.1 is slice 1 of microbatch 3): "
                                       "give every op its slice");
  std::int64_t units = 0;
  each([&](SourceOp& o) {
    units = std::max<std::int64_t>(units, (std::int64_t{o.op.microbatch} + 1) * K);
    o.op.microbatch = o.op.microbatch * K + o.slice;
  });
  if (units > kMaxMicrobatches)
    return Fail(ErrorCode::kTooLarge, source + ": " + std::to_string(units / K) + " microbatches of " +
                                          std::to_string(K) + " slices exceed the limit of " +
                                          std::to_string(kMaxMicrobatches) + " slice units");
  Result<ImportedSchedule> imported = io::BuildImportedSchedule(source, rows, has_w);
  if (!imported) return imported.error();
  // BuildImportedSchedule saw slice units as microbatches; complete, they
  // number units = M·K (the last microbatch's slices are all there).
  Problem& p = imported->problem;
  if (p.M % K != 0)
    return Fail(ErrorCode::kBadSchedule, source + ": microbatch " + std::to_string(p.M / K) + " has " +
                                             std::to_string(p.M % K) + " of " + std::to_string(K) + " slices");
  p.M /= K;
  p.slices = K;
  return imported;
}

std::string WriteScheduleText(const Problem& problem, const Schedule& schedule) {
  const bool bare = problem.v == 1;
  const int K = problem.slices;
  auto name = [&](OpId id, bool full) {
    const Op op = schedule.space.At(id);
    std::string s(1, KindChar(op.kind));
    if (full && op.kind == OpKind::kB) s += 'W';  // BW3: a full backward
    s += std::to_string(op.microbatch / K);
    if (K > 1) s += "." + std::to_string(op.microbatch % K);  // F3.1: slice 1 of microbatch 3
    if (!bare) s += "@s" + std::to_string(op.stage);
    return s;
  };
  std::string out = "# " + schedule.name + ": P=" + std::to_string(problem.P) + " M=" + std::to_string(problem.M) +
                    " v=" + std::to_string(problem.v) + " placement=" + PlacementName(problem.placement) +
                    (K > 1 ? " slices=" + std::to_string(K) : "");
  if (Recomputes(problem)) {  // read back by ReadScheduleText, so the file runs as this run did
    const std::int64_t g = std::gcd(problem.recompute_inputs_num, problem.recompute_inputs_den);
    const std::int64_t num = problem.recompute_inputs_num / g, den = problem.recompute_inputs_den / g;
    out += " recompute=" + RecomputeName(problem.recompute) + " recompute_at=" + RecomputeAtName(problem.recompute_at) +
           " recompute_inputs=" + std::to_string(num) + (den == 1 ? "" : "/" + std::to_string(den));
  }
  out += "\n";
  for (const auto& queue : schedule.devices) {
    for (size_t i = 0; i < queue.size(); ++i) {
      if (i) out += ' ';
      const Slot& slot = queue[i];
      if (slot.pair()) {
        out += '(';
        out += name(slot.op, slot.full);
        out += ';';
        out += name(slot.overlapped, slot.full);
        out += ')';
      } else {
        out += name(slot.op, slot.full);
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace ppsim::io
