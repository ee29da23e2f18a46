// One pipeline rank's PyTorch profiler trace (torch.profiler / Kineto
// Chrome-trace JSON, plain or gzip), reduced to what `ppsim explain` reads:
// the rank, its ProfilerStep ranges and, for one step, every `PP:<action>`
// range PyTorch's pipelining runtime records (record_function("PP:0F3")),
// with the CPU interval it was issued in and the GPU interval it ran in.
//
// Times are integer nanoseconds on the rank's own clock: `ts` relative to
// `baseTimeNanoseconds` (current Kineto, 3 decimals) or absolute epoch µs
// (older traces, no base), both read exactly from the number's digits.
// An action's GPU interval is its `gpu_user_annotation` (same `External id`
// as the CPU range; Kineto opens it 1 ns before the first kernel and closes
// it 1 ns after the last, which is taken off), or else the span of the
// kernels, copies and sets whose launch (`cuda_runtime`/`cuda_driver`,
// linked by `args.correlation`) lies inside the CPU range. docs/explain.md.
//
// The file is read streaming (a SAX parser over 1 MiB chunks): memory is
// bounded by the events kept (PP ranges, steps, launches and kernels), not
// by the file's size.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ppsim/error.h"
#include "ppsim/op.h"

namespace ppsim::io {

struct KinetoAction {
  std::string name;           // the action without "PP:": "0F3", "1SEND_F3", "0REDUCE_GRAD"
  Tick cpu_start = 0;         // ns, this rank's clock
  Tick cpu_end = 0;
  Tick gpu_start = -1;        // ns; -1: no GPU work found for it
  Tick gpu_end = -1;
  Tick first_launch = -1;     // ns: the first kernel launch inside the CPU range, -1 if none seen
  bool annotated = false;     // GPU interval from a gpu_user_annotation (else from kernels)
};

// A kernel (or copy, or set) on the GPU.
struct KinetoKernel {
  int stream = -1;
  Tick start = 0;  // ns
  Tick end = 0;
  bool comm = false;  // communication (NCCL, DeepEP), not compute
};

// A part range of traces without PP: ranges, as DeepSeek's: "attn(F)",
// "mlp(W)" (a CPU user_annotation), with the kernels launched inside it.
struct KinetoPart {
  std::string name;  // "attn"
  char kind = 'F';   // F, B or W
  Tick cpu_start = 0;
  Tick cpu_end = 0;
  std::vector<KinetoKernel> kernels;
};

struct KinetoStep {
  std::int64_t number = 0;  // N of ProfilerStep#N
  Tick cpu_start = 0;
  Tick cpu_end = 0;
};

struct KinetoTrace {
  std::string file;     // as given
  int rank = -1;        // distributedInfo.rank
  int world_size = 0;   // distributedInfo.world_size, 0 if absent
  bool relative = false;  // ts relative to baseTimeNanoseconds (else absolute epoch µs)
  std::vector<KinetoStep> steps;      // every ProfilerStep#N, in file order
  std::int64_t step = -1;             // the step read (-1: no ProfilerStep ranges; all actions)
  std::vector<KinetoAction> actions;  // the step's PP: actions, in CPU start order
  // Without PP: ranges: the step's part ranges, in CPU start order (else empty).
  std::vector<KinetoPart> parts;
  std::int64_t events = 0;            // trace events seen
};

struct KinetoReadOptions {
  // ProfilerStep#N to read; -1 (default): the last complete one, that is
  // the last whose every compute action (F, B, I, W) has GPU work.
  std::int64_t step = -1;
  // A document with no traceEvents array (a truth.json beside the traces in
  // a folder) returns a trace of rank -1 instead of an error.
  bool skip_non_trace = false;
  // Called after each further GiB read (decompressed bytes), for a line of
  // progress on huge files; nullptr = none.
  std::function<void(const std::string& file, std::int64_t bytes)> progress;
};

// Reads `path` (plain JSON, or gzip by its magic bytes). Errors, each one
// line naming the file: kIo if unreadable, a ".gz" that is not gzip, or corrupt gzip;
// kParse for JSON syntax or a truncated file ("FILE: byte N: ..."), a
// missing distributedInfo.rank, neither PP: nor part ranges, or an unknown
// --step; kParse naming the event and byte for a kept event whose ts or dur
// is no time (a string, a negative dur, beyond 2^62 ns with the base).
Result<KinetoTrace> ReadKinetoTrace(const std::string& path, const KinetoReadOptions& options = {});

// "5727640830969.402" µs -> 5727640830969402 ns, exactly; false if `text` is
// not a decimal number (an exponent is read through double, rounded to ns).
bool MicrosecondsToNs(const char* text, size_t size, Tick& ns);

}  // namespace ppsim::io
