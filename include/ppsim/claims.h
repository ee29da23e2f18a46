// Claims: a small language of predicates over named runs, checked before
// anything is drawn (docs/claims.md). A claim reads run metrics as functions —
//   every metric of the table (metric_table.h: makespan(X), busy(X), ...,
//   peak(X), peak(X, d), device_peak(X), ...; docs/claims.md lists them)
// — times in the run's ticks (cost_scale.h: one tick across a scene's runs);
// peak in whole-stage sets, exact (a chunk's set counts 1/v: interleaved
// v = 2 holding 14 chunk sets has peak 7), peak_sets the raw count of sets
// — the scene's parameters (P, M, v, comm, any numeric key), combined with
// + - * / (also − × ÷), floor(x) ceil(x) min(a, b) max(a, b), comparisons
// == != < <= > >= (also ≠ ≤ ≥), and / or / not (short-circuit: in
// "comm == 0 or x / comm > 1" the division is not evaluated when comm is 0),
// and parentheses. A run name is whatever stands between "(" and "," or
// ")" (so 1F1B works), or a "quoted string". Numbers are integers or exact
// decimals (0.5 is 1/2).
//
// All arithmetic is exact (ppsim::Rational): "bubble_ratio(X) == (P-1)/M" is
// decided without floating point. Types are checked when parsing: arithmetic
// needs numbers, and/or/not need truth values, a claim must be true/false.
// Errors name the column (1-based, in characters) of the offending token.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/metrics.h"
#include "ppsim/rational.h"
#include "ppsim/run.h"
#include "ppsim/timeline.h"

namespace ppsim {

// Limits on one claim or template expression, checked while parsing: deeper
// nesting (parentheses, not, unary minus, function calls, or a chain of
// operators) is a parse error naming the limit, so neither the parser nor
// the evaluator can exhaust the stack; a longer text is refused outright.
inline constexpr int kMaxClaimDepth = 256;
inline constexpr size_t kMaxClaimBytes = 64 * 1024;


// Parameter name -> exact value ("P" -> 4, "comm" -> 0, "alpha" -> 1/2).
using Params = std::map<std::string, Rational, std::less<>>;

// P, M, v and comm of `problem`, and F, B, W (the costs) when each is one
// value for every stage: what every scene exposes.
Params ProblemParams(const Problem& problem);

// A parsed claim or expression: a small tree stored flat.
class Claim {
 public:
  enum class Kind : std::uint8_t {
    kNumber, kParam, kMetric,                 // leaves (kMetric's optional device is child a)
    kNeg, kNot,                               // unary: child a
    kAdd, kSub, kMul, kDiv,                   // numbers -> number
    kEq, kNe, kLt, kLe, kGt, kGe,             // -> truth value
    kAnd, kOr,                                // truth values -> truth value
    kFloor, kCeil,                            // number -> integer: child a
    kMin, kMax,                               // numbers -> number
  };
  struct Node {
    Kind kind = Kind::kNumber;
    int column = 0;      // 1-based column of the node's first character
    std::string text;    // the node's source text, trimmed: "(P-1)/M"
    Rational number;     // kNumber
    std::string name;    // kParam: the parameter; kMetric: the function
    std::string run;     // kMetric: the run name
    int run_column = 0;  // kMetric: column of the run name
    int a = -1, b = -1;  // children (indices into nodes())
    bool truth = false;  // the node's type: true/false valued (else a number)
  };

  const std::string& text() const { return text_; }
  const std::vector<Node>& nodes() const { return nodes_; }
  int root() const { return root_; }
  bool is_predicate() const { return nodes_[root_].truth; }

  // Every run name the claim reads, in first-mention order.
  std::vector<std::string> Runs() const;

 private:
  friend class ClaimParser;
  std::string text_;
  std::vector<Node> nodes_;
  int root_ = -1;
};

// Parses a claim: the result must be true/false valued. On error returns a
// kParse Error whose column (from 1, in characters) is where it went wrong:
// Text() "column C: what went wrong"; Error::At places it in a file.
Result<Claim> ParseClaim(std::string_view text);
// Parses an expression of either type (template placeholders).
Result<Claim> ParseExpression(std::string_view text);

// Checks that every run and parameter the claim reads exists: a kUnknownName
// Error at the name's column, "no run named 'X' (runs: A, B)", otherwise.
Error CheckNames(const Claim& claim, const std::vector<std::string>& runs, const Params& params);

// A number or a truth value.
struct ClaimValue {
  bool is_truth = false;
  bool truth = false;
  Rational number;
  std::string ToString() const;   // "true", "18", "1/2" (exact; JSON)
  std::string ToText() const;     // "true", "18", "1/2 (0.5000)" (Rational::ToText; messages)
  std::string ToDisplay() const;  // "true", "18", "0.5" (decimal when finite)
};

// "makespan(GPipe)" -> 18, "P" -> 4, "(P-1)/M" -> 1/2.
struct NamedValue {
  std::string name;
  ClaimValue value;
};

struct Evaluation {
  ClaimValue value;
  // Every run metric and parameter read, then the two sides of every
  // comparison that is not already one of those; in source order, each once.
  std::vector<NamedValue> values;
};

// Evaluates the claim; `and` / `or` skip their right side when the left
// decides. Errors: unknown run or parameter (kUnknownName), division by zero or a
// device out of range (kInvalidValue), overflow (kTooLarge); each at the
// column of the term at fault.
Result<Evaluation> Evaluate(const Claim& claim, const std::vector<Run>& runs, const Params& params);

// Where two runs part ways: the first tick t >= 0 at which the number of ops
// completed by t (ops with end <= t) differs between the two timelines.
// "Ahead" is the run that has completed more ops at that tick.
struct Divergence {
  Tick tick = 0;
  std::string ahead, behind;                      // run names
  std::int64_t ahead_done = 0, behind_done = 0;  // ops completed by `tick`
};
// nullopt iff both timelines complete the same number of ops at every tick.
std::optional<Divergence> FirstDivergence(const Run& a, const Run& b);

struct ClaimResult {
  std::string check;  // the claim's text
  bool holds = false;
  std::vector<NamedValue> values;  // as in Evaluation
  // Set for a false claim that reads exactly two runs whose timelines differ.
  std::optional<Divergence> divergence;
  // One line: "makespan(GPipe) == makespan(1F1B) is false: makespan(GPipe) = 18,
  // makespan(1F1B) = 17; first tick where one run is ahead: 11 (1F1B has
  // completed 9 ops, GPipe 8)". For a true claim: "... holds: ...".
  std::string Explain() const;
};

// Parses, checks and evaluates one claim. Errors as ParseClaim / Evaluate.
Result<ClaimResult> CheckClaim(std::string_view check, const std::vector<Run>& runs, const Params& params);
// The same for a claim already parsed (a sweep parses each claim once).
Result<ClaimResult> CheckClaim(const Claim& claim, const std::vector<Run>& runs, const Params& params);
// A false claim is not an error: look at holds.
bool AllHold(const std::vector<ClaimResult>& results);

}  // namespace ppsim
