#include "ppsim/memory_bytes.h"

#include <algorithm>
#include <string>
#include <utility>

#include "ppsim/recompute.h"

namespace ppsim {
namespace {

std::int64_t PerStage(const std::vector<std::int64_t>& values, int stage) {
  if (values.empty()) return 0;
  return values.size() == 1 ? values[0] : values[stage];
}

Error CheckList(const char* field, const std::vector<std::int64_t>& values, int stages) {
  if (values.size() > 1 && static_cast<int>(values.size()) != stages)
    return Fail(ErrorCode::kInvalidValue, std::string(field) + ": " + std::to_string(values.size()) +
                                              " per-stage values given but there are " + std::to_string(stages) +
                                              " stages (give 1 or " + std::to_string(stages) + ")");
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string where = values.size() == 1 ? field : std::string(field) + "[" + std::to_string(i) + "]";
    if (values[i] < 0)
      return Fail(ErrorCode::kInvalidValue, where + " must be ≥ 0 bytes, got " + std::to_string(values[i]));
    if (values[i] > kMaxBytes)
      return Fail(ErrorCode::kTooLarge,
                  where + " = " + std::to_string(values[i]) + " exceeds the limit " + std::to_string(kMaxBytes));
  }
  return Error::Ok();
}

struct Delta {
  Tick tick;
  std::int64_t bytes;
};

StepSeries ToSeries(std::vector<Delta>& deltas) {
  std::sort(deltas.begin(), deltas.end(), [](const Delta& a, const Delta& b) { return a.tick < b.tick; });
  StepSeries series;
  std::int64_t value = 0;
  for (size_t i = 0; i < deltas.size();) {
    const Tick tick = deltas[i].tick;
    for (; i < deltas.size() && deltas[i].tick == tick; ++i) value += deltas[i].bytes;
    if (!series.steps.empty() && series.steps.back().second == value) continue;
    series.steps.emplace_back(tick, value);
  }
  return series;
}

}  // namespace

bool MemoryModel::enabled() const {
  return !activation_bytes.empty() || !param_bytes.empty() || !grad_bytes.empty() || !optimizer_bytes.empty() ||
         limit > 0;
}

std::int64_t MemoryModel::StaticBytes(int stage) const {
  return PerStage(param_bytes, stage) + PerStage(grad_bytes, stage) + PerStage(optimizer_bytes, stage);
}

std::int64_t MemoryModel::ActivationBytes(int stage) const { return PerStage(activation_bytes, stage); }

std::int64_t MemoryModel::InputBytes(int stage) const { return PerStage(input_bytes, stage); }

Error ValidateMemoryModel(const MemoryModel& m, int stages) {
  for (auto [field, values] : {std::pair<const char*, const std::vector<std::int64_t>*>{"activation_bytes",
                                                                                          &m.activation_bytes},
                               {"param_bytes", &m.param_bytes},
                               {"grad_bytes", &m.grad_bytes},
                               {"optimizer_bytes", &m.optimizer_bytes},
                               {"input_bytes", &m.input_bytes}}) {
    Error e = CheckList(field, *values, stages);
    if (e.code != ErrorCode::kOk) return e;
  }
  if (m.freed_by_b_percent < 0 || m.freed_by_b_percent > 100)
    return Fail(ErrorCode::kInvalidValue,
                "freed_by_b_percent must be in [0, 100], got " + std::to_string(m.freed_by_b_percent));
  if (m.limit < 0) return Fail(ErrorCode::kInvalidValue, "memory limit must be ≥ 0 bytes, got " + std::to_string(m.limit));
  if (m.limit > kMaxMemoryLimit)
    return Fail(ErrorCode::kTooLarge, "memory limit " + std::to_string(m.limit) + " exceeds the limit " +
                                          std::to_string(kMaxMemoryLimit));
  return Error::Ok();
}

MemoryBytes MeasureMemoryBytes(const Timeline& t) { return MeasureMemoryBytes(t, t.problem.hold); }

MemoryBytes MeasureMemoryBytes(const Timeline& t, HoldMode hold_mode) {
  const Problem& p = t.problem;
  const MemoryModel& model = p.memory;
  const OpSpace& space = t.schedule.space;
  const bool split = t.schedule.split_backward;
  const bool resident = hold_mode == HoldMode::kResident;
  MemoryBytes out;
  out.static_per_device.assign(p.P, 0);
  std::vector<std::vector<Delta>> deltas(p.P);
  for (int s = 0; s < space.stages(); ++s) {
    const int d = p.DeviceOf(s);
    out.static_per_device[d] += model.StaticBytes(s);
    const std::int64_t bytes = model.ActivationBytes(s);
    if (bytes == 0) continue;
    const std::int64_t by_b = split ? bytes * model.freed_by_b_percent / 100 : bytes;
    for (int m = 0; m < space.microbatches(); ++m) {
      if (!space.Exists(m, s)) continue;
      const OpId f = space.Id(OpKind::kF, m, s), b = space.Id(OpKind::kB, m, s);
      Tick from = resident ? t.Start(f) : t.end[f];
      auto hold = [&](Tick to, std::int64_t amount) {
        if (amount == 0 || to <= from) return;
        deltas[d].push_back({from, amount});
        deltas[d].push_back({to, -amount});
      };
      // Recompute (recompute.h): the full set during F when resident, the
      // inputs from F's end to R's start, the full set again from R's start.
      if (space.recompute() && t.Has(space.Id(OpKind::kR, m, s))) {
        const Tick r_start = t.Start(space.Id(OpKind::kR, m, s));
        if (resident) {
          from = t.Start(f);
          hold(t.end[f], bytes);
        }
        from = t.end[f];
        hold(r_start, RecomputeInputBytes(p, s));
        from = r_start;
      }
      const OpId w = space.Id(OpKind::kW, m, s);
      if (split && t.end[w] >= 0) {
        hold(resident ? t.end[b] : t.Start(b), by_b);
        hold(resident ? t.end[w] : t.Start(w), bytes - by_b);
      } else {
        hold(resident ? t.end[b] : t.Start(b), bytes);  // unsplit, or a full backward: all freed at its end
      }
    }
  }
  for (int d = 0; d < p.P; ++d) {
    out.activations_per_device.push_back(ToSeries(deltas[d]));
    const StepSeries& series = out.activations_per_device.back();
    out.peak_per_device.push_back(out.static_per_device[d] + series.Peak());
    if (model.limit <= 0) continue;
    // The first tick at which this device holds more than the limit.
    Tick tick = -1;
    std::int64_t held = out.static_per_device[d];
    if (held > model.limit) tick = 0;
    for (size_t i = 0; tick < 0 && i < series.steps.size(); ++i) {
      held = out.static_per_device[d] + series.steps[i].second;
      if (held > model.limit) tick = series.steps[i].first;
    }
    if (tick >= 0 && (!out.exceeded || tick < out.first_tick)) {
      out.exceeded = true;
      out.first_tick = tick;
      out.first_device = d;
      out.bytes_at_first = held;
    }
  }
  return out;
}

}  // namespace ppsim
