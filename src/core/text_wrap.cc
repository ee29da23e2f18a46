#include "ppsim/text_wrap.h"

#include <algorithm>

namespace ppsim {
namespace {

std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find(' ', at);
    const std::string word = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (!word.empty()) out.push_back(word);
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

// `text` in lines of at most `width` columns, broken at spaces.
std::vector<std::string> Lines(const std::string& text, size_t width) {
  if (TextColumns(text) <= width) return {text};  // as written, its spacing kept
  std::vector<std::string> out;
  std::string line;
  for (const std::string& word : Words(text)) {
    if (!line.empty() && TextColumns(line) + 1 + TextColumns(word) > width) {
      out.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || out.empty()) out.push_back(line);
  return out;
}

// The phrases of `text`: pieces between two spaces, " · " or "; ", each
// with the separator that follows it ("" after the last).
struct Phrase {
  std::string text;
  std::string sep;
};
std::vector<Phrase> Phrases(const std::string& text) {
  static const char* const kSeps[] = {"  ", " \u00B7 ", "; "};
  std::vector<Phrase> out;
  size_t at = 0;
  for (;;) {
    size_t best = std::string::npos;
    std::string sep;
    for (const char* s : kSeps) {
      const size_t p = text.find(s, at);
      if (p < best) best = p, sep = s;
    }
    if (best == std::string::npos) {
      out.push_back({text.substr(at), ""});
      return out;
    }
    out.push_back({text.substr(at, best - at), sep});
    at = best + sep.size();
  }
}

void Pad(std::string& s, size_t to) {
  const size_t n = TextColumns(s);
  if (n < to) s.append(to - n, ' ');
}

// Columns [from, to) of `table` beside its labels, each `width[c]` wide.
void Group(const std::vector<std::vector<std::string>>& table, const std::vector<size_t>& width, size_t from,
           size_t to, std::string& out) {
  for (const std::vector<std::string>& row : table) {
    std::vector<std::vector<std::string>> cells{Lines(row[0], width[0])};  // the label, then the group's columns
    size_t height = cells[0].size();
    for (size_t c = from; c < to; ++c) {
      cells.push_back(Lines(c < row.size() ? row[c] : "", width[c]));
      height = std::max(height, cells.back().size());
    }
    for (size_t h = 0; h < height; ++h) {
      std::string line;
      for (size_t i = 0; i < cells.size(); ++i) {
        const size_t c = i == 0 ? 0 : from + i - 1;
        std::string cell = h < cells[i].size() ? cells[i][h] : "";
        if (i + 1 < cells.size()) Pad(cell, width[c] + 2);
        line += cell;
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
}

}  // namespace

size_t TextColumns(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string WrapWords(const std::string& text, size_t columns, const std::string& indent) {
  std::string out;
  const std::vector<std::string> first = Lines(text, columns);
  out += first[0] + "\n";
  if (first.size() == 1) return out;
  // The rest again, narrower by the indent.
  std::string rest;
  for (size_t i = 1; i < first.size(); ++i) rest += (i > 1 ? " " : "") + first[i];
  const size_t inner = columns > TextColumns(indent) + 8 ? columns - TextColumns(indent) : 8;
  for (const std::string& line : Lines(rest, inner)) out += indent + line + "\n";
  return out;
}

std::string WrapPhrases(const std::string& text, size_t columns, const std::string& indent) {
  if (TextColumns(text) <= columns) return text + "\n";
  const size_t inner = columns > TextColumns(indent) + 8 ? columns - TextColumns(indent) : 8;
  std::vector<std::string> lines;
  std::string line, sep;  // the line so far, and the separator owed before the next phrase
  bool started = false;
  auto room = [&] { return lines.empty() ? columns : inner; };
  for (const Phrase& p : Phrases(text)) {
    if (!started || TextColumns(line + sep + p.text) <= room()) {
      line += (started ? sep : "") + p.text;
    } else {  // a break: the separator's mark ends the line, its spaces go
      while (!sep.empty() && sep.back() == ' ') sep.pop_back();
      lines.push_back(line + sep);
      line = p.text;
    }
    started = true;
    if (TextColumns(line) > room()) {  // one phrase wider than a line: at its words
      const std::vector<std::string> first = Lines(line, room());
      if (first.size() > 1) {  // the rest narrower by the indent
        lines.push_back(first[0]);
        std::string rest;
        for (size_t k = 1; k < first.size(); ++k) rest += (k > 1 ? " " : "") + first[k];
        const std::vector<std::string> more = Lines(rest, inner);
        for (size_t k = 0; k + 1 < more.size(); ++k) lines.push_back(more[k]);
        line = more.back();
      }
    }
    sep = p.sep;
  }
  lines.push_back(line);
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i == 0 ? "" : indent) + lines[i] + "\n";
  return out;
}

std::string FitTable(const std::vector<std::vector<std::string>>& table, size_t columns) {
  size_t n = 0;
  for (const auto& row : table) n = std::max(n, row.size());
  std::vector<size_t> width(n, 0);
  for (const auto& row : table)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], TextColumns(row[c]));
  // The labels keep their width (at most half the line). As many columns
  // side by side as fit at kNarrowest each (fewer when they are narrower),
  // a wider cell wrapping within its column; the rest in further groups.
  constexpr size_t kNarrowest = 24;
  width[0] = std::min(width[0], std::max<size_t>(columns / 2, 8));
  const size_t beside = columns > width[0] ? columns - width[0] : 0;
  size_t per_group = 1;
  for (size_t k = n > 1 ? n - 1 : 1; k > 1; --k) {
    const size_t each = beside / k >= 2 ? beside / k - 2 : 0;
    bool fits = true;
    for (size_t c = 1; c < n; ++c) fits = fits && (width[c] <= each || each >= kNarrowest);
    if (fits) {
      per_group = k;
      break;
    }
  }
  const size_t each = std::max<size_t>(beside / per_group >= 2 ? beside / per_group - 2 : 0, 8);
  for (size_t c = 1; c < n; ++c) width[c] = std::min(width[c], each);
  std::string out;
  if (n == 1) Group(table, width, 1, 1, out);
  for (size_t from = 1; from < n; from += per_group) {
    if (!out.empty()) out += "\n";
    Group(table, width, from, std::min(n, from + per_group), out);
  }
  return out;
}

}  // namespace ppsim
