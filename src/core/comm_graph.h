// The graph RunComms places (comm_run.h): one node per program action, per
// transfer and per collective, and the edges that say which node's time
// another's needs. Built and checked once (CommGraph::Build); every edge
// points from a node whose time is known first, so placing the nodes in a
// topological order (Kahn's) visits each once and never revises a time. A
// node left unvisited sits on a cycle of waits: a deadlock.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ppsim/comm_model.h"
#include "ppsim/comm_run.h"
#include "ppsim/error.h"
#include "ppsim/problem.h"
#include "ppsim/schedule.h"

namespace ppsim::comm {

using Node = std::int64_t;

// Where each action's inputs come from.
struct ActionInfo {
  int device = 0;
  std::int32_t index = 0;           // position in its device's program
  std::int32_t in_transfer[2] = {-1, -1};  // transfers a compute slot waits on (its RECVs')
  std::int32_t transfer = -1;       // SEND/RECV: its transfer
  std::int32_t collective = -1;     // UNSHARD/REDUCE_GRAD: its collective; compute: the UNSHARD it waits on
  std::int32_t batch_first = -1;    // the first action after a blocking batch: that batch's first action's global index
};

struct TransferInfo {
  Transfer t;
  Node send = -1, recv = -1;               // action nodes
  // The RECV transfer each side's call waits for (comm_model.h's stream
  // rule), or -1.
  std::int32_t prev_at_src = -1, prev_at_dst = -1;
  Node producer = -1;                      // the compute action whose output it carries
};

struct CollectiveInfo {
  Collective c;
  Node action = -1;
  std::int32_t prev = -1;  // the device's previous collective
};

struct CommGraph {
  const Problem* problem = nullptr;
  const OpSpace* space = nullptr;
  const CommProgram* program = nullptr;
  std::vector<std::int64_t> offset;  // first global action index of each device
  std::vector<ActionInfo> actions;
  std::vector<TransferInfo> transfers;
  std::vector<CollectiveInfo> collectives;
  std::vector<Node> op_action;       // by OpId: the action that computes it, -1 if none
  // Edges in CSR form: succ[first[n] .. first[n+1]) are the nodes waiting on n.
  std::vector<std::int64_t> first;
  std::vector<Node> succ;
  std::vector<std::int32_t> indegree;

  Node ActionNode(std::int64_t a) const { return a; }
  Node TransferNode(std::int32_t t) const { return static_cast<Node>(actions.size()) + t; }
  Node CollectiveNode(std::int32_t c) const { return static_cast<Node>(actions.size() + transfers.size()) + c; }
  Node size() const { return static_cast<Node>(actions.size() + transfers.size() + collectives.size()); }
  const CommAction& Action(std::int64_t a) const {
    return program->devices[actions[a].device][actions[a].index];
  }

  // kBadSchedule for a program that does not match the schedule.
  static Result<CommGraph> Build(const Problem& problem, const Schedule& schedule, const CommProgram& program,
                                 const CommModel& model);
};

// "SEND_F3@s1" for a transfer side, as PyTorch names the action.
std::string SideName(const Transfer& t, bool send);

// The graph placed in a topological order (Kahn's): the reference
// placement, and the one that names what is wrong. RunCommsInto's walk
// (comm_walk.cc) hands a program to it when the walk stops short — a bad
// program or a deadlock — so every message comes from here, and
// tests/core/comm_walk_test.cc checks that both place every program alike.
Result<CommRun> PlaceGraph(const Problem& problem, const Schedule& schedule, const CommProgram& program,
                           const CommModel& model);

// Each device's SEND and RECV transfers in its program (posting) order,
// devices in turn: device d's SENDs are sends[send_from[d] .. send_from[d+1]).
struct PostingOrder {
  std::vector<std::int32_t> sends, recvs;
  std::vector<std::int64_t> send_from, recv_from;  // P + 1 each

  void Clear(int P) {
    sends.clear();
    recvs.clear();
    send_from.assign(static_cast<size_t>(P) + 1, 0);
    recv_from.assign(static_cast<size_t>(P) + 1, 0);
  }
  // Call for devices 0, 1, ... P in turn, before each device's first post (and once for P at the end).
  void StartDevice(int d) {
    send_from[d] = static_cast<std::int64_t>(sends.size());
    recv_from[d] = static_cast<std::int64_t>(recvs.size());
  }
};

// What both placements derive the same way once every action, transfer and
// collective has its time: the makespan (each device's last action's end
// and every transfer and collective it took part in), each device's
// communication time, exposed time and peak send-buffer bytes, and each
// link's busy time. `run`'s transfers, collectives and waits are filled (the
// waits grouped by device, each device's in time order). Sets
// run.timeline.makespan.
// `buffers` is kept from one call to the next (its contents are its own).
//
// The pass over the transfers may be the caller's own, as it writes them
// (Start, then Count for each transfer in id order, then FinishCounted);
// FinishFigures makes it itself.
struct FigureBuffers {
  // A device's send buffers when each is held to the step's end: all it
  // posts, and those it posts at its latest post tick (at the step's end
  // they go in after the others are released).
  struct HeldToEnd {
    std::int64_t bytes = 0;
    Tick last_post = -1;
    std::int64_t bytes_at_last = 0;
  };
  std::vector<Tick> step_end;    // per device
  std::vector<Tick> comm_time;   // per device
  std::vector<HeldToEnd> held;   // per device
  std::vector<std::vector<std::pair<int, int>>> dsts;  // per src: (dst, link), links numbered as met
  std::vector<std::int64_t> from_link;  // per link: its transfers counted
  std::vector<std::int32_t> link_of;    // per transfer
  std::vector<std::int32_t> link_at;    // per (boundary, direction): its link, or -1
  std::vector<std::pair<Tick, Tick>> spans;

  void Start(const std::vector<Tick>& device_end, size_t transfers);
  void Count(size_t i, const Transfer& x) {
    step_end[x.src] = std::max(step_end[x.src], x.end);
    step_end[x.dst] = std::max(step_end[x.dst], x.end);
    comm_time[x.src] += x.end - x.start;
    comm_time[x.dst] += x.end - x.start;
    HeldToEnd& h = held[x.src];
    h.bytes += x.bytes;
    if (x.send_post > h.last_post) {
      h.last_post = x.send_post;
      h.bytes_at_last = 0;
    }
    if (x.send_post == h.last_post) h.bytes_at_last += x.bytes;
    const size_t key = 2 * static_cast<size_t>(x.boundary) + (x.backward ? 1 : 0);
    if (key >= link_at.size() || link_at[key] < 0) NewLink(key, x);
    link_of[i] = link_at[key];
    ++from_link[link_at[key]];
  }

 private:
  void NewLink(size_t key, const Transfer& x);
};
void FinishFigures(const Problem& problem, const CommModel& model, const std::vector<Tick>& device_end,
                   const PostingOrder& posts, FigureBuffers& buffers, CommRun& run);
void FinishCounted(const Problem& problem, const CommModel& model, const PostingOrder& posts, FigureBuffers& buffers,
                   CommRun& run);

}  // namespace ppsim::comm
