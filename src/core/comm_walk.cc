// RunCommsInto: a comm program placed by walking each device's actions in
// program order, devices in turn (as a runtime runs them), with no graph.
//
// A scan names every transfer and collective in the order the graph does
// (devices in turn, each in program order, a transfer at the first of its
// two sides) and checks the program against the schedule. Then each device
// (a lane) places actions while the ticks an action needs are known — its
// previous action's end, its local input's end, the transfers it waits for
// — and at the first that is not, waits on that transfer and yields to the
// next lane that can go on. A transfer is timed as soon as it can be
// (Post, Complete), which wakes the lanes waiting on it: when both its
// sides have posted and the calls it queues behind on each device's stream
// have completed; the transfers queued behind it wait in its list and are
// timed in turn, so each is timed once.
//
// When the walk stops short (a device can never go on, or the scan finds a
// program the graph would refuse, or a time overflows) it hands the program
// to the graph (comm::PlaceGraph), whose message is the answer; so every
// message is the graph's, and the fast path needs none of its own.
#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <utility>

#include "comm_graph.h"
#include "comm_slot_ticks.h"
#include "fast_div.h"
#include "ppsim/checked.h"
#include "ppsim/comm_run.h"
#include "ppsim/placement.h"

namespace ppsim {

struct CommScratch::Buffers {
  // Per transfer, by id.
  // Per transfer, by id: what the walk reads and writes of it, in one
  // cache line (the Transfer itself is written in the scan and at the end).
  struct alignas(64) Side {
    Tick send_post = -1, recv_post = -1, end = -1;
    Tick produced = -1;                         // when the compute whose output it carries ended
    std::int32_t prev_src = -1, prev_dst = -1;  // the RECV transfer each side's call queues behind
    std::int32_t waiters = -1;                  // first of those queued behind it: 2 * transfer + side
    std::int32_t next[2] = {-1, -1};            // the next in the list it waits in, for each side
    std::int32_t boundary = 0, microbatch = 0;  // which transfer (comm_model.h)
    bool backward = false;
    // In the scan, 1: its SEND is in a program, 2: its RECV; then the sides
    // not posted and calls not completed that it waits for.
    std::uint8_t pending = 0;
    std::int16_t lane_waits = -1;               // the first lane waiting on it (kMaxDevices < 2^15)
    bool timed() const { return end >= 0; }
  };
  static_assert(sizeof(Side) == 64);
  static_assert(kMaxDevices < (1 << 15), "Side::lane_waits holds a device in 16 bits");
  // Per device: where its walk stands.
  struct Lane {
    std::int64_t next = 0;         // its next action
    Tick ready = 0;                // its previous action's end
    std::int32_t batch = -1;       // the previous action's batch
    std::int64_t batch_first = -1; // the first action of that batch
    std::int32_t collective = 0;   // its next collective's id
    std::int32_t next_waiting = -1;  // the next lane waiting on the same transfer
    Tick compute_end = -1;           // its latest compute's end
  };
  std::vector<std::int32_t> transfer_of;  // (boundary, microbatch, direction) -> transfer, or -1
  // Per action, devices in turn (from action_from[d]): a SEND's or RECV's
  // transfer and the transfer whose RECV its call queues behind (or -1);
  // for a compute slot, the inputs of its ops: ≥ 0 a transfer it
  // receives, ≤ -2 an op on its own device (LocalInput), -1 none.
  // Left uninitialised (the scan writes every field of each).
  struct Link {
    std::array<std::int32_t, 2> in;
    Tick ticks;  // compute: how long it runs; SEND: 1 when its producer is the device's latest compute before it
  };
  std::vector<Tick> boundary_ticks;  // per stage boundary: a transfer's latency + bytes / bandwidth
  std::vector<std::int64_t> boundary_bytes;  // per stage boundary: a transfer's bytes
  std::vector<Tick> kind_ticks, full_ticks;  // per (kind, stage) and per stage: a compute's cost
  std::vector<std::uint64_t> scanned;         // per op id, a bit: its compute is in a program scanned so far
  std::unique_ptr<Link[]> links;  // per action, devices in turn; kept from call to call
  std::int64_t links_capacity = 0;
  std::vector<std::int64_t> action_from;
  std::vector<Side> sides;
  std::vector<Lane> lanes;
  std::vector<std::int32_t> first_collective;  // per device
  std::vector<std::int32_t> unshard_of;        // per stage: its latest UNSHARD so far, or -1
  comm::PostingOrder posts;
  std::vector<std::int32_t> stack;
  std::vector<int> work;                 // lanes that can go on
  std::vector<std::int32_t> device_of;         // per stage
  std::vector<std::vector<CommWait>> waits;    // per device, in time order
  std::vector<Tick> device_end;
  comm::FigureBuffers figures;
};

CommScratch::CommScratch() : buffers_(std::make_unique<Buffers>()) {}
CommScratch::~CommScratch() = default;
CommScratch::CommScratch(CommScratch&&) noexcept = default;
CommScratch& CommScratch::operator=(CommScratch&&) noexcept = default;

namespace {

using Buffers = CommScratch::Buffers;

bool IsSend(CommKind k) { return k == CommKind::kSendF || k == CommKind::kSendB; }
// IsTransferKind, inline: SEND_F, RECV_F, SEND_B, RECV_B are kinds 1 to 4.
bool IsTransfer(CommKind k) { return k >= CommKind::kSendF && k <= CommKind::kRecvB; }
static_assert(static_cast<int>(CommKind::kRecvB) - static_cast<int>(CommKind::kSendF) == 3);

class Walk {
 public:
  Walk(const Problem& problem, const Schedule& schedule, const CommProgram& program, const CommModel& model,
       Buffers& b, CommRun& run)
      : problem_(problem), schedule_(schedule), space_(schedule.space), program_(program), model_(model), b_(b),
        run_(run), S_(space_.stages()) {}

  // False when the walk cannot place the program (the graph says why).
  bool Run() {
    if (!Scan()) return false;
    const int P = problem_.P;
    const std::int64_t kinds = schedule_.split_backward ? 3 : 2;
    const std::int64_t n = kinds * space_.stages() * space_.microbatches();
    end_ = &run_.timeline.end;
    start_ = &run_.timeline.stored_start;
    if (placed_ == n) {  // the walk writes every tick
      end_->resize(static_cast<size_t>(n));
      start_->resize(static_cast<size_t>(n));
    } else {
      end_->assign(static_cast<size_t>(n), -1);  // -1: an id no slot places (a full backward's W)
      start_->assign(static_cast<size_t>(n), -1);
    }
    b_.lanes.assign(P, Buffers::Lane{});
    b_.unshard_of.assign(static_cast<size_t>(S_), -1);
    b_.waits.resize(P);
    for (auto& w : b_.waits) w.clear();
    b_.work.clear();
    for (int d = P - 1; d >= 0; --d) {
      b_.lanes[d].collective = b_.first_collective[d];
      b_.work.push_back(d);
    }
    // Neither grows in the walk: the walk reads them through these.
    sides_ = b_.sides.data();
    lanes_ = b_.lanes.data();
    has_collectives_ = !run_.collectives.empty();
    ends_ = end_->data();
    starts_ = start_->data();
    while (!b_.work.empty()) {  // a lane runs until it waits; timing a transfer wakes the lanes waiting on it
      const int d = b_.work.back();
      b_.work.pop_back();
      const std::vector<CommAction>& actions = program_.devices[d];
      const std::int64_t count = static_cast<std::int64_t>(actions.size());
      const Buffers::Link* links = b_.links.get() + b_.action_from[d];
      Buffers::Lane& lane = lanes_[d];
      while (lane.next < count && Step(d, lane, actions.data(), links, count)) {
      }
    }
    for (int d = 0; d < P; ++d)
      if (b_.lanes[d].next < static_cast<std::int64_t>(program_.devices[d].size()))
        return false;  // lanes wait on each other: a cycle of waits
    for (const Buffers::Side& side : b_.sides)
      if (!side.timed()) return false;  // transfers that queue behind each other
    if (overflow_) return false;
    b_.device_end.assign(P, 0);
    for (int d = 0; d < P; ++d) b_.device_end[d] = b_.lanes[d].ready;
    run_.transfers.resize(b_.sides.size());
    b_.figures.Start(b_.device_end, b_.sides.size());
    for (size_t t = 0; t < b_.sides.size(); ++t) {
      const Buffers::Side& side = b_.sides[t];
      Transfer& x = run_.transfers[t];
      x.backward = side.backward;
      x.boundary = side.boundary;
      x.microbatch = side.microbatch;
      x.src = b_.device_of[side.backward ? side.boundary + 1 : side.boundary];
      x.dst = b_.device_of[side.backward ? side.boundary : side.boundary + 1];
      x.send_post = side.send_post;
      x.recv_post = side.recv_post;
      x.start = side.end - b_.boundary_ticks[side.boundary];
      x.end = side.end;
      x.bytes = b_.boundary_bytes[side.boundary];
      b_.figures.Count(t, x);
    }
    run_.waits.clear();
    for (int d = 0; d < P; ++d) run_.waits.insert(run_.waits.end(), b_.waits[d].begin(), b_.waits[d].end());
    comm::FinishCounted(problem_, model_, b_.posts, b_.figures, run_);
    return !overflow_;
  }

 private:
  // The transfer key of a SEND/RECV naming (kind, stage, microbatch), and
  // its boundary; false when it names none of this pipeline.
  bool Key(const CommAction& a, size_t* key, int* boundary) const {
    const bool backward = a.kind == CommKind::kSendB || a.kind == CommKind::kRecvB;
    const bool send = IsSend(a.kind);
    const int s = a.stage - (backward == send ? 1 : 0);  // a backward SEND's and a forward RECV's boundary is below
    if (s < 0 || s >= S_ - 1 || static_cast<unsigned>(a.microbatch) >= static_cast<unsigned>(space_.microbatches()))
      return false;
    if (space_.split() != 0 &&
        (!space_.Exists(a.microbatch, s) || !space_.Exists(a.microbatch, s + 1) || s == space_.split() - 1))
      return false;
    *boundary = s;
    *key = KeyOf(s, a.microbatch, backward);
    return true;
  }

  static constexpr std::int64_t kAhead = 16, kSidesAhead = 4;

  static std::int32_t LocalInput(OpId p) { return static_cast<std::int32_t>(-2 - p); }

  // Boundary-major, so that a device's lookups over its microbatches are neighbours.
  size_t KeyOf(int boundary, int microbatch, bool backward) const {
    return (static_cast<size_t>(boundary) * space_.microbatches() + microbatch) * 2 + (backward ? 1 : 0);
  }

  // Names every transfer and collective and checks what the graph checks
  // before placing; false at the first thing it would refuse.
  bool Scan() {
    const int P = problem_.P;
    if (static_cast<int>(program_.devices.size()) != P) return false;
    const std::int64_t M = space_.microbatches();
    b_.transfer_of.assign(static_cast<size_t>(2 * M * std::max(S_ - 1, 0)), -1);
    b_.sides.clear();
    b_.first_collective.assign(P, 0);
    b_.posts.Clear(P);
    b_.action_from.assign(P + 1, 0);
    b_.device_of.resize(static_cast<size_t>(S_));
    for (int st = 0; st < S_; ++st) b_.device_of[st] = problem_.DeviceOf(st);
    b_.boundary_ticks.resize(static_cast<size_t>(std::max(S_ - 1, 0)));
    b_.boundary_bytes.resize(b_.boundary_ticks.size());
    for (int st = 0; st + 1 < S_; ++st) {
      b_.boundary_bytes[st] = model_.BytesAt(st);
      b_.boundary_ticks[st] = Add(model_.latency, model_.SizeTicks(b_.boundary_bytes[st]));
    }
    b_.kind_ticks.resize(static_cast<size_t>(4 * S_));
    b_.full_ticks.resize(static_cast<size_t>(S_));
    for (int st = 0; st < S_; ++st) {
      for (OpKind k : {OpKind::kF, OpKind::kB, OpKind::kW, OpKind::kR})
        b_.kind_ticks[static_cast<size_t>(k) * S_ + st] = problem_.costs.Of(k, st);
      b_.full_ticks[st] = problem_.costs.FullBackward(st);
    }
    b_.scanned.assign(static_cast<size_t>(space_.size() + 63) / 64, 0);
    std::int64_t actions = 0;
    for (const std::vector<CommAction>& program : program_.devices) actions += static_cast<std::int64_t>(program.size());
    if (actions + kSidesAhead > b_.links_capacity) {
      b_.links_capacity = actions + kSidesAhead;
      b_.links = std::make_unique_for_overwrite<Buffers::Link[]>(static_cast<size_t>(b_.links_capacity));
    }
    for (std::int64_t k = actions; k < actions + kSidesAhead; ++k) b_.links[k] = Buffers::Link{{-1, -1}, 0};
    Buffers::Link* next_link = b_.links.get();
    const bool durations = !problem_.op_durations.empty();
    const std::int64_t concurrency = model_.concurrency;
    placed_ = 0;
    run_.collectives.clear();
    for (int d = 0; d < P; ++d) {
      b_.first_collective[d] = static_cast<std::int32_t>(run_.collectives.size());
      b_.posts.StartDevice(d);
      b_.action_from[d] = next_link - b_.links.get();
      const std::vector<Slot>& queue = schedule_.devices[d];
      const std::int64_t recv_from = b_.posts.recv_from[d];
      size_t slot_at = 0;
      Slot latest;  // the latest compute slot so far
      std::int32_t batch = -1;          // the batch the previous action was in
      std::int64_t before_batch = 0;    // RECVs posted before that batch (devices so far included)
      for (const CommAction& a : program_.devices[d]) {
        if (a.batch != batch) {
          batch = a.batch;
          before_batch = static_cast<std::int64_t>(b_.posts.recvs.size());
        }
        Buffers::Link& entry = *next_link++;
        entry.ticks = 0;
        std::array<std::int32_t, 2>& link = entry.in;
        link = {-1, -1};
        if (a.kind == CommKind::kCompute) {
          if (slot_at >= queue.size() || !(queue[slot_at] == a.slot)) return false;
          ++slot_at;
          latest = a.slot;
          const Op first = Decode(a.slot.op);
          if (!a.slot.pair()) {
            entry.ticks = durations ? comm::SlotTicks(problem_, space_, a.slot)
                          : a.slot.full ? b_.full_ticks[first.stage]
                                        : b_.kind_ticks[static_cast<size_t>(first.kind) * S_ + first.stage];
            if ((link[0] = Input(first, d)) == kRefused) return false;
            MarkScanned(a.slot.op);
            ++placed_;
          } else {
            entry.ticks = comm::SlotTicks(problem_, space_, a.slot);
            int j = 0;
            for (const Op& op : {first, Decode(a.slot.overlapped)}) {
              const std::int32_t in = Input(op, d);
              if (in == kRefused) return false;
              if (in != -1) link[j++] = in;
            }
            MarkScanned(a.slot.op);
            MarkScanned(a.slot.overlapped);
            placed_ += 2;
          }
        } else if (IsTransfer(a.kind)) {
          size_t key = 0;
          int boundary = 0;
          if (!Key(a, &key, &boundary) || b_.device_of[a.stage] != d) return false;
          const bool backward = a.kind == CommKind::kSendB || a.kind == CommKind::kRecvB;
          const bool send = IsSend(a.kind);
          std::int32_t& id = b_.transfer_of[key];
          if (id < 0) {
            if (b_.device_of[boundary] == b_.device_of[boundary + 1]) return false;  // nothing to send
            id = static_cast<std::int32_t>(b_.sides.size());
            Buffers::Side& side = b_.sides.emplace_back();
            side.boundary = boundary;
            side.microbatch = a.microbatch;
            side.backward = backward;
          }
          const std::uint8_t bit = send ? 1 : 2;
          if (b_.sides[id].pending & bit) return false;
          b_.sides[id].pending |= bit;
          link[0] = id;
          if (send) {  // after the compute whose output it sends, else refused
            const OpId producer = space_.Id(backward ? OpKind::kB : OpKind::kF, a.microbatch, a.stage);
            if (!Scanned(producer)) return false;
            entry.ticks = latest.op == producer || (latest.pair() && latest.overlapped == producer) ? 1 : 0;
          }
          // The call it queues behind on this device's stream: the
          // concurrency-th latest RECV posted before it — before its
          // blocking batch, whose calls post as one group — or none.
          const std::int64_t recvs =
              (a.batch >= 0 ? before_batch : static_cast<std::int64_t>(b_.posts.recvs.size())) - recv_from;
          link[1] = concurrency > 0 && recvs >= concurrency ? b_.posts.recvs[recv_from + recvs - concurrency] : -1;
          (send ? b_.posts.sends : b_.posts.recvs).push_back(id);
        } else {
          if (a.stage < 0 || a.stage >= S_ || problem_.DeviceOf(a.stage) != d) return false;
          if (a.kind != CommKind::kReshard) run_.collectives.push_back(Collective{a.kind, d, a.stage, 0, 0});
        }
      }
      if (slot_at != queue.size()) return false;
    }
    b_.posts.StartDevice(P);
    b_.action_from[P] = next_link - b_.links.get();
    for (Buffers::Side& s : b_.sides) {
      if (s.pending != 3) return false;
      s.pending = 2;  // both sides to post
    }
    return true;
  }

  Tick Add(Tick a, Tick b) {
    const std::optional<Tick> s = CheckedAdd(a, b);
    if (!s || *s > kMaxWork) {
      overflow_ = true;
      return 0;
    }
    return *s;
  }

  // One side of transfer t posts at `tick` on its device's stream, behind
  // the call of transfer `prev` (or none).
  void Post(std::int32_t t, bool send, Tick tick, std::int32_t prev) {
    Buffers::Side& side = sides_[t];
    (send ? side.send_post : side.recv_post) = tick;
    (send ? side.prev_src : side.prev_dst) = prev;
    --side.pending;
    if (prev >= 0 && !sides_[prev].timed()) {
      ++side.pending;
      Buffers::Side& before = sides_[prev];
      side.next[send ? 0 : 1] = before.waiters;
      before.waiters = 2 * t + (send ? 0 : 1);
    }
    if (side.pending == 0) Complete(t);
  }

  // Times transfer t, whose sides have posted and whose calls ahead have
  // completed, and then each transfer that waited only for it.
  void Complete(std::int32_t x) {
    std::vector<std::int32_t>& ready = b_.stack;  // empty between calls
    for (;;) {
      Buffers::Side& side = sides_[x];
      Tick s = std::max(side.send_post, side.recv_post);
      for (std::int32_t p : {side.prev_src, side.prev_dst})
        if (p >= 0) s = std::max(s, sides_[p].end);
      side.end = Add(s, b_.boundary_ticks[side.boundary]);
      for (std::int32_t l = std::exchange(side.lane_waits, std::int16_t{-1}); l >= 0; l = lanes_[l].next_waiting)
        b_.work.push_back(l);
      for (std::int32_t w = side.waiters; w >= 0;) {
        Buffers::Side& waiter = sides_[w / 2];
        const std::int32_t next = waiter.next[w % 2];
        if (--waiter.pending == 0) ready.push_back(w / 2);
        w = next;
      }
      if (ready.empty()) return;
      x = ready.back();
      ready.pop_back();
    }
  }

  bool Blocked(Buffers::Lane& lane, std::int32_t transfer) {
    Buffers::Side& side = sides_[transfer];
    lane.next_waiting = side.lane_waits;
    side.lane_waits = static_cast<std::int16_t>(&lane - lanes_);
    return false;
  }

  Tick CollectiveTicks(const Collective& c) const {
    const Tick given = c.kind == CommKind::kUnshard ? model_.unshard : model_.reduce_grad;
    if (given > 0 || model_.bandwidth == 0) return given;
    const std::vector<std::int64_t>& params = problem_.memory.param_bytes;
    if (params.empty()) return 0;
    return model_.SizeTicks(params.size() == 1 ? params[0] : params[c.stage]);
  }

  void Wait(int device, Tick from, Tick until, std::int32_t transfer) {
    if (until > from) b_.waits[device].push_back(CommWait{device, from, until, transfer});
  }

  // Places lane d's next action; false (changing nothing) when a tick it
  // needs is not known yet (the scan refused what would never be).
  bool Step(int d, Buffers::Lane& lane, const CommAction* actions, const Buffers::Link* links, std::int64_t count) {
    const std::int64_t i = lane.next;
    const CommAction& a = actions[i];
    // 64 lanes take turns, a few actions each: too many streams for the
    // hardware's prefetcher, so each lane fetches its own a few lines ahead.
    // The transfers an action a few ahead reads come from its entry, which
    // the lines fetched earlier hold.
    if (i + kAhead < count) {
      __builtin_prefetch(&actions[i + kAhead]);
      __builtin_prefetch(&links[i + kAhead]);
    }
    // The links have kSidesAhead entries past the last device's (-1).
    __builtin_prefetch(&sides_[std::max(links[i + kSidesAhead].in[0], 0)], 1);
    const std::int64_t batch_from = a.batch != lane.batch && lane.batch >= 0 ? lane.batch_first : -1;
    // Everything this action waits for must be timed before anything changes.
    if (batch_from >= 0)
      for (std::int64_t k = batch_from; k < i; ++k)
        if (IsTransfer(actions[k].kind) && !sides_[links[k].in[0]].timed()) return Blocked(lane, links[k].in[0]);
    if (a.kind == CommKind::kCompute) {
      for (std::int32_t in : links[i].in)
        if (in >= 0 && !sides_[in].timed()) return Blocked(lane, in);
    }
    // Place it, as comm_graph_run.cc's PlaceAction does.
    Tick ready = lane.ready;
    if (batch_from >= 0) {
      Tick until = ready, comm_from = ready;
      std::int32_t last = -1;
      for (std::int64_t k = batch_from; k < i; ++k) {
        if (!IsTransfer(actions[k].kind)) continue;
        const std::int32_t t = links[k].in[0];
        const Buffers::Side& x = sides_[t];
        comm_from = std::max(comm_from, x.produced);
        if (x.end > until) {
          until = x.end;
          last = t;
        }
      }
      Wait(d, comm_from, until, last);
      ready = until;
    }
    Tick end = ready;
    if (a.kind == CommKind::kCompute) {
      for (std::int32_t in : links[i].in)
        if (in <= -2) ready = std::max(ready, ends_[-2 - in]);
      std::int32_t c = -1;
      if (has_collectives_)
        for (OpId id : {a.slot.op, OpId{a.slot.overlapped}})
          if (id != kNoOp) c = std::max(c, b_.unshard_of[Decode(id).stage]);
      if (c >= 0) {
        const Collective& col = run_.collectives[c];
        Wait(d, std::max(ready, col.start), col.end, -1);
        ready = std::max(ready, col.end);
      }
      std::int32_t late = -1;
      for (std::int32_t t : links[i].in)
        if (t >= 0 && (late < 0 || sides_[t].end > sides_[late].end)) late = t;
      if (late >= 0) {
        const Buffers::Side& x = sides_[late];
        Wait(d, std::max(ready, x.produced), x.end, late);
        ready = std::max(ready, x.end);
      }
      end = Add(ready, links[i].ticks);
      for (OpId id : {a.slot.op, OpId{a.slot.overlapped}}) {
        if (id == kNoOp) continue;
        ends_[id] = end;
        starts_[id] = ready;
      }
      lane.compute_end = end;
    } else if (IsTransfer(a.kind)) {
      const std::int32_t t = links[i].in[0];
      const std::int32_t prev = links[i].in[1];
      if (IsSend(a.kind))
        sides_[t].produced = links[i].ticks != 0 ? lane.compute_end
                                                   : ends_[space_.Id(a.kind == CommKind::kSendF ? OpKind::kF : OpKind::kB,
                                                                       a.microbatch, a.stage)];
      Post(t, IsSend(a.kind), ready, prev);
    } else if (a.kind != CommKind::kReshard) {
      const std::int32_t c = lane.collective++;
      Collective& col = run_.collectives[c];
      Tick s = ready;
      if (c > b_.first_collective[d]) s = std::max(s, run_.collectives[c - 1].end);
      col.start = s;
      col.end = Add(s, CollectiveTicks(col));
      if (a.kind == CommKind::kUnshard) b_.unshard_of[a.stage] = c;
    }
    if (a.batch != lane.batch) {
      if (a.batch >= 0) lane.batch_first = i;
      lane.batch = a.batch;
    }
    lane.ready = end;
    ++lane.next;
    return true;
  }

  // space_.At(id) with the division by S_ done by a multiply.
  Op Decode(OpId id) const {
    const OpId q = by_stages_.Div(static_cast<std::uint32_t>(id));
    Op op;
    op.stage = static_cast<int>(id - q * S_);
    const OpId M = space_.microbatches();
    if (q >= 2 * M) {
      const bool r = q >= 3 * M;
      op.kind = r ? OpKind::kR : OpKind::kW;
      op.microbatch = static_cast<int>(q - (r ? 3 : 2) * M);
    } else {
      op.kind = static_cast<OpKind>(q & 1);
      op.microbatch = static_cast<int>(q >> 1);
    }
    return op;
  }

  static constexpr std::int32_t kRefused = std::numeric_limits<std::int32_t>::min();

  // What op (on device d) waits for, as a Link's `in` holds it: a transfer
  // it receives, an op on its own device (LocalInput), or -1, none;
  // kRefused when the graph would refuse it.
  std::int32_t Input(const Op& op, int d) const {
    const OpId p = DependencyOf(space_, op);
    if (p == kNoOp) return -1;
    // p's stage, as DependencyOf chose it (same microbatch).
    const int from = op.kind == OpKind::kF                                   ? op.stage - 1
                     : op.kind == OpKind::kB && !space_.IsLastStage(op.stage) ? op.stage + 1
                                                                             : op.stage;
    if (b_.device_of[from] == d)
      return Scanned(p) ? LocalInput(p) : kRefused;  // later on this device: a deadlock the graph names
    const bool backward = op.kind == OpKind::kB;
    const std::int32_t t = b_.transfer_of[KeyOf(backward ? op.stage : op.stage - 1, op.microbatch, backward)];
    return t >= 0 ? t : kRefused;  // else its RECV is not before it in this program
  }

  void MarkScanned(OpId id) { b_.scanned[static_cast<size_t>(id) / 64] |= std::uint64_t{1} << (id % 64); }

  // Whether op `id`'s compute is in a program scanned so far.
  bool Scanned(OpId id) const { return (b_.scanned[static_cast<size_t>(id) / 64] >> (id % 64)) & 1; }


  const Problem& problem_;
  const Schedule& schedule_;
  const OpSpace& space_;
  const CommProgram& program_;
  const CommModel& model_;
  Buffers& b_;
  CommRun& run_;
  const int S_;
  const FastDiv by_stages_{static_cast<std::uint32_t>(std::max(S_, 1))};
  Buffers::Side* sides_ = nullptr;
  Buffers::Lane* lanes_ = nullptr;
  bool has_collectives_ = false;
  Tick* ends_ = nullptr;    // run_.timeline.end's
  Tick* starts_ = nullptr;  // and stored_start's
  std::vector<Tick>* end_ = nullptr;
  std::vector<Tick>* start_ = nullptr;
  bool overflow_ = false;
  std::int64_t placed_ = 0;  // ops the program places (a full backward's W is not one)
};

}  // namespace

Error RunCommsInto(const Problem& problem, Schedule&& schedule, const CommProgram& program, const CommModel& model,
                   CommScratch& scratch, CommRun& out) {
  if (!Walk(problem, schedule, program, model, scratch.buffers(), out).Run()) {
    Result<CommRun> graph = comm::PlaceGraph(problem, schedule, program, model);
    if (!graph) return graph.error();
    return Fail(ErrorCode::kInternal, "comm placement: the walk stopped on a program the graph places (a bug)");
  }
  out.timeline.problem = problem;
  out.timeline.schedule = std::move(schedule);
  out.timeline.comms.reset();
  return Error::Ok();
}

}  // namespace ppsim
