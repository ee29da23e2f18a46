// ppsim.layout(layout, P, chunks=None, num_layers=None, mtp_layers=None) ->
// dict: `ppsim layout --json`'s object, by the same library call
// (jobs::MakeLayoutReport), plus "text", what `ppsim layout` prints.
#include <string>

#include "args.h"
#include "bindings.h"
#include "errors.h"
#include "ppsim/jobs/layout_report.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

pyb::dict LayoutReport(const pyb::object& text, const pyb::object& P, const pyb::object& chunks,
                       const pyb::object& num_layers, const pyb::object& mtp_layers) {
  jobs::LayoutArgs args;  // None = not given
  args.P = P.is_none() ? "" : IntText(P, "P");
  if (!chunks.is_none()) args.chunks = IntText(chunks, "chunks");
  if (!num_layers.is_none()) args.num_layers = IntText(num_layers, "num_layers");
  if (!mtp_layers.is_none()) args.mtp_layers = IntText(mtp_layers, "mtp_layers");
  const std::string layout = TextArg(text, "layout");
  const LayoutOptions options = Unwrap(jobs::ParseLayoutArgs(args));
  const jobs::LayoutReport report = Unwrap(jobs::MakeLayoutReport(layout, options));
  pyb::dict out = pyb::module_::import("json").attr("loads")(pyb::bytes(report.json));
  out["text"] = report.text;
  return out;
}

}  // namespace

void BindLayout(pyb::module_& m) {
  m.def("layout", &LayoutReport, pyb::arg("layout"), pyb::arg("P") = pyb::none(), pyb::arg("chunks") = pyb::none(),
        pyb::arg("num_layers") = pyb::none(), pyb::arg("mtp_layers") = pyb::none(),
        "A Megatron --pipeline-model-parallel-layout string as Megatron reads it for P ranks: "
        "{'stages': [[{'layers', 'decoder_layer_ids', ...} per vp stage] per pp rank], 'megatron_layout', "
        "'megatron_flags', 'torchtitan_module_fqns_per_model_part', 'warnings', ..., 'text'} (docs/layouts.md)");
}

}  // namespace ppsim::py
