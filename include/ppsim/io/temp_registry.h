// Temporary files and child processes that must not outlive an interrupted
// run. While a path is registered, SIGINT, SIGTERM or SIGHUP removes it (and
// kills every registered child first, so none recreates it) before ppsim
// dies of the signal as it would have. Signals whose disposition was not the
// default (e.g. ignored under nohup) are left alone.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace ppsim::io {

// Removes `path` if a terminating signal arrives before UnregisterTemporary.
// Thread-safe; at most kMaxTemporaries paths at once (beyond that, a path is
// simply not covered).
void RegisterTemporary(const std::string& path);
void UnregisterTemporary(const std::string& path);

// Kills `pid` (SIGKILL, then reaps it) if a terminating signal arrives
// before UnregisterChild.
void RegisterChild(pid_t pid);
void UnregisterChild(pid_t pid);

inline constexpr int kMaxTemporaries = 256;

// Holds SIGINT, SIGTERM and SIGHUP back on this thread while it lives (a
// signal that arrives meanwhile is delivered when it ends). Wrap what creates
// a temporary or a child together with its Register call, so that a signal
// never finds it created but not yet registered.
class HoldSignals {
 public:
  HoldSignals();
  ~HoldSignals();
  HoldSignals(const HoldSignals&) = delete;
  HoldSignals& operator=(const HoldSignals&) = delete;

 private:
  sigset_t saved_;
};

}  // namespace ppsim::io
