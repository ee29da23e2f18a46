// Reader and writer of PyTorch's compute-only schedule CSV. The grammar is
// _Action.__repr__'s; PyTorch's own loader matches a prefix (so `0F0xyz`
// loads as 0F0) — this one insists on the whole cell.
#include "ppsim/io/pytorch_csv.h"

#include <cctype>
#include <optional>
#include <string>

#include "pytorch_action.h"
#include "pytorch_comms_check.h"
#include "pytorch_rules.h"
#include "ppsim/io/pytorch_program.h"
#include "schedule_shape.h"
#include "ppsim/problem.h"

namespace ppsim::io {
namespace {

using io::Where;

constexpr std::string_view kOverlap = "OVERLAP_F_B";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsTypeChar(char c) { return (c >= 'A' && c <= 'Z') || c == '_'; }

struct TypeName {
  ActionType type;
  std::string_view name;
};
constexpr TypeName kTypeNames[] = {
    {ActionType::kF, "F"},           {ActionType::kI, "I"},           {ActionType::kW, "W"},
    {ActionType::kB, "B"},           {ActionType::kSendF, "SEND_F"},  {ActionType::kRecvF, "RECV_F"},
    {ActionType::kSendB, "SEND_B"},  {ActionType::kRecvB, "RECV_B"},  {ActionType::kUnshard, "UNSHARD"},
    {ActionType::kReshard, "RESHARD"}, {ActionType::kReduceGrad, "REDUCE_GRAD"},
};

std::optional<ActionType> TypeNamed(std::string_view name) {
  for (const TypeName& t : kTypeNames)
    if (t.name == name) return t.type;
  return std::nullopt;
}

class CellParser {
 public:
  CellParser(const std::string& source, int row) : source_(source), row_(row) {}

  // Parses one unquoted cell whose first character is at column `col`.
  Result<CsvCell> Cell(std::string_view text, int col) {
    Trim(text, col);
    CsvCell cell;
    if (text.empty()) return cell;
    if (text.front() != '(') {
      Result<CsvAction> a = Action(text, col);
      if (!a) return a.error();
      cell.actions.push_back(*a);
      return cell;
    }
    const size_t close = text.find(')');
    if (close == std::string_view::npos) return Err(col, "'(' of an overlapped pair has no ')'");
    std::string_view inner = text.substr(1, close - 1);
    int inner_col = col + 1;
    for (;;) {
      const size_t semi = inner.find(';');
      Result<CsvAction> a = Action(inner.substr(0, semi), inner_col, /*trim=*/true);
      if (!a) return a.error();
      cell.actions.push_back(*a);
      if (semi == std::string_view::npos) break;
      inner = inner.substr(semi + 1);
      inner_col += static_cast<int>(semi) + 1;
    }
    const std::string_view type = text.substr(close + 1);
    const int type_col = col + static_cast<int>(close) + 1;
    if (type != kOverlap)
      return Err(type_col, "an overlapped pair must end in ')" + std::string(kOverlap) + "', got ')" +
                               std::string(type) + "'");
    auto backward = [](const CsvAction& a) { return a.type == ActionType::kB || a.type == ActionType::kI; };
    const bool shape_ok = cell.actions.size() == 2 &&
                          ((cell.actions[0].type == ActionType::kF) != (cell.actions[1].type == ActionType::kF)) &&
                          (backward(cell.actions[0]) || backward(cell.actions[1]));
    if (!shape_ok)
      return Err(col, "an OVERLAP_F_B pair needs one forward (F) and one backward (B or I), got '" +
                          std::string(text.substr(0, close + 1)) + "'");
    return cell;
  }

 private:
  static void Trim(std::string_view& text, int& col) {
    while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1), ++col;
    while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  }

  Error Err(int col, const std::string& what) const {
    return Fail(ErrorCode::kParse, Where(source_, row_, col) + what);
  }

  // Reads decimal digits at text[i...] into `out`, ≤ max. False: no digits.
  Result<bool> Number(std::string_view text, size_t& i, int col, int max, const char* what, int& out) {
    const size_t from = i;
    long long value = 0;
    while (i < text.size() && IsDigit(text[i])) {
      value = value * 10 + (text[i] - '0');
      if (value > max)
        return Fail(ErrorCode::kTooLarge, Where(source_, row_, col + static_cast<int>(from)) + what + " " +
                                              std::string(text.substr(from, i + 1 - from)) +
                                              "... exceeds the limit " + std::to_string(max));
      ++i;
    }
    out = static_cast<int>(value);
    return i > from;
  }

  Result<CsvAction> Action(std::string_view text, int col, bool trim = false) {
    if (trim) Trim(text, col);
    CsvAction a;
    a.row = row_;
    a.col = col;
    size_t i = 0;
    Result<bool> got = Number(text, i, col, io::kMaxStageIndex, "stage", a.stage);
    if (!got) return got.error();
    if (!*got)
      return Err(col, text.empty() ? "empty action in an overlapped pair"
                                   : "expected an action like 0F0 (stage, type, microbatch), got '" +
                                         std::string(text) + "'");
    const size_t type_from = i;
    while (i < text.size() && IsTypeChar(text[i])) ++i;
    const std::string_view type = text.substr(type_from, i - type_from);
    const int type_col = col + static_cast<int>(type_from);
    if (type.empty()) return Err(type_col, "expected an action type (F, I, W or B) after stage " + std::to_string(a.stage));
    const std::optional<ActionType> known = TypeNamed(type);
    if (!known) {
      if (type == kOverlap) return Err(type_col, "OVERLAP_F_B is a pair: write it (a;b)OVERLAP_F_B");
      return Err(type_col, "unknown action type '" + std::string(type) +
                               "' (known: F, I, W, B, SEND_F, RECV_F, SEND_B, RECV_B, UNSHARD, RESHARD, REDUCE_GRAD)");
    }
    a.type = *known;
    const size_t mb_from = i;
    got = Number(text, i, col, io::kMaxMicrobatchIndex, "microbatch", a.microbatch);
    if (!got) return got.error();
    const bool per_stage = a.type == ActionType::kUnshard || a.type == ActionType::kReshard ||
                           a.type == ActionType::kReduceGrad;
    if (per_stage && *got)
      return Err(col + static_cast<int>(mb_from),
                 "action " + std::string(text.substr(0, mb_from)) + " takes no microbatch number");
    if (per_stage) a.microbatch = -1;
    if (!per_stage && !*got)
      return Err(col + static_cast<int>(mb_from),
                 "action " + std::string(text.substr(0, mb_from)) + " has no microbatch number");
    if (i < text.size())
      return Err(col + static_cast<int>(i), "unexpected '" + std::string(text.substr(i)) + "' after action " +
                                                std::string(text.substr(0, i)));
    return a;
  }

  const std::string& source_;
  int row_;
};

// Splits one line into cells, handling csv quoting ("..." with "" inside).
Result<std::vector<CsvCell>> ParseRow(std::string_view line, const std::string& source, int row) {
  std::vector<CsvCell> cells;
  if (line.empty()) return cells;  // csv.reader yields [] for a blank line: a rank with no actions
  CellParser parser(source, row);
  size_t i = 0;
  for (;;) {
    const int col = static_cast<int>(i) + 1;
    std::string text;
    int text_col = col;
    if (i < line.size() && line[i] == '"') {
      size_t j = i + 1;
      for (;;) {
        if (j >= line.size())
          return Fail(ErrorCode::kParse, Where(source, row, col) + "quoted cell has no closing '\"'");
        if (line[j] == '"') {
          if (j + 1 < line.size() && line[j + 1] == '"') {
            text += '"';
            j += 2;
            continue;
          }
          ++j;
          break;
        }
        text += line[j++];
      }
      if (j < line.size() && line[j] != ',')
        return Fail(ErrorCode::kParse, Where(source, row, static_cast<int>(j) + 1) +
                                           "unexpected '" + std::string(1, line[j]) + "' after a closing quote");
      text_col = col + 1;
      i = j;
    } else {
      const size_t comma = line.find(',', i);
      const size_t end = comma == std::string_view::npos ? line.size() : comma;
      text = std::string(line.substr(i, end - i));
      i = end;
    }
    Result<CsvCell> cell = parser.Cell(text, text_col);
    if (!cell) return cell.error();
    cells.push_back(std::move(*cell));
    if (i >= line.size()) break;
    ++i;  // the comma; a trailing comma means one more (idle) cell
    if (i == line.size()) {
      cells.emplace_back();
      break;
    }
  }
  return cells;
}

std::string CellText(const CsvCell& cell) {
  if (cell.actions.empty()) return "";
  if (cell.actions.size() == 1) return ActionText(cell.actions[0]);
  std::string s = "(";
  for (size_t i = 0; i < cell.actions.size(); ++i) {
    if (i) s += ';';
    s += ActionText(cell.actions[i]);
  }
  return s + ")" + std::string(kOverlap);
}

}  // namespace

bool IsCompute(ActionType t) {
  return t == ActionType::kF || t == ActionType::kI || t == ActionType::kW || t == ActionType::kB;
}

std::string ActionText(const CsvAction& a) {
  std::string s = std::to_string(a.stage);
  for (const TypeName& t : kTypeNames)
    if (t.type == a.type) s += t.name;
  return a.microbatch >= 0 ? s + std::to_string(a.microbatch) : s;
}

std::string PytorchCellText(const CsvCell& cell) { return CellText(cell); }

Result<PytorchCsv> ParsePytorchCsv(std::string_view text, const std::string& source) {
  PytorchCsv csv;
  int row = 0;
  while (!text.empty()) {
    ++row;
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // One row per device: stop at the limit instead of reading 10^7 rows first.
    if (row > kMaxDevices)
      return Fail(ErrorCode::kTooLarge, io::Where(source, row, 1) + "more than " + std::to_string(kMaxDevices) +
                                            " devices (rows)");
    Result<std::vector<CsvCell>> cells = ParseRow(line, source, row);
    if (!cells) return cells.error();
    csv.rows.push_back(std::move(*cells));
  }
  return csv;
}

std::string FormatPytorchCsv(const PytorchCsv& csv) {
  std::string out;
  for (const auto& row : csv.rows) {
    // Python's csv.writer quotes a lone empty field so the row is not blank.
    if (row.size() == 1 && row[0].actions.empty()) {
      out += "\"\"\r\n";
      continue;
    }
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) out += ',';
      out += CellText(row[i]);
    }
    out += "\r\n";
  }
  return out;
}

Result<ImportedSchedule> ScheduleFromPytorchCsv(const PytorchCsv& csv, const std::string& source) {
  if (Error e = CheckPytorchRules(csv, source); !e.ok()) return e;
  if (Error e = CheckCommActions(csv, source); !e.ok()) return e;
  bool split = false;
  for (const auto& row : csv.rows)
    for (const CsvCell& cell : row)
      for (const CsvAction& a : cell.actions) split |= a.type == ActionType::kI || a.type == ActionType::kW;
  auto to_op = [](const CsvAction& a) {
    const OpKind kind = a.type == ActionType::kF ? OpKind::kF : a.type == ActionType::kW ? OpKind::kW : OpKind::kB;
    return io::SourceOp{Op{kind, a.microbatch, a.stage}, a.row, a.col};
  };
  std::vector<std::vector<io::SourceSlot>> rows(csv.rows.size());
  for (size_t d = 0; d < csv.rows.size(); ++d) {
    for (const CsvCell& cell : csv.rows[d]) {
      if (cell.actions.empty() || !IsCompute(cell.actions[0].type)) continue;  // comm actions: checked above
      io::SourceSlot slot{to_op(cell.actions[0]), std::nullopt};
      if (cell.actions.size() > 1) slot.second = to_op(cell.actions[1]);
      // Next to I/W, a B is a full backward: one op, no W of its own.
      for (const CsvAction& a : cell.actions) slot.full |= split && a.type == ActionType::kB;
      rows[d].push_back(slot);
    }
  }
  Result<ImportedSchedule> imported = io::BuildImportedSchedule(source, rows, split);
  if (imported) imported->comms = ProgramFromCsv(csv, imported->schedule);
  return imported;
}

Result<PytorchCsv> PytorchCsvFromSchedule(const Schedule& schedule) {
  if (schedule.space.split() != 0)
    return Fail(ErrorCode::kPrecondition, "PyTorch CSV cannot express " + schedule.name +
                                              ": its two pipelines (DualPipe) have no PyTorch schedule; export "
                                              "dualpipev instead");
  PytorchCsv csv;
  auto action = [&](OpId id, bool full) { return PytorchComputeAction(schedule, id, full); };
  for (const auto& queue : schedule.devices) {
    std::vector<CsvCell>& row = csv.rows.emplace_back();
    row.reserve(queue.size());
    for (const Slot& slot : queue) {
      CsvCell& cell = row.emplace_back();
      cell.actions.push_back(action(slot.op, slot.full));
      if (slot.pair()) cell.actions.push_back(action(slot.overlapped, slot.full));
    }
  }
  return csv;
}

Result<ImportedSchedule> ReadPytorchCsv(std::string_view text, const std::string& source) {
  Result<PytorchCsv> csv = ParsePytorchCsv(text, source);
  if (!csv) return csv.error();
  return ScheduleFromPytorchCsv(*csv, source);
}

Result<std::string> WritePytorchCsv(const Schedule& schedule) {
  Result<PytorchCsv> csv = PytorchCsvFromSchedule(schedule);
  if (!csv) return csv.error();
  return FormatPytorchCsv(*csv);
}

}  // namespace ppsim::io
