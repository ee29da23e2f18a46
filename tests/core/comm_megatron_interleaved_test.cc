// --comms megatron with v > 1 and --comms megatron-overlap
// (comm_lowering.h, LowerMegatronInterleaved): Megatron-LM's interleaved loop,
// forward_backward_pipelining_with_interleaving in
// megatron/core/pipeline_parallel/schedules.py at Megatron-LM d98e8a64, with
// p2p_communication.py's calls. The expected calls below were written by
// following that loop rank by rank (P = 4, v = 2, M = 8, group 4; its
// schedule table runs microbatches 0-3 through chunk 0, then chunk 1, then
// 4-7 likewise), pairing each link's sends and receives in posting order as
// NCCL does, and naming each transfer by what it carries.
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

Problem Interleaved(int P, int v, int M, CommOrder order) {
  Problem p;
  p.P = P;
  p.v = v;
  p.M = M;
  p.comms.order = order;
  return p;
}

std::vector<std::string> Lowered(Problem p) {
  Result<Schedule> s = Generate("interleaved", p);
  EXPECT_TRUE(s.ok()) << s.error().message;
  Result<CommProgram> program = LowerComms(p, *s);
  EXPECT_TRUE(program.ok()) << program.error().message;
  std::vector<std::string> out;
  for (const auto& d : program->devices) out.push_back(Calls(s->space, d));
  return out;
}

// Without overlap_p2p_comm (batch_p2p_comm, its default: each call is one
// batch_isend_irecv, posted send_prev, recv_prev, send_next, recv_next, and
// waited). Warm-up: recv_forward before the loop (not on rank 0), then
// after each forward send_forward_recv_forward; the last warm-up call is
// send_forward_backward_recv_forward_backward, which also receives the
// first backward's gradient (not on rank 3, whose first backward is the
// last stage's). Steady state: forward, backward, then one call both ways.
// Cool-down: after each backward send_backward_recv_backward. Rank 0
// receives at iteration k what rank 3 sent at k-3, except its last chunk's
// output (recv_tensor_from_previous_stage): so F3@s0 is followed by
// RECV_F0@s4, and F3@s4 (k = 7, rank 3's k = 4 ran chunk 1) by no receive;
// rank 3 likewise receives rank 0's gradients 3 backward iterations late.
TEST(CommMegatronInterleaved, CallsAreMegatronsInterleavedLoop) {
  const std::vector<std::string> calls = Lowered(Interleaved(4, 2, 8, CommOrder::kMegatron));
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_EQ(calls[0],
            "F0@s0 [SEND_F0@s0] F1@s0 [SEND_F1@s0] F2@s0 [SEND_F2@s0] F3@s0 [RECV_F0@s4 SEND_F3@s0] F0@s4 "
            "[RECV_F1@s4 SEND_F0@s4] F1@s4 [RECV_F2@s4 SEND_F1@s4] F2@s4 [RECV_F3@s4 SEND_F2@s4] F3@s4 "
            "[SEND_F3@s4] F4@s0 [SEND_F4@s0] F5@s0 [SEND_F5@s0 RECV_B0@s4] F6@s0 B0@s4 [SEND_B0@s4 SEND_F6@s0 "
            "RECV_B1@s4] F7@s0 B1@s4 [SEND_B1@s4 RECV_F4@s4 SEND_F7@s0 RECV_B2@s4] F4@s4 B2@s4 [SEND_B2@s4 "
            "RECV_F5@s4 SEND_F4@s4 RECV_B3@s4] F5@s4 B3@s4 [SEND_B3@s4 RECV_F6@s4 SEND_F5@s4 RECV_B0@s0] "
            "F6@s4 B0@s0 [RECV_F7@s4 SEND_F6@s4 RECV_B1@s0] F7@s4 B1@s0 [SEND_F7@s4 RECV_B2@s0] B2@s0 "
            "[RECV_B3@s0] B3@s0 [RECV_B4@s4] B4@s4 [SEND_B4@s4 RECV_B5@s4] B5@s4 [SEND_B5@s4 RECV_B6@s4] "
            "B6@s4 [SEND_B6@s4 RECV_B7@s4] B7@s4 [SEND_B7@s4 RECV_B4@s0] B4@s0 [RECV_B5@s0] B5@s0 "
            "[RECV_B6@s0] B6@s0 [RECV_B7@s0] B7@s0");
  EXPECT_EQ(calls[1],
            "[RECV_F0@s1] F0@s1 [RECV_F1@s1 SEND_F0@s1] F1@s1 [RECV_F2@s1 SEND_F1@s1] F2@s1 [RECV_F3@s1 "
            "SEND_F2@s1] F3@s1 [RECV_F0@s5 SEND_F3@s1] F0@s5 [RECV_F1@s5 SEND_F0@s5] F1@s5 [RECV_F2@s5 "
            "SEND_F1@s5] F2@s5 [RECV_F3@s5 SEND_F2@s5] F3@s5 [RECV_F4@s1 SEND_F3@s5 RECV_B0@s5] F4@s1 B0@s5 "
            "[SEND_B0@s5 RECV_F5@s1 SEND_F4@s1 RECV_B1@s5] F5@s1 B1@s5 [SEND_B1@s5 RECV_F6@s1 SEND_F5@s1 "
            "RECV_B2@s5] F6@s1 B2@s5 [SEND_B2@s5 RECV_F7@s1 SEND_F6@s1 RECV_B3@s5] F7@s1 B3@s5 [SEND_B3@s5 "
            "RECV_F4@s5 SEND_F7@s1 RECV_B0@s1] F4@s5 B0@s1 [SEND_B0@s1 RECV_F5@s5 SEND_F4@s5 RECV_B1@s1] "
            "F5@s5 B1@s1 [SEND_B1@s1 RECV_F6@s5 SEND_F5@s5 RECV_B2@s1] F6@s5 B2@s1 [SEND_B2@s1 RECV_F7@s5 "
            "SEND_F6@s5 RECV_B3@s1] F7@s5 B3@s1 [SEND_B3@s1 SEND_F7@s5 RECV_B4@s5] B4@s5 [SEND_B4@s5 "
            "RECV_B5@s5] B5@s5 [SEND_B5@s5 RECV_B6@s5] B6@s5 [SEND_B6@s5 RECV_B7@s5] B7@s5 [SEND_B7@s5 "
            "RECV_B4@s1] B4@s1 [SEND_B4@s1 RECV_B5@s1] B5@s1 [SEND_B5@s1 RECV_B6@s1] B6@s1 [SEND_B6@s1 "
            "RECV_B7@s1] B7@s1 [SEND_B7@s1]");
  EXPECT_EQ(calls[2],
            "[RECV_F0@s2] F0@s2 [RECV_F1@s2 SEND_F0@s2] F1@s2 [RECV_F2@s2 SEND_F1@s2] F2@s2 [RECV_F3@s2 "
            "SEND_F2@s2] F3@s2 [RECV_F0@s6 SEND_F3@s2] F0@s6 [RECV_F1@s6 SEND_F0@s6] F1@s6 [RECV_F2@s6 "
            "SEND_F1@s6 RECV_B0@s6] F2@s6 B0@s6 [SEND_B0@s6 RECV_F3@s6 SEND_F2@s6 RECV_B1@s6] F3@s6 B1@s6 "
            "[SEND_B1@s6 RECV_F4@s2 SEND_F3@s6 RECV_B2@s6] F4@s2 B2@s6 [SEND_B2@s6 RECV_F5@s2 SEND_F4@s2 "
            "RECV_B3@s6] F5@s2 B3@s6 [SEND_B3@s6 RECV_F6@s2 SEND_F5@s2 RECV_B0@s2] F6@s2 B0@s2 [SEND_B0@s2 "
            "RECV_F7@s2 SEND_F6@s2 RECV_B1@s2] F7@s2 B1@s2 [SEND_B1@s2 RECV_F4@s6 SEND_F7@s2 RECV_B2@s2] "
            "F4@s6 B2@s2 [SEND_B2@s2 RECV_F5@s6 SEND_F4@s6 RECV_B3@s2] F5@s6 B3@s2 [SEND_B3@s2 RECV_F6@s6 "
            "SEND_F5@s6 RECV_B4@s6] F6@s6 B4@s6 [SEND_B4@s6 RECV_F7@s6 SEND_F6@s6 RECV_B5@s6] F7@s6 B5@s6 "
            "[SEND_B5@s6 SEND_F7@s6 RECV_B6@s6] B6@s6 [SEND_B6@s6 RECV_B7@s6] B7@s6 [SEND_B7@s6 RECV_B4@s2] "
            "B4@s2 [SEND_B4@s2 RECV_B5@s2] B5@s2 [SEND_B5@s2 RECV_B6@s2] B6@s2 [SEND_B6@s2 RECV_B7@s2] B7@s2 "
            "[SEND_B7@s2]");
  EXPECT_EQ(calls[3],
            "[RECV_F0@s3] F0@s3 [RECV_F1@s3 SEND_F0@s3] F1@s3 [RECV_F2@s3 SEND_F1@s3] F2@s3 [RECV_F3@s3 "
            "SEND_F2@s3] F3@s3 [RECV_F0@s7 SEND_F3@s3] F0@s7 B0@s7 [SEND_B0@s7 RECV_F1@s7] F1@s7 B1@s7 "
            "[SEND_B1@s7 RECV_F2@s7] F2@s7 B2@s7 [SEND_B2@s7 RECV_F3@s7] F3@s7 B3@s7 [SEND_B3@s7 RECV_F4@s3 "
            "RECV_B0@s3] F4@s3 B0@s3 [SEND_B0@s3 RECV_F5@s3 SEND_F4@s3 RECV_B1@s3] F5@s3 B1@s3 [SEND_B1@s3 "
            "RECV_F6@s3 SEND_F5@s3 RECV_B2@s3] F6@s3 B2@s3 [SEND_B2@s3 RECV_F7@s3 SEND_F6@s3 RECV_B3@s3] "
            "F7@s3 B3@s3 [SEND_B3@s3 RECV_F4@s7 SEND_F7@s3] F4@s7 B4@s7 [SEND_B4@s7 RECV_F5@s7] F5@s7 B5@s7 "
            "[SEND_B5@s7 RECV_F6@s7] F6@s7 B6@s7 [SEND_B6@s7 RECV_F7@s7] F7@s7 B7@s7 [SEND_B7@s7 RECV_B4@s3] "
            "B4@s3 [SEND_B4@s3 RECV_B5@s3] B5@s3 [SEND_B5@s3 RECV_B6@s3] B6@s3 [SEND_B6@s3 RECV_B7@s3] B7@s3 "
            "[SEND_B7@s3]");
}

// Every forward in the warm-up (rank 0 at P = 4, v = 2, M = 4: 10 warm-up
// forwards of 8): no steady state; recv_backward before the cool-down.
TEST(CommMegatronInterleaved, AllInWarmUpReceivesTheFirstGradientAlone) {
  const std::vector<std::string> calls = Lowered(Interleaved(4, 2, 4, CommOrder::kMegatron));
  EXPECT_EQ(calls[0],
            "F0@s0 [SEND_F0@s0] F1@s0 [SEND_F1@s0] F2@s0 [SEND_F2@s0] F3@s0 [RECV_F0@s4 SEND_F3@s0] F0@s4 "
            "[RECV_F1@s4 SEND_F0@s4] F1@s4 [RECV_F2@s4 SEND_F1@s4] F2@s4 [RECV_F3@s4 SEND_F2@s4] F3@s4 "
            "[SEND_F3@s4] [RECV_B0@s4] B0@s4 [SEND_B0@s4 RECV_B1@s4] B1@s4 [SEND_B1@s4 RECV_B2@s4] B2@s4 "
            "[SEND_B2@s4 RECV_B3@s4] B3@s4 [SEND_B3@s4 RECV_B0@s0] B0@s0 [RECV_B1@s0] B1@s0 [RECV_B2@s0] "
            "B2@s0 [RECV_B3@s0] B3@s0");
  EXPECT_EQ(calls[1],
            "[RECV_F0@s1] F0@s1 [RECV_F1@s1 SEND_F0@s1] F1@s1 [RECV_F2@s1 SEND_F1@s1] F2@s1 [RECV_F3@s1 "
            "SEND_F2@s1] F3@s1 [RECV_F0@s5 SEND_F3@s1] F0@s5 [RECV_F1@s5 SEND_F0@s5] F1@s5 [RECV_F2@s5 "
            "SEND_F1@s5] F2@s5 [RECV_F3@s5 SEND_F2@s5] F3@s5 [SEND_F3@s5] [RECV_B0@s5] B0@s5 [SEND_B0@s5 "
            "RECV_B1@s5] B1@s5 [SEND_B1@s5 RECV_B2@s5] B2@s5 [SEND_B2@s5 RECV_B3@s5] B3@s5 [SEND_B3@s5 "
            "RECV_B0@s1] B0@s1 [SEND_B0@s1 RECV_B1@s1] B1@s1 [SEND_B1@s1 RECV_B2@s1] B2@s1 [SEND_B2@s1 "
            "RECV_B3@s1] B3@s1 [SEND_B3@s1]");
}

// With overlap_p2p_comm (batch_p2p_comm off: _p2p_ops posts each call's
// isend and irecv one by one, even ranks sending first, odd ranks receiving
// first). Warm-up as above but each call is send_forward_recv_forward (the
// 4-way call is skipped), and the last warm-up iteration posts the first
// backward's receive async (send_backward_recv_backward with nothing to
// send). Steady state, all async: after the forward send_forward_recv_forward
// (sends it, receives the next forward's input: one step ahead), after the
// backward send_backward_recv_backward; pp_pre_forward/pp_pre_backward wait
// each compute's receive (the consumer waits for its RECV). Cool-down:
// blocking send_backward_recv_backward. Unbracketed calls are async.
TEST(CommMegatronInterleaved, OverlapPostsTheNextReceiveOneStepAhead) {
  const std::vector<std::string> calls = Lowered(Interleaved(4, 2, 8, CommOrder::kMegatronOverlap));
  ASSERT_EQ(calls.size(), 4u);
  EXPECT_EQ(calls[0],
            "F0@s0 [SEND_F0@s0] F1@s0 [SEND_F1@s0] F2@s0 [SEND_F2@s0] F3@s0 [SEND_F3@s0 RECV_F0@s4] F0@s4 "
            "[SEND_F0@s4 RECV_F1@s4] F1@s4 [SEND_F1@s4 RECV_F2@s4] F2@s4 [SEND_F2@s4 RECV_F3@s4] F3@s4 "
            "[SEND_F3@s4] F4@s0 [SEND_F4@s0] F5@s0 [SEND_F5@s0] RECV_B0@s4 F6@s0 SEND_F6@s0 B0@s4 SEND_B0@s4 "
            "RECV_B1@s4 F7@s0 SEND_F7@s0 RECV_F4@s4 B1@s4 SEND_B1@s4 RECV_B2@s4 F4@s4 SEND_F4@s4 RECV_F5@s4 "
            "B2@s4 SEND_B2@s4 RECV_B3@s4 F5@s4 SEND_F5@s4 RECV_F6@s4 B3@s4 SEND_B3@s4 RECV_B0@s0 F6@s4 "
            "SEND_F6@s4 RECV_F7@s4 B0@s0 RECV_B1@s0 F7@s4 SEND_F7@s4 B1@s0 RECV_B2@s0 B2@s0 [RECV_B3@s0] "
            "B3@s0 [RECV_B4@s4] B4@s4 [SEND_B4@s4 RECV_B5@s4] B5@s4 [SEND_B5@s4 RECV_B6@s4] B6@s4 [SEND_B6@s4 "
            "RECV_B7@s4] B7@s4 [SEND_B7@s4 RECV_B4@s0] B4@s0 [RECV_B5@s0] B5@s0 [RECV_B6@s0] B6@s0 "
            "[RECV_B7@s0] B7@s0");
  EXPECT_EQ(calls[1],
            "[RECV_F0@s1] F0@s1 [RECV_F1@s1 SEND_F0@s1] F1@s1 [RECV_F2@s1 SEND_F1@s1] F2@s1 [RECV_F3@s1 "
            "SEND_F2@s1] F3@s1 [RECV_F0@s5 SEND_F3@s1] F0@s5 [RECV_F1@s5 SEND_F0@s5] F1@s5 [RECV_F2@s5 "
            "SEND_F1@s5] F2@s5 [RECV_F3@s5 SEND_F2@s5] F3@s5 [RECV_F4@s1 SEND_F3@s5] RECV_B0@s5 F4@s1 "
            "RECV_F5@s1 SEND_F4@s1 B0@s5 RECV_B1@s5 SEND_B0@s5 F5@s1 RECV_F6@s1 SEND_F5@s1 B1@s5 RECV_B2@s5 "
            "SEND_B1@s5 F6@s1 RECV_F7@s1 SEND_F6@s1 B2@s5 RECV_B3@s5 SEND_B2@s5 F7@s1 RECV_F4@s5 SEND_F7@s1 "
            "B3@s5 RECV_B0@s1 SEND_B3@s5 F4@s5 RECV_F5@s5 SEND_F4@s5 B0@s1 RECV_B1@s1 SEND_B0@s1 F5@s5 "
            "RECV_F6@s5 SEND_F5@s5 B1@s1 RECV_B2@s1 SEND_B1@s1 F6@s5 RECV_F7@s5 SEND_F6@s5 B2@s1 RECV_B3@s1 "
            "SEND_B2@s1 F7@s5 SEND_F7@s5 B3@s1 RECV_B4@s5 SEND_B3@s1 B4@s5 [RECV_B5@s5 SEND_B4@s5] B5@s5 "
            "[RECV_B6@s5 SEND_B5@s5] B6@s5 [RECV_B7@s5 SEND_B6@s5] B7@s5 [RECV_B4@s1 SEND_B7@s5] B4@s1 "
            "[RECV_B5@s1 SEND_B4@s1] B5@s1 [RECV_B6@s1 SEND_B5@s1] B6@s1 [RECV_B7@s1 SEND_B6@s1] B7@s1 "
            "[SEND_B7@s1]");
  EXPECT_EQ(calls[2],
            "[RECV_F0@s2] F0@s2 [SEND_F0@s2 RECV_F1@s2] F1@s2 [SEND_F1@s2 RECV_F2@s2] F2@s2 [SEND_F2@s2 "
            "RECV_F3@s2] F3@s2 [SEND_F3@s2 RECV_F0@s6] F0@s6 [SEND_F0@s6 RECV_F1@s6] F1@s6 [SEND_F1@s6 "
            "RECV_F2@s6] RECV_B0@s6 F2@s6 SEND_F2@s6 RECV_F3@s6 B0@s6 SEND_B0@s6 RECV_B1@s6 F3@s6 SEND_F3@s6 "
            "RECV_F4@s2 B1@s6 SEND_B1@s6 RECV_B2@s6 F4@s2 SEND_F4@s2 RECV_F5@s2 B2@s6 SEND_B2@s6 RECV_B3@s6 "
            "F5@s2 SEND_F5@s2 RECV_F6@s2 B3@s6 SEND_B3@s6 RECV_B0@s2 F6@s2 SEND_F6@s2 RECV_F7@s2 B0@s2 "
            "SEND_B0@s2 RECV_B1@s2 F7@s2 SEND_F7@s2 RECV_F4@s6 B1@s2 SEND_B1@s2 RECV_B2@s2 F4@s6 SEND_F4@s6 "
            "RECV_F5@s6 B2@s2 SEND_B2@s2 RECV_B3@s2 F5@s6 SEND_F5@s6 RECV_F6@s6 B3@s2 SEND_B3@s2 RECV_B4@s6 "
            "F6@s6 SEND_F6@s6 RECV_F7@s6 B4@s6 SEND_B4@s6 RECV_B5@s6 F7@s6 SEND_F7@s6 B5@s6 SEND_B5@s6 "
            "RECV_B6@s6 B6@s6 [SEND_B6@s6 RECV_B7@s6] B7@s6 [SEND_B7@s6 RECV_B4@s2] B4@s2 [SEND_B4@s2 "
            "RECV_B5@s2] B5@s2 [SEND_B5@s2 RECV_B6@s2] B6@s2 [SEND_B6@s2 RECV_B7@s2] B7@s2 [SEND_B7@s2]");
  EXPECT_EQ(calls[3],
            "[RECV_F0@s3] F0@s3 [RECV_F1@s3 SEND_F0@s3] F1@s3 [RECV_F2@s3 SEND_F1@s3] F2@s3 [RECV_F3@s3 "
            "SEND_F2@s3] F3@s3 [RECV_F0@s7 SEND_F3@s3] F0@s7 RECV_F1@s7 B0@s7 SEND_B0@s7 F1@s7 RECV_F2@s7 "
            "B1@s7 SEND_B1@s7 F2@s7 RECV_F3@s7 B2@s7 SEND_B2@s7 F3@s7 RECV_F4@s3 B3@s7 RECV_B0@s3 SEND_B3@s7 "
            "F4@s3 RECV_F5@s3 SEND_F4@s3 B0@s3 RECV_B1@s3 SEND_B0@s3 F5@s3 RECV_F6@s3 SEND_F5@s3 B1@s3 "
            "RECV_B2@s3 SEND_B1@s3 F6@s3 RECV_F7@s3 SEND_F6@s3 B2@s3 RECV_B3@s3 SEND_B2@s3 F7@s3 RECV_F4@s7 "
            "SEND_F7@s3 B3@s3 SEND_B3@s3 F4@s7 RECV_F5@s7 B4@s7 SEND_B4@s7 F5@s7 RECV_F6@s7 B5@s7 SEND_B5@s7 "
            "F6@s7 RECV_F7@s7 B6@s7 SEND_B6@s7 F7@s7 B7@s7 RECV_B4@s3 SEND_B7@s7 B4@s3 [RECV_B5@s3 "
            "SEND_B4@s3] B5@s3 [RECV_B6@s3 SEND_B5@s3] B6@s3 [RECV_B7@s3 SEND_B6@s3] B7@s3 [SEND_B7@s3]");
}

// Both orders run every interleaved size tried to the end, and with no
// latency end where the schedule ends without communication.
TEST(CommMegatronInterleaved, NeverDeadlocksAndWithoutLatencyEndsAsWithoutComms) {
  for (CommOrder order : {CommOrder::kMegatron, CommOrder::kMegatronOverlap})
    for (int P : {2, 3, 4})
      for (int v : {2, 3})
        for (int M : {P, 2 * P, 3 * P})
          for (int group : {P, M})  // group M > P: rank 0 receives ahead of its consumers
          for (int concurrency : {0, 1, 2})
            for (Tick latency : {0, 1, 3}) {
              const std::string what = std::string(CommOrderName(order)) + " P=" + std::to_string(P) + " v=" +
                                       std::to_string(v) + " M=" + std::to_string(M) + " group " +
                                       std::to_string(group) + " concurrency " +
                                       std::to_string(concurrency) + " latency " + std::to_string(latency);
              Problem p = Interleaved(P, v, M, order);
              p.group = group;
              p.costs.f = {2};
              p.costs.bw = {3};
              p.comms.latency = latency;
              p.comms.concurrency = concurrency;
              Result<Schedule> s = Generate("interleaved", p);
              ASSERT_TRUE(s.ok()) << what << ": " << s.error().message;
              Result<Timeline> with = PlaceRun(p, *s);
              ASSERT_TRUE(with.ok()) << what << ": " << with.error().message;
              Problem off = p;
              off.comms.order = CommOrder::kNone;
              Result<Timeline> without = Place(off, *s);
              ASSERT_TRUE(without.ok()) << what;
              if (latency == 0) EXPECT_EQ(with->makespan, without->makespan) << what;
              else EXPECT_GT(with->makespan, without->makespan) << what;
            }
}

// What Megatron's interleaved loop does not run is refused, naming why.
TEST(CommMegatronInterleaved, WhatTheLoopDoesNotRunIsRefused) {
  auto refusal = [](const char* schedule, Problem p) {
    Result<Schedule> s = Generate(schedule, p);
    EXPECT_TRUE(s.ok()) << schedule << ": " << s.error().message;
    Result<CommProgram> program = LowerComms(p, *s);
    EXPECT_FALSE(program.ok()) << schedule;
    if (program.ok()) return std::string();
    EXPECT_EQ(program.error().code, ErrorCode::kPrecondition) << program.error().message;
    return program.error().message;
  };
  EXPECT_EQ(refusal("looped-bfs", Interleaved(4, 2, 8, CommOrder::kMegatron)),
            "--comms megatron lowers Megatron-LM's interleaved loop (Megatron's interleaved order, F and a full "
            "backward B): looped-bfs runs F4@s0 on device 0 where Megatron's order runs F0@s4");
  EXPECT_EQ(refusal("1f1b", Interleaved(4, 1, 8, CommOrder::kMegatronOverlap)),
            "--comms megatron-overlap: Megatron-LM runs overlap_p2p_comm only in its interleaved loop (v > 1; its "
            "1F1B loop raises \"Non-interleaved pipeline parallelism does not support overlapping p2p "
            "communication\"): 1f1b has one stage per device");
}

}  // namespace
}  // namespace ppsim
