// A trace without PP: ranges but with part ranges, as DeepSeek's profile of
// one overlapped forward+backward chunk pair: each part's GPU time per
// stream, and the pair's span against its F, B and W parts' compute time
// and its communication, with how much of the communication ran while some
// compute kernel ran (docs/explain.md).
#include <algorithm>
#include <map>

#include "explain_internal.h"

namespace ppsim::jobs::explain {
namespace {

using Interval = std::pair<Tick, Tick>;

// Sorted, disjoint intervals covering `v`.
std::vector<Interval> Union(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  std::vector<Interval> out;
  for (const Interval& i : v) {
    if (!out.empty() && i.first <= out.back().second) out.back().second = std::max(out.back().second, i.second);
    else out.push_back(i);
  }
  return out;
}

// Length of [a, b) covered by the disjoint, sorted `cover`.
Tick Covered(const std::vector<Interval>& cover, Tick a, Tick b) {
  Tick sum = 0;
  auto it = std::upper_bound(cover.begin(), cover.end(), Interval{a, INT64_MAX});
  if (it != cover.begin()) --it;
  for (; it != cover.end() && it->first < b; ++it) sum += std::max<Tick>(0, std::min(b, it->second) - std::max(a, it->first));
  return sum;
}

}  // namespace

void MeasureParts(const io::KinetoTrace& trace, ExplainReport& r) {
  std::map<std::pair<std::string, char>, int> seen;
  std::vector<Interval> compute;
  std::vector<Interval> comm;
  Tick first = INT64_MAX, last = INT64_MIN;
  for (const io::KinetoPart& p : trace.parts) {
    PartFigures f;
    f.name = p.name;
    f.kind = p.kind;
    f.layer = seen[{p.name, p.kind}]++;
    f.cpu = p.cpu_end - p.cpu_start;
    std::map<int, Tick> streams;
    for (const io::KinetoKernel& k : p.kernels) {
      const Tick d = k.end - k.start;
      f.gpu += d;
      streams[k.stream] += d;
      first = std::min(first, k.start);
      last = std::max(last, k.end);
      if (k.comm) {
        r.pair.comm += d;
        comm.emplace_back(k.start, k.end);
      } else {
        (p.kind == 'F' ? r.pair.f : p.kind == 'B' ? r.pair.b : r.pair.w) += d;
        compute.emplace_back(k.start, k.end);
      }
    }
    f.streams.assign(streams.begin(), streams.end());
    r.parts.push_back(std::move(f));
  }
  r.pair.span = last >= first ? last - first : 0;
  const std::vector<Interval> cover = Union(compute);
  for (const Interval& c : comm) r.pair.hidden_comm += Covered(cover, c.first, c.second);
}

}  // namespace ppsim::jobs::explain
