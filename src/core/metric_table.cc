#include "ppsim/metric_table.h"

#include "ppsim/cost_scale.h"

namespace ppsim {
namespace {

std::optional<Rational> Whole(std::int64_t v) { return Rational(v); }
// Ratios of an empty run are 0, as Measure() has them.
std::optional<Rational> Ratio(std::int64_t num, std::int64_t den) {
  return den > 0 ? Rational::Of(num, den) : Rational(0);
}
std::int64_t Sets(const Metrics& m, int device) {
  return device < 0 ? m.peak_activations : m.peak_activations_per_device[device];
}

const std::vector<MetricInfo>& Table() {
  static const std::vector<MetricInfo> table = {
      {"makespan", "last end − 0, in ticks", false,
       [](const Metrics& m, const Problem&, int) { return Whole(m.makespan); }},
      {"busy", "sum of op durations (an overlapped pair counts once)", false,
       [](const Metrics& m, const Problem&, int) { return Whole(m.busy); }},
      {"idle", "P·makespan − busy: the bubble in device-ticks", false,
       [](const Metrics& m, const Problem&, int) { return Whole(m.idle); }},
      {"transfers", "dependencies that cross devices", false,
       [](const Metrics& m, const Problem&, int) { return Whole(m.transfers); }},
      {"peak", "activations held at the peak, in stage-sets (a chunk's set counts 1/v); peak(X, d): device d's", true,
       [](const Metrics& m, const Problem& p, int d) { return Rational::Of(Sets(m, d), ChunksPerStage(p)); }},
      {"peak_sets", "the same peak as a count of chunk sets, as JSON's peak_activations", true,
       [](const Metrics& m, const Problem&, int d) { return Whole(Sets(m, d)); }},
      {"bubble_ratio", "idle / busy: (P−1)/M for GPipe and 1F1B at unit cost", false,
       [](const Metrics& m, const Problem&, int) { return Ratio(m.idle, m.busy); }},
      {"bubble_fraction", "idle / (P·makespan): the share of device-ticks idle", false,
       [](const Metrics& m, const Problem& p, int) {
         const auto slots = Rational(p.P).Mul(m.makespan);
         return slots ? Ratio(m.idle, slots->num()) : std::nullopt;
       }},
  };
  return table;
}

}  // namespace

const std::vector<MetricInfo>& MetricTable() { return Table(); }

const MetricInfo* FindMetric(std::string_view name) {
  for (const MetricInfo& m : Table())
    if (name == m.name) return &m;
  return nullptr;
}

std::string MetricNames() {
  std::string s;
  for (const MetricInfo& m : Table()) s += (s.empty() ? "" : ", ") + std::string(m.name);
  return s;
}

std::string MetricTableMarkdown() {
  std::string s;
  for (const MetricInfo& m : Table())
    s += "  - `" + std::string(m.name) + (m.per_device ? "(X)`, `" + std::string(m.name) + "(X, d)`" : "(X)`") + ": " +
         m.doc + "\n";
  return s;
}

}  // namespace ppsim
