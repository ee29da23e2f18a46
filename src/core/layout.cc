// Megatron's layout string, read as pipeline_parallel_layer_layout.py reads
// it (parse_str_to_list, then validate_layer_layout), each letter keeping
// the column it was written at so that every rejection can name one.
#include "ppsim/layout.h"

#include <algorithm>
#include <string>
#include <vector>

#include "ppsim/one_line.h"

namespace ppsim {
namespace {

// A byte of the string being expanded and the column it was written at.
struct Sym {
  char c;
  int column;
};
using Syms = std::vector<Sym>;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Error LayoutError(ErrorCode code, int column, std::string what) {
  return Error(code, std::move(what)).At("layout", 0, column);
}

// The decimal number at s[i..): its end in *end, its value capped at
// kMaxLayoutLength + 1 (anything larger is refused anyway). REQUIRES: s[i] a digit.
long long Number(const Syms& s, size_t i, size_t* end) {
  long long n = 0;
  for (; i < s.size() && IsDigit(s[i].c); ++i) n = std::min(n * 10 + (s[i].c - '0'), kMaxLayoutLength + 1);
  *end = i;
  return n;
}

// Appends `count` copies of s[from, to) to `out`, or refuses an `out` longer than kMaxLayoutLength.
Error Repeat(const Syms& s, size_t from, size_t to, long long count, int column, Syms& out) {
  const long long len = static_cast<long long>(to - from);
  if (count > 0 && (count > kMaxLayoutLength || static_cast<long long>(out.size()) + len * count > kMaxLayoutLength))
    return LayoutError(ErrorCode::kTooLarge, column,
                       "the repeat unrolls to more than " + std::to_string(kMaxLayoutLength) + " letters");
  for (long long k = 0; k < count; ++k) out.insert(out.end(), s.begin() + from, s.begin() + to);
  return Error::Ok();
}

// Megatron's first pattern, r'\(([^)]+)\)\*(\d+)', in one re.sub pass: a
// `(`, at least one byte up to the first `)`, then `*` and digits. The
// greedy group can only end at the first `)`, so no backtracking is needed.
Result<Syms> UnrollGroups(const Syms& s) {
  Syms out;
  for (size_t i = 0; i < s.size();) {
    if (s[i].c == '(') {
      size_t close = i + 1;
      while (close < s.size() && s[close].c != ')') ++close;
      if (close > i + 1 && close + 2 < s.size() && s[close + 1].c == '*' && IsDigit(s[close + 2].c)) {
        size_t end = 0;
        const long long n = Number(s, close + 2, &end);
        if (Error e = Repeat(s, i + 1, close, n, s[i].column, out); !e.ok()) return e;
        i = end;
        continue;
      }
    }
    out.push_back(s[i++]);
  }
  return out;
}

// Megatron's second pattern, r'(.)\*(\d+)': any byte but a newline, `*`, digits.
Result<Syms> UnrollLetters(const Syms& s) {
  Syms out;
  for (size_t i = 0; i < s.size();) {
    if (s[i].c != '\n' && i + 2 < s.size() && s[i + 1].c == '*' && IsDigit(s[i + 2].c)) {
      size_t end = 0;
      const long long n = Number(s, i + 2, &end);
      if (Error e = Repeat(s, i, i + 1, n, s[i].column, out); !e.ok()) return e;
      i = end;
      continue;
    }
    out.push_back(s[i++]);
  }
  return out;
}

bool IsLayer(char c) { return c == 'E' || c == 't' || c == 'm' || c == 'L'; }

// The character written at `column` of `text` (a whole UTF-8 sequence), for a message.
std::string CharAt(std::string_view text, int column) {
  const size_t i = static_cast<size_t>(column - 1);
  const size_t len = std::max<size_t>(1, Utf8Length(text, i));
  return std::string(text.substr(i, len));
}

}  // namespace

Result<std::vector<ExpandedStage>> ExpandLayout(std::string_view text) {
  if (static_cast<long long>(text.size()) > kMaxLayoutLength)
    return LayoutError(ErrorCode::kTooLarge, 0, "longer than " + std::to_string(kMaxLayoutLength) + " bytes");
  Syms s;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] != ',') s.push_back({text[i], static_cast<int>(i) + 1});  // commas are cosmetic
  Result<Syms> groups = UnrollGroups(s);
  if (!groups) return groups.error();
  Result<Syms> letters = UnrollLetters(*groups);
  if (!letters) return letters.error();
  std::vector<ExpandedStage> stages(1);
  for (const Sym& sym : *letters) {
    if (sym.c == '|') {
      stages.emplace_back().column = sym.column + 1;
      continue;
    }
    if (!IsLayer(sym.c))
      return LayoutError(ErrorCode::kParse, sym.column,
                         "'" + CharAt(text, sym.column) + "' is not a layer: E, t, m, L, | or a repeat (X)*n, X*n");
    stages.back().layers += sym.c;
    stages.back().columns.push_back(sym.column);
  }
  return stages;
}

namespace {

// A layer of the flattened layout (virtual-stage order) and where it is.
struct Flat {
  char c;
  int column;
  int stage;  // virtual stage
};

std::string Name(char c) {
  switch (c) {
    case 'E': return "the embedding E";
    case 'L': return "the loss L";
    case 't': return "a decoder layer t";
    default: return "an MTP layer m";
  }
}

int Count(const std::vector<Flat>& flat, char c) {
  return static_cast<int>(std::count_if(flat.begin(), flat.end(), [c](const Flat& f) { return f.c == c; }));
}

// The column of the n-th (0-based) layer `c`, or of the last one when there are fewer.
int ColumnOf(const std::vector<Flat>& flat, char c, int n, int fallback) {
  int column = fallback;
  for (const Flat& f : flat)
    if (f.c == c) {
      column = f.column;
      if (n-- == 0) break;
    }
  return column;
}

// validate_layer_layout's checks on the letters, in its order.
Error CheckLetters(const std::vector<Flat>& flat, int num_layers, int mtp_layers) {
  if (flat.empty())
    return LayoutError(ErrorCode::kInvalidValue, 1, "the layout has no layer; the first must be the embedding E");
  if (flat.front().c != 'E')
    return LayoutError(ErrorCode::kInvalidValue, flat.front().column,
                       "the first layer must be the embedding E, got " + Name(flat.front().c));
  if (flat.back().c != 'L')
    return LayoutError(ErrorCode::kInvalidValue, flat.back().column,
                       "the last layer must be the loss L, got " + Name(flat.back().c));
  if (Count(flat, 'E') != 1)
    return LayoutError(ErrorCode::kInvalidValue, ColumnOf(flat, 'E', 1, 1),
                       "the embedding E must be written exactly once");
  if (Count(flat, 'L') != 1)
    return LayoutError(ErrorCode::kInvalidValue, ColumnOf(flat, 'L', 0, 1), "the loss L must be written exactly once");
  const int t = Count(flat, 't');
  if (t != num_layers)
    return LayoutError(ErrorCode::kInvalidValue, ColumnOf(flat, 't', num_layers, flat.back().column),
                       std::to_string(t) + " decoder layers (t), but num_layers is " + std::to_string(num_layers));
  const int m = Count(flat, 'm');
  if (m != mtp_layers)
    return LayoutError(ErrorCode::kInvalidValue, ColumnOf(flat, 'm', mtp_layers, flat.back().column),
                       std::to_string(m) + " MTP layers (m), but mtp_layers is " + std::to_string(mtp_layers));
  const auto first_m = std::find_if(flat.begin(), flat.end(), [](const Flat& f) { return f.c == 'm'; });
  const auto late_t = std::find_if(first_m, flat.end(), [](const Flat& f) { return f.c == 't'; });
  if (late_t != flat.end())
    return LayoutError(ErrorCode::kPrecondition, late_t->column,
                       "a decoder layer t after an MTP layer m: Megatron "
                       "places every decoder layer before the MTP layers");
  return Error::Ok();
}

// validate_layer_layout's checks on where MTP layers sit, in its order.
Error CheckMtpPlaces(const Layout& layout) {
  for (int pp = 0; pp < layout.P; ++pp)
    for (int vp = 0; vp + 1 < layout.v; ++vp) {
      const LayoutStage& s = layout.At(pp, vp);
      if (const size_t k = s.layers.find('m'); k != std::string::npos)
        return LayoutError(ErrorCode::kPrecondition, s.columns[k],
                           "an MTP layer m in vp stage " + std::to_string(vp) + " of pp rank " + std::to_string(pp) +
                               ": Megatron puts MTP layers only in a rank's last virtual stage");
    }
  for (int pp = 0; pp < layout.P; ++pp) {
    const LayoutStage& s = layout.At(pp, layout.v - 1);
    const size_t k = s.layers.find('m');
    const auto here = static_cast<int>(std::count(s.layers.begin(), s.layers.end(), 'm'));
    if (k != std::string::npos && here != layout.mtp_layers)
      return LayoutError(ErrorCode::kPrecondition, s.columns[k],
                         std::to_string(here) + " of the " + std::to_string(layout.mtp_layers) +
                             " MTP layers in virtual stage " + std::to_string(s.virtual_stage) +
                             ": Megatron needs all of them in one virtual stage");
  }
  return Error::Ok();
}

// The ids of the layers `c` of each stage, numbered in virtual-stage order (get_layer_id_list).
void NumberLayers(Layout& layout) {
  int decoder = 0, mtp = 0;
  for (LayoutStage& s : layout.stages)
    for (char c : s.layers) {
      if (c == 't') s.decoder_layer_ids.push_back(decoder++);
      if (c == 'm') s.mtp_layer_ids.push_back(mtp++);
    }
}

std::string StageName(const LayoutStage& s) {
  return "stage " + std::to_string(s.virtual_stage) + " (pp " + std::to_string(s.pp_rank) + ", vp " +
         std::to_string(s.vp_stage) + ")";
}

// Where the string puts E or L and Megatron builds it elsewhere.
void Warn(Layout& layout) {
  for (const LayoutStage& s : layout.stages) {
    for (size_t k = 0; k < s.layers.size(); ++k) {
      if (s.layers[k] == 'E' && !s.builds_embedding)
        layout.warnings.push_back("layout (column " + std::to_string(s.columns[k]) + "): E is written in " +
                                  StageName(s) + ", but Megatron builds the embedding on pp 0, vp 0");
      if (s.layers[k] == 'L' && !s.builds_loss)
        layout.warnings.push_back("layout (column " + std::to_string(s.columns[k]) + "): L is written in " +
                                  StageName(s) + ", but Megatron builds the loss on pp " +
                                  std::to_string(layout.P - 1) + ", vp " + std::to_string(layout.v - 1));
    }
  }
  if (layout.v > 1 && layout.P <= 2)
    layout.warnings.push_back("Megatron's validate_args refuses " + std::to_string(layout.v) +
                              " virtual stages per rank at P = " + std::to_string(layout.P) +
                              " unless --overlap-p2p-comm is set" + (layout.P == 1 ? " (and then needs P > 1)" : ""));
}

}  // namespace

Result<Layout> ReadLayout(std::string_view text, const LayoutOptions& options) {
  if (options.P < 1)
    return Error::Field(ErrorCode::kInvalidValue, "P", " must be ≥ 1, got " + std::to_string(options.P));
  if (options.chunks < 0)
    return Error::Field(ErrorCode::kInvalidValue, "chunks", " must be ≥ 1, got " + std::to_string(options.chunks));
  Result<std::vector<ExpandedStage>> expanded = ExpandLayout(text);
  if (!expanded) return expanded.error();
  const int n = static_cast<int>(expanded->size());
  const int last_column = expanded->back().column;
  if (n % options.P != 0)
    return LayoutError(ErrorCode::kInvalidValue, last_column,
                       std::to_string(n) + " stages, not a multiple of P = " + std::to_string(options.P));
  if (options.chunks > 0 && static_cast<long long>(options.chunks) * options.P != n)
    return LayoutError(ErrorCode::kInvalidValue, last_column,
                       std::to_string(n) + " stages, but P·chunks = " + std::to_string(options.P) + "·" +
                           std::to_string(options.chunks) +
                           " (Megatron: the virtual pipeline size conflicts with the layout)");
  Layout layout;
  layout.P = options.P;
  layout.v = n / options.P;
  std::vector<Flat> flat;
  for (int i = 0; i < n; ++i) {
    ExpandedStage& e = (*expanded)[i];
    LayoutStage s;
    s.virtual_stage = i;
    s.pp_rank = i % layout.P;
    s.vp_stage = i / layout.P;
    s.layers = std::move(e.layers);
    s.columns = std::move(e.columns);
    s.column = e.column;
    s.builds_embedding = i == 0;
    s.builds_loss = i == n - 1;
    for (size_t k = 0; k < s.layers.size(); ++k) flat.push_back({s.layers[k], s.columns[k], i});
    layout.stages.push_back(std::move(s));
  }
  layout.num_layers = options.num_layers >= 0 ? options.num_layers : Count(flat, 't');
  layout.mtp_layers = options.mtp_layers >= 0 ? options.mtp_layers : Count(flat, 'm');
  if (Error e = CheckLetters(flat, layout.num_layers, layout.mtp_layers); !e.ok()) return e;
  if (Error e = CheckMtpPlaces(layout); !e.ok()) return e;
  NumberLayers(layout);
  Warn(layout);
  return layout;
}

}  // namespace ppsim
