#include "ppsim/io/temp_registry.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ppsim::io {
namespace {

// Slots the signal handler reads without locking: a null slot is free.
// Registration takes a slot with compare-exchange; the handler only reads.
std::atomic<char*> g_paths[kMaxTemporaries];
constexpr int kMaxChildren = 16;
std::atomic<pid_t> g_children[kMaxChildren];
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

void OnSignal(int sig) {
  for (std::atomic<pid_t>& c : g_children) {
    const pid_t pid = c.load();
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
  for (std::atomic<char*>& p : g_paths) {
    if (const char* path = p.load()) unlink(path);
  }
  signal(sig, SIG_DFL);  // then die of it, so the parent sees the signal
  raise(sig);
}

void InstallOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kSignals) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
      struct sigaction on {};
      on.sa_handler = OnSignal;
      sigfillset(&on.sa_mask);  // no second signal while cleaning up
      sigaction(sig, &on, nullptr);
    }
  });
}

}  // namespace

HoldSignals::HoldSignals() {
  sigset_t held;
  sigemptyset(&held);
  for (int sig : kSignals) sigaddset(&held, sig);
  pthread_sigmask(SIG_BLOCK, &held, &saved_);
}

HoldSignals::~HoldSignals() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }

void RegisterTemporary(const std::string& path) {
  InstallOnce();
  char* copy = strdup(path.c_str());
  if (copy == nullptr) return;
  for (std::atomic<char*>& slot : g_paths) {
    char* expected = nullptr;
    if (slot.compare_exchange_strong(expected, copy)) return;
  }
  std::free(copy);
}

void UnregisterTemporary(const std::string& path) {
  for (std::atomic<char*>& slot : g_paths) {
    char* p = slot.load();
    if (p != nullptr && path == p && slot.compare_exchange_strong(p, nullptr)) {
      std::free(p);
      return;
    }
  }
}

void RegisterChild(pid_t pid) {
  InstallOnce();
  for (std::atomic<pid_t>& slot : g_children) {
    pid_t expected = 0;
    if (slot.compare_exchange_strong(expected, pid)) return;
  }
}

void UnregisterChild(pid_t pid) {
  for (std::atomic<pid_t>& slot : g_children) {
    pid_t expected = pid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

}  // namespace ppsim::io
