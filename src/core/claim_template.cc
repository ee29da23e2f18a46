#include "ppsim/claim_template.h"

#include <string>

namespace ppsim {
namespace {

int ColumnOf(std::string_view s, size_t byte) {
  int col = 1;
  for (size_t i = 0; i < byte && i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++col;
  return col;
}

// ColumnOf for ascending bytes, each counted once: a template with n
// placeholders is read in O(length), not O(n · length).
class ColumnCursor {
 public:
  explicit ColumnCursor(std::string_view s) : s_(s) {}
  int At(size_t byte) {
    for (; pos_ < byte && pos_ < s_.size(); ++pos_)
      if ((static_cast<unsigned char>(s_[pos_]) & 0xC0) != 0x80) ++col_;
    return col_;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;
  int col_ = 1;
};

Error At(std::string_view s, size_t byte, const std::string& what) {
  Error e = Fail(ErrorCode::kParse, what);
  e.column = ColumnOf(s, byte);
  return e;
}

}  // namespace

Result<std::vector<TemplatePiece>> ParseTemplate(std::string_view s) {
  std::vector<TemplatePiece> pieces;
  std::string literal;
  ColumnCursor column(s);
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '}') {
      if (i + 1 < s.size() && s[i + 1] == '}') {
        literal += '}';
        ++i;
        continue;
      }
      return At(s, i, "'}' without a matching '{' (write '}}' for a literal brace)");
    }
    if (c != '{') {
      literal += c;
      continue;
    }
    if (i + 1 < s.size() && s[i + 1] == '{') {
      literal += '{';
      ++i;
      continue;
    }
    const size_t close = s.find('}', i + 1);
    if (close == std::string_view::npos)
      return At(s, i, "'{' is never closed (write '{{' for a literal brace)");
    Result<Claim> expr = ParseExpression(s.substr(i + 1, close - i - 1));
    if (!expr.ok()) {
      // The expression's column, counted on the whole template.
      Error e = expr.error().With("in '{" + std::string(s.substr(i + 1, close - i - 1)) + "}'");
      e.column = ColumnOf(s, i + 1) + e.column - 1;
      return e;
    }
    if (!literal.empty()) pieces.push_back({std::move(literal), false, std::nullopt, 0});
    literal.clear();
    pieces.push_back({"", true, std::move(*expr), column.At(i)});
    i = close;
  }
  if (!literal.empty()) pieces.push_back({std::move(literal), false, std::nullopt, 0});
  return pieces;
}

Result<std::string> FillTemplate(std::string_view tmpl, const std::vector<Run>& runs, const Params& params) {
  Result<std::vector<TemplatePiece>> pieces = ParseTemplate(tmpl);
  if (!pieces.ok()) return pieces.error();
  std::string out;
  for (const TemplatePiece& p : *pieces) {
    if (!p.is_expr) {
      out += p.literal;
      continue;
    }
    Result<Evaluation> e = Evaluate(*p.expr, runs, params);
    if (!e.ok()) {
      Error err = e.error().With("in '{" + p.expr->text() + "}' at column " + std::to_string(p.column));
      err.column = 0;  // named in the context: the placeholder's, not the term's
      return err;
    }
    out += e->value.ToDisplay();
  }
  return out;
}

}  // namespace ppsim
