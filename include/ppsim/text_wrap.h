// Text for a terminal of a given width: lines wrapped at words or between
// phrases, and tables whose columns are split into groups that fit, a cell
// wrapping inside its column. Widths count columns, not bytes (a UTF-8
// character is one). Plain strings only, so that every text output (the
// chart's legend in render, compare's table in io, the CLI's summaries)
// wraps one way.
#pragma once

#include <string>
#include <vector>

namespace ppsim {

// Columns `s` takes: its UTF-8 characters.
size_t TextColumns(const std::string& s);

// `text` broken at spaces into lines of at most `columns` (a word longer
// than that stands alone on its line); continuation lines start with
// `indent`. Each line ends with '\n'.
std::string WrapWords(const std::string& text, size_t columns, const std::string& indent = "  ");

// `text` broken into lines of at most `columns` between its phrases: the
// pieces separated by two spaces, " · " or "; " (a line broken there ends
// with the "·" or ";" and drops the spaces); a phrase wider than a line is
// broken at its words. Continuation lines start with `indent`; each line
// ends with '\n'. So "makespan 18  busy 48  bubble_ratio 1/2 (0.5000)" never
// breaks inside "1/2 (0.5000)" while its phrases fit.
std::string WrapPhrases(const std::string& text, size_t columns, const std::string& indent = "  ");

// `table` (rows of cells; column 0 the labels, row 0 the heads) laid out in
// at most `columns`: as one table when it fits, else in groups of columns
// each repeating the labels, separated by a blank line; a cell wider than
// what is left wraps at words within its column.
std::string FitTable(const std::vector<std::vector<std::string>>& table, size_t columns);

}  // namespace ppsim
