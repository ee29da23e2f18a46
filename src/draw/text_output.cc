#include "ppsim/render/text_output.h"

#include <cstdint>
#include <string>

#include "cell_measurer.h"
#include "ppsim/render/text_painter.h"

namespace ppsim::render {

Result<DisplayList> LayOutText(const LayoutInput& input) {
  std::int64_t total = 0;  // each term ≤ 2^38 (problem.h's limits)
  for (const RunInput& r : input.runs) {
    const Problem& p = r.run->timeline.problem;
    total += std::int64_t{p.P} * p.v * p.M;
  }
  if (total > kMaxTextStageMicrobatches) {
    return Error::Field(ErrorCode::kTooLarge, "format",
                        " text: " + std::to_string(total) + " stage-microbatches (P·v·M), over the limit " +
                            std::to_string(kMaxTextStageMicrobatches) +
                            " a text chart is drawn from; use smaller P or M, or another format");
  }
  LayoutInput in = input;
  in.width = in.height = kTextFrame;
  in.display_width = 0;
  in.cells = true;
  CellMeasurer cells;
  return Layout(in, cells);
}

Result<std::string> RenderText(const LayoutInput& input, const TextOptions& options) {
  Result<DisplayList> list = LayOutText(input);
  if (!list.ok()) return list.error();
  return PaintText(*list, list->last_tick, options.columns, options.ansi);
}

Result<std::string> RenderRunText(const Run& run, const TextOptions& options) {
  LayoutInput in;
  in.runs.push_back({&run});
  return RenderText(in, options);
}

}  // namespace ppsim::render
