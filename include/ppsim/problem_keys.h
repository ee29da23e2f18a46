// The keys of a problem, in one table (as leveldb's options.h): each key with
// its type, range, default and a one-line doc. Every way of stating a problem
// sets it through SetProblemKey — the CLI's flags, --cost and --cost-file, a
// scene's top level and [[run]], --set, --sweep, Python's keyword arguments —
// so a value is checked in one place and the same mistake gets the same exit
// code (and, but for where it was written, the same words) whichever way it
// is spelled. `ppsim list --keys` prints the table; docs/keys.md is made from
// it (`PPSIM_UPDATE_DOCS=1 build/tests/ppsim_cli_tests --gtest_filter='KeysDoc*'`
// rewrites it) and tests/cli/keys_cli_test.cc fails when the two differ.
//
//   key                 type                        range           default
//   P                   integer                     1..4096         4
//   M                   integer                     1..2^20         6
//   chunks              integer                     1..64           1
//   ...                 (KeyTable() has every row)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/problem.h"

namespace ppsim {

// A value as given, before it is checked: a whole number, a list of them, a
// word, or something else (a float, a table), kept as text for messages.
struct KeyValue {
  enum class Kind { kInt, kList, kWord, kHuge, kOther };
  Kind kind = Kind::kOther;
  std::vector<std::int64_t> ints;  // kInt: one; kList: one or more
  std::string text;                // as written: "4", "1:8:1", "held", "1.5", "99999999999999999999"

  static KeyValue Int(std::int64_t v);
  static KeyValue List(std::vector<std::int64_t> v);
  static KeyValue Word(std::string w);
  static KeyValue Other(std::string text);  // neither a number nor a word: "1.5", "a table"
  // From command-line text: "4" a whole number, "1:8:1" a list, "-1" a
  // number too, a run of digits beyond int64 kHuge, a bare word a word.
  static KeyValue FromText(std::string_view text);
};

// What a key accepts.
enum class KeyType {
  kInt,          // one whole number
  kIntOrList,    // one whole number, or a list (per stage, or per hop for comm)
  kWord,         // one of `words`
  kWordOrList,   // one of `words`, or a list of whole numbers in the range
  kFraction,     // a number in [min, max]: whole, a/b, or a decimal ("0.125", "1/8")
};

// Reads "3", "1/8" or "0.125" as num/den (den ≥ 1, not reduced). False if
// the text is none of these or does not fit int64.
bool ReadFraction(std::string_view text, std::int64_t& num, std::int64_t& den);

struct ProblemKey {
  const char* name;           // as a scene and --set write it: "P", "costs.F", "memory.limit"
  KeyType type;
  std::int64_t min, max;      // the range of each number (kInt, kIntOrList)
  bool limit;                 // max is a size limit (over it: kTooLarge), not a bound of meaning (kInvalidValue)
  const char* words;          // kWord: the accepted words, "held, resident"
  const char* default_value;  // as printed in the table
  const char* doc;            // one line
  void (*store)(const KeyValue& value, Problem& problem);  // REQUIRES: value checked against the row
};

// Every key, in the order docs list them.
const std::vector<ProblemKey>& KeyTable();
// The row for `name` ("v" is the scene's other spelling of "chunks"), or nullptr.
const ProblemKey* FindProblemKey(std::string_view name);

// Checks `value` against key `name` and stores it into `problem`. Errors, with
// field = the key's name:
//   kUnknownName   no such key ("known: P, M, ...")
//   kInvalidValue  not a whole number / not a list / not one of the words, or out of the range
//   kTooLarge      over a size limit (ProblemKey::limit), or a number beyond int64
Error SetProblemKey(std::string_view name, const KeyValue& value, Problem& problem);

// The table as `ppsim list --keys` prints it (aligned columns, one key a
// line) and as docs/keys.md shows it (Markdown).
std::string KeyTableText();
std::string KeyTableMarkdown();

// "integer", "integer or list", "word".
std::string KeyTypeName(KeyType type);
// "1..4096", "held, resident".
std::string KeyRange(const ProblemKey& key);

}  // namespace ppsim
