// A DisplayList is a rendered scene as plain data: rectangles, lines and text
// boxes with their positions, colours and the ticks during which each is
// visible. Layout() computes it once; every back-end (Cairo PNG and video
// frames, SVG, HTML, terminal text) paints this same list, and the
// legibility check runs on it. Nothing a painter draws is decided by it.
//
// Time. Frame tick t (0 <= t <= last_tick) shows the state after t cycles:
// an item is visible iff from <= t < until. An op that starts at tick s is
// drawn from frame s+1 on ("the ops started before t"); an op longer than one
// tick grows from left to right, one tick per frame. The final frame
// (t = last_tick) shows every op and the closing lines.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ppsim/metrics.h"
#include "ppsim/op.h"
#include "ppsim/problem.h"

namespace ppsim::render {

inline constexpr Tick kForever = std::numeric_limits<Tick>::max();

struct Color {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Color&, const Color&) = default;
};

// The palette: the same meaning has the same colour in every output.
namespace palette {
inline constexpr Color kBackground{255, 255, 255};
inline constexpr Color kText{34, 34, 34};
inline constexpr Color kMutedText{96, 96, 96};
inline constexpr Color kGrid{246, 246, 246};       // a cell whose cycle has not happened yet
// The op kinds read in greyscale too: each keeps to its own band of CIELAB
// lightness L*, every shade of one kind at least 10 from every shade of
// another (R 22-25, F 36-46, W 58-63, B 73-81), chunk 0 at the band's dark
// end and the last chunk at the light end (`...Last`); R's and F's bands take
// white labels, W's and B's dark ones, all at 4.5:1 or more
// (tests/render/greyscale_test.cc).
inline constexpr Color kForward{38, 86, 150};         // F
inline constexpr Color kForwardLast{69, 111, 165};    // F of a run's last chunk
inline constexpr Color kBackward{250, 160, 60};       // B
inline constexpr Color kBackwardLast{252, 189, 120};
inline constexpr Color kWeightGrad{70, 158, 70};      // W
inline constexpr Color kWeightGradLast{92, 170, 92};
inline constexpr Color kRecompute{72, 36, 96};        // R: the forward run again (recompute.h)
inline constexpr Color kRecomputeLast{84, 40, 110};
inline constexpr Color kBubble{205, 205, 205};     // an idle device-cycle
inline constexpr Color kHatch{150, 150, 150};      // the bubble's diagonal hatching
inline constexpr Color kHeld{178, 121, 162};       // activations held (the gauge)
inline constexpr Color kGaugeBack{244, 240, 243};
inline constexpr Color kCursor{200, 40, 40};       // "now"
// Communication (docs/comms.md), drawn only when a run models it: a
// transfer on its device's lane, light from its side's post until the
// transfer starts, dark while it is on the link; the dark shade also marks
// where a compute row waits on a transfer.
inline constexpr Color kCommPosted{178, 219, 214};
inline constexpr Color kCommLink{0, 121, 112};
// An UNSHARD's all-gather or a REDUCE_GRAD's reduce-scatter on a device's
// collective stream, over its comm lane.
inline constexpr Color kCollective{140, 86, 75};
// Send buffers in the memory gauge, stacked on the activations held.
inline constexpr Color kSendBuffer{95, 178, 168};
inline constexpr Color kMark{176, 0, 32};          // a run's marks: how late a measured op started
}  // namespace palette

// Hatched rects: one diagonal line (bottom-left to top-right) per this many
// pixels, anchored to the frame's origin so that neighbours join up.
inline constexpr double kHatchSpacing = 8;

enum class ItemKind : std::uint8_t { kRect, kText, kLine };

// What an item means; painters that do not draw pixels (the terminal, the
// page's tests) read it.
enum class Role : std::uint8_t {
  kBackground,
  kTitle,
  kSubtitle,
  kLegendSwatch,
  kLegendLabel,
  kCaption,
  kStatus,       // per-run numbers, one text per tick
  kDeviceLabel,
  kAxisLabel,
  kGrid,         // a run's chart area before anything happened
  kOp,           // one op's cell
  kOpLabel,      // "F3" inside its cell
  kBubble,       // an idle interval on one device
  kGaugeBack,
  kGaugeBar,     // activations held during one tick
  kGaugeLabel,
  kPeakLine,
  kCursor,
  kClosing,
  kNote,         // what the chart does not show one-to-one ("one column = 3 cycles")
  kFinish,       // a run's finish: a line across every chart, labelled in its own axis
  kIdleCount,    // "idle 6" at the end of a device row, once the run is done
  kChunkMark,    // a dark bar along the bottom of a later chunk's cell too small for "F3·c1"
  kWholeMark,    // a weight-grad bar along the top of a whole backward's cell (B + W in one op)
  kTransfer,     // one side of a transfer on its device's comm lane, [tick0, tick1) = its post to its completion
                 // (op_kind 'S' its SEND, 'R' its RECV; microbatch; stage = the boundary; value 1 = a gradient)
  kTransferLink, // the same transfer's time on its link, [tick0, tick1) = start to completion, over kTransfer
  kCommWait,     // a bar on a compute row where it waits on a transfer, [tick0, tick1)
  kCollective,   // an UNSHARD ('U') or REDUCE_GRAD ('G') over its device's comm lane, [tick0, tick1) = its
                 // start to its end on the collective stream; stage = the stage it gathers or reduces
  kSendBuffer,   // the send buffers' share of a gauge bar, stacked on its top, [tick0, tick1); value = bytes
  kMark,         // a run's mark (RunMark): a bar over [tick0, tick1) on a device row and its label; value = ticks
};

// How a text's x is anchored (SVG's text-anchor): the box's left edge,
// centre or right edge stays put whatever font a viewer substitutes.
enum class Anchor : std::uint8_t { kStart, kMiddle, kEnd };

struct Box {
  double x = 0, y = 0, w = 0, h = 0;
  double right() const { return x + w; }
  double bottom() const { return y + h; }
};

struct Item {
  ItemKind kind = ItemKind::kRect;
  Role role = Role::kBackground;
  Box box;        // rect / text box (logical extents); line: (x,y) -> (x+w, y+h)
  Color color;    // fill, text or line colour
  double line_width = 0;  // lines only
  bool hatched = false;   // rects only: diagonal hatching over the fill (bubbles)

  // Text only.
  std::string text;
  double font_px = 0;
  bool bold = false;
  double baseline = 0;  // from the top of the box
  Anchor anchor = Anchor::kStart;
  Box clip;             // the container the text must stay inside (a cell, or the frame)

  // Time (see the header comment).
  Tick from = 0;
  Tick until = kForever;
  Tick grow_from = 0;   // with grow_ticks > 0 the width is box.w * clamp(t - grow_from, 0, grow_ticks) / grow_ticks
  Tick grow_ticks = 0;

  // Meaning, in the grid's own coordinates (-1 = not applicable).
  int run = -1;
  int device = -1;
  Tick tick0 = 0, tick1 = 0;  // [tick0, tick1) for ops, bubbles, gauge bars
  char op_kind = 0;           // 'F', 'B', 'W' for ops; 'A' for an aggregated strip
  int microbatch = -1;
  int stage = -1;
  int chunk = -1;             // ops of a run with v > 1: the device's chunk (c0, c1, ...)
  std::int64_t value = 0;     // gauge bars, peak lines and values: held, in 1/DisplayList::gauge_den stage-sets
                              // (bytes when DisplayList::gauge_bytes; a kSendBuffer: its send buffers' bytes)

  bool VisibleAt(Tick t) const { return from <= t && t < until; }
  // Width at frame t (box.w unless the item grows).
  double WidthAt(Tick t) const;
};

// What a run's memory gauge shows: the activations held by all its devices
// together (one gauge), or by each device (one small gauge, a lane, per
// device: the post's claim is per stage), or — the default — by the fullest
// device at each tick, counted the allocator's way (from the start of F to
// the end of its B or W): what must fit on one GPU. kFullest is drawn as
// kCluster is, from that series.
enum class GaugeMode : std::uint8_t { kCluster, kDevice, kFullest };

// One run of the list, as the page's table and the terminal show it: what
// the list keeps of a Run (run.h) once its ops are laid out — its names, the
// problem it ran and the run's own Metrics, so that a painter reads every
// number from the one place it is measured in (and prints it through the
// metric table, metric_table.h).
struct RunSummary {
  std::string name;     // Run::name
  std::string caption;  // the scene's, else the name
  Problem problem;      // P, M, v and the costs, as run
  Metrics metrics;
};

struct DisplayList {
  int width = 0, height = 0;  // pixels
  int display_width = 0;      // pixels wide it is meant to be viewed at (text is >= 9 px there)
  int ticks_per_strip = 1;    // > 1: each column strip aggregates this many cycles
  int devices_per_row = 1;    // > 1: each row aggregates this many devices
  Tick last_tick = 0;         // frames are ticks 0..last_tick (the longest makespan)
  // The smallest text, in the list's pixels, that is 9 px at display_width.
  double MinTextPx() const;
  // Gauges count stage-sets: one whole stage's activations for one
  // microbatch (a chunk's set is 1/v of one). Values are in 1/gauge_den of a
  // stage-set, so that they are whole for every run. gauge_scale is every
  // gauge's full height: the largest peak of all runs (cluster-wide, or of
  // one device with GaugeMode::kDevice).
  GaugeMode gauge = GaugeMode::kFullest;
  // When a run holds send buffers and every run gives its activations'
  // bytes, the gauges count bytes instead (gauge_den 1), and stack each
  // device's send buffers on its activations (Role::kSendBuffer).
  bool gauge_bytes = false;
  std::int64_t gauge_den = 1;
  std::int64_t gauge_scale = 0;
  std::string title, subtitle;
  std::vector<std::string> closing;
  std::vector<RunSummary> runs;
  std::vector<Item> items;  // painted in order
  // A page's (.html) second layout of the same runs, for a phone's width
  // (render.h's kPhoneDisplayWidth), shown instead of this one where this
  // one would not fit; null for every other output, and where the runs do
  // not fit a phone's width.
  std::shared_ptr<const DisplayList> phone;
};

}  // namespace ppsim::render
