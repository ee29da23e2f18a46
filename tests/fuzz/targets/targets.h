// Fuzz targets: each takes arbitrary bytes and runs one reader through its
// public API, as a user's file would. A target returns 0; any crash, hang,
// sanitizer report or uncaught exception is a finding. Built two ways: as
// libFuzzer binaries (clang, ASan+UBSan; fuzz_main.cc, scripts/fuzz.sh), and
// into ppsim_fuzz_tests (any compiler), which replays every input kept under
// tests/fuzz/<target>/ as an ordinary test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>

namespace ppsim::fuzz {

int ClaimParser(const std::uint8_t* data, std::size_t size);   // claims and {templates}, parsed and evaluated
int SceneLoader(const std::uint8_t* data, std::size_t size);   // a scene file, loaded, and run when small
int PytorchCsv(const std::uint8_t* data, std::size_t size);    // a PyTorch CSV schedule, read and placed
int ScheduleText(const std::uint8_t* data, std::size_t size);  // a ppsim text schedule, read and placed
int TimelineJson(const std::uint8_t* data, std::size_t size);  // a timeline JSON, read and validated
int KinetoTrace(const std::uint8_t* data, std::size_t size);   // a profiler trace, read (last and #3 step)
int ModelToml(const std::uint8_t* data, std::size_t size);     // a model file (TOML), read and checked
int ModelJson(const std::uint8_t* data, std::size_t size);     // a model file's JSON twin, read and checked
int MegatronTimersLog(const std::uint8_t* data, std::size_t size);  // a Megatron-LM timers log, read and explained

struct Target {
  const char* name;  // also the directory of its inputs: tests/fuzz/<name>/
  int (*run)(const std::uint8_t*, std::size_t);
};
inline void PrintTo(const Target& t, std::ostream* os) { *os << t.name; }  // in test failures

inline constexpr Target kTargets[] = {
    {"claim_parser", ClaimParser},   {"scene_loader", SceneLoader},   {"pytorch_csv", PytorchCsv},
    {"schedule_text", ScheduleText}, {"timeline_json", TimelineJson}, {"kineto_trace", KinetoTrace},
    {"model_toml", ModelToml},       {"model_json", ModelJson},       {"megatron_log", MegatronTimersLog},
};

}  // namespace ppsim::fuzz
