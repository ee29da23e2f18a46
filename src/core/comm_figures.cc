// FinishFigures (comm_graph.h): the step's end and the per-device and
// per-link figures of a placed program, in passes over the transfers with no
// sort of the whole list: send buffers are swept in each device's posting
// order (already in time order) against a heap of releases, and each link's
// transfers are sorted on their own.
#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "comm_graph.h"

namespace ppsim::comm {
namespace {

// The most bytes device d's send buffers hold at once when each is released
// as its transfer completes: at each tick, the buffers released then go
// before those posted then (a release at the tick of a post frees room for it).
std::int64_t PeakSendBytes(const std::vector<Transfer>& xs, const std::int32_t* order, std::int64_t n) {
  using Release = std::pair<Tick, std::int64_t>;
  std::priority_queue<Release, std::vector<Release>, std::greater<>> held;
  std::int64_t bytes = 0, peak = 0;
  for (std::int64_t i = 0; i < n;) {
    const Tick post = xs[order[i]].send_post;
    std::int64_t posted = 0;
    for (; i < n && xs[order[i]].send_post == post; ++i) {
      const Transfer& x = xs[order[i]];
      posted += x.bytes;
      held.emplace(x.end, x.bytes);
    }
    while (!held.empty() && held.top().first <= post) {
      bytes -= held.top().second;
      held.pop();
    }
    bytes += posted;
    peak = std::max(peak, bytes);
  }
  return peak;
}

// Ticks with at least one of the spans (start, end) in [first, last) in flight.
template <typename It>
Tick Union(It first, It last) {
  if (!std::is_sorted(first, last)) std::sort(first, last);
  Tick busy = 0, open = first->first, close = first->second;
  for (It it = first; it != last; ++it) {
    const auto [start, end] = *it;
    if (start > close) {
      busy += close - open;
      open = start;
    }
    close = std::max(close, end);
  }
  return busy + close - open;
}

}  // namespace

void FigureBuffers::Start(const std::vector<Tick>& device_end, size_t transfers) {
  const size_t P = device_end.size();
  step_end = device_end;  // and every transfer and collective it took part in
  comm_time.assign(P, 0);
  held.assign(P, HeldToEnd{});
  dsts.resize(P);
  for (auto& d : dsts) d.clear();
  from_link.clear();
  link_of.resize(transfers);
  link_at.clear();
}

void FigureBuffers::NewLink(size_t key, const Transfer& x) {
  if (key >= link_at.size()) link_at.resize(key + 1, -1);
  std::vector<std::pair<int, int>>& mine = dsts[x.src];
  auto it = std::find_if(mine.begin(), mine.end(), [&](const auto& e) { return e.first == x.dst; });
  if (it == mine.end()) {
    mine.emplace_back(x.dst, static_cast<int>(from_link.size()));
    from_link.push_back(0);
    it = mine.end() - 1;
  }
  link_at[key] = it->second;
}

void FinishFigures(const Problem& problem, const CommModel& model, const std::vector<Tick>& device_end,
                   const PostingOrder& posts, FigureBuffers& buffers, CommRun& run) {
  // One pass over the transfers: the step's end, each device's time on
  // transfers and its send buffers held to the end, and each directed
  // link's transfers counted (a stage boundary's transfers in one
  // direction share one link).
  buffers.Start(device_end, run.transfers.size());
  for (size_t i = 0; i < run.transfers.size(); ++i) buffers.Count(i, run.transfers[i]);
  FinishCounted(problem, model, posts, buffers, run);
}

void FinishCounted(const Problem& problem, const CommModel& model, const PostingOrder& posts, FigureBuffers& buffers,
                   CommRun& run) {
  const int P = problem.P;
  std::vector<Tick>& step_end = buffers.step_end;
  std::vector<std::int64_t>& from_link = buffers.from_link;
  const std::vector<std::int32_t>& link_of = buffers.link_of;
  run.devices.assign(P, DeviceComm{});
  for (int d = 0; d < P; ++d) run.devices[d].comm_time = buffers.comm_time[d];
  for (const Collective& c : run.collectives) step_end[c.device] = std::max(step_end[c.device], c.end);
  const Tick makespan = step_end.empty() ? 0 : *std::max_element(step_end.begin(), step_end.end());
  run.timeline.makespan = makespan;
  const bool at_completion = model.send_release == SendRelease::kCompletion;
  for (int d = 0; d < P; ++d) {
    const FigureBuffers::HeldToEnd& h = buffers.held[d];  // released at the step's end before any posted then
    run.devices[d].peak_send_bytes =
        at_completion ? PeakSendBytes(run.transfers, posts.sends.data() + posts.send_from[d],
                                      posts.send_from[d + 1] - posts.send_from[d])
        : h.last_post < makespan ? h.bytes
                                 : std::max(h.bytes - h.bytes_at_last, h.bytes_at_last);
  }
  for (const CommWait& w : run.waits) run.devices[w.device].exposed += w.end - w.start;
  // Each link's transfers gathered into one buffer in each receiver's
  // posting order: with one RECV in flight a device's transfers start in
  // that order, so a link's come sorted by start.
  std::int64_t sum = 0;
  for (std::int64_t& n : from_link) sum += std::exchange(n, sum);
  std::vector<std::pair<Tick, Tick>>& spans = buffers.spans;
  spans.resize(run.transfers.size());
  std::vector<std::int64_t> fill = from_link;
  for (std::int32_t i : posts.recvs) spans[fill[link_of[i]]++] = {run.transfers[i].start, run.transfers[i].end};
  run.links.clear();
  for (int src = 0; src < P; ++src) {
    std::vector<std::pair<int, int>>& dsts = buffers.dsts[src];
    std::sort(dsts.begin(), dsts.end());
    for (const auto& [dst, link] : dsts)
      run.links.push_back(LinkUse{src, dst, Union(spans.begin() + from_link[link], spans.begin() + fill[link])});
  }
}

}  // namespace ppsim::comm
