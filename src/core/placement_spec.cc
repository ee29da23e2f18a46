#include "ppsim/placement_spec.h"

#include <string>
#include <vector>

#include "ppsim/whole_number.h"

namespace ppsim {
namespace {

Error Bad(const std::string& what) { return Error::Field(ErrorCode::kInvalidValue, "placement", what); }

Result<std::vector<int>> List(const std::string& items, int P, int v) {
  std::vector<int> out;
  size_t at = 0;
  for (int item = 1;; ++item) {
    const size_t comma = items.find(',', at);
    const std::string one = items.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    std::int64_t d = -1;
    if (!IsWhole(one, d))
      return Bad(" map (item " + std::to_string(item) + "): '" + one + "' is not a device number");
    if (d < 0 || d >= P)
      return Bad(" map (item " + std::to_string(item) + "): device " + std::to_string(d) + ", but devices are 0.." +
                 std::to_string(P - 1));
    out.push_back(d);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  if (static_cast<int>(out.size()) != P * v)
    return Bad(" map: " + std::to_string(out.size()) + " devices given for " + std::to_string(P * v) +
               " stages (one per stage, P·v = " + std::to_string(P) + "·" + std::to_string(v) + ")");
  std::vector<int> held(P, 0);
  for (int d : out) ++held[d];
  for (int d = 0; d < P; ++d)
    if (held[d] != v)
      return Bad(" map: device " + std::to_string(d) + " holds " + std::to_string(held[d]) +
                 " stage(s), but every device holds v = " + std::to_string(v));
  return out;
}

}  // namespace

Result<std::vector<int>> ParsePlacement(const std::string& text, int P, int v) {
  if (text.rfind("map:", 0) == 0) return List(text.substr(4), P, v);
  std::vector<int> out(static_cast<size_t>(P) * v);
  if (text == "loop") {
    for (int s = 0; s < P * v; ++s) out[s] = s % P;
  } else if (text == "wave" || text == "vshape" || text == "v-shape") {
    if (text != "wave" && v != 2) return Bad(": vshape needs 2 chunks per device, got " + std::to_string(v));
    for (int s = 0; s < P * v; ++s) out[s] = (s / P) % 2 == 0 ? s % P : P - 1 - s % P;
  } else {
    return Bad(": '" + text + "' is not one of loop, vshape, wave, map:D0,D1,... (one device per stage)");
  }
  return out;
}

}  // namespace ppsim
