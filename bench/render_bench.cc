// Rendering speed for the default scene (GPipe vs 1F1B, P=4, M=6) at
// 1920x1080: frames painted per second (items_per_second of BM_PaintFrame),
// the layout, and the whole .mp4 render (paint + ffmpeg) against the video's
// own duration — counter `x_realtime` = video seconds / wall seconds, and
// `cpu_s` = CPU seconds of this process and ffmpeg together per render (a
// figure that does not depend on what else the machine is running).
// Goal: x_realtime > 4 on two cores. Larger scenes for scale.
#include <benchmark/benchmark.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ppsim/run.h"
#include "render/frame_painter.h"
#include "ppsim/render/layout.h"
#include "render/pango_measurer.h"
#include "ppsim/render/legibility.h"
#include "ppsim/render/video.h"
#include "ppsim/simulate.h"

namespace {

using namespace ppsim;
using namespace ppsim::render;

struct Scene {
  std::vector<Run> runs;
  LayoutInput input;
  std::unique_ptr<TextMeasurer> measurer;
};

std::unique_ptr<Scene> MakeScene(int P, int M) {
  auto s = std::make_unique<Scene>();
  s->runs.reserve(2);
  for (auto [name, schedule] : {std::pair{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}) {
    Problem p;
    p.P = P;
    p.M = M;
    s->runs.push_back(Measured(name, std::move(*Simulate(schedule, p))));
  }
  s->input.title = "GPipe vs 1F1B";
  s->input.runs = {{&s->runs[0], "GPipe — all forwards, then all backwards"},
                   {&s->runs[1], "1F1B — start the backwards as soon as it is full"}};
  s->input.closing = {"same finish: 18 cycles · same bubble: 24 idle stage-slots",
                      "activations held at the peak: GPipe 23 · 1F1B 9"};
  s->measurer = std::move(*PangoMeasurer::Create());
  return s;
}

void BM_Layout(benchmark::State& state) {
  auto s = MakeScene(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    Result<DisplayList> list = Layout(s->input, *s->measurer);
    benchmark::DoNotOptimize(list->items.size());
    Error e = CheckLegibility(*list, *s->measurer);
    benchmark::DoNotOptimize(e.code);
  }
}
BENCHMARK(BM_Layout)->Args({4, 6})->Args({32, 256})->Unit(benchmark::kMillisecond);

// One frame per iteration, cycling through the ticks.
void BM_PaintFrame(benchmark::State& state) {
  auto s = MakeScene(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const DisplayList list = std::move(*Layout(s->input, *s->measurer));
  FramePainter painter(list);
  Tick t = 0;
  for (auto _ : state) {
    Image image = painter.Paint(t);
    benchmark::DoNotOptimize(image.data[0]);
    t = t == list.last_tick ? 0 : t + 1;
  }
  state.SetItemsProcessed(state.iterations());  // frames/s
  state.counters["items"] = static_cast<double>(list.items.size());
}
BENCHMARK(BM_PaintFrame)->Args({4, 6})->Args({32, 256})->Unit(benchmark::kMillisecond);

// User + system time of this process and its waited-for children (ffmpeg).
double CpuSeconds() {
  auto seconds = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6; };
  rusage self{}, children{};
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &children);
  return seconds(self.ru_utime) + seconds(self.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime);
}

// The whole video: paint every tick, pipe to ffmpeg, H.264 at 30 fps.
void BM_RenderMp4(benchmark::State& state) {
  auto s = MakeScene(4, 6);
  const DisplayList list = std::move(*Layout(s->input, *s->measurer));
  VideoOptions o;
  o.pacing = PaceFor(list.last_tick, 30);
  const std::string path = "/tmp/ppsim-render-bench-" + std::to_string(::getpid()) + ".mp4";
  const double video_seconds = static_cast<double>(o.pacing.TotalFrames(list.last_tick)) / o.pacing.fps;
  double wall = 0;
  const double cpu_before = CpuSeconds();
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    Error e = EncodeVideo(list, path, o);
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (e.code != ErrorCode::kOk) state.SkipWithError(e.message.c_str());
  }
  std::remove(path.c_str());
  state.counters["video_s"] = video_seconds;
  state.counters["x_realtime"] = video_seconds * static_cast<double>(state.iterations()) / wall;
  state.counters["cpu_s"] = (CpuSeconds() - cpu_before) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_RenderMp4)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
