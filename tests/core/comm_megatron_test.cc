// --comms megatron (comm_lowering.h): Megatron-LM's 1F1B loop without
// overlap_p2p_comm. Its calls, per rank, are those of
// forward_backward_pipelining_without_interleaving: recv_forward and
// send_forward alone in the warm-up, send_forward_recv_backward and
// send_backward_recv_forward fused in the steady state, recv_backward and
// send_backward alone in the cool-down; first and last stages skip what
// they have no peer for. Every call blocks. It never deadlocks, and with no
// latency it ends where the schedule does without communication.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "comm_calls.h"
#include "ppsim/comm_lowering.h"
#include "ppsim/comm_run.h"
#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

using testing::Calls;

Problem OneF1B(int P, int M) {
  Problem p;
  p.P = P;
  p.M = M;
  p.comms.order = CommOrder::kMegatron;
  return p;
}

TEST(CommMegatron, CallsAreMegatronsOneFOneBLoop) {
  Problem p = OneF1B(2, 2);
  Result<Schedule> s = Generate("1f1b", p);
  ASSERT_TRUE(s.ok()) << s.error().message;
  Result<CommProgram> program = LowerComms(p, *s);
  ASSERT_TRUE(program.ok()) << program.error().message;
  // Rank 0: warm-up F0, send_forward; steady F1, send_forward_recv_backward,
  // B0; cool-down recv_backward, B1.
  EXPECT_EQ(Calls(s->space, program->devices[0]),
            "F0@s0 [SEND_F0@s0] F1@s0 [SEND_F1@s0 RECV_B0@s0] B0@s0 [RECV_B1@s0] B1@s0");
  // Rank 1 (last stage): recv_forward, F0, B0, send_backward_recv_forward,
  // F1, B1, send_backward.
  EXPECT_EQ(Calls(s->space, program->devices[1]),
            "[RECV_F0@s1] F0@s1 B0@s1 [SEND_B0@s1 RECV_F1@s1] F1@s1 B1@s1 [SEND_B1@s1]");
}

TEST(CommMegatron, NeverDeadlocksAndWithoutLatencyEndsAsWithoutComms) {
  for (const char* name : {"1f1b", "gpipe"})
    for (int P : {2, 4, 8})
      for (int M : {1, 4, 8, 13})
        for (Tick latency : {0, 1, 3}) {
          const std::string what = std::string(name) + " P=" + std::to_string(P) + " M=" + std::to_string(M) +
                                   " latency " + std::to_string(latency);
          Problem p = OneF1B(P, M);
          p.costs.f = {2};
          p.costs.bw = {3};
          p.comms.latency = latency;
          Result<Schedule> s = Generate(name, p);
          ASSERT_TRUE(s.ok()) << what << ": " << s.error().message;
          Result<Timeline> with = PlaceRun(p, *s);
          ASSERT_TRUE(with.ok()) << what << ": " << with.error().message;
          Problem off = p;
          off.comms.order = CommOrder::kNone;
          Result<Timeline> without = Place(off, *s);
          ASSERT_TRUE(without.ok()) << what;
          if (latency == 0) EXPECT_EQ(with->makespan, without->makespan) << what;
          else EXPECT_GT(with->makespan, without->makespan) << what;  // every call blocks its sender too
        }
}

TEST(CommMegatron, WhatTheLoopDoesNotRunIsRefused) {
  // zb-h1 splits its backward; DualPipe (two stages per device, a V) is not
  // Megatron's interleaved loop either (comm_megatron_interleaved_test.cc).
  for (const auto& [name, why] : {std::pair{"zb-h1", "--comms megatron lowers Megatron-LM's 1F1B loop"},
                                  std::pair{"dualpipe", "dualpipe does not place stage s on device s mod P"}}) {
    Problem p = OneF1B(4, 8);
    p.costs.b = {1}, p.costs.w = {1};
    Result<Schedule> s = Generate(name, p);
    ASSERT_TRUE(s.ok()) << name << ": " << s.error().message;
    Result<CommProgram> program = LowerComms(p, *s);
    ASSERT_FALSE(program.ok()) << name;
    EXPECT_EQ(program.error().code, ErrorCode::kPrecondition) << name;
    EXPECT_NE(program.error().message.find(why), std::string::npos) << program.error().message;
  }
}

}  // namespace
}  // namespace ppsim
