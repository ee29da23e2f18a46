#include "dual_order.h"

#include <algorithm>
#include <deque>
#include <utility>

namespace ppsim {

// The eight steps of DeepSeek's DualPipe (and PyTorch's ScheduleDualPipeV)
// for V-rank r of n, c chunks per phase:
//   1  2(n-r-1) × F0
//   2  (r+1) × (F0, F1)
//   3  (n-r-1) × (B1 input, W, F1)            zero bubble: W right away
//   4  (c-2n+r+1) × (F0&B1, F1&B0)            overlapped pairs; on the middle
//                                             rank the first F0, B1 run apart
//   5  (n-r-1) × (B1, F1&B0)
//   6  (r+1) × (B1, B0), from the middle on as input-gradient passes
//   7  (n-r-1) × (W, B0 input)
//   8  (r+1) × W
// Every W is the oldest input-gradient pass still without one.
std::vector<DualAction> DualRankOrder(int n, int r, int c) {
  std::vector<DualAction> out;
  int next_f[2] = {0, 0}, next_b[2] = {0, 0};
  std::deque<std::pair<int, int>> queued;  // (phase, microbatch) awaiting W
  auto F = [&](int phase) { out.push_back({DualAction::kF, phase, next_f[phase]++, 0, 0}); };
  auto B = [&](int phase, bool input_only) {
    const int m = next_b[phase]++;
    out.push_back({input_only ? DualAction::kBInput : DualAction::kB, phase, m, 0, 0});
    if (input_only) queued.emplace_back(phase, m);
  };
  auto W = [&] {
    if (queued.empty()) return;
    out.push_back({DualAction::kW, queued.front().first, queued.front().second, 0, 0});
    queued.pop_front();
  };
  auto Pair = [&](int f_phase, int b_phase) {
    out.push_back({DualAction::kPair, f_phase, next_f[f_phase]++, b_phase, next_b[b_phase]++});
  };

  for (int i = 0; i < 2 * (n - r - 1); ++i) F(0);
  for (int i = 0; i < r + 1; ++i) {
    F(0);
    F(1);
  }
  for (int i = 0; i < n - r - 1; ++i) {
    B(1, true);
    W();
    F(1);
  }
  for (int i = 0; i < c - 2 * n + r + 1; ++i) {
    if (i == 0 && r == n - 1) {
      F(0);
      B(1, false);
    } else {
      Pair(0, 1);
    }
    Pair(1, 0);
  }
  for (int i = 0; i < n - r - 1; ++i) {
    B(1, false);
    Pair(1, 0);
  }
  bool zb = false;
  const int half = (r + 1) / 2;
  for (int i = 0; i < r + 1; ++i) {
    if (i == half && r % 2 == 1) zb = true;
    B(1, zb);
    if (i == half && r % 2 == 0) zb = true;
    B(0, zb);
  }
  for (int i = 0; i < n - r - 1; ++i) {
    W();
    B(0, zb);
  }
  for (int i = 0; i < r + 1; ++i) W();
  return out;
}

DualRank DualPipeVRank(const Problem& p, int device) {
  return DualRank{p.P, device, p.M, {device, 2 * p.P - 1 - device}, {0, 0}};
}

DualRank DualPipeRank(const Problem& p, int device) {
  const int P = p.P, half = p.M / 2;
  const int down = device, up = 2 * P - 1 - device;  // this device's stage of each copy
  const bool second_half = device >= P / 2;
  return DualRank{P / 2,
                  std::min(device, P - 1 - device),
                  half,
                  {second_half ? up : down, second_half ? down : up},
                  {second_half ? half : 0, second_half ? 0 : half}};
}

void AppendDualOrder(const std::vector<DualAction>& order, const int stage[2], const int first_microbatch[2],
                     bool overlap, QueueBuilder& q) {
  for (const DualAction& a : order) {
    const int s = stage[a.phase], m = first_microbatch[a.phase] + a.microbatch;
    switch (a.kind) {
      case DualAction::kF: q.F(m, s); break;
      case DualAction::kB: q.FullB(m, s); break;
      case DualAction::kBInput: q.B(m, s); break;
      case DualAction::kW: q.W(m, s); break;
      case DualAction::kPair: {
        const int s2 = stage[a.phase2], m2 = first_microbatch[a.phase2] + a.microbatch2;
        if (overlap) {
          q.Pair(m, s, m2, s2, /*full=*/true);
        } else {
          q.F(m, s);
          q.FullB(m2, s2);
        }
        break;
      }
    }
  }
}

}  // namespace ppsim
