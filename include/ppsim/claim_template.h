// Templates: text with "{expr}" placeholders filled from the runs by the
// claim language — "same finish: {makespan(GPipe)} cycles". "{{" and "}}" are
// literal braces. Numbers print exactly: integers as "18", other values as a
// finite decimal ("0.5") or, when there is none, a reduced fraction ("1/3");
// truth values as "true" / "false".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/claims.h"
#include "ppsim/error.h"

namespace ppsim {

// A template split into literal text and parsed placeholders.
struct TemplatePiece {
  std::string literal;            // used when !is_expr
  bool is_expr = false;
  std::optional<Claim> expr;      // the placeholder, when is_expr
  int column = 0;                 // 1-based column of the placeholder's first character
};

// Returns a kParse Error at the column (in the template) of an unclosed "{",
// a stray "}" or a placeholder that does not parse.
Result<std::vector<TemplatePiece>> ParseTemplate(std::string_view tmpl);

// Fills every placeholder. Errors as ParseTemplate and Evaluate.
Result<std::string> FillTemplate(std::string_view tmpl, const std::vector<Run>& runs, const Params& params);

}  // namespace ppsim
