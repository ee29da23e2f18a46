#include "memory_bytes_json.h"

namespace ppsim::io {

void AddMemoryBytesJson(const Timeline& t, const MemoryBytes& bytes, nlohmann::json& out) {
  const MemoryModel& model = t.problem.memory;
  out["static_bytes_per_device"] = bytes.static_per_device;
  out["peak_bytes_per_device"] = bytes.peak_per_device;
  out["memory_limit"] = model.limit > 0 ? nlohmann::json(model.limit) : nlohmann::json(nullptr);
  out["memory_limit_exceeded"] = bytes.exceeded;
  out["memory_limit_first_exceeded"] =
      bytes.exceeded ? nlohmann::json{{"tick", bytes.first_tick}, {"device", bytes.first_device},
                                      {"bytes", bytes.bytes_at_first}}
                     : nlohmann::json(nullptr);
}

}  // namespace ppsim::io
