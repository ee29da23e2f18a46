// ppsim.layout(layout=None, P=None, chunks=None, num_layers=None,
// mtp_layers=None, decoder_first_pipeline_num_layers=None, ...) -> dict:
// `ppsim layout --json`'s object, by the same library call
// (jobs::LayoutReportFor), plus "text", what `ppsim layout` prints.
#include <string>

#include "args.h"
#include "bindings.h"
#include "errors.h"
#include "ppsim/jobs/layout_report.h"

namespace ppsim::py {
namespace {

namespace pyb = pybind11;

pyb::dict LayoutReport(const pyb::object& text, const pyb::object& P, const pyb::object& chunks,
                       const pyb::object& num_layers, const pyb::object& mtp_layers, const pyb::object& first,
                       const pyb::object& last, const pyb::object& embedding, const pyb::object& loss) {
  jobs::LayoutArgs args;  // None = not given
  const auto set = [](const pyb::object& value, const char* keyword, std::string& out) {
    if (!value.is_none()) out = IntText(value, keyword);
  };
  set(P, "P", args.P);
  set(chunks, "chunks", args.chunks);
  set(num_layers, "num_layers", args.num_layers);
  set(mtp_layers, "mtp_layers", args.mtp_layers);
  set(first, "decoder_first_pipeline_num_layers", args.decoder_first_pipeline_num_layers);
  set(last, "decoder_last_pipeline_num_layers", args.decoder_last_pipeline_num_layers);
  args.account_for_embedding_in_pipeline_split = BoolArg(embedding, "account_for_embedding_in_pipeline_split");
  args.account_for_loss_in_pipeline_split = BoolArg(loss, "account_for_loss_in_pipeline_split");
  const std::string layout = text.is_none() ? "" : TextArg(text, "layout");
  const jobs::LayoutReport report = Unwrap(jobs::LayoutReportFor(layout, args));
  pyb::dict out = pyb::module_::import("json").attr("loads")(pyb::bytes(report.json));
  out["text"] = report.text;
  return out;
}

}  // namespace

void BindLayout(pyb::module_& m) {
  m.def("layout", &LayoutReport, pyb::arg("layout") = pyb::none(), pyb::arg("P") = pyb::none(),
        pyb::arg("chunks") = pyb::none(), pyb::arg("num_layers") = pyb::none(), pyb::arg("mtp_layers") = pyb::none(),
        pyb::arg("decoder_first_pipeline_num_layers") = pyb::none(),
        pyb::arg("decoder_last_pipeline_num_layers") = pyb::none(),
        pyb::arg("account_for_embedding_in_pipeline_split") = false,
        pyb::arg("account_for_loss_in_pipeline_split") = false,
        "A Megatron --pipeline-model-parallel-layout string as Megatron reads it for P ranks (or, without one, "
        "the split Megatron's flags give): "
        "{'stages': [[{'layers', 'decoder_layer_ids', ...} per vp stage] per pp rank], 'megatron_layout', "
        "'megatron_flags', 'torchtitan_module_fqns_per_model_part', 'warnings', ..., 'text'} (docs/layouts.md)");
}

}  // namespace ppsim::py
