#include "problem_options.h"

namespace ppsim::cli {

void AddProblemOptions(CLI::App& cmd, io::ProblemOptions& o) {
  cmd.add_option("-P,--stages", o.P, "pipeline devices (default 4)");
  cmd.add_option("-M,--microbatches", o.M, "microbatches (default 6)");
  cmd.add_option("--chunks,-v", o.chunks, "chunks (virtual stages) per device (default 1)");
  cmd.add_option("--cost", o.cost, "op costs in ticks: F=1,B=2,W=1,FB=2; per stage F=3:1:1:2 (default F=1,B=1,W=1)");
  cmd.add_option("--comm", o.comm,
                 "latency in ticks on cross-device dependencies (default 0); per hop s->s+1: 1:8:1 (S-1 values)");
  cmd.add_option("--cost-file", o.cost_file, "costs, comm and memory model from a TOML file (docs/costs.md)");
  cmd.add_option("--memory-limit", o.memory_limit, "device memory limit in bytes: report the first tick over it");
  cmd.add_option("--cost-per", o.cost_per,
                 "what --cost describes: stage = one device's share of the model, a chunk costs 1/v of it, ticks "
                 "rescaled to stay whole (default); chunk = one op as given");
  cmd.add_option("--group", o.group,
                 "microbatches per group (Megatron's microbatch_group_size_per_vp_stage; interleaved, combined-1f1b)");
  cmd.add_flag("--no-overlap", o.no_overlap,
               "the model has no overlapped F&B call: dualpipe/dualpipev run each pair as its F, then its B");
  cmd.add_option("--slices", o.slices, "sequence slices per microbatch, K (seq1f1b; default 1)");
  cmd.add_option("--slice-costs", o.slice_costs,
                 "how a microbatch's cost splits over its slices: equal (default), causal (needs --seq-len, "
                 "--hidden), or K relative costs 1:2:3");
  cmd.add_option("--seq-len", o.seq_len, "tokens per microbatch: --slices must divide it");
  cmd.add_option("--hidden", o.hidden, "hidden size, for --slice-costs causal");
  cmd.add_option("--microbatch-costs", o.microbatch_costs,
                 "each microbatch's cost as a multiple of its stage's, M values 1:3:2:1 (default 1 each)");
  cmd.add_option("--microbatch-lengths", o.microbatch_lengths,
                 "each microbatch's length in tokens, M values 512:4096:1024, or uniform (seeded draws in "
                 "--length-range); its cost weight by --length-cost (docs/costs.md)");
  cmd.add_option("--length-range", o.length_range, "uniform microbatch lengths: MIN:MAX tokens, inclusive");
  cmd.add_option("--length-seed", o.length_seed, "uniform microbatch lengths: the draw's seed (default 1)");
  cmd.add_option("--length-cost", o.length_cost,
                 "cost weight of a length L: linear = L (default), causal = L(12 hidden + 1 + L) (needs --hidden)");
  cmd.add_option("--recompute", o.recompute,
                 "recompute as an op R before each B: off (default), full (the stage's F again), selective (a "
                 "--model's recomputed layers)");
  cmd.add_option("--recompute-at", o.recompute_at,
                 "where R waits: before_b = after B's gradient (Megatron, default), early = as soon as its device is "
                 "free (Mario-like)");
  cmd.add_option("--recompute-inputs", o.recompute_inputs,
                 "with --recompute: share of a stage's activation bytes held between F and R, 0..1 (0.125 or 1/8; "
                 "default 0)");
  cmd.add_option("--comms", o.comms,
                 "communication as SEND/RECV ops, lowered by: pytorch, pytorch-deferred, adjacent, megatron, "
                 "megatron-overlap, dualpipe (docs/comms.md; "
                 "default none: --comm's latency model)");
  cmd.add_option("--link-latency", o.link_latency, "with --comms: each transfer's latency (default 0)");
  cmd.add_option("--link-bandwidth", o.link_bandwidth, "with --comms: bytes a directed link carries per cost unit");
  cmd.add_option("--link-concurrency", o.link_concurrency,
                 "with --comms: RECVs a device may have pending before its next call waits (default 1; 0 = unlimited)");
  cmd.add_option("--link-bytes", o.link_bytes, "with --comms: bytes of one transfer; per boundary b0:b1:... (S-1 values)");
  cmd.add_option("--link-send-release", o.link_send_release,
                 "with --comms: a send's buffer is freed at step_end (PyTorch's runtime, default) or at completion");
  cmd.add_option("--hold", o.hold, "activation accounting: held = [F end, B start) (default), resident = [F start, B/W end)");
}

void AddModelOptions(CLI::App& cmd, io::ProblemOptions& o) {
  cmd.add_option("--model", o.model,
                 "a model's layers (TOML, docs/costs.md): with --layout, each stage's costs are its layers' sums");
  cmd.add_option("--layout", o.layout,
                 "Megatron's --pipeline-model-parallel-layout string splitting the model's layers (docs/layouts.md)");
}

}  // namespace ppsim::cli
