// Reading PyTorch profiler traces (io/kineto_trace.h) in bytes/s, end to end
// (file -> SAX -> linked actions), on a generated trace of 256 MiB and 1 GiB
// in Kineto's layout: per PP: action one CPU range, 40 cpu_op events, 12
// launches with their ac2g flows, 12 kernels with theirs, and its
// gpu_user_annotation. The file is written once into /tmp (streamed, so
// generating it holds little memory) and kept for later runs. Goal
// (issue 26): >= 200 MB/s on one core, memory bounded by the events kept:
// `peak_rss_mb` is the process's peak resident set after reading.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "ppsim/io/kineto_trace.h"

namespace {

std::string Generate(std::int64_t mib) {
  const std::string path = "/tmp/ppsim_kineto_bench_" + std::to_string(mib) + "MiB.json";
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) >= static_cast<std::uintmax_t>(mib) << 20)
    return path;
  const std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr) return "";
  std::fprintf(f, "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": 0, \"world_size\": 1},\n"
                  "\"baseTimeNanoseconds\": 1735632360000000000, \"traceEvents\": [\n");
  long long ts = 5727640830000000, ext = 1, corr = 1;  // ns
  std::int64_t bytes = 0;
  auto t = [](long long ns) { return std::to_string(ns / 1000) + "." + std::to_string(1000 + ns % 1000).substr(1); };
  int op = 0;
  std::fprintf(f, "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, "
                  "\"ts\": %s, \"dur\": 9999999999.000, \"args\": {\"External id\": 0}}",
               t(ts).c_str());
  while (bytes < (mib << 20)) {
    const std::string name = "PP:0F" + std::to_string(op++);
    const long long start = ts, id = ext++;
    std::string s = ",\n{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"" + name +
                    "\", \"pid\": 1, \"tid\": 1, \"ts\": " + t(start) + ", \"dur\": 300.000, \"args\": {\"External id\": " +
                    std::to_string(id) + ", \"Record function id\": 0, \"Ev Idx\": " + std::to_string(id) + "}}";
    for (int k = 0; k < 40; ++k)
      s += ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": " +
           t(start + 1000 + k * 7000) + ", \"dur\": 5.125, \"args\": {\"External id\": " + std::to_string(ext++) +
           ", \"Record function id\": 0, \"Sequence number\": 123, \"Fwd thread id\": 0, \"Ev Idx\": 7}}";
    const long long gpu = start + 400000;
    for (int k = 0; k < 12; ++k, ++corr) {
      s += ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": " +
           t(start + 2000 + k * 20000) + ", \"dur\": 4.742, \"args\": {\"External id\": " + std::to_string(id) +
           ", \"cbid\": 211, \"correlation\": " + std::to_string(corr) + "}}";
      s += ",\n{\"ph\": \"s\", \"id\": " + std::to_string(corr) + ", \"pid\": 1, \"tid\": 1, \"ts\": " +
           t(start + 2000 + k * 20000) + ", \"cat\": \"ac2g\", \"name\": \"ac2g\"}";
      s += ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x256x64\", "
           "\"pid\": 0, \"tid\": 7, \"ts\": " + t(gpu + k * 80000) + ", \"dur\": 79.500, \"args\": {\"External id\": " +
           std::to_string(id) + ", \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": " +
           std::to_string(corr) + ", \"registers per thread\": 168, \"shared memory\": 213248, \"grid\": [66, 32, 1], "
           "\"block\": [384, 1, 1], \"est. achieved occupancy %\": 19}}";
      s += ",\n{\"ph\": \"f\", \"id\": " + std::to_string(corr) + ", \"pid\": 0, \"tid\": 7, \"ts\": " +
           t(gpu + k * 80000) + ", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}";
    }
    s += ",\n{\"ph\": \"X\", \"cat\": \"gpu_user_annotation\", \"name\": \"" + name + "\", \"pid\": 0, \"tid\": 7, \"ts\": " +
         t(gpu - 1) + ", \"dur\": 960.002, \"args\": {\"External id\": " + std::to_string(id) + "}}";
    ts += 1000000;
    bytes += static_cast<std::int64_t>(s.size());
    std::fwrite(s.data(), 1, s.size(), f);
  }
  std::fprintf(f, "\n], \"traceName\": \"generated\"}\n");
  std::fclose(f);
  std::filesystem::rename(tmp, path, ec);
  return ec ? "" : path;
}

void BM_ReadKinetoTrace(benchmark::State& state) {
  const std::string path = Generate(state.range(0));
  if (path.empty()) {
    state.SkipWithError("cannot write the trace into /tmp");
    return;
  }
  const auto size = static_cast<std::int64_t>(std::filesystem::file_size(path));
  std::size_t actions = 0;
  for (auto _ : state) {
    ppsim::Result<ppsim::io::KinetoTrace> t = ppsim::io::ReadKinetoTrace(path);
    if (!t) {
      state.SkipWithError(t.error().message.c_str());
      return;
    }
    actions = t->actions.size();
  }
  state.SetBytesProcessed(state.iterations() * size);
  state.counters["actions"] = static_cast<double>(actions);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}

BENCHMARK(BM_ReadKinetoTrace)->Arg(256)->Arg(1024)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
