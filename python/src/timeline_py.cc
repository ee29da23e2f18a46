#include "timeline_py.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>

#include "errors.h"
#include "ppsim/critical_path.h"
#include "ppsim/memory_bytes.h"
#include "ppsim/io/pytorch_csv.h"
#include "ppsim/io/schedule_file.h"
#include "ppsim/io/simulation_json.h"
#include "ppsim/io/timeline_json.h"
#include "ppsim/validate.h"
#include "args.h"
#include "bindings.h"
#include "metrics_py.h"
#include "repr.h"

namespace ppsim::py {

namespace pyb = pybind11;

PyTimeline::PyTimeline(Timeline timeline) : unmeasured_(std::make_shared<Unmeasured>()) {
  unmeasured_->run.name = timeline.schedule.name;
  unmeasured_->run.timeline = std::move(timeline);
  run_ = std::shared_ptr<const Run>(unmeasured_, &unmeasured_->run);
}

const Run& PyTimeline::run() {
  if (unmeasured_)
    std::call_once(unmeasured_->measured, [this] { unmeasured_->run.metrics = Measure(unmeasured_->run.timeline); });
  return *run_;
}

namespace {

// One row of the record array; numpy's aligned dtype below has this layout.
struct OpRecord {
  std::int32_t device, stage;
  char32_t kind;  // numpy 'U1'
  std::int32_t microbatch;
  std::int64_t start, end;
  std::int32_t overlap;
};

pyb::object OpDtype() {
  pyb::module_ np = pyb::module_::import("numpy");
  pyb::list fields;
  for (auto [name, type] : {std::pair{"device", "<i4"}, {"stage", "<i4"}, {"kind", "<U1"}, {"microbatch", "<i4"},
                            {"start", "<i8"}, {"end", "<i8"}, {"overlap", "<i4"}})
    fields.append(pyb::make_tuple(name, type));
  pyb::object dtype = np.attr("dtype")(fields, pyb::arg("align") = true);
  if (dtype.attr("itemsize").cast<size_t>() != sizeof(OpRecord) ||
      dtype.attr("fields")["start"][pyb::int_(1)].cast<size_t>() != offsetof(OpRecord, start))
    throw PyError{Fail(ErrorCode::kInternal, "numpy's record layout differs from ppsim's")};
  return dtype;
}

std::vector<render::RunInput> One(PyTimeline& t) { return {render::RunInput{&t.run()}}; }

pyb::dict ToPytorch(const Timeline& t) {
  const io::PytorchCsv csv = Unwrap(io::PytorchCsvFromSchedule(t.schedule));
  pyb::dict out;
  for (size_t rank = 0; rank < csv.rows.size(); ++rank) {
    pyb::list actions;
    for (const io::CsvCell& cell : csv.rows[rank])
      actions.append(cell.actions.empty() ? pyb::object(pyb::none()) : pyb::str(io::PytorchCellText(cell)));
    out[pyb::int_(rank)] = actions;
  }
  return out;
}

// The bytes `ppsim simulate --json [--critical-path]` prints (the same writer).
std::string ToJson(PyTimeline& t, bool critical_path) {
  std::string out;
  io::JsonOut w([&out](std::string_view bytes) {
    out.append(bytes);
    return true;
  });
  if (!io::WriteSimulationJson(w, t.timeline(), t.metrics(), critical_path) || !w.Finish())
    throw PyError{Fail(ErrorCode::kInternal, "the JSON writer failed")};
  return out;
}

// `ppsim simulate --json | ppsim validate -`: the same reader and checker.
pyb::list Validate(PyTimeline& t) {
  const std::string json = ToJson(t, false);
  const TimelineToCheck check = Unwrap(io::ParseTimelineJson(json, "<timeline>"));
  pyb::list out;
  for (const Violation& v : ValidateTimeline(check))
    out.append(pyb::dict(pyb::arg("rule") = v.rule, pyb::arg("message") = v.message));
  return out;
}

pyb::array_t<std::int64_t> Vector(const std::vector<std::int64_t>& v) { return pyb::array_t<std::int64_t>(v.size(), v.data()); }

// Bytes (memory_bytes.h), or None when the problem has no memory model.
pyb::object Bytes(const Timeline& t, pyb::object (*read)(const MemoryBytes&)) {
  if (!t.problem.memory.enabled()) return pyb::none();
  return read(MeasureMemoryBytes(t));
}

}  // namespace

pyb::object OpsArray(const Timeline& t) {
  const std::vector<PlacedOp> ops = t.Ops();
  pyb::module_ np = pyb::module_::import("numpy");
  pyb::array records = np.attr("empty")(ops.size(), OpDtype());
  auto* out = static_cast<OpRecord*>(records.mutable_data());
  for (size_t i = 0; i < ops.size(); ++i) {
    const PlacedOp& op = ops[i];
    out[i] = OpRecord{op.device, op.stage, static_cast<char32_t>(KindChar(op.kind)), op.microbatch, op.start, op.end,
                      op.overlap};
  }
  return records.attr("view")(np.attr("recarray"));
}

void BindTimeline(pyb::module_& m) {
  using T = PyTimeline;
  pyb::class_<T> cls(m, "Timeline", "One schedule placed in time (see docs/python.md).");
  // Every metric of the table (metric_table.h), under its JSON key and with
  // the JSON's value: a row added there is a property here.
  for (const MetricInfo& metric : MetricTable()) {
    if (metric.json_key != nullptr) {
      cls.def_property_readonly(
          metric.json_key, [&metric](T& t) { return MetricObject(metric, t.metrics(), t.timeline().problem, -1); },
          metric.doc);
    }
    if (metric.json_per_device_key != nullptr) {
      cls.def_property_readonly(
          metric.json_per_device_key,
          [&metric](T& t) { return MetricObject(metric, t.metrics(), t.timeline().problem, kEachDevice); }, metric.doc);
    }
  }
  cls.def_property_readonly("schedule", [](T& t) { return t.timeline().schedule.name; })
      .def_property_readonly("P", [](T& t) { return t.timeline().problem.P; })
      .def_property_readonly("M", [](T& t) { return t.timeline().problem.M; })
      .def_property_readonly("v", [](T& t) { return t.timeline().problem.v; })
      .def_property_readonly("slices", [](T& t) { return t.timeline().problem.slices; },
                             "sequence slices per microbatch (1 = none); to_json()'s ops carry each one's slice")
      .def_property_readonly("stages", [](T& t) { return t.timeline().problem.stages(); })
      .def_property_readonly("placement", [](T& t) { return PlacementName(t.timeline().problem.placement); })
      .def_property_readonly("split_backward", [](T& t) { return t.timeline().schedule.split_backward; })
      .def_property_readonly("comm", [](T& t) { return t.timeline().problem.comm; })
      .def_property_readonly("hold", [](T& t) { return HoldModeName(t.timeline().problem.hold); })
      .def_property_readonly("cost_basis", [](T& t) { return CostBasisName(t.timeline().problem.cost_basis); })
      .def_property_readonly("ticks_per_unit",
                             [](T& t) { return std::max<std::int64_t>(1, t.timeline().problem.ticks_per_unit); })
      .def_property_readonly("peak_per_device", [](T& t) { return Vector(t.metrics().activations.peak_per_device); },
                             "= peak_activations_per_device")
      .def_property_readonly("busy_per_device", [](T& t) { return Vector(t.metrics().busy_per_device); })
      .def_property_readonly("span_per_device", [](T& t) { return Vector(t.metrics().span_per_device); })
      .def_property_readonly("peak_bytes_per_device", [](T& t) {
        return Bytes(t.timeline(), [](const MemoryBytes& b) -> pyb::object { return Vector(b.peak_per_device); });
      }, "static + highest activation bytes per device (None without a memory model)")
      .def_property_readonly("static_bytes_per_device", [](T& t) {
        return Bytes(t.timeline(), [](const MemoryBytes& b) -> pyb::object { return Vector(b.static_per_device); });
      })
      .def_property_readonly("memory_limit_exceeded", [](T& t) {
        return Bytes(t.timeline(), [](const MemoryBytes& b) -> pyb::object { return pyb::bool_(b.exceeded); });
      })
      .def_property_readonly("ops", [](T& t) { return OpsArray(t.timeline()); },
                             "numpy record array: device, stage, kind ('F','B','W'), microbatch, start, end, overlap")
      .def("__len__", [](T& t) { return t.timeline().schedule.op_count(); })
      .def("to_json", [](T& t, const pyb::object& critical_path) {
             return ToJson(t, BoolArg(critical_path, "critical_path"));
           },
           pyb::arg("critical_path") = false, "the bytes `ppsim simulate --json` prints")
      .def("critical_path", [](T& t) {
             const std::vector<int> path = CriticalPathIndices(t.timeline());
             return pyb::array_t<int>(path.size(), path.data());
           }, "indices into .ops of one chain from tick 0 to the makespan")
      .def("validate", &Validate, "violations (dicts: rule, message); empty iff legal and tight")
      .def("to_pytorch", [](T& t) { return ToPytorch(t.timeline()); },
           "{rank: [action strings]} as PyTorch's PipelineScheduleMulti.pipeline_order holds them")
      .def("export", [](T& t, const pyb::object& format) {
             Result<std::string> text = io::ExportSchedule(TextArg(format, "format"), t.timeline());
             if (!text) throw PyError{text.error().Renamed("format")};  // the library's "export" is this keyword
             return *text;
           },
           pyb::arg("format"), "the schedule as 'pytorch-csv', 'text' or 'pytorch-comms-csv' (`simulate --export`)")
      .def("to_pandas", [](T& t) {
             pyb::object pd = pyb::module_::import("pandas");
             return pd.attr("DataFrame")(OpsArray(t.timeline()));
           }, "the ops as a pandas DataFrame (needs python3-pandas)")
      .def("svg", [](T& t, const pyb::object& width, const pyb::object& height) {
             return RunsSvg(One(t), IntArg(width, "width"), IntArg(height, "height"));
           },
           pyb::arg("width") = 1200, pyb::arg("height") = 420, "the chart `ppsim render` draws, as SVG")
      .def("_repr_svg_", [](T& t) -> pyb::object {
        std::optional<std::string> svg = RunsSvgOrNone(One(t));
        return svg ? pyb::object(pyb::str(*svg)) : pyb::object(pyb::none());
      })
      .def("_repr_html_", [](T& t) { return RunsHtml(One(t)); })
      .def("__repr__", [](T& t) {
        const Timeline& tl = t.timeline();
        return "<ppsim.Timeline " + tl.schedule.name + " P=" + std::to_string(tl.problem.P) + " M=" +
               std::to_string(tl.problem.M) + " v=" + std::to_string(tl.problem.v) +
               " makespan=" + std::to_string(t.metrics().makespan) + ">";
      });
}

}  // namespace ppsim::py
