// Whole numbers as ppsim reads them from text: command-line flags, problem
// keys, scene values, sweep ranges, cost lists, placement maps and frame
// sizes all go through ReadWhole, so "12" means the same everywhere and a
// number too large for 64 bits is told apart from one that is not a number.
#pragma once

#include <cstdint>
#include <string_view>

namespace ppsim {

enum class WholeRead { kOk, kNotWhole, kTooLarge };

// Reads all of `text` as a decimal int64 ("12", "-3"; no '+', no spaces).
// kNotWhole for empty text or anything but digits after an optional '-',
// kTooLarge for digits that overflow int64; `out` is set only on kOk.
WholeRead ReadWhole(std::string_view text, std::int64_t& out);

// ReadWhole(text, out) == WholeRead::kOk.
inline bool IsWhole(std::string_view text, std::int64_t& out) { return ReadWhole(text, out) == WholeRead::kOk; }

}  // namespace ppsim
