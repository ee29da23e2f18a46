// Layout: a scene's runs -> a DisplayList (display_list.h) for a frame size.
//
// The look: title and subtitle; a legend; one Gantt chart per run, stacked
// (device rows x ticks, cells labelled "F3"/"B2" where they fit, idle cells
// in the bubble colour); under each chart a memory gauge, one bar per tick
// whose height is the activations held in that tick in whole-stage sets
// (by the fullest device, the allocator's way; cluster-wide with
// GaugeMode::kCluster; or one lane per device with kDevice), every gauge
// on one shared scale (the largest peak of all runs); a tick axis; the
// closing lines on the final frame. Cell size, font sizes, label dropping and
// axis thinning follow P, M, v, the longest makespan and the number of runs.
#pragma once

#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/metrics.h"
#include "ppsim/render/display_list.h"
#include "ppsim/render/text_metrics.h"
#include "ppsim/run.h"
#include "ppsim/timeline.h"

namespace ppsim::render {

// A mark on one device row of a run's chart: ticks [from, to) as a bar along
// the row's bottom, labelled where the label fits. ppsim explain marks each
// late op of a measured run so: from where its ideal placement starts it to
// where it started, "+312 µs".
struct RunMark {
  int device = 0;
  Tick from = 0, to = 0;
  std::int64_t value = 0;  // what the label says, in ticks (Item::value)
  std::string text;
};

// The send buffers' share of what a run's gauge shows, in bytes, when the
// gauge stacks them on the activations (a run that models communication
// and holds send buffers: docs/rendering.md, "Send buffers"): of the
// cluster's (or the fullest device's) series, and of each device's.
struct GaugeSend {
  StepSeries shown;
  std::vector<StepSeries> per_device;
};

// One run as a chart draws it: the run (its name, timeline and metrics) and
// what the picture adds to it.
struct RunInput {
  const Run* run = nullptr;         // REQUIRES: non-null, outlives the call
  std::string caption = {};         // "" = run->name
  std::vector<RunMark> marks = {};  // drawn over the run's rows (Role::kMark)
  // Set by the layout, not by callers: the metrics the chart shows where
  // they differ from the run's (the fullest device's gauge series, with its
  // peak; GaugeMode::kFullest). null = run->metrics.
  const Metrics* shown = nullptr;
  const Metrics& metrics() const { return shown != nullptr ? *shown : run->metrics; }
  // Set by the layout, not by callers: when the gauges count bytes, the
  // send buffers' share of each series (shown's activations are then
  // activation bytes plus send buffers). null = stage-sets, no send buffers.
  const GaugeSend* send = nullptr;
};

struct LayoutInput {
  std::string title;
  std::string subtitle;  // "" = DefaultSubtitle(runs)
  std::vector<RunInput> runs;  // REQUIRES: at least one
  std::vector<std::string> closing;  // already filled from the runs
  int width = 1920;   // pixels
  int height = 1080;
  // Pixels wide the picture will be viewed at (0 = width): no text is laid
  // out under 9 px at that width, and in-cell labels that would be are dropped.
  int display_width = 0;
  // The fullest device's gauge per run (default), one cluster-wide gauge, or
  // one small gauge per device.
  GaugeMode gauge = GaugeMode::kFullest;
  // Laid out in character cells (LayOutText): cycles aggregate only under
  // one cell, where pixels aggregate under two display pixels.
  bool cells = false;
  // A video's cycles a frame (Pacing::ticks_per_frame), said under the legend when over 1.
  Tick ticks_per_frame = 1;
  // The runs' ticks are nanoseconds of a measured run (ppsim explain): each
  // op is its own cell however narrow a tick is, each idle gap one bubble
  // cell, and the axis, finish, idle counts and status read in µs.
  bool ns_ticks = false;
  // What the runs' marks mean, as the legend says it beside their colour
  // ("" = no legend entry; set it when a run has marks).
  std::string mark_legend;
};

// "4 stages · 6 microbatches · one cell = one cycle" (devices and chunks
// spelled out when a run has v > 1).
std::string DefaultSubtitle(const std::vector<RunInput>& runs);

// When a cycle is under two pixels at the display width, cycles aggregate
// into strips of >= 2 such pixels (and devices into rows when a device row
// is under one); the chart says so under the legend, which lists every mix
// of kinds a strip is drawn in. Fails with kLegibility when the runs' charts cannot all
// hold a row and a readable gauge, saying how many runs would fit; text
// legibility is checked separately by CheckLegibility().
Result<DisplayList> Layout(const LayoutInput& input, TextMeasurer& measurer);

}  // namespace ppsim::render
