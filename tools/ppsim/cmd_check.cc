// ppsim check SCENE [--set KEY=VALUE ...] [--sweep KEY=A..B ... [--shard I/N]] [--json]
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>

#include "command.h"
#include "ppsim/io/atomic_file.h"
#include "ppsim/scene/check_report.h"

namespace ppsim::cli {
namespace {

struct CheckOptions {
  std::string scene;
  std::vector<std::string> set;
  std::vector<std::string> sweep;
  bool json = false;
  int threads = 0;
  std::string shard;
};

// A sweep stops at SIGINT or SIGTERM: the workers finish their point, the
// command says how far it got, and dies of the signal (as every command
// does, temp_registry.h), so a script sees the signal.
std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_signal = 0;

void OnSignal(int sig) {
  g_signal = sig;
  g_stop.store(true);
}

void CatchStopSignals() {
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction on {};
    on.sa_handler = OnSignal;
    sigemptyset(&on.sa_mask);
    sigaction(sig, &on, nullptr);
  }
}

// On a terminal, "check: 1234 of 1048576 points (0%)" rewritten in place a
// few times a second, erased at the end; elsewhere (a file, a pipe, a test)
// nothing, so what stderr holds is unchanged.
void ShowProgress(std::int64_t done, std::int64_t total) {
  if (done >= total) {
    std::fprintf(stderr, "\r\033[K");
    return;
  }
  std::fprintf(stderr, "\rcheck: %lld of %lld points (%lld%%)\033[K", static_cast<long long>(done),
               static_cast<long long>(total), static_cast<long long>(total > 0 ? 100 * done / total : 0));
}

int Run(const CheckOptions& o) {
  Result<std::string> text = io::ReadFile(o.scene);
  if (!text) return Report(text.error());
  scene::SweepControl control;
  if (!o.sweep.empty()) {
    CatchStopSignals();
    control.stop = &g_stop;
    if (isatty(STDERR_FILENO)) control.progress = ShowProgress;
  }
  Result<scene::CheckReport> r = scene::CheckScene(*text, o.scene, o.set, o.sweep, o.threads, o.shard, o.json, control);
  if (!r && r.error().code == ErrorCode::kInterrupted) {
    std::fprintf(stderr, "ppsim: --sweep: %s %s\n", g_signal == SIGTERM ? "SIGTERM:" : "SIGINT:", r.error().Text().c_str());
    const int sig = g_signal == 0 ? SIGINT : static_cast<int>(g_signal);
    signal(sig, SIG_DFL);
    raise(sig);
    return ExitCode(ErrorCode::kInterrupted);
  }
  if (!r) return Report(r.error());
  Error e = io::WriteFileAtomically("-", o.json ? r->json + "\n" : r->text);
  if (e.code != ErrorCode::kOk) return Report(e);
  if (r->ok) return 0;
  // A false claim's report goes to stdout with the rest; the one-line verdict to stderr.
  if (!o.json && o.sweep.empty()) std::fprintf(stderr, "ppsim: %zu claim(s) false in %s\n", r->false_claims, o.scene.c_str());
  return ExitCode(ErrorCode::kClaimFalse);
}

const CommandRegistrar check_registrar(40, [](CLI::App& app, int* exit_code) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand("check", "evaluate a scene's claims; with --sweep, search for counterexamples");
  cmd->add_option("scene", o->scene, "scene file (TOML, see docs/claims.md)")->required();
  cmd->add_option("--set", o->set, "override a top-level value: --set P=8 (repeatable)")->take_all();
  cmd->add_option("--sweep", o->sweep, "sweep a top-level value: --sweep P=1..16 or --sweep comm=0,2 (repeatable)")
      ->take_all();
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_option("--threads", o->threads, "worker threads for --sweep (default and at most: one per core)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  cmd->add_option("--shard", o->shard, "run shard I of N of the sweep: grid points k with k mod N = I-1 (ppsim merge joins them)");
  cmd->callback([o, exit_code] { *exit_code = Run(*o); });
});

}  // namespace
}  // namespace ppsim::cli
