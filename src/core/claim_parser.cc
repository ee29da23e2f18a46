// Recursive descent over the claim's bytes. Precedence, loosest first:
//   or  <  and  <  not  <  comparison (one, no chains)  <  + -  <  * /  <  unary -
// Columns count characters (UTF-8 code points), from 1.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "ppsim/claims.h"
#include "ppsim/metric_table.h"

namespace ppsim {

namespace {

// Multi-byte operator spellings and what they mean.
struct Spelling {
  const char* text;
  Claim::Kind kind;
};
constexpr Spelling kOperators[] = {
    {"==", Claim::Kind::kEq},     {"!=", Claim::Kind::kNe},     {"<=", Claim::Kind::kLe},
    {">=", Claim::Kind::kGe},     {"\u2260", Claim::Kind::kNe}, {"\u2264", Claim::Kind::kLe},
    {"\u2265", Claim::Kind::kGe}, {"<", Claim::Kind::kLt},      {">", Claim::Kind::kGt},
    {"+", Claim::Kind::kAdd},     {"-", Claim::Kind::kSub},     {"\u2212", Claim::Kind::kSub},
    {"*", Claim::Kind::kMul},     {"\u00d7", Claim::Kind::kMul}, {"/", Claim::Kind::kDiv},
    {"\u00f7", Claim::Kind::kDiv},
};

bool IsComparison(Claim::Kind k) { return k >= Claim::Kind::kEq && k <= Claim::Kind::kGe; }

}  // namespace

class ClaimParser {
 public:
  explicit ClaimParser(std::string_view text) : s_(text) { claim_.text_ = std::string(text); }

  Result<Claim> Parse(bool need_truth) {
    if (s_.size() > kMaxClaimBytes)
      return Failure(0, "the claim is " + std::to_string(s_.size()) + " bytes long, over the limit " +
                            std::to_string(kMaxClaimBytes));
    SkipSpace();
    if (AtEnd()) return Failure(pos_, "empty claim");
    int root = Or();
    if (root >= 0) {
      SkipSpace();
      if (!AtEnd()) {
        if (s_[pos_] == '=' ) Fault(pos_, "'=' is not a comparison; write '=='");
        else if (s_[pos_] == ')') Fault(pos_, "')' without a matching '('");
        else Fault(pos_, "unexpected '" + std::string(TokenAt(pos_)) + "' after a complete expression");
        root = -1;
      }
    }
    if (root >= 0 && need_truth && !claim_.nodes_[root].truth)
      Fault(0, "a claim must be true or false (a comparison), but '" + claim_.nodes_[root].text + "' is a number"),
          root = -1;
    if (root < 0) return Failure(err_pos_, err_);
    claim_.root_ = root;
    return std::move(claim_);
  }

 private:
  using Kind = Claim::Kind;

  bool AtEnd() const { return pos_ >= s_.size(); }
  void SkipSpace() {
    while (!AtEnd() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  int Column(size_t byte) const {
    int col = 1;
    for (size_t i = 0; i < byte && i < s_.size(); ++i)
      if ((static_cast<unsigned char>(s_[i]) & 0xC0) != 0x80) ++col;
    return col;
  }
  // The token starting at `at`, for messages: an identifier/number or one character.
  std::string_view TokenAt(size_t at) const {
    if (at >= s_.size()) return "end of claim";
    size_t e = at;
    while (e < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[e])) || s_[e] == '_' || s_[e] == '.')) ++e;
    if (e == at) {
      e = at + 1;
      while (e < s_.size() && (static_cast<unsigned char>(s_[e]) & 0xC0) == 0x80) ++e;
    }
    return s_.substr(at, e - at);
  }
  std::string Describe(size_t at) const {
    return at >= s_.size() ? "the end of the claim" : "'" + std::string(TokenAt(at)) + "'";
  }
  // Records the first error only.
  void Fault(size_t at, std::string what) {
    if (!err_.empty()) return;
    err_pos_ = at;
    err_ = std::move(what);
  }
  Result<Claim> Failure(size_t at, const std::string& what) const {
    Error e = Fail(ErrorCode::kParse, what);
    e.column = Column(at);
    return e;
  }

  // Every node records its depth in the tree; one deeper than kMaxClaimDepth
  // is refused, so that evaluating (which recurses) has a bounded stack.
  int Add(Claim::Node node, size_t from) {
    const int depth = 1 + std::max(node.a >= 0 ? depth_[node.a] : 0, node.b >= 0 ? depth_[node.b] : 0);
    if (depth > kMaxClaimDepth) return TooDeep(from);
    depth_.push_back(depth);
    node.column = Column(from);
    std::string_view t = s_.substr(from, pos_ - from);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    node.text = std::string(t);
    claim_.nodes_.push_back(std::move(node));
    return static_cast<int>(claim_.nodes_.size()) - 1;
  }
  int Binary(Kind kind, int a, int b, size_t from) {
    Claim::Node n;
    n.kind = kind;
    n.a = a;
    n.b = b;
    n.truth = IsComparison(kind) || kind == Kind::kAnd || kind == Kind::kOr;
    return Add(std::move(n), from);
  }
  bool NeedNumber(int node, const char* op, size_t op_at) {
    if (node < 0) return false;
    if (!claim_.nodes_[node].truth) return true;
    Fault(op_at, std::string("'") + op + "' needs numbers, but '" + claim_.nodes_[node].text + "' is true/false");
    return false;
  }
  bool NeedTruth(int node, const char* op, size_t op_at) {
    if (node < 0) return false;
    if (claim_.nodes_[node].truth) return true;
    Fault(op_at, std::string("'") + op + "' needs true/false, but '" + claim_.nodes_[node].text + "' is a number");
    return false;
  }
  bool Keyword(const char* word) {
    SkipSpace();
    const size_t n = std::char_traits<char>::length(word);
    if (s_.substr(pos_, n) != word) return false;
    if (pos_ + n < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_ + n])) || s_[pos_ + n] == '_'))
      return false;
    pos_ += n;
    return true;
  }
  // Matches an operator from `kinds` at the cursor.
  std::optional<Kind> Operator(std::initializer_list<Kind> kinds) {
    SkipSpace();
    for (const Spelling& sp : kOperators) {
      const size_t n = std::char_traits<char>::length(sp.text);
      if (s_.substr(pos_, n) != sp.text) continue;
      for (Kind k : kinds)
        if (k == sp.kind) {
          pos_ += n;
          return k;
        }
      return std::nullopt;  // a longer spelling of another operator ("<=" is not "<")
    }
    return std::nullopt;
  }

  int TooDeep(size_t at) {
    Fault(at, "the expression nests deeper than " + std::to_string(kMaxClaimDepth) +
                  " levels (parentheses, operators or function calls); split it into several claims");
    return -1;
  }
  // Counts the parser's own recursion — Unary is on every path through
  // parentheses and calls, Not on every "not" — at most kMaxClaimDepth
  // levels, whatever the nodes.
  struct Nesting {
    explicit Nesting(int& n) : n_(n) { ++n_; }
    ~Nesting() { --n_; }
    int& n_;
  };

  int Or() { return Logical("or", Kind::kOr, &ClaimParser::And); }
  int And() { return Logical("and", Kind::kAnd, &ClaimParser::Not); }
  // One left-associative level of logic: operand (keyword operand)*.
  int Logical(const char* keyword, Kind kind, int (ClaimParser::*operand)()) {
    SkipSpace();
    const size_t from = pos_;
    int left = (this->*operand)();
    while (left >= 0) {
      SkipSpace();
      const size_t at = pos_;
      if (!Keyword(keyword)) break;
      const int right = (this->*operand)();
      if (!NeedTruth(left, keyword, at) || !NeedTruth(right, keyword, at)) return -1;
      left = Binary(kind, left, right, from);
    }
    return left;
  }
  int Not() {
    SkipSpace();
    const size_t from = pos_;
    if (Keyword("not")) {
      const Nesting nest(nesting_);
      if (nesting_ > kMaxClaimDepth) return TooDeep(from);
      const int a = Not();
      if (!NeedTruth(a, "not", from)) return -1;
      Claim::Node n;
      n.kind = Kind::kNot;
      n.a = a;
      n.truth = true;
      return Add(std::move(n), from);
    }
    return Comparison();
  }
  int Comparison() {
    SkipSpace();
    const size_t from = pos_;
    const int left = Sum();
    if (left < 0) return -1;
    SkipSpace();
    const size_t at = pos_;
    const auto op = Operator({Kind::kEq, Kind::kNe, Kind::kLt, Kind::kLe, Kind::kGt, Kind::kGe});
    if (!op) return left;
    const int right = Sum();
    if (right < 0) return -1;
    const bool lt = claim_.nodes_[left].truth, rt = claim_.nodes_[right].truth;
    if (lt != rt || ((*op != Kind::kEq && *op != Kind::kNe) && lt)) {
      Fault(at, "cannot compare '" + claim_.nodes_[left].text + "' with '" + claim_.nodes_[right].text +
                    "' (numbers compare with numbers; true/false only with == or !=)");
      return -1;
    }
    const int node = Binary(*op, left, right, from);
    SkipSpace();
    const size_t chain = pos_;
    if (Operator({Kind::kEq, Kind::kNe, Kind::kLt, Kind::kLe, Kind::kGt, Kind::kGe})) {
      Fault(chain, "comparisons do not chain; write 'a < b and b < c'");
      return -1;
    }
    return node;
  }
  int Sum() { return Arithmetic({Kind::kAdd, Kind::kSub}, &ClaimParser::Product); }
  int Product() { return Arithmetic({Kind::kMul, Kind::kDiv}, &ClaimParser::Unary); }
  // One left-associative level of arithmetic: operand (op operand)*.
  int Arithmetic(std::initializer_list<Kind> ops, int (ClaimParser::*operand)()) {
    SkipSpace();
    const size_t from = pos_;
    int left = (this->*operand)();
    while (left >= 0) {
      SkipSpace();
      const size_t at = pos_;
      const auto op = Operator(ops);
      if (!op) break;
      const int right = (this->*operand)();
      const char* name = *op == Kind::kAdd ? "+" : *op == Kind::kSub ? "-" : *op == Kind::kMul ? "*" : "/";
      if (!NeedNumber(left, name, at) || !NeedNumber(right, name, at)) return -1;
      left = Binary(*op, left, right, from);
    }
    return left;
  }
  int Unary() {
    SkipSpace();
    const size_t from = pos_;
    const Nesting nest(nesting_);
    if (nesting_ > kMaxClaimDepth) return TooDeep(from);
    if (Operator({Kind::kSub})) {
      const int a = Unary();
      if (!NeedNumber(a, "-", from)) return -1;
      Claim::Node n;
      n.kind = Kind::kNeg;
      n.a = a;
      return Add(std::move(n), from);
    }
    if (Operator({Kind::kAdd})) return Unary();
    return Primary();
  }
  int Primary() {
    SkipSpace();
    const size_t from = pos_;
    if (AtEnd()) {
      Fault(pos_, "expected a number, a name or '(' but the claim ends");
      return -1;
    }
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      const int inner = Or();
      if (inner < 0) return -1;
      SkipSpace();
      if (AtEnd() || s_[pos_] != ')') {
        Fault(pos_, "expected ')' to close '(', found " + Describe(pos_));
        return -1;
      }
      ++pos_;
      // Keep the inner node, widening its text to include the parentheses.
      claim_.nodes_[inner].text = std::string(s_.substr(from, pos_ - from));
      claim_.nodes_[inner].column = Column(from);
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return Number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return Name();
    Fault(pos_, "expected a number, a name or '(' but found " + Describe(pos_));
    return -1;
  }
  int Number() {
    const size_t from = pos_;
    Rational value, scale = 1;  // scale: the place value of the next fractional digit's unit
    bool any = false, overflow = false, fraction = false;
    for (; !AtEnd(); ++pos_) {
      const char c = s_[pos_];
      if (c == '.' && !fraction) {
        fraction = true;
        continue;
      }
      if (!std::isdigit(static_cast<unsigned char>(c))) break;
      any = true;
      std::optional<Rational> next;
      if (!fraction) {
        next = value.Mul(10);
        if (next) next = next->Add(c - '0');
      } else {
        auto s = scale.Div(10);
        if (s) scale = *s;
        auto term = s ? scale.Mul(c - '0') : std::nullopt;
        next = term ? value.Add(*term) : std::nullopt;
      }
      if (next) value = *next;
      else overflow = true;
    }
    if (!any) {
      Fault(from, "'.' is not a number");
      return -1;
    }
    if (overflow) {
      Fault(from, "number '" + std::string(s_.substr(from, pos_ - from)) + "' does not fit exact 64-bit arithmetic");
      return -1;
    }
    if (!AtEnd() && (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      Fault(from, "'" + std::string(TokenAt(from)) + "' is not a number (run names go inside a metric: makespan(" +
                      std::string(TokenAt(from)) + "))");
      return -1;
    }
    Claim::Node n;
    n.kind = Kind::kNumber;
    n.number = value;
    return Add(std::move(n), from);
  }
  int Name() {
    const size_t from = pos_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    const std::string name(s_.substr(from, pos_ - from));
    if (name == "and" || name == "or" || name == "not") {
      Fault(from, "expected a number, a name or '(' but found '" + name + "'");
      return -1;
    }
    SkipSpace();
    if (AtEnd() || s_[pos_] != '(') {
      if (FindMetric(name)) {
        Fault(from, "'" + name + "' is a metric: write " + name + "(RUN)");
        return -1;
      }
      Claim::Node n;
      n.kind = Kind::kParam;
      n.name = name;
      pos_ = from + name.size();
      return Add(std::move(n), from);
    }
    if (name == "floor" || name == "ceil" || name == "min" || name == "max") return Math(name, from);
    const MetricInfo* metric = FindMetric(name);
    if (!metric) {
      Fault(from, "unknown function '" + name + "' (known: " + MetricNames() + ", floor, ceil, min, max)");
      return -1;
    }
    ++pos_;  // '('
    SkipSpace();
    Claim::Node n;
    n.kind = Kind::kMetric;
    n.name = name;
    n.run_column = Column(pos_);
    if (!RunName(&n.run)) return -1;
    SkipSpace();
    if (!AtEnd() && s_[pos_] == ',') {
      const size_t comma = pos_;
      ++pos_;
      if (!metric->per_device) {
        Fault(comma, name + "() takes one argument, the run");
        return -1;
      }
      n.a = Sum();
      if (n.a < 0) return -1;
      if (!NeedNumber(n.a, "device", comma)) return -1;
      SkipSpace();
    }
    if (AtEnd() || s_[pos_] != ')') {
      Fault(pos_, "expected ')' to close '" + name + "(', found " + Describe(pos_));
      return -1;
    }
    ++pos_;
    return Add(std::move(n), from);
  }
  // floor(x), ceil(x), min(a, b), max(a, b); the cursor is on '('.
  int Math(const std::string& name, size_t from) {
    ++pos_;
    Claim::Node n;
    n.kind = name == "floor" ? Kind::kFloor : name == "ceil" ? Kind::kCeil : name == "min" ? Kind::kMin : Kind::kMax;
    const bool two = n.kind == Kind::kMin || n.kind == Kind::kMax;
    size_t at = pos_;
    n.a = Sum();
    if (!NeedNumber(n.a, name.c_str(), at)) return -1;
    SkipSpace();
    if (two) {
      if (AtEnd() || s_[pos_] != ',') {
        Fault(pos_, name + "() takes two numbers: " + name + "(a, b)");
        return -1;
      }
      at = ++pos_;
      n.b = Sum();
      if (!NeedNumber(n.b, name.c_str(), at)) return -1;
      SkipSpace();
    }
    if (AtEnd() || s_[pos_] != ')') {
      Fault(pos_, "expected ')' to close '" + name + "(', found " + Describe(pos_));
      return -1;
    }
    ++pos_;
    return Add(std::move(n), from);
  }
  // A run name: "quoted", or the text up to ',' or ')' (trimmed).
  bool RunName(std::string* out) {
    const size_t from = pos_;
    if (!AtEnd() && s_[pos_] == '"') {
      const size_t close = s_.find('"', pos_ + 1);
      if (close == std::string_view::npos) {
        Fault(from, "unclosed '\"' in run name");
        return false;
      }
      *out = std::string(s_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
    } else {
      size_t e = pos_;
      while (e < s_.size() && s_[e] != ',' && s_[e] != ')' && s_[e] != '(') ++e;
      std::string_view name = s_.substr(pos_, e - pos_);
      while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.remove_suffix(1);
      *out = std::string(name);
      pos_ = from + name.size();
    }
    if (out->empty()) {
      Fault(from, "expected a run name, found " + Describe(from));
      return false;
    }
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  Claim claim_;
  std::vector<int> depth_;  // per node: its depth in the tree (a leaf is 1)
  int nesting_ = 0;         // Not/Unary calls on the stack
  std::string err_;
  size_t err_pos_ = 0;
};

Result<Claim> ParseClaim(std::string_view text) {
  return ClaimParser(text).Parse(true);
}

Result<Claim> ParseExpression(std::string_view text) {
  return ClaimParser(text).Parse(false);
}

std::vector<std::string> Claim::Runs() const {
  std::vector<std::string> runs;
  for (const Node& n : nodes_) {
    if (n.kind != Kind::kMetric) continue;
    bool seen = false;
    for (const std::string& r : runs) seen = seen || r == n.run;
    if (!seen) runs.push_back(n.run);
  }
  return runs;
}

}  // namespace ppsim
