// The communication lanes of one chart (chart_parts.h): what the comm run
// placed (Timeline::comms, comm_run.h), drawn, never recomputed. Under each
// device row, a lane: in its top half each transfer the device sends, in its
// bottom half each one it receives, from that side's post to the transfer's
// completion (light while posted and waiting for its peer or its turn on
// the link, dark from its start on the link); on the compute row, a dark bar
// where the compute stream waits on a transfer (CommFigures::waits;
// or on a collective, op_kind 'C'); over the lane, the length of each
// UNSHARD's all-gather and REDUCE_GRAD's reduce-scatter on the device's
// collective stream (CommFigures::collectives; a RESHARD takes no time). A
// span of no ticks (a transfer posted as it completes) has nothing to draw.
#include <algorithm>
#include <cmath>

#include "chart_parts.h"
#include "ppsim/comm_run.h"

namespace ppsim::render::chart {
namespace {

// Ticks [a, e) within a band of the chart from `top`, `h` high, inside the cells' horizontal gaps.
Box Band(const Chart& c, Tick a, Tick e, double top, double h) {
  const double x = c.f.X(a), x1 = c.f.X(e);
  return {x + c.style.gx, top, std::max(1.0, x1 - x - 2 * c.style.gx), h};
}

void Animate(Item& it, Tick a, Tick e) {
  it.from = a + 1;
  if (e - a > 1) {
    it.grow_from = a;
    it.grow_ticks = e - a;
  }
}

// One side of transfer `x` on device `d`'s lane band, and its time on the link over it.
void Side(const Chart& c, const Transfer& x, int d, char side, Tick post, double top, double h) {
  auto tag = [&](Item& it, Tick a, Tick e) {
    it.run = c.run;
    it.device = d;
    it.tick0 = a;
    it.tick1 = e;
    it.op_kind = side;
    it.microbatch = x.microbatch;
    it.stage = x.boundary;
    it.value = x.backward ? 1 : 0;
    Animate(it, a, e);
  };
  if (x.end > post) tag(c.b.Rect(Role::kTransfer, Band(c, post, x.end, top, h), palette::kCommPosted), post, x.end);
  const Tick start = std::max(post, x.start);
  if (x.end > start) tag(c.b.Rect(Role::kTransferLink, Band(c, start, x.end, top, h), palette::kCommLink), start, x.end);
}

}  // namespace

void CommLanes(const Chart& c) {
  if (c.t.comms == nullptr) return;
  const CommFigures& comms = *c.t.comms;
  const double send_h = std::floor(c.g.lane_h / 2.0), recv_h = c.g.lane_h - send_h;
  for (const Transfer& x : comms.transfers) {
    const double send_top = c.RowY(x.src) + c.g.row_h, recv_top = c.RowY(x.dst) + c.g.row_h + send_h;
    Side(c, x, x.src, 'S', x.send_post, send_top, send_h);
    Side(c, x, x.dst, 'R', x.recv_post, recv_top, recv_h);
  }
  // The collectives, over the whole lane: the collective stream is the
  // device's own, beside its sends and receives.
  for (const Collective& col : comms.collectives) {
    if (col.end <= col.start) continue;
    const double top = c.RowY(col.device) + c.g.row_h;
    Item& it = c.b.Rect(Role::kCollective, Band(c, col.start, col.end, top, c.g.lane_h), palette::kCollective);
    it.run = c.run;
    it.device = col.device;
    it.tick0 = col.start;
    it.tick1 = col.end;
    it.op_kind = col.kind == CommKind::kUnshard ? 'U' : 'G';
    it.stage = col.stage;
    Animate(it, col.start, col.end);
  }
  // The waits, as a bar along the bottom of the idle compute cells they explain.
  const double bar = std::max(std::min(2.0, static_cast<double>(c.g.row_h)), std::floor(c.g.row_h / 4.0));
  for (const CommWait& w : comms.waits) {
    if (w.end <= w.start) continue;
    const double top = c.RowY(w.device) + c.g.row_h - c.style.gy - bar;
    Item& it = c.b.Rect(Role::kCommWait, Band(c, w.start, w.end, top, bar), palette::kCommLink);
    it.run = c.run;
    it.device = w.device;
    it.tick0 = w.start;
    it.tick1 = w.end;
    it.op_kind = w.transfer >= 0 ? 'T' : 'C';  // on a transfer, or on an UNSHARD's all-gather
    if (w.transfer >= 0) {
      const Transfer& x = comms.transfers[w.transfer];
      it.microbatch = x.microbatch;
      it.stage = x.boundary;
      it.value = x.backward ? 1 : 0;
    }
    Animate(it, w.start, w.end);
  }
}

}  // namespace ppsim::render::chart
