// ParseTimelineJson: a one-pass reader for the timeline shape, no document
// tree. Ops are decoded straight into PlacedOps, other fields are skipped
// after checking their syntax. Every integer must fit int64 (an error names
// the field otherwise), and P, M and stages are checked against the limits
// before anything is sized by them. Nesting is capped at kMaxDepth.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ppsim/io/timeline_json.h"

namespace ppsim::io {
namespace {

constexpr int kMaxDepth = kMaxTimelineDepth;

struct ReadError {
  ErrorCode code;
  std::string message;  // without the source
  const char* at;       // where, for a syntax error (line:col); else nullptr
};

struct Number {
  bool integer = false;
  std::int64_t value = 0;
  std::string_view text;
};

class Reader {
 public:
  explicit Reader(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  [[noreturn]] void Syntax(const std::string& what) const { throw ReadError{ErrorCode::kParse, "invalid JSON: " + what, p_}; }
  [[noreturn]] static void Field(ErrorCode code, const std::string& what) { throw ReadError{code, what, nullptr}; }

  // The helpers a value goes through are forced inline, their error paths
  // kept out of line: a 10^6-op file calls them tens of millions of times.
  [[gnu::always_inline]] void Ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  [[gnu::always_inline]] char Peek() {
    Ws();
    return p_ < end_ ? *p_ : '\0';
  }
  [[gnu::always_inline]] void Expect(char c) {
    if (Peek() != c) [[unlikely]] Expected(c);
    ++p_;
  }
  [[noreturn, gnu::noinline]] void Expected(char c) const { Syntax(std::string("expected '") + c + "', got " + Describe()); }
  [[gnu::always_inline]] bool Eat(char c) {
    if (Peek() != c) return false;
    ++p_;
    return true;
  }
  std::string Describe() const {
    if (p_ >= end_) return "end of input";
    const auto c = static_cast<unsigned char>(*p_);
    if (c < 0x20 || c >= 0x7F) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "byte 0x%02x", c);
      return hex;
    }
    return "'" + std::string(1, *p_) + "'";
  }
  bool AtEnd() {
    Ws();
    return p_ >= end_;
  }
  const char* pos() const { return p_; }

  // A string; escapes decoded into `scratch_` (the view points there then).
  [[gnu::always_inline]] std::string_view String() {
    Expect('"');
    const char* from = p_;
    while (p_ < end_ && *p_ != '"' && *p_ != '\\' && static_cast<unsigned char>(*p_) >= 0x20) ++p_;
    if (p_ < end_ && *p_ == '"') [[likely]] return std::string_view(from, static_cast<size_t>(p_++ - from));
    return Escaped(from);
  }
  // The rest of a string from `from` on, where an escape or an error is.
  [[gnu::noinline]] std::string_view Escaped(const char* from) {
    scratch_.assign(from, p_);
    while (true) {
      if (p_ >= end_) Syntax("unterminated string");
      const char c = *p_++;
      if (c == '"') return scratch_;
      if (static_cast<unsigned char>(c) < 0x20) Syntax("control character in a string");
      if (c != '\\') {
        scratch_ += c;
        continue;
      }
      if (p_ >= end_) Syntax("unterminated string");
      const char e = *p_++;
      switch (e) {
        case '"': case '\\': case '/': scratch_ += e; break;
        case 'b': scratch_ += '\b'; break;
        case 'f': scratch_ += '\f'; break;
        case 'n': scratch_ += '\n'; break;
        case 'r': scratch_ += '\r'; break;
        case 't': scratch_ += '\t'; break;
        case 'u': Unicode(); break;
        default: --p_; Syntax("invalid escape in a string");
      }
    }
  }

  // `field()` names the value in errors; it is called only then.
  template <typename Name>
  Number Num(const Name& field) {
    Ws();
    Number n;
    const char* from = p_;
    const bool negative = p_ < end_ && *p_ == '-';
    if (negative) ++p_;
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') Syntax("expected a value, got " + Describe());
    unsigned __int128 mag = 0;
    bool big = false;
    if (*p_ == '0' && p_ + 1 < end_ && p_[1] >= '0' && p_[1] <= '9') Syntax("leading zero in a number");
    std::uint64_t head = 0;  // up to 19 digits in 64 bits, the rest in 128
    for (const char* stop = p_ + std::min<std::ptrdiff_t>(19, end_ - p_); p_ < stop && *p_ >= '0' && *p_ <= '9'; ++p_)
      head = head * 10 + static_cast<unsigned>(*p_ - '0');
    mag = head;
    for (; p_ < end_ && *p_ >= '0' && *p_ <= '9'; ++p_) {
      mag = mag * 10 + static_cast<unsigned>(*p_ - '0');
      if (mag > (static_cast<unsigned __int128>(1) << 64)) big = true, mag = static_cast<unsigned __int128>(1) << 64;
    }
    n.integer = true;
    if (p_ < end_ && *p_ == '.') {
      n.integer = false;
      ++p_;
      if (p_ >= end_ || *p_ < '0' || *p_ > '9') Syntax("expected a digit after '.'");
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      n.integer = false;
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ >= end_ || *p_ < '0' || *p_ > '9') Syntax("expected a digit in the exponent");
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    n.text = std::string_view(from, static_cast<size_t>(p_ - from));
    const unsigned __int128 limit = (static_cast<unsigned __int128>(1) << 63) - (negative ? 0 : 1);
    if (n.integer) {
      if (big || mag > limit) Field(ErrorCode::kInvalidValue, field() + ": " + std::string(n.text) + " is outside the int64 range");
      n.value = negative ? static_cast<std::int64_t>(-static_cast<__int128>(mag)) : static_cast<std::int64_t>(mag);
    } else if (!std::isfinite(std::strtod(std::string(n.text).c_str(), nullptr))) {
      Field(ErrorCode::kInvalidValue, field() + ": " + std::string(n.text) + " is outside the range of a number");
    }
    return n;
  }

  template <typename Name>
  [[gnu::always_inline]] std::int64_t Int(const Name& field) {
    // The usual case, up to 18 digits and nothing after them that makes a
    // number other than an integer, without Num's 128-bit path; any other
    // text takes Num, which gives every error.
    Ws();
    const char* q = p_;
    const bool negative = q < end_ && *q == '-';
    q += negative;
    const char* const digits = q;
    std::uint64_t v = 0;
    for (const char* stop = q + std::min<std::ptrdiff_t>(18, end_ - q); q < stop && *q >= '0' && *q <= '9'; ++q)
      v = v * 10 + static_cast<unsigned>(*q - '0');
    const auto n = q - digits;
    if (n > 0 && (n == 1 || *digits != '0') &&
        (q == end_ || ((*q < '0' || *q > '9') && *q != '.' && *q != 'e' && *q != 'E'))) [[likely]] {
      p_ = q;
      return negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
    }
    return IntSlow(field);
  }
  template <typename Name>
  [[gnu::noinline]] std::int64_t IntSlow(const Name& field) {
    const char c = Peek();
    if (c != '-' && (c < '0' || c > '9')) Field(ErrorCode::kParse, field() + ": expected an integer, got " + Describe());
    const Number n = Num(field);
    if (!n.integer) Field(ErrorCode::kParse, field() + ": expected an integer, got " + std::string(n.text));
    return n.value;
  }

  // Any value, checked and dropped; `field` names it in errors.
  template <typename Name>
  void Skip(const Name& field, int depth = 0) {
    if (depth > kMaxDepth) Syntax("nested deeper than " + std::to_string(kMaxDepth));
    switch (Peek()) {
      case '{':
        ++p_;
        if (Eat('}')) return;
        do {
          String();
          Expect(':');
          Skip(field, depth + 1);
        } while (Eat(','));
        Expect('}');
        return;
      case '[':
        ++p_;
        if (Eat(']')) return;
        do Skip(field, depth + 1);
        while (Eat(','));
        Expect(']');
        return;
      case '"': String(); return;
      case 't': Literal("true"); return;
      case 'f': Literal("false"); return;
      case 'n': Literal("null"); return;
      default: Num(field); return;
    }
  }
  void Literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      Syntax("expected a value, got " + Describe());
    p_ += word.size();
  }

 private:
  void Unicode() {
    auto hex4 = [&] {
      if (end_ - p_ < 4) Syntax("invalid \\u escape");
      unsigned v = 0;
      for (int i = 0; i < 4; ++i) {
        const char h = *p_++;
        v = v * 16 + (h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 99u);
        if (v > 0xFFFF) Syntax("invalid \\u escape");
      }
      return v;
    };
    unsigned cp = hex4();
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') Syntax("unpaired surrogate in \\u escape");
      p_ += 2;
      const unsigned lo = hex4();
      if (lo < 0xDC00 || lo > 0xDFFF) Syntax("unpaired surrogate in \\u escape");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      Syntax("unpaired surrogate in \\u escape");
    }
    auto put = [&](unsigned b) { scratch_ += static_cast<char>(b); };
    if (cp < 0x80) put(cp);
    else if (cp < 0x800) put(0xC0 | (cp >> 6)), put(0x80 | (cp & 0x3F));
    else if (cp < 0x10000) put(0xE0 | (cp >> 12)), put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
    else put(0xF0 | (cp >> 18)), put(0x80 | ((cp >> 12) & 0x3F)), put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
  }

  const char* p_;
  const char* end_;
  std::string scratch_;
};

// key == word, with the length known at compile time: an inline compare, not
// a call to memcmp (ReadOp tests up to eight keys per op).
template <size_t N>
[[gnu::always_inline]] inline bool Is(std::string_view key, const char (&word)[N]) {
  return key.size() == N - 1 && __builtin_memcmp(key.data(), word, N - 1) == 0;
}

std::string Quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

// One op object; `i` is its index in "ops".
PlacedOp ReadOp(Reader& r, size_t i) {
  auto where = [i] { return "ops[" + std::to_string(i) + "]"; };
  if (r.Peek() != '{') r.Field(ErrorCode::kParse, where() + ": expected an object");
  r.Expect('{');
  std::int64_t device = 0, stage = 0, mb = 0, overlap = -1, slice = 0;
  Tick start = 0, end = 0;
  enum : unsigned { kDevice = 1, kStage = 2, kMb = 4, kStart = 8, kEnd = 16, kKind = 32 };
  unsigned seen = 0;
  PlacedOp op;
  if (!r.Eat('}')) {
    do {
      const std::string key(r.String());  // a copy: the reader reuses the buffer a decoded key lives in
      r.Expect(':');
      auto field = [&] { return where() + "." + std::string(key); };
      if (Is(key, "device")) device = r.Int(field), seen |= kDevice;
      else if (Is(key, "stage")) stage = r.Int(field), seen |= kStage;
      else if (Is(key, "microbatch")) mb = r.Int(field), seen |= kMb;
      else if (Is(key, "start")) start = r.Int(field), seen |= kStart;
      else if (Is(key, "end")) end = r.Int(field), seen |= kEnd;
      else if (Is(key, "overlap")) overlap = r.Int(field);
      else if (Is(key, "slice")) slice = r.Int(field);  // a sequence slice (slices.h)
      else if (Is(key, "full")) {  // a full backward (schedule.h)
        const char c = r.Peek();
        if (c != 't' && c != 'f') r.Field(ErrorCode::kParse, field() + ": expected true or false");
        r.Literal(c == 't' ? "true" : "false");
        op.full = c == 't';
      } else if (Is(key, "kind")) {
        const std::string_view kind = r.Peek() == '"' ? r.String() : std::string_view();
        if (kind.size() != 1 || !KindFromChar(kind[0]))
          r.Field(ErrorCode::kParse, where() + ".kind: expected \"F\", \"B\", \"W\" or \"R\"");
        op.kind = *KindFromChar(kind[0]);
        seen |= kKind;
      } else {
        r.Skip(field);
      }
    } while (r.Eat(','));
    r.Expect('}');
  }
  static constexpr std::pair<unsigned, const char*> kRequired[] = {
      {kDevice, "device"}, {kStage, "stage"}, {kKind, "kind"}, {kMb, "microbatch"}, {kStart, "start"}, {kEnd, "end"}};
  for (const auto& [bit, name] : kRequired)
    if (!(seen & bit)) {
      if (bit == kKind) r.Field(ErrorCode::kParse, where() + ".kind: expected \"F\", \"B\", \"W\" or \"R\"");
      r.Field(ErrorCode::kParse, where() + ": missing field '" + name + "'");
    }
  if (device < 0 || stage < 0 || mb < 0 || device > kMaxDevices || stage > kMaxDevices * kMaxChunks ||
      mb > kMaxMicrobatches || slice < 0 || slice >= kMaxSlices)
    r.Field(ErrorCode::kParse, where() + ": device/stage/microbatch/slice out of range");
  op.slice = static_cast<int>(slice);
  op.device = static_cast<int>(device);
  op.stage = static_cast<int>(stage);
  op.microbatch = static_cast<int>(mb);
  op.start = start;
  op.end = end;
  op.overlap = overlap < INT32_MIN || overlap > INT32_MAX ? -1 : static_cast<int>(overlap);
  if (op.full && op.kind != OpKind::kB) r.Field(ErrorCode::kParse, where() + ".full: only a B can be a full backward");
  return op;
}

void ReadOps(Reader& r, std::vector<PlacedOp>& ops) {
  if (r.Peek() != '[') r.Field(ErrorCode::kParse, "'ops' must be an array of {device, stage, kind, microbatch, start, end}");
  r.Expect('[');
  if (r.Eat(']')) return;
  do ops.push_back(ReadOp(r, ops.size()));
  while (r.Eat(','));
  r.Expect(']');
}

// "F": 2 or "F": [2, 3, ...] (one per stage, at least one).
std::vector<Tick> CostList(Reader& r, const std::string& field) {
  std::vector<Tick> out;
  if (r.Peek() != '[') {
    const char c = r.Peek();
    if (c == '-' || (c >= '0' && c <= '9')) {
      const Number n = r.Num([&] { return field; });
      if (n.integer) return {n.value};
    }
    r.Field(ErrorCode::kParse, field + ": expected an integer or a list of integers");
  }
  r.Expect('[');
  if (!r.Eat(']')) {
    do out.push_back(r.Int([&] { return field + "[" + std::to_string(out.size()) + "]"; }));
    while (r.Eat(','));
    r.Expect(']');
  }
  if (out.empty()) r.Field(ErrorCode::kParse, field + ": expected an integer or a non-empty list of integers");
  return out;
}

void ReadCosts(Reader& r, TimelineToCheck& out) {
  if (r.Peek() != '{') {  // not an object: ignored, as before
    r.Skip([] { return std::string("costs"); });
    return;
  }
  Costs costs;
  r.Expect('{');
  if (!r.Eat('}')) {
    do {
      const std::string key(r.String());
      r.Expect(':');
      std::vector<Tick>* target = key == "F" ? &costs.f : key == "B" ? &costs.b : key == "W" ? &costs.w
                                 : key == "FB" ? &costs.fb : key == "BW" ? &costs.bw : key == "R" ? &costs.r
                                 : nullptr;
      if (target)
        *target = CostList(r, "costs." + key);
      else
        r.Skip([&] { return "costs." + key; });
    } while (r.Eat(','));
    r.Expect('}');
  }
  out.costs = costs;
}

// A count field against its limits: ≥ 1 and ≤ `limit` (kTooLarge above).
int Count(Reader& r, const char* field, std::int64_t limit) {
  const std::int64_t v = r.Int([field] { return std::string(field); });
  if (v < 1) r.Field(ErrorCode::kInvalidValue, std::string(field) + " must be ≥ 1, got " + std::to_string(v));
  if (v > limit)
    r.Field(ErrorCode::kTooLarge, std::string(field) + ": " + std::to_string(v) + " exceeds the limit " + std::to_string(limit));
  return static_cast<int>(v);
}

void ReadObject(Reader& r, TimelineToCheck& out) {
  r.Expect('{');
  bool has_ops = false;
  if (!r.Eat('}')) {
    do {
      const std::string key(r.String());
      r.Expect(':');
      if (key == "ops") {
        out.ops.clear();
        ReadOps(r, out.ops);
        has_ops = true;
      } else if (key == "P") {
        out.P = Count(r, "P", kMaxDevices);
      } else if (key == "M") {
        out.M = Count(r, "M", kMaxMicrobatches);
      } else if (key == "stages") {
        out.S = Count(r, "stages", std::int64_t{kMaxDevices} * kMaxChunks);
      } else if (key == "comm") {
        out.comm = r.Int([] { return std::string("comm"); });
      } else if (key == "placement" && r.Peek() == '"') {
        const std::string_view pl = r.String();
        if (pl == "loop") out.placement = Placement::kLoop;
        else if (pl == "v-shape") out.placement = Placement::kVShape;
        else if (pl == "dualpipe") out.placement = Placement::kDualPipe;
        else if (pl != "map")  // a map: left unknown, each stage must stay on one device
          r.Field(ErrorCode::kParse,
                  "placement: expected \"loop\", \"v-shape\", \"dualpipe\" or \"map\", got " + Quoted(pl));
      } else if (key == "costs") {
        ReadCosts(r, out);
      } else if (key == "slices") {  // sequence slices (slices.h)
        out.slices = Count(r, "slices", kMaxSlices);
      } else if (key == "slice_weights") {
        out.slice_weights = CostList(r, "slice_weights");
      } else if (key == "microbatch_costs") {
        out.microbatch_weights = CostList(r, "microbatch_costs");
      } else if (key == "recompute_at" && r.Peek() == '"') {  // where R ops wait (recompute.h)
        const std::string_view at = r.String();
        if (at == "early") out.recompute_at = RecomputeAt::kEarly;
        else if (at != "before_b")
          r.Field(ErrorCode::kParse, "recompute_at: expected \"before_b\" or \"early\", got " + Quoted(at));
      } else {
        r.Skip([&] { return key; });
      }
    } while (r.Eat(','));
    r.Expect('}');
  }
  if (!has_ops) r.Field(ErrorCode::kParse, "no 'ops' field (expected the object `ppsim simulate --json` prints)");
}

// The op-id space the checker will allocate: stages × microbatches, given or
// inferred from the ops, within the limit the CLI applies (problem.h).
void CheckSize(const TimelineToCheck& t) {
  std::int64_t S = t.S, M = t.M, K = t.slices;
  for (const PlacedOp& op : t.ops) {
    if (t.S == 0) S = std::max<std::int64_t>(S, op.stage + 1);
    if (t.M == 0) M = std::max<std::int64_t>(M, op.microbatch + 1);
  }
  const bool recompute = std::any_of(t.ops.begin(), t.ops.end(), [](const PlacedOp& op) { return op.kind == OpKind::kR; });
  const std::int64_t limit = kMaxOps / (kNumOpKinds + (recompute ? 1 : 0));
  if (K > 1 && S * M * K > limit)
    Reader::Field(ErrorCode::kTooLarge, "stages × M × slices = " + std::to_string(S) + " × " + std::to_string(M) +
                                            " × " + std::to_string(K) + " = " + std::to_string(S * M * K) +
                                            " stage-microbatch slices exceeds the limit " + std::to_string(limit) +
                                            " (refused before allocating)");
  if (S * M > limit)
    Reader::Field(ErrorCode::kTooLarge, "stages × M = " + std::to_string(S) + " × " + std::to_string(M) + " = " +
                                            std::to_string(S * M) + " stage-microbatches exceeds the limit " +
                                            std::to_string(limit) + " (refused before allocating)");
}

std::string LineCol(std::string_view text, const char* at) {
  size_t line = 1, col = 1;
  for (const char* c = text.data(); c < at && c < text.data() + text.size(); ++c) {
    if (*c == '\n') line = line + 1, col = 1;
    else ++col;
  }
  return ":" + std::to_string(line) + ":" + std::to_string(col);
}

}  // namespace

Result<TimelineToCheck> ParseTimelineJson(std::string_view text, const std::string& source) {
  Reader r(text);
  TimelineToCheck out;
  out.ops.reserve(text.size() / 64);  // an op takes ≥ 64 bytes as simulate writes it: no regrowth copies
  try {
    if (r.Peek() == '{') {
      ReadObject(r, out);
    } else if (r.Peek() == '[') {
      ReadOps(r, out.ops);
    } else {
      r.Skip([] { return std::string("the top-level value"); });  // a syntax error, or a value of the wrong kind
      r.Field(ErrorCode::kParse, "'ops' must be an array of {device, stage, kind, microbatch, start, end}");
    }
    if (!r.AtEnd()) r.Syntax("unexpected " + r.Describe() + " after the value");
    CheckSize(out);
  } catch (const ReadError& e) {
    return Fail(e.code, source + (e.at ? LineCol(text, e.at) : "") + ": " + e.message);
  }
  return out;
}

}  // namespace ppsim::io
