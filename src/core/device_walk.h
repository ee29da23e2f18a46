// Walks every device's queue in order, all devices a block at a time.
//
// Metrics read each op's start and end ticks, which sit at op-id order
// (microbatch-major, op.h): one device's consecutive ops are 2S ids apart,
// so walking device 0's whole queue, then device 1's, loads every cache line
// of the tick arrays once per device that shares it — P/8 times at 8 ticks
// a line — and at 10^7 ops those arrays are far larger than the caches.
// Devices of one pipeline work on nearby microbatches at the same queue
// position (warm-up differs by at most the pipeline depth), so walking
// kBlock slots of every device before moving on keeps the lines they share
// in cache: each is loaded about once. The order within a device is kept,
// so per-device state (a step series) sees its ops in time order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ppsim/schedule.h"

namespace ppsim {

// Calls visit(device, slot) for every slot, each device's slots in queue order.
template <typename Visit>
void WalkDevicesBlocked(const std::vector<std::vector<Slot>>& devices, Visit&& visit) {
  constexpr size_t kBlock = 256;
  size_t longest = 0;
  for (const auto& queue : devices) longest = std::max(longest, queue.size());
  for (size_t from = 0; from < longest; from += kBlock)
    for (size_t d = 0; d < devices.size(); ++d) {
      const std::vector<Slot>& queue = devices[d];
      const size_t to = std::min(queue.size(), from + kBlock);
      for (size_t i = from; i < to; ++i) visit(static_cast<int>(d), queue[i]);
    }
}

}  // namespace ppsim
