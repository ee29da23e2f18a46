// The communication lanes (docs/rendering.md, "Communication"): with comms
// modelled, each transfer the comm run placed is drawn on its sender's and
// its receiver's lane, from that side's post to the transfer's completion,
// its time on the link darker over it, and each wait of a compute stream on
// a transfer is marked on that device's compute row, where it is idle. With
// comms off nothing of it is laid out. Checked in the display list, the
// PNG's pixels, the page's DOM attributes, the SVG and the text chart, at
// 1920 px and where the picture is viewed at 760 px and at a phone's width.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "draw/color_util.h"
#include "png_reader.h"
#include "ppsim/comm_run.h"
#include "ppsim/render/html_writer.h"
#include "ppsim/render/legibility.h"
#include "ppsim/render/pacing.h"
#include "ppsim/render/svg_writer.h"
#include "ppsim/render/text_output.h"
#include "ppsim/render/text_painter.h"
#include "ppsim/simulate.h"
#include "render/frame_painter.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

// Interleaved 1F1B (P = 4, v = 2, M = 8) lowered by PyTorch's eager rule
// with one RECV pending per device and a link latency of 1: transfers that
// wait for their peer, spend a tick on the link, and compute that waits on them.
struct CommScene {
  explicit CommScene(CommOrder order = CommOrder::kPytorch, int width = 1920, int height = 1080, int display = 0) {
    Problem p;
    p.P = 4;
    p.M = 8;
    p.v = 2;
    p.comms.order = order;
    p.comms.latency = 1;
    Result<Timeline> t = Simulate("interleaved", p);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    run = Measured("eager", std::move(*t));
    input.title = "comm lanes";
    input.runs.push_back({&run});
    input.width = width;
    input.height = height;
    input.display_width = display;
  }
  Run run;
  LayoutInput input;
};

std::vector<Item> Of(const DisplayList& list, Role role) {
  std::vector<Item> out;
  for (const Item& it : list.items)
    if (it.role == role) out.push_back(it);
  return out;
}

// Each device's compute row, [top, bottom), from its op cells.
std::map<int, std::pair<double, double>> ComputeRows(const DisplayList& list) {
  std::map<int, std::pair<double, double>> rows;
  for (const Item& op : Of(list, Role::kOp)) {
    auto [at, fresh] = rows.try_emplace(op.device, op.box.y, op.box.bottom());
    if (!fresh) at->second = {std::min(at->second.first, op.box.y), std::max(at->second.second, op.box.bottom())};
  }
  return rows;
}

TEST(CommLanes, EachTransferSpansItsPostToItsCompletionOnBothLanes) {
  CommScene s;
  ASSERT_NE(s.run.timeline.comms, nullptr);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(s.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(CheckLegibility(*list, *m).code, ErrorCode::kOk);
  // Where a tick's cell starts and ends, read off the op cells (same gaps).
  std::map<Tick, double> left, right;
  for (const Item& op : Of(*list, Role::kOp)) {
    left[op.tick0] = op.box.x;
    right[op.tick1] = op.box.right();
  }
  const auto rows = ComputeRows(*list);
  const std::vector<Item> sides = Of(*list, Role::kTransfer), links = Of(*list, Role::kTransferLink);
  size_t expected_sides = 0, expected_links = 0, checked_x = 0;
  std::map<int, std::set<std::pair<double, double>>> send_band, recv_band;  // per device: [top, bottom)
  for (const Transfer& x : s.run.timeline.comms->transfers) {
    for (const char side : {'S', 'R'}) {
      const int d = side == 'S' ? x.src : x.dst;
      const Tick post = side == 'S' ? x.send_post : x.recv_post;
      auto it = std::find_if(sides.begin(), sides.end(), [&](const Item& i) {
        return i.device == d && i.op_kind == side && i.microbatch == x.microbatch && i.stage == x.boundary &&
               i.value == (x.backward ? 1 : 0);
      });
      if (x.end == post) {  // posted as it completed: nothing to draw
        EXPECT_EQ(it, sides.end());
        continue;
      }
      ++expected_sides;
      ASSERT_NE(it, sides.end()) << side << " of microbatch " << x.microbatch << " at boundary " << x.boundary;
      EXPECT_EQ(it->tick0, post);
      EXPECT_EQ(it->tick1, x.end);
      EXPECT_EQ(it->color, palette::kCommPosted);
      // On device d's lane: below its compute row, above the next device's.
      EXPECT_GE(it->box.y, rows.at(d).second);
      if (rows.count(d + 1)) {
        EXPECT_LE(it->box.bottom(), rows.at(d + 1).first);
      }
      (side == 'S' ? send_band : recv_band)[d].insert({it->box.y, it->box.bottom()});
      if (left.count(post) && right.count(x.end)) {
        EXPECT_EQ(it->box.x, left[post]);
        EXPECT_EQ(it->box.right(), right[x.end]);
        ++checked_x;
      }
      if (x.end > std::max(post, x.start)) ++expected_links;
    }
  }
  // Sends in one band at the lane's top, receives in one band under it.
  for (int d = 0; d < 4; ++d) {
    ASSERT_EQ(send_band[d].size(), 1u) << "d" << d;
    ASSERT_EQ(recv_band[d].size(), 1u) << "d" << d;
    EXPECT_LE(send_band[d].begin()->second, recv_band[d].begin()->first) << "d" << d;
  }
  EXPECT_EQ(sides.size(), expected_sides);
  EXPECT_EQ(links.size(), expected_links);
  EXPECT_GT(expected_sides, 40u);
  EXPECT_GT(checked_x, 10u);
  const Tick latency = s.run.timeline.problem.comms.latency;  // in ticks, as the run scaled it
  ASSERT_GT(latency, 0);
  for (const Item& l : links) {  // the link time: the latency (no size term), on the link's colour
    EXPECT_EQ(l.tick1 - l.tick0, latency);
    EXPECT_EQ(l.color, palette::kCommLink);
  }
}

TEST(CommLanes, WaitsAreMarkedWhereTheComputeRowIsIdle) {
  CommScene s;
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(s.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  const auto rows = ComputeRows(*list);
  const std::vector<Item> marks = Of(*list, Role::kCommWait);
  Tick marked = 0;
  for (const Item& w : marks) marked += w.tick1 - w.tick0;
  Tick exposed = 0;
  for (const DeviceComm& d : s.run.timeline.comms->devices) exposed += d.exposed;
  EXPECT_GT(exposed, 0);
  EXPECT_EQ(marked, exposed);  // the run's exposed communication, tick for tick
  for (const Item& w : marks) {
    EXPECT_GE(w.box.y, rows.at(w.device).first);
    EXPECT_LE(w.box.bottom(), rows.at(w.device).second);
    for (const Item& op : Of(*list, Role::kOp)) {  // the compute stream is idle there
      if (op.device == w.device) {
        EXPECT_TRUE(op.tick1 <= w.tick0 || op.tick0 >= w.tick1) << "op at " << op.tick0;
      }
    }
  }
  // The PNG: the mark's colour in its middle.
  Result<std::string> png = RenderPng(*list, list->last_tick);
  ASSERT_TRUE(png.ok());
  const PngPixels pixels(*png);
  for (const Item& w : marks) {
    const Color c = pixels.At(static_cast<int>(w.box.x + w.box.w / 2), static_cast<int>(w.box.y + w.box.h / 2));
    EXPECT_EQ(c, palette::kCommLink) << "wait at " << w.tick0 << " on d" << w.device;
  }
  // The page's DOM carries them, with their ticks.
  const std::string html = WriteHtml(*list, PaceFor(list->last_tick, 30));
  const Item& first = marks.front();
  EXPECT_NE(html.find("class=\"comm-wait\" data-run=\"0\" data-device=\"" + std::to_string(first.device) +
                      "\" data-start=\"" + std::to_string(first.tick0) + "\" data-end=\"" +
                      std::to_string(first.tick1) + "\""),
            std::string::npos);
  size_t transfers = 0;
  for (size_t at = html.find("class=\"transfer\""); at != std::string::npos; at = html.find("class=\"transfer\"", at + 1))
    ++transfers;
  EXPECT_EQ(transfers, Of(*list, Role::kTransfer).size() + (list->phone ? Of(*list->phone, Role::kTransfer).size() : 0));
  // The SVG: each lane rectangle, in the lane's colours.
  const std::string svg = WriteSvg(*list, list->last_tick);
  EXPECT_NE(svg.find(Hex(palette::kCommPosted)), std::string::npos);
  EXPECT_NE(svg.find(Hex(palette::kCommLink)), std::string::npos);
}

TEST(CommLanes, TheTextChartHasALaneUnderEachDevice) {
  CommScene s;
  Result<DisplayList> list = LayOutText(s.input);
  ASSERT_TRUE(list.ok()) << list.error().message;
  const std::string text = PaintText(*list, list->last_tick, 200);
  EXPECT_NE(text.find("~ a device waiting on communication"), std::string::npos);
  // The row under "d1" is its lane: ":" while posted, "r"/"s" on the link.
  const size_t d1 = text.find("\nd1 ");
  ASSERT_NE(d1, std::string::npos);
  const size_t lane = text.find('\n', d1 + 1) + 1;
  const std::string lane_row = text.substr(lane, text.find('\n', lane) - lane);
  EXPECT_NE(lane_row.find(':'), std::string::npos) << lane_row;
  EXPECT_EQ(lane_row.rfind("d", 0), std::string::npos);  // not a device row
  // d1's waits show as "~" on its compute row.
  const std::string d1_row = text.substr(d1 + 1, lane - d1 - 2);
  EXPECT_NE(d1_row.find('~'), std::string::npos) << d1_row;
}

TEST(CommLanes, LegibleAt760AndAtAPhonesWidth) {
  // A video or page at 760 px; the page's phone layout (render.cc's
  // PhoneLayout: a frame twice 374 px wide, as tall as one run of 4 devices needs).
  for (const auto& [display, width, height] : {std::tuple{760, 1920, 1080}, std::tuple{374, 748, 792}}) {
    CommScene s(CommOrder::kPytorch, width, height, display);
    auto m = NewMeasurer();
    Result<DisplayList> list = Layout(s.input, *m);
    ASSERT_TRUE(list.ok()) << list.error().message;
    EXPECT_EQ(CheckLegibility(*list, *m).code, ErrorCode::kOk) << display;
    // Each half of a lane (sends, receives) is 2 pixels or more where viewed.
    const double viewed = static_cast<double>(display) / list->width;
    for (const Item& it : Of(*list, Role::kTransfer)) EXPECT_GE(it.box.h * viewed, 2 - 1e-9) << display;
    EXPECT_FALSE(Of(*list, Role::kCommWait).empty());
  }
}

// UNSHARD and REDUCE_GRAD on the collective stream: 1F1B lowered by
// PyTorch's rule with parameter bytes and a bandwidth, so that each
// all-gather and reduce-scatter lasts parameter bytes / bandwidth (4 units).
TEST(CommLanes, CollectivesOverTheLaneFromStartToEnd) {
  Problem p;
  p.P = 4;
  p.M = 4;
  p.comms.order = CommOrder::kPytorch;
  p.comms.latency = 1;
  p.comms.bandwidth = 100;
  p.memory.param_bytes = {400};
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const ppsim::Run run = Measured("fsdp", std::move(*t));
  ASSERT_NE(run.timeline.comms, nullptr);
  LayoutInput input;
  input.runs.push_back({&run});
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(CheckLegibility(*list, *m).code, ErrorCode::kOk);
  const auto rows = ComputeRows(*list);
  const std::vector<Item> marks = Of(*list, Role::kCollective);
  // A cell's left edge is x0 + k·tick0 and its right edge x1 + k·tick1
  // (the same gaps as the op cells), read off the first and last op.
  const std::vector<Item> ops = Of(*list, Role::kOp);
  auto [first, last] = std::minmax_element(ops.begin(), ops.end(),
                                           [](const Item& a, const Item& b) { return a.tick0 < b.tick0; });
  const double k = (last->box.x - first->box.x) / static_cast<double>(last->tick0 - first->tick0);
  const double x0 = first->box.x - k * first->tick0, x1 = first->box.right() - k * first->tick1;
  size_t timed = 0;
  std::set<char> kinds;
  for (const Collective& c : run.timeline.comms->collectives) {
    if (c.end <= c.start) continue;
    ++timed;
    const char kind = c.kind == CommKind::kUnshard ? 'U' : 'G';
    auto it = std::find_if(marks.begin(), marks.end(), [&](const Item& i) {
      return i.device == c.device && i.stage == c.stage && i.op_kind == kind;
    });
    ASSERT_NE(it, marks.end()) << "d" << c.device << " s" << c.stage << " " << kind;
    EXPECT_EQ(it->tick0, c.start);
    EXPECT_EQ(it->tick1, c.end);
    EXPECT_EQ(it->tick1 - it->tick0, 4 * run.timeline.problem.ticks_per_unit);
    EXPECT_EQ(it->color, palette::kCollective);
    EXPECT_GE(it->box.y, rows.at(c.device).second);  // in the lane under the device's row
    if (rows.count(c.device + 1)) {
      EXPECT_LE(it->box.bottom(), rows.at(c.device + 1).first);
    }
    EXPECT_NEAR(it->box.x, x0 + k * c.start, 1.0);
    EXPECT_NEAR(it->box.right(), x1 + k * c.end, 1.0);
    kinds.insert(kind);
  }
  EXPECT_EQ(marks.size(), timed);
  EXPECT_EQ(timed, 8u);  // one UNSHARD and one REDUCE_GRAD per stage
  EXPECT_EQ(kinds, (std::set<char>{'U', 'G'}));
  // The PNG: the collective's colour in its middle.
  Result<std::string> png = RenderPng(*list, list->last_tick);
  ASSERT_TRUE(png.ok());
  const PngPixels pixels(*png);
  for (const Item& c : marks)
    EXPECT_EQ(pixels.At(static_cast<int>(c.box.x + c.box.w / 2), static_cast<int>(c.box.y + c.box.h / 2)),
              palette::kCollective)
        << c.op_kind << " on d" << c.device;
  // The page: class, device, ticks and the action as PyTorch names it.
  const std::string html = WriteHtml(*list, PaceFor(list->last_tick, 30));
  for (const Item& c : marks) {
    EXPECT_NE(html.find("class=\"collective\" data-run=\"0\" data-device=\"" + std::to_string(c.device) +
                        "\" data-start=\"" + std::to_string(c.tick0) + "\" data-end=\"" + std::to_string(c.tick1) +
                        "\" data-op=\"" + (c.op_kind == 'U' ? "UNSHARD" : "REDUCE_GRAD") + "@s" +
                        std::to_string(c.stage) + "\""),
              std::string::npos)
        << c.op_kind << " on d" << c.device;
  }
  EXPECT_NE(WriteSvg(*list, list->last_tick).find(Hex(palette::kCollective)), std::string::npos);
  // The legend's swatch and words.
  bool legend = false;
  for (const Item& it : Of(*list, Role::kLegendLabel)) legend = legend || it.text.find("UNSHARD or REDUCE_GRAD") == 0;
  EXPECT_TRUE(legend);
  // The terminal: "u" and "g" in d0's lane, and the legend's words.
  Result<DisplayList> text_list = LayOutText(input);
  ASSERT_TRUE(text_list.ok()) << text_list.error().message;
  const std::string text = PaintText(*text_list, text_list->last_tick, 200);
  EXPECT_NE(text.find("u an UNSHARD, g a REDUCE_GRAD"), std::string::npos);
  const size_t d0 = text.find("\nd0 ");
  ASSERT_NE(d0, std::string::npos);
  const size_t lane = text.find('\n', d0 + 1) + 1;
  const std::string lane_row = text.substr(lane, text.find('\n', lane) - lane);
  EXPECT_NE(lane_row.find("uuuu"), std::string::npos) << lane_row;
  EXPECT_NE(lane_row.find("gggg"), std::string::npos) << lane_row;
}

// When rows aggregate (one row = several devices) there are no lanes, so
// the legend lists none of their colours, and it is laid out once.
TEST(CommLanes, AggregatedRowsHaveNoLanesAndTheLegendListsNone) {
  Problem p;
  p.P = 1200;
  p.M = 4;
  p.comms.order = CommOrder::kPytorch;
  p.comms.latency = 1;
  Result<Timeline> t = Simulate("1f1b", p);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const ppsim::Run run = Measured("large", std::move(*t));
  ASSERT_NE(run.timeline.comms, nullptr);
  LayoutInput input;
  input.runs.push_back({&run});
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  ASSERT_GT(list->devices_per_row, 1);
  EXPECT_TRUE(Of(*list, Role::kTransfer).empty());
  EXPECT_TRUE(Of(*list, Role::kCommWait).empty());
  int forward_labels = 0;
  for (const Item& it : Of(*list, Role::kLegendLabel)) {
    EXPECT_EQ(it.text.find("transfer"), std::string::npos) << it.text;
    EXPECT_EQ(it.text.find("UNSHARD"), std::string::npos) << it.text;
    forward_labels += it.text == "forward (F)";
  }
  EXPECT_EQ(forward_labels, 1);
  bool note = false;
  for (const Item& it : Of(*list, Role::kNote)) note = note || it.text.find("no communication lanes") != std::string::npos;
  EXPECT_TRUE(note);
  // Nothing overlaps the legend: the first row starts below its last label.
  double legend_bottom = 0;
  for (const Item& it : Of(*list, Role::kLegendLabel)) legend_bottom = std::max(legend_bottom, it.box.bottom());
  double first_op = 1e9;
  for (const Item& it : Of(*list, Role::kOp)) first_op = std::min(first_op, it.box.y);
  EXPECT_LT(legend_bottom, first_op);
}

TEST(CommLanes, NoneWithoutComms) {
  CommScene s(CommOrder::kNone);
  EXPECT_EQ(s.run.timeline.comms, nullptr);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(s.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_TRUE(Of(*list, Role::kTransfer).empty());
  EXPECT_TRUE(Of(*list, Role::kTransferLink).empty());
  EXPECT_TRUE(Of(*list, Role::kCommWait).empty());
  for (const Item& it : Of(*list, Role::kLegendLabel)) EXPECT_EQ(it.text.find("transfer"), std::string::npos);
  // The rows touch: no lane between them.
  const auto rows = ComputeRows(*list);
  EXPECT_LE(rows.at(1).first - rows.at(0).second, 4);
}

}  // namespace
}  // namespace ppsim::render::testing
