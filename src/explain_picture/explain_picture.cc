// The picture of a measured run against its ideal (explain_picture.h): the
// explain report's two timelines handed to the layout as two runs, as a
// scene's runs are (scene_render/present.cc), then painted per format.
#include "ppsim/explain_picture/explain_picture.h"

#include <algorithm>

#include "ppsim/io/atomic_file.h"
#include "ppsim/render/render.h"

namespace ppsim::explain_picture {
namespace {

// ns as µs, exactly: 3122400 -> "3122.4".
std::string Us(Tick ns) {
  const Tick a = ns < 0 ? -ns : ns;
  std::string frac = std::to_string(a % 1000 + 1000).substr(1);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return (ns < 0 ? "-" : "") + std::to_string(a / 1000) + (frac.empty() ? "" : "." + frac);
}

}  // namespace

Result<Picture> PictureOf(const jobs::ExplainReport& r) {
  if (!r.runs)
    return Fail(ErrorCode::kUsage, std::string("output: ") +
                                       (r.timers.empty() ? "a trace of parts (no PP: ranges)"
                                                         : "a Megatron-LM timers log (no per-op times)") +
                                       " has no run to draw; write its report (text or --json) instead");
  Picture p;
  p.runs = {Measured("Measured", r.runs->measured), Measured("Ideal", r.runs->ideal)};
  render::LayoutInput& in = p.input;
  in.title = "Measured against ideal: " + (r.schedule.empty() ? std::string("a custom order") : r.schedule) +
             (r.step >= 0 ? ", ProfilerStep#" + std::to_string(r.step) : std::string());
  in.subtitle = std::to_string(r.P) + " ranks \u00B7 " + std::to_string(r.M) + " microbatches" +
                (r.v > 1 ? " \u00B7 v = " + std::to_string(r.v) : std::string()) +
                " \u00B7 times in \u00B5s from each run's first op \u00B7 ideal: the same orders at the median "
                "costs, faults removed";
  in.ns_ticks = true;
  render::RunInput measured{&p.runs[0], "Measured (the trace)"};
  for (const jobs::LateOp& l : r.late)
    measured.marks.push_back({l.rank, l.ideal_start, l.start, l.late, "+" + Us(l.late)});
  in.runs.push_back(std::move(measured));
  in.runs.push_back({&p.runs[1], "Ideal (placed by ppsim)"});
  if (!r.late.empty())
    in.mark_legend = "late: from where the ideal run starts an op to where it started (+\u00B5s), " +
                     std::to_string(r.late.size()) + " ops late by 1 % of the ideal makespan or more";
  in.closing.push_back("measured " + Us(r.measured.makespan) + " \u00B5s \u00B7 replay " + Us(r.replay.makespan) +
                       " \u00B5s \u00B7 ideal " + Us(r.ideal.makespan) + " \u00B5s");
  if (r.findings.empty()) in.closing.push_back("no finding: nothing cost the step time beyond the thresholds");
  for (const jobs::Finding& f : r.findings) in.closing.push_back(f.text);
  return p;
}

Error WritePictures(const jobs::ExplainReport& report, const std::vector<std::string>& paths) {
  Result<Picture> picture = PictureOf(report);
  if (!picture) return picture.error();
  std::vector<render::OutputFormat> formats;
  for (const std::string& path : paths) {
    Result<render::OutputFormat> f = render::FormatFor(path, "");
    if (!f) return f.error();
    formats.push_back(*f);
  }
  std::vector<io::OutputFile> staged;  // all or none: each drawn into a temporary, moved into place at the end
  for (const std::string& path : paths) {
    Result<io::OutputFile> file = io::OutputFile::Open(path, io::OutputFile::Devices::kStaged);
    if (!file) return file.error();
    staged.push_back(std::move(*file));
  }
  for (size_t i = 0; i < paths.size(); ++i) {
    render::RenderOptions ro;
    ro.format = formats[i];
    Result<render::DisplayList> list = render::LayOut(picture->input, ro);
    if (!list) return list.error();
    if (Error e = render::Paint(*list, staged[i].into(), ro); !e.ok()) return e;
  }
  for (io::OutputFile& file : staged)
    if (Error e = file.Commit(); !e.ok()) return e;
  return Error::Ok();
}

Result<std::string> PictureBytes(const jobs::ExplainReport& report, render::OutputFormat format) {
  Result<Picture> picture = PictureOf(report);
  if (!picture) return picture.error();
  render::RenderOptions ro;
  ro.format = format;
  return render::RenderToBytes(picture->input, ro);
}

}  // namespace ppsim::explain_picture
