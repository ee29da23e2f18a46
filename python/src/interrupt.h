// Ctrl-C in a long call that has released the GIL (render, a check sweep):
// the library asks Poll() between its steps, on the calling thread; Poll
// runs Python's signal handlers (at most every 0.1 s) and, once one raises
// (KeyboardInterrupt), keeps the exception and answers true from then on, so
// the library stops at its next step with kInterrupted and nothing written.
// The binding then re-raises the kept exception with Raise().
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <optional>

namespace ppsim::py {

class InterruptWatch {
 public:
  // REQUIRES: called on the thread that released the GIL.
  bool Poll() {
    if (stop_.load(std::memory_order_relaxed)) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_) return false;
    next_ = now + std::chrono::milliseconds(100);
    pybind11::gil_scoped_acquire locked;
    if (PyErr_CheckSignals() == 0) return false;
    raised_.emplace();  // takes the raised exception out of the interpreter
    stop_.store(true, std::memory_order_relaxed);
    return true;
  }
  // For workers on other threads: true once Poll() has seen a signal.
  const std::atomic<bool>* flag() const { return &stop_; }
  // Re-raises the exception a signal handler raised, if any. With the GIL.
  void Raise() {
    if (raised_) throw *raised_;
  }

 private:
  std::atomic<bool> stop_{false};
  std::chrono::steady_clock::time_point next_{};
  std::optional<pybind11::error_already_set> raised_;
};

}  // namespace ppsim::py
