// Python keyword arguments -> ProblemOptions, the text the CLI's flags hold,
// so that ToProblem (io) checks them and a bad value gets the CLI's message
// and exit code (naming the keyword, "chunks", where the CLI names "--chunks"):
// P=4 -> "-P 4"; costs={"F": 1, "B": [2, 3]} -> "--cost F=1,B=2:3";
// comm=[1, 8, 1] -> "--comm 1:8:1"; cost_per="chunk" -> "--cost-per chunk". Only the spelling is translated here.
#pragma once

#include <pybind11/pybind11.h>

#include "ppsim/io/problem_options.h"

namespace ppsim::py {

struct ProblemArgs {
  pybind11::object P, M, chunks, costs, comm, hold, cost_file, memory_limit, cost_per;
  // simulate's model (a path to a model file, or a dict: docs/costs.md) and
  // Megatron layout string (str); None = none.
  pybind11::object model = pybind11::none(), layout = pybind11::none();
  // Sequence slices (simulate only; None = not given).
  pybind11::object slices = pybind11::none(), slice_costs = pybind11::none(), seq_len = pybind11::none(),
                   hidden = pybind11::none(), microbatch_costs = pybind11::none();
  // Microbatch lengths (microbatch_lengths.h; simulate only): a list of M
  // lengths or "uniform", length_range [MIN, MAX], length_seed, length_cost.
  pybind11::object microbatch_lengths = pybind11::none(), length_range = pybind11::none(),
                   length_seed = pybind11::none(), length_cost = pybind11::none();
  // Communication as ops (docs/comms.md), simulate's and compare's keywords: comms =
  // "pytorch", "pytorch-deferred", "adjacent", "megatron", "megatron-overlap" or "dualpipe", and the link.
  pybind11::object comms = pybind11::none(), link_latency = pybind11::none(), link_bandwidth = pybind11::none(),
                   link_concurrency = pybind11::none(), link_bytes = pybind11::none(),
                   link_send_release = pybind11::none();  // "step_end" or "completion"
  // The comm keywords, in the order every binding lists them.
  void SetComms(pybind11::object comms_, pybind11::object latency, pybind11::object bandwidth,
                pybind11::object concurrency, pybind11::object bytes, pybind11::object send_release) {
    comms = comms_;
    link_latency = latency;
    link_bandwidth = bandwidth;
    link_concurrency = concurrency;
    link_bytes = bytes;
    link_send_release = send_release;
  }
  // Recompute as an op (recompute.h), simulate's keywords: recompute = "full"
  // or "selective", recompute_at = "before_b" or "early", recompute_inputs a
  // number in [0, 1] (float, str "1/8", int or fractions.Fraction).
  pybind11::object recompute = pybind11::none(), recompute_at = pybind11::none(),
                   recompute_inputs = pybind11::none();
  // True iff P, M or chunks was given (not None).
  bool shape_given() const;
};

io::ProblemOptions ToOptions(const ProblemArgs& args);

// Adds the keyword arguments P=None, M=None, chunks=None, costs=None,
// comm=None, hold=None, cost_file=None, memory_limit=None, cost_per=None, in
// that order (cost_per: "stage", the default, or "chunk", as --cost-per).
#define PPSIM_PROBLEM_KWARGS                                                                        \
  pybind11::arg("P") = pybind11::none(), pybind11::arg("M") = pybind11::none(),                     \
  pybind11::arg("chunks") = pybind11::none(), pybind11::arg("costs") = pybind11::none(),            \
  pybind11::arg("comm") = pybind11::none(), pybind11::arg("hold") = pybind11::none(),               \
  pybind11::arg("cost_file") = pybind11::none(), pybind11::arg("memory_limit") = pybind11::none(), \
  pybind11::arg("cost_per") = pybind11::none()

}  // namespace ppsim::py
