#include "ppsim/io/timeline_json.h"

#include <string_view>

#include "ppsim/validate.h"
#include "small_runs.h"
#include "targets.h"

namespace ppsim::fuzz {

int TimelineJson(const std::uint8_t* data, std::size_t size) {
  Result<TimelineToCheck> t =
      io::ParseTimelineJson(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
  if (!t) return 0;
  // Declared sizes within the limits may still ask validate for a large index.
  if (static_cast<long long>(t->S) * t->M * 3 > kMaxFuzzOps) return 0;
  (void)ValidateTimeline(*t);
  return 0;
}

}  // namespace ppsim::fuzz
