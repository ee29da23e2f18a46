// The pieces the layout is assembled from: a Builder that appends measured
// items to a DisplayList, and the geometry shared by the page and its charts.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ppsim/render/display_list.h"
#include "ppsim/render/text_metrics.h"

namespace ppsim::render {

inline constexpr double kMinFontPx = 9;  // no text is smaller where the picture is viewed

inline std::string Str(std::int64_t v) { return std::to_string(v); }

// A time of a run: its ticks, or with ns ticks (LayoutInput::ns_ticks) the
// nanoseconds in µs, exactly: 31364803 -> "31364.803", 28249500 -> "28249.5".
inline std::string TimeText(std::int64_t t, bool ns) {
  if (!ns) return Str(t);
  const std::int64_t a = t < 0 ? -t : t;
  std::string frac = std::to_string(a % 1000 + 1000).substr(1);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return (t < 0 ? "-" : "") + Str(a / 1000) + (frac.empty() ? "" : "." + frac);
}

// Appends items to a list; every text box is measured with Pango.
class Builder {
 public:
  Builder(DisplayList& list, TextMeasurer& measurer)
      : list_(list), m_(measurer), min_px_(std::ceil(list.MinTextPx() - 1e-9)) {}

  // The smallest font laid out: 9 px at the list's display width.
  double MinPx() const { return min_px_; }
  TextSize Measure(const std::string& text, double px, bool bold) { return m_.Measure(text, px, bold); }
  // Largest size <= px (down to MinPx()) at which `text` is at most max_w wide.
  double Fit(const std::string& text, double px, bool bold, double max_w);
  double LineHeight(double px, bool bold = false) { return m_.Measure("Ag", px, bold).h; }
  // `text` in lines at most `max_w` wide at `px`, broken at spaces (a word
  // wider than that alone on its line); one line when it fits.
  std::vector<std::string> Wrap(const std::string& text, double px, bool bold, double max_w);
  // Wrap's lines from (x, y) down, left-aligned; returns their height.
  double Paragraph(Role role, const std::string& text, double x, double y, double px, bool bold, Color color,
                   double max_w);

  enum class Align { kLeft, kCenter, kRight };  // of the text box against x
  // A text item clipped to the frame; the returned reference is valid until the next append.
  Item& Text(Role role, const std::string& text, double x, double y, double px, bool bold, Color color,
             Align align = Align::kLeft);
  Item& Rect(Role role, Box box, Color color);
  Item& Line(Role role, double x0, double y0, double x1, double y1, double width, Color color);
  const std::vector<Item>& Items() const { return list_.items; }  // appended so far

 private:
  DisplayList& list_;
  TextMeasurer& m_;
  double min_px_;
};

// The page: its scale against 1920x1080 and the shared time axis.
struct Frame {
  double s = 1;
  double min_px = kMinFontPx;  // Builder::MinPx()
  double margin = 24;
  double x0 = 0, x1 = 0;  // the tick area
  double right = 0;       // the frame's right margin (status lines end there)
  double cw = 0;          // pixels per tick
  Tick T = 1;             // ticks on the axis (the longest makespan)
  int agg = 1;            // cycles per column strip (> 1 when a cycle is under two pixels)
  int rows_per = 1;       // devices per row (> 1 when a device is under a pixel)
  bool ns = false;        // ticks are ns of a measured run (LayoutInput::ns_ticks)
  double X(Tick t) const { return std::round(x0 + static_cast<double>(t) * cw); }
  double Font(double px_at_1080p) const { return std::max(min_px, std::round(px_at_1080p * s)); }
};

// Where one run's blocks sit, top to bottom.
struct RunGeometry {
  double caption_y = 0;
  double caption_h = 0;
  double gantt_y = 0;
  int row_h = 0;
  int lane_h = 0;  // the communication lane under each device row (0: no run of the page models comms)
  double gauge_y = 0;
  int gauge_h = 0;
  double axis_y = 0;
};

// Sizes shared by every chart of a page.
struct ChartStyle {
  double label_px = 16;  // device labels, gauge label, tick axis
  double cell_px = 12;   // in-cell labels
  int gx = 1, gy = 1;    // gap between cells, in pixels
  std::vector<Tick> finishes;  // every run's makespan, distinct, ascending
  GaugeMode gauge = GaugeMode::kFullest;
  bool gauge_bytes = false;  // the gauges count bytes, send buffers stacked on the activations (gauge_bytes.h)
};

}  // namespace ppsim::render
