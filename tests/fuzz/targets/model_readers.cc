// The model file's two spellings (ppsim/io/model_file.h), each read; a model
// read checks what every reader promises of it (at least one layer, known
// kinds, values in range), so a rule lost in one spelling is a finding.
#include <cstdlib>
#include <string_view>

#include "ppsim/io/model_file.h"
#include "ppsim/memory_model.h"
#include "ppsim/problem.h"
#include "targets.h"

namespace ppsim::fuzz {
namespace {

bool InRange(std::int64_t v, std::int64_t max) { return v >= 0 && v <= max; }

void Check(const Result<Model>& m) {
  if (!m) return;
  if (m->layers.empty() || static_cast<long long>(m->layers.size()) > io::kMaxModelLayers) std::abort();
  for (const ModelLayer& l : m->layers) {
    if (std::string_view("EtmL").find(l.kind) == std::string_view::npos || l.kind == 0) std::abort();
    if (!InRange(l.f, kMaxCost) || !InRange(l.b, kMaxCost) || !InRange(l.w, kMaxCost)) std::abort();
    if (!InRange(l.activation_bytes, kMaxBytes) || !InRange(l.param_bytes, kMaxBytes) ||
        !InRange(l.checkpoint_bytes, kMaxBytes))
      std::abort();
  }
  const BytesPerParam& per = m->bytes_per_param;
  if (per.weight < 1 || per.weight > 64 || per.grad < 0 || per.grad > 64 || per.optimizer < 0 || per.optimizer > 64)
    std::abort();
}

std::string_view Text(const std::uint8_t* data, std::size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace

int ModelToml(const std::uint8_t* data, std::size_t size) {
  Check(io::ParseModelText(Text(data, size), "fuzz.toml"));
  return 0;
}

int ModelJson(const std::uint8_t* data, std::size_t size) {
  Check(io::ParseModelJson(Text(data, size), "fuzz.json"));
  return 0;
}

}  // namespace ppsim::fuzz
