// The grid (or one shard's share of it) is split by an atomic counter over
// point indices; each worker writes only its own points' slots, so the result
// does not depend on the number of threads or their timing.
#include "ppsim/scene/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "ppsim/problem_keys.h"
#include "ppsim/scene/scene.h"
#include "ppsim/whole_number.h"

namespace ppsim::scene {
namespace {

bool ParseInt(std::string_view s, std::int64_t* out) { return IsWhole(s, *out); }

struct PointOutcome {
  bool skipped = false;
  std::string skip_reason;
  std::vector<ClaimResult> false_claims;
};

// The sum of grid point k's values: the first key of "smallest first". In
// 128 bits, exactly: a value may be anything int64 holds, and fewer than
// 2^64 axes cannot overflow it.
__int128 PointSum(const std::vector<SweepAxis>& axes, std::int64_t k) {
  __int128 sum = 0;
  for (size_t a = axes.size(); a-- > 0;) {
    const std::int64_t n = static_cast<std::int64_t>(axes[a].values.size());
    sum += axes[a].values[k % n];
    k /= n;
  }
  return sum;
}

std::string PointName(const std::vector<std::pair<std::string, std::int64_t>>& point) {
  std::string s;
  for (const auto& [k, v] : point) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

}  // namespace

namespace {

Result<SweepAxis> ParseAxis(std::string_view spec) {
  const std::string where(spec);  // placed with Via("sweep", spec)
  auto fail = [&where](ErrorCode code, const std::string& what) { return Fail(code, what).Via("sweep", where); };
  const size_t eq = spec.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return fail(ErrorCode::kUsage, "expected KEY=A..B or KEY=A,B,C, e.g. P=1..16");
  SweepAxis axis;
  axis.key = std::string(spec.substr(0, eq));
  const std::string_view range = spec.substr(eq + 1);
  const size_t dots = range.find("..");
  if (dots != std::string_view::npos) {
    std::int64_t a = 0, b = 0;
    if (!ParseInt(range.substr(0, dots), &a) || !ParseInt(range.substr(dots + 2), &b))
      return fail(ErrorCode::kUsage, "'" + std::string(range) + "' is not a range of whole numbers A..B");
    if (b < a) return fail(ErrorCode::kUsage, "empty range (" + std::to_string(b) + " < " + std::to_string(a) + ")");
    if (static_cast<__int128>(b) - a + 1 > kMaxSweepPoints)  // 128 bits: INT64_MIN..INT64_MAX cannot overflow
      return fail(ErrorCode::kTooLarge, "more than " + std::to_string(kMaxSweepPoints) + " values");
    for (std::int64_t x = a;; ++x) {  // stops at b without stepping past INT64_MAX
      axis.values.push_back(x);
      if (x == b) break;
    }
    return axis;
  }
  size_t from = 0;
  while (from <= range.size()) {
    const size_t comma = std::min(range.find(',', from), range.size());
    std::int64_t x = 0;
    if (!ParseInt(range.substr(from, comma - from), &x))
      return fail(ErrorCode::kUsage, "'" + std::string(range.substr(from, comma - from)) + "' is not a whole number");
    axis.values.push_back(x);
    if (static_cast<std::int64_t>(axis.values.size()) > kMaxSweepPoints)
      return fail(ErrorCode::kTooLarge, "more than " + std::to_string(kMaxSweepPoints) + " values");
    from = comma + 1;
  }
  return axis;
}

}  // namespace

Result<SweepAxis> ParseSweepAxis(std::string_view spec) {
  Result<SweepAxis> axis = ParseAxis(spec);
  if (!axis.ok()) return axis;
  // A problem key's values are checked as overrides and a scene check them (the
  // key table): P=0..4 is refused, as P = 0 is, rather than skipped.
  if (FindProblemKey(axis->key) != nullptr) {
    const auto [lo, hi] = std::minmax_element(axis->values.begin(), axis->values.end());
    for (std::int64_t x : {*lo, *hi}) {
      Problem scratch;
      if (Error e = SetProblemKey(axis->key, KeyValue::Int(x), scratch); !e.ok())
        return e.Via("sweep", std::string(spec));
    }
  }
  return axis;
}

std::vector<std::pair<std::string, std::int64_t>> SweepPoint(const std::vector<SweepAxis>& axes, std::int64_t k) {
  std::vector<std::pair<std::string, std::int64_t>> point(axes.size());
  for (size_t a = axes.size(); a-- > 0;) {
    const std::int64_t n = static_cast<std::int64_t>(axes[a].values.size());
    point[a] = {axes[a].key, axes[a].values[k % n]};
    k /= n;
  }
  return point;
}

bool SweepPointBefore(const std::vector<SweepAxis>& axes, std::int64_t a, std::int64_t b) {
  const __int128 sa = PointSum(axes, a), sb = PointSum(axes, b);
  return sa != sb ? sa < sb : a < b;
}

Result<SweepShard> ParseSweepShard(std::string_view spec) {
  const size_t slash = spec.find('/');
  SweepShard shard;
  if (slash == std::string_view::npos || !ParseInt(spec.substr(0, slash), &shard.index) ||
      !ParseInt(spec.substr(slash + 1), &shard.count) || shard.count < 1 || shard.index < 1 ||
      shard.index > shard.count)
    return Fail(ErrorCode::kUsage, "expected I/N with 1 ≤ I ≤ N (shard I of N), e.g. 1/4").Via("shard", std::string(spec));
  return shard;
}

std::int64_t ShardPoints(std::int64_t points, const SweepShard& shard) {
  return points < shard.index ? 0 : (points - shard.index) / shard.count + 1;
}

Result<SweepResult> Sweep(std::string_view text, const std::string& path, const std::vector<std::string>& overrides,
                          const std::vector<SweepAxis>& axes, int threads, const SweepShard& shard,
                          const SweepControl& control) {
  std::int64_t total = 1;
  for (const SweepAxis& a : axes) {
    total *= static_cast<std::int64_t>(a.values.size());
    if (total > kMaxSweepPoints)
      return Fail(ErrorCode::kTooLarge, "the sweep has more than " + std::to_string(kMaxSweepPoints) +
                                            " points; narrow a sweep range");
  }
  auto overrides_of = [&](const std::vector<std::pair<std::string, std::int64_t>>& point) {
    std::vector<std::string> o;
    for (const auto& [k, v] : point) o.push_back(k + "=" + std::to_string(v));
    return o;
  };
  // The scene itself and the axis keys must be sound: load it once with the
  // fixed overrides, and each key once with a value the scene already has.
  Result<SceneSource> source = SceneSource::Load(text, path, overrides);
  if (!source.ok()) return source.error();
  for (const SweepAxis& a : axes) {
    Scene probe = source->scene();
    Error e = source->Reload(overrides_of({{a.key, a.values.front()}}), &probe);
    if (e.code == ErrorCode::kUsage) return Fail(ErrorCode::kUsage, e.message).Via("sweep", a.key);
  }

  std::vector<Claim> parsed;  // parsed once; the scene's load has checked them
  for (const SceneClaim& c : source->scene().claims) parsed.push_back(*ParseClaim(c.check));

  // This shard's points: local index j is grid point shard.index - 1 + j * shard.count.
  const std::int64_t n = ShardPoints(total, shard);
  auto grid_index = [&](std::int64_t j) { return shard.index - 1 + j * shard.count; };
  std::vector<PointOutcome> outcomes(static_cast<size_t>(n));
  std::atomic<std::int64_t> next{0}, done{0};
  auto stopped = [&] { return control.stop != nullptr && control.stop->load(std::memory_order_relaxed); };
  using Clock = std::chrono::steady_clock;
  Clock::time_point report = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(control.every));
  auto work = [&](bool reports) {
    Scene scene = source->scene();  // reloaded in place at every point
    for (std::int64_t j = next++; j < n && !stopped(); ++done, j = next++) {
      if (reports && control.progress && Clock::now() >= report) {
        control.progress(done.load(), n);
        report = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(control.every));
      }
      PointOutcome& out = outcomes[j];
      Error loaded = source->Reload(overrides_of(SweepPoint(axes, grid_index(j))), &scene);
      Result<std::vector<Run>> runs =
          loaded.ok() ? SimulateScene(scene, MeasureOptions{.series = false}) : Result<std::vector<Run>>(loaded);
      if (!runs.ok()) {
        out.skipped = true;
        out.skip_reason = runs.error().Text();
        continue;
      }
      Result<std::vector<ClaimResult>> claims = CheckSceneClaims(scene, parsed, *runs);
      if (!claims.ok()) {
        out.skipped = true;
        out.skip_reason = claims.error().Text();
        continue;
      }
      for (ClaimResult& c : *claims)
        if (!c.holds) out.false_claims.push_back(std::move(c));
    }
  };
  // No more threads than cores or points (--threads 100000 runs as many as help).
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (threads <= 0 || threads > cores) threads = cores;
  threads = static_cast<int>(std::min<std::int64_t>(threads, n));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, false);
  work(true);
  for (std::thread& t : pool) t.join();
  if (control.progress) control.progress(done.load(), n);
  if (stopped())
    return Fail(ErrorCode::kInterrupted, "stopped after " + std::to_string(done.load()) + " of " + std::to_string(n) +
                                             " points; nothing reported");

  SweepResult result;
  result.points = total;
  std::vector<std::int64_t> order(static_cast<size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) order[j] = j;
  std::vector<__int128> sums(static_cast<size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) sums[j] = PointSum(axes, grid_index(j));
  // Local order is grid order, so a stable sort by sum is SweepPointBefore's order.
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return sums[a] < sums[b]; });
  for (std::int64_t j : order) {
    PointOutcome& out = outcomes[j];
    const std::int64_t k = grid_index(j);
    if (out.skipped) {
      if (result.skipped++ == 0) {
        result.first_skip = PointName(SweepPoint(axes, k)) + ": " + out.skip_reason;
        result.first_skip_point = k;
      }
      continue;
    }
    ++result.tried;
    for (ClaimResult& c : out.false_claims) result.counterexamples.push_back({k, SweepPoint(axes, k), std::move(c)});
  }
  return result;
}

}  // namespace ppsim::scene
