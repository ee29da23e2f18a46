// Send buffers in the memory gauge (docs/rendering.md, "Send buffers"):
// with communication as ops a device holds, on top of its activations, the
// buffers of the sends it posted — until their transfers complete, or to
// the step's end as PyTorch's runtime keeps them (PR #193903). When a run
// holds send buffers and every run gives its activations' bytes, the gauge
// counts bytes and stacks the send buffers, read from the run's own series
// (Metrics::send_bytes_per_device), on the activations. Checked in the
// display list, the PNG's pixels, the page's DOM, the SVG, the text chart
// and the legend; without send buffers the gauge stays in stage-sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "draw/color_util.h"
#include "png_reader.h"
#include "ppsim/comm_run.h"
#include "ppsim/memory_bytes.h"
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

constexpr std::int64_t kActivation = 268435456;  // 256 MiB per chunk and microbatch
constexpr std::int64_t kTransfer = 58720256;     // 56 MiB per transfer

// examples/send_buffers.toml: interleaved 1F1B (P = 4, v = 2, M = 8)
// lowered by PyTorch's rule, no link latency, its buffers held to the
// step's end and freed at completion.
Run CommRun(const std::string& name, SendRelease release, CommOrder order = CommOrder::kPytorch,
            bool bytes = true) {
  Problem p;
  p.P = 4;
  p.M = 8;
  p.v = 2;
  p.comms.order = order;
  p.comms.transfer_bytes = {kTransfer};
  p.comms.send_release = release;
  if (bytes) p.memory.activation_bytes = {kActivation};
  Result<Timeline> t = Simulate("interleaved", p);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return Measured(name, std::move(*t));
}

struct SendScene {
  explicit SendScene(GaugeMode gauge = GaugeMode::kFullest, int width = 1920, int height = 1080, int display = 0)
      : step_end(CommRun("StepEnd", SendRelease::kStepEnd)),
        at_completion(CommRun("AtCompletion", SendRelease::kCompletion)) {
    input.title = "send buffers";
    input.runs.push_back({&step_end});
    input.runs.push_back({&at_completion});
    input.gauge = gauge;
    input.width = width;
    input.height = height;
    input.display_width = display;
  }
  Run step_end, at_completion;
  LayoutInput input;
};

std::vector<Item> Of(const DisplayList& list, Role role, int run = -1) {
  std::vector<Item> out;
  for (const Item& it : list.items)
    if (it.role == role && (run < 0 || it.run == run)) out.push_back(it);
  return out;
}

TEST(SendBuffers, TheSeriesPeakIsTheRunsFigure) {
  for (SendRelease release : {SendRelease::kStepEnd, SendRelease::kCompletion}) {
    const ppsim::Run r = CommRun("r", release);
    ASSERT_EQ(r.metrics.send_bytes_per_device.size(), 4u);
    for (int d = 0; d < 4; ++d)
      EXPECT_EQ(r.metrics.send_bytes_per_device[d].Peak(), r.metrics.peak_send_bytes_per_device[d]) << "d" << d;
  }
  // Held to the end, device 0 holds every buffer it sent: 3 sends a
  // microbatch (F of c0 and c1, B of c1), 24 in all.
  const ppsim::Run end = CommRun("end", SendRelease::kStepEnd);
  EXPECT_EQ(end.metrics.peak_send_bytes_per_device[0], 24 * kTransfer);
  const ppsim::Run done = CommRun("done", SendRelease::kCompletion);
  // Freed at completion, it holds at most the 3 sends posted while their receivers are busy.
  EXPECT_EQ(done.metrics.peak_send_bytes_per_device[0], 3 * kTransfer);
}

// The cluster gauge: each strip's bar is the activations' bytes of all
// devices plus their send buffers, the send buffers' share stacked on top.
TEST(SendBuffers, StackedOnTheActivationsInBytes) {
  SendScene s(GaugeMode::kCluster);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(s.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(CheckLegibility(*list, *m).code, ErrorCode::kOk);
  EXPECT_TRUE(list->gauge_bytes);
  for (int r = 0; r < 2; ++r) {
    const ppsim::Run& run = r == 0 ? s.step_end : s.at_completion;
    const MemoryBytes act = MeasureMemoryBytes(run.timeline);
    const std::vector<Item> bars = Of(*list, Role::kGaugeBar, r), tops = Of(*list, Role::kSendBuffer, r);
    ASSERT_GT(bars.size(), 10u);
    ASSERT_GT(tops.size(), 5u);
    for (const Item& bar : bars) {
      ASSERT_EQ(bar.tick1, bar.tick0 + 1);  // one cycle a strip here
      std::int64_t held = 0, sent = 0;
      for (int d = 0; d < 4; ++d) {
        held += act.activations_per_device[d].At(bar.tick0);
        sent += run.metrics.send_bytes_per_device[d].At(bar.tick0);
      }
      EXPECT_EQ(bar.value, held + sent) << "tick " << bar.tick0;
      auto top = std::find_if(tops.begin(), tops.end(), [&](const Item& t) { return t.tick0 == bar.tick0; });
      if (sent == 0) {
        EXPECT_EQ(top, tops.end());
        continue;
      }
      ASSERT_NE(top, tops.end()) << "tick " << bar.tick0;
      EXPECT_EQ(top->value, sent);
      EXPECT_EQ(top->color, palette::kSendBuffer);
      EXPECT_EQ(top->box.y, bar.box.y);  // on the bar's top, inside it
      EXPECT_LE(top->box.h, bar.box.h);
      EXPECT_EQ(top->box.x, bar.box.x);
    }
  }
}

// PR #193903 in the default gauge (the fullest device, allocator's way):
// holding the buffers to the step's end raises the peak the gauge shows,
// by the buffers held at that tick.
TEST(SendBuffers, HoldingToTheStepsEndRaisesTheFullestDevicesPeak) {
  SendScene s;
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(s.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  std::int64_t peak[2] = {0, 0};
  for (int r = 0; r < 2; ++r) {
    const ppsim::Run& run = r == 0 ? s.step_end : s.at_completion;
    const MemoryBytes act = MeasureMemoryBytes(run.timeline, HoldMode::kResident);
    std::int64_t most = 0;
    for (int d = 0; d < 4; ++d)
      most = std::max(most, SumOf({act.activations_per_device[d], run.metrics.send_bytes_per_device[d]}).Peak());
    for (const Item& bar : Of(*list, Role::kGaugeBar, r)) peak[r] = std::max(peak[r], bar.value);
    EXPECT_EQ(peak[r], most) << run.name;
    for (const Item& line : Of(*list, Role::kPeakLine, r)) EXPECT_EQ(line.value, most);
  }
  EXPECT_GT(peak[0], peak[1]);
  EXPECT_EQ(list->gauge_scale, peak[0]);
  // The peak label says it in bytes; the legend names the send buffers.
  bool label = false, legend = false;
  for (const Item& it : list->items) {
    label = label || (it.role == Role::kGaugeLabel && it.text.find("fullest device peak ") == 0 &&
                      it.text.find("GiB") != std::string::npos);
    legend = legend || (it.role == Role::kLegendLabel && it.text.find("send buffers") == 0);
  }
  EXPECT_TRUE(label);
  EXPECT_TRUE(legend);
  bool swatch = false;
  for (const Item& it : Of(*list, Role::kLegendSwatch)) swatch = swatch || it.color == palette::kSendBuffer;
  EXPECT_TRUE(swatch);
}

TEST(SendBuffers, PixelsPageSvgAndText) {
  SendScene s(GaugeMode::kCluster);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(s.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  Result<std::string> png = RenderPng(*list, list->last_tick);
  ASSERT_TRUE(png.ok());
  const PngPixels pixels(*png);
  int checked = 0;
  for (const Item& top : Of(*list, Role::kSendBuffer)) {
    if (top.box.h < 3 || top.box.w < 3) continue;
    EXPECT_EQ(pixels.At(static_cast<int>(top.box.x + top.box.w / 2), static_cast<int>(top.box.y + top.box.h / 2)),
              palette::kSendBuffer)
        << "tick " << top.tick0;
    ++checked;
  }
  EXPECT_GT(checked, 5);
  const std::vector<Item> tops = Of(*list, Role::kSendBuffer);
  for (const Item& bar : Of(*list, Role::kGaugeBar)) {  // under the buffers, the activations
    auto top = std::find_if(tops.begin(), tops.end(), [&](const Item& t) { return t.run == bar.run && t.tick0 == bar.tick0; });
    if (bar.box.w < 3 || (top != tops.end() && top->box.h > bar.box.h - 2)) continue;
    const int y = static_cast<int>(bar.box.bottom()) - 1;
    EXPECT_EQ(pixels.At(static_cast<int>(bar.box.x + bar.box.w / 2), y), palette::kHeld) << "tick " << bar.tick0;
  }
  // The page: each share with its run, tick and bytes.
  const std::string html = WriteHtml(*list, PaceFor(list->last_tick, 30));
  const Item first = Of(*list, Role::kSendBuffer).front();
  EXPECT_NE(html.find("class=\"send-buffers\" data-run=\"" + std::to_string(first.run) + "\" data-tick=\"" +
                      std::to_string(first.tick0) + "\" data-value=\"" + std::to_string(first.value) + "\""),
            std::string::npos);
  EXPECT_NE(WriteSvg(*list, list->last_tick).find(Hex(palette::kSendBuffer)), std::string::npos);
  // The terminal: a "send" row under "held", its values in bytes.
  Result<DisplayList> text_list = LayOutText(s.input);
  ASSERT_TRUE(text_list.ok()) << text_list.error().message;
  const std::string text = PaintText(*text_list, text_list->last_tick, 200);
  EXPECT_NE(text.find("send: the send buffers' share of it"), std::string::npos) << text;
  EXPECT_NE(text.find("\nsend "), std::string::npos) << text;
  EXPECT_NE(text.find("MiB"), std::string::npos);
}

TEST(SendBuffers, LegibleAt760AndAPhoneAndPerDevice) {
  for (const auto& [display, width, height] : {std::tuple{760, 1920, 1080}, std::tuple{374, 748, 1100}}) {
    for (GaugeMode gauge : {GaugeMode::kFullest, GaugeMode::kDevice}) {
      SendScene s(gauge, width, height, display);
      auto m = NewMeasurer();
      Result<DisplayList> list = Layout(s.input, *m);
      ASSERT_TRUE(list.ok()) << list.error().message;
      EXPECT_EQ(CheckLegibility(*list, *m).code, ErrorCode::kOk) << display;
      EXPECT_FALSE(Of(*list, Role::kSendBuffer).empty());
    }
  }
}

// No send buffers, or no activation bytes to add them to: stage-sets, nothing stacked.
TEST(SendBuffers, StageSetsWithoutThem) {
  const ppsim::Run plain = CommRun("Plain", SendRelease::kStepEnd, CommOrder::kNone);
  const ppsim::Run no_bytes = CommRun("NoBytes", SendRelease::kStepEnd, CommOrder::kPytorch, false);
  for (const ppsim::Run* r : {&plain, &no_bytes}) {
    LayoutInput in;
    in.runs.push_back({r});
    auto m = NewMeasurer();
    Result<DisplayList> list = Layout(in, *m);
    ASSERT_TRUE(list.ok()) << list.error().message;
    EXPECT_FALSE(list->gauge_bytes) << r->name;
    EXPECT_TRUE(Of(*list, Role::kSendBuffer).empty()) << r->name;
  }
}

}  // namespace
}  // namespace ppsim::render::testing
