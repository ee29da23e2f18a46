// The events of a Kineto trace that `ppsim explain` keeps, as the SAX pass
// (kineto_events.cc) collects them: raw, in file order, on the rank's clock
// in ns relative to `base_ns` (0 when `ts` is absolute). kineto_trace.cc
// links them into actions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kineto_source.h"
#include "ppsim/error.h"
#include "ppsim/op.h"

namespace ppsim::io {

struct KinetoEvents {
  Tick base_ns = 0;
  bool has_base = false;
  int rank = -1;
  int world_size = 0;
  std::int64_t events = 0;
  bool has_trace_events = false;  // a traceEvents array was seen

  struct Range {  // a CPU user_annotation: "PP:..." or "ProfilerStep#N"
    std::string name;
    Tick start = 0;
    Tick end = 0;
    std::int64_t ext_id = -1;
  };
  struct GpuRange {  // a gpu_user_annotation "PP:..."
    std::int64_t ext_id = -1;
    Tick start = 0;
    Tick end = 0;
  };
  struct Launch {  // a cuda_runtime / cuda_driver call with a correlation id
    Tick ts = 0;
    std::int64_t correlation = -1;
  };
  struct Kernel {  // kernel, gpu_memcpy, gpu_memset
    std::int64_t correlation = -1;
    Tick start = 0;
    Tick end = 0;
    int stream = -1;    // tid
    bool comm = false;  // communication (NCCL, DeepEP), not compute
  };
  std::vector<Range> pp;
  std::vector<Range> parts;  // "attn(F)", "mlp(W)": DeepSeek's part ranges
  std::vector<Range> steps;
  std::vector<GpuRange> gpu_pp;
  std::vector<Launch> launches;
  std::vector<Kernel> kernels;
};

// Parses the whole source. kParse with "byte N: <what>" (the caller adds
// the file) on a syntax error or a truncated file; kIo on a read error.
Result<KinetoEvents> CollectKinetoEvents(KinetoSource& source);

}  // namespace ppsim::io
