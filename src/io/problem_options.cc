#include "ppsim/io/problem_options.h"

#include <charconv>
#include <string>
#include <tuple>
#include <vector>

#include "ppsim/io/cost_file.h"
#include "ppsim/cost_spec.h"

namespace ppsim {

Error ParseIntFlag(const std::string& flag, const std::string& text, long long min, long long max, int& out) {
  long long v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end)
    return Fail(ErrorCode::kInvalidValue, flag + ": '" + text + "' is not a whole number");
  if (ec == std::errc::result_out_of_range || v > max) {
    const bool huge = ec == std::errc::result_out_of_range;
    return Fail(huge || v > max ? ErrorCode::kTooLarge : ErrorCode::kInvalidValue,
                flag + ": " + text + " exceeds the limit " + std::to_string(max));
  }
  if (v < min)
    return Fail(ErrorCode::kInvalidValue, flag + " must be ≥ " + std::to_string(min) + ", got " + text);
  out = static_cast<int>(v);
  return Error{ErrorCode::kOk, ""};
}

Result<Problem> ToProblem(const ProblemOptions& o) {
  Problem p;
  for (auto [flag, text, min, max, out] :
       {std::tuple<const char*, const std::string*, long long, long long, int*>{"-P", &o.P, 1, kMaxDevices, &p.P},
        {"-M", &o.M, 1, kMaxMicrobatches, &p.M},
        {"--chunks", &o.chunks, 1, kMaxChunks, &p.v}}) {
    Error e = ParseIntFlag(flag, *text, min, max, *out);
    if (e.code != ErrorCode::kOk) return e;
  }
  if (!o.cost_file.empty()) {
    Error e = ApplyCostFile(o.cost_file, p);
    if (e.code != ErrorCode::kOk) return e;
  }
  if (!o.cost.empty()) {
    Error e = ApplyCostSpec(o.cost, p.costs);
    if (e.code != ErrorCode::kOk) return e;
  }
  if (!o.comm.empty()) {
    // One latency for every hop, or a colon-separated list, one per hop.
    std::vector<Tick> hops;
    for (size_t from = 0;;) {
      const size_t colon = o.comm.find(':', from);
      const std::string item = o.comm.substr(from, colon == std::string::npos ? std::string::npos : colon - from);
      Tick v = 0;
      if (!ParseTick(item, v)) {
        const bool digits = !item.empty() && item.find_first_not_of("0123456789") == std::string::npos;
        return Fail(digits ? ErrorCode::kTooLarge : ErrorCode::kInvalidValue,
                    "--comm: '" + item + "' " +
                        (digits ? "overflows a 64-bit tick count" : "is not a whole number of ticks"));
      }
      if (v < 0) return Fail(ErrorCode::kInvalidValue, "--comm must be ≥ 0, got " + item);
      hops.push_back(v);
      if (colon == std::string::npos) break;
      from = colon + 1;
    }
    if (hops.size() == 1) {
      p.comm = hops[0];
      p.comm_hops.clear();
    } else {
      p.comm_hops = hops;
    }
  }
  if (!o.memory_limit.empty()) {
    Tick limit = 0;
    if (!ParseTick(o.memory_limit, limit))
      return Fail(ErrorCode::kInvalidValue, "--memory-limit: '" + o.memory_limit + "' is not a whole number of bytes");
    p.memory.limit = limit;
  }
  if (!o.group.empty()) {
    Error e = ParseIntFlag("--group", o.group, 1, kMaxMicrobatches, p.group);
    if (e.code != ErrorCode::kOk) return e;
  }
  p.overlap = !o.no_overlap;
  if (o.cost_per == "stage") {
    p.cost_basis = CostBasis::kStage;
  } else if (o.cost_per == "chunk") {
    p.cost_basis = CostBasis::kChunk;
  } else {
    return Fail(ErrorCode::kInvalidValue, "--cost-per: '" + o.cost_per + "' is not one of stage, chunk");
  }
  if (o.hold == "held") {
    p.hold = HoldMode::kHeld;
  } else if (o.hold == "resident") {
    p.hold = HoldMode::kResident;
  } else {
    return Fail(ErrorCode::kInvalidValue, "--hold: '" + o.hold + "' is not one of held, resident");
  }
  return p;
}

}  // namespace ppsim
