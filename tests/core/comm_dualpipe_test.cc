// --comms dualpipe (comm_lowering.h, src/core/comm_dualpipe.cc): DeepSeek's
// DualPipe and DualPipeV step() as the programs their ranks run, from
// deepseek-ai/DualPipe @ 3da1bbe (dualpipe/dualpipev.py, dualpipe/dualpipe.py).
// Each chunk call (_forward_chunk, _backward_chunk, _forward_backward_chunk,
// _weight_chunk) first commits what is pending as one blocking batch
// (_commit_and_wait_comm: batch_isend_irecv, then a wait on every request),
// then computes, then appends its SENDs; so each batch below, in brackets,
// holds the SENDs of the computes before it and the RECVs appended since.
// Where the batches of V-rank r of n come from, step by step (dual_order.h):
//   1  _forward_chunk(0): [previous SEND_F, RECV_F] F0.
//   2  _recv_forward(0) before the loop; then _forward_chunk(0, recv=False),
//      _recv_forward(0), _forward_chunk(1), _send_forward(0): F1's batch
//      holds the NEXT F0's RECV ([RECV_F5@s1 RECV_F0@s6] F0@s6 on dualpipev's
//      device 1) and F0's SEND waits for F1 ([SEND_F0@s6 SEND_F4@s1] F5@s1).
//      DualPipe's middle ranks send F0 at once ([SEND_F0@s1 RECV_F1@s1
//      RECV_F4@s6] F4@s6); the middle rank (the V's last) keeps its last F1's
//      SEND for step 4.
//   3  _backward_chunk(1, zb), _recv_forward(1), _weight_chunk(),
//      _forward_chunk(1, recv=False): W's batch holds B1's SEND and F1's RECV
//      ([SEND_B0@s6 RECV_F2@s6] W0@s6 F2@s6), and F1 commits nothing.
//   4  _forward_backward_chunk(0, 1) then (1, 0): [the previous SENDs, RECV_F,
//      RECV_B] F+B; the first F0's RECV went with step 2's last batch. On the
//      middle rank the first F0 and B1 run apart, F0's and the held F1's
//      SENDs around B1: F4@s3 [SEND_F3@s4 RECV_B0@s4] B0@s4(full).
//   5  _backward_chunk(1), _forward_backward_chunk(1, 0).
//   6  _backward_chunk(1), _backward_chunk(0): [SEND_B, RECV_B] B, full
//      until the middle, then zero-bubble (a W queued).
//   7  _weight_chunk() commits the previous B's SEND alone, then
//      _backward_chunk(0, zb): [RECV_B] B0.
//   8  _weight_chunk() r+1 times; the last SEND goes with the first W.
// A stage with no peer appends nothing: a chain's first and last stage, and
// the V's turn on dualpipev's last device.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "comm_calls.h"
#include "ppsim/comm_lowering.h"
#include "ppsim/comm_run.h"
#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

using testing::Calls;

Problem Dual(int P, int M) {
  Problem p;
  p.P = P;
  p.M = M;
  p.comms.order = CommOrder::kDualPipe;
  return p;
}

Result<CommProgram> Lowered(const std::string& name, Problem& p, Schedule* schedule) {
  Result<Schedule> s = Generate(name, p);
  if (!s) return s.error();
  *schedule = *s;
  return LowerComms(p, *s);
}

void ExpectPrograms(const std::string& name, const std::vector<std::string>& want) {
  Problem p = Dual(4, 8);
  Schedule s;
  Result<CommProgram> program = Lowered(name, p, &s);
  ASSERT_TRUE(program.ok()) << program.error().message;
  for (int d = 0; d < 4; ++d) EXPECT_EQ(Calls(s.space, program->devices[d]), want[d]) << name << " device " << d;
}

TEST(CommDualPipe, DualPipeVPostsWhatItsStepPosts) {
  ExpectPrograms(
      "dualpipev",
      {
          // device 0
          "F0@s0 [SEND_F0@s0] F1@s0 [SEND_F1@s0] F2@s0 [SEND_F2@s0] F3@s0 [SEND_F3@s0] F4@s0 [SEND_F4@s0] "  // step 1
          "F5@s0 "
          "[SEND_F5@s0] F6@s0 [RECV_F0@s7] F0@s7 "                                                             // step 2
          "[SEND_F6@s0] B0@s7 [SEND_B0@s7 RECV_F1@s7] W0@s7 F1@s7 B1@s7 [SEND_B1@s7 RECV_F2@s7] W1@s7 F2@s7 "  // step 3
          "B2@s7 [SEND_B2@s7 RECV_F3@s7] W2@s7 F3@s7 "
          "F7@s0+B3@s7(full) [SEND_F7@s0 SEND_B3@s7 RECV_F4@s7 RECV_B0@s0] F4@s7+B0@s0(full) "  // step 4
          "B4@s7(full) [SEND_B4@s7 RECV_F5@s7 RECV_B1@s0] F5@s7+B1@s0(full) B5@s7(full) "       // step 5
          "[SEND_B5@s7 RECV_F6@s7 RECV_B2@s0] F6@s7+B2@s0(full) B6@s7(full) "
          "[SEND_B6@s7 RECV_F7@s7 RECV_B3@s0] F7@s7+B3@s0(full) "
          "B7@s7(full) [SEND_B7@s7 RECV_B4@s0] B4@s0 "                                       // step 6
          "W4@s0 [RECV_B5@s0] B5@s0 W5@s0 [RECV_B6@s0] B6@s0 W6@s0 [RECV_B7@s0] B7@s0 "      // step 7
          "W7@s0",                                                                           // step 8
                                                                                             // device 1
          "[RECV_F0@s1] F0@s1 [SEND_F0@s1 RECV_F1@s1] F1@s1 [SEND_F1@s1 RECV_F2@s1] F2@s1 "  // step 1
          "[SEND_F2@s1 RECV_F3@s1] F3@s1 "
          "[SEND_F3@s1 RECV_F4@s1] F4@s1 [RECV_F5@s1 RECV_F0@s6] F0@s6 [SEND_F0@s6 SEND_F4@s1] F5@s1 "  // step 2
          "[RECV_F6@s1 RECV_F1@s6] F1@s6 "
          "[SEND_F1@s6 SEND_F5@s1 RECV_B0@s6] B0@s6 [SEND_B0@s6 RECV_F2@s6] W0@s6 F2@s6 "  // step 3
          "[SEND_F2@s6 RECV_B1@s6] B1@s6 [SEND_B1@s6 RECV_F3@s6] W1@s6 F3@s6 "
          "[SEND_F3@s6 RECV_B2@s6] F6@s1+B2@s6(full) [SEND_F6@s1 SEND_B2@s6 RECV_F4@s6 RECV_B0@s1] "  // step 4
          "F4@s6+B0@s1(full) [SEND_F4@s6 SEND_B0@s1 RECV_F7@s1 RECV_B3@s6] F7@s1+B3@s6(full) "
          "[SEND_F7@s1 SEND_B3@s6 RECV_F5@s6 RECV_B1@s1] F5@s6+B1@s1(full) "
          "[SEND_F5@s6 SEND_B1@s1 RECV_B4@s6] B4@s6(full) [SEND_B4@s6 RECV_F6@s6 RECV_B2@s1] "  // step 5
          "F6@s6+B2@s1(full) [SEND_F6@s6 SEND_B2@s1 RECV_B5@s6] B5@s6(full) "
          "[SEND_B5@s6 RECV_F7@s6 RECV_B3@s1] F7@s6+B3@s1(full) "
          "[SEND_F7@s6 SEND_B3@s1 RECV_B6@s6] B6@s6(full) [SEND_B6@s6 RECV_B4@s1] B4@s1(full) "  // step 6
          "[SEND_B4@s1 RECV_B7@s6] B7@s6 [SEND_B7@s6 RECV_B5@s1] B5@s1 "
          "[SEND_B5@s1] W7@s6 [RECV_B6@s1] B6@s1 [SEND_B6@s1] W5@s1 [RECV_B7@s1] B7@s1 "                // step 7
          "[SEND_B7@s1] W6@s1 W7@s1",                                                                   // step 8
                                                                                                        // device 2
          "[RECV_F0@s2] F0@s2 [SEND_F0@s2 RECV_F1@s2] F1@s2 "                                           // step 1
          "[SEND_F1@s2 RECV_F2@s2] F2@s2 [RECV_F3@s2 RECV_F0@s5] F0@s5 [SEND_F0@s5 SEND_F2@s2] F3@s2 "  // step 2
          "[RECV_F4@s2 RECV_F1@s5] F1@s5 [SEND_F1@s5 SEND_F3@s2] F4@s2 [RECV_F5@s2 RECV_F2@s5] F2@s5 "
          "[SEND_F2@s5 SEND_F4@s2 RECV_B0@s5] B0@s5 [SEND_B0@s5 RECV_F3@s5] W0@s5 F3@s5 "             // step 3
          "[SEND_F3@s5 RECV_B1@s5] F5@s2+B1@s5(full) [SEND_F5@s2 SEND_B1@s5 RECV_F4@s5 RECV_B0@s2] "  // step 4
          "F4@s5+B0@s2(full) [SEND_F4@s5 SEND_B0@s2 RECV_F6@s2 RECV_B2@s5] F6@s2+B2@s5(full) "
          "[SEND_F6@s2 SEND_B2@s5 RECV_F5@s5 RECV_B1@s2] F5@s5+B1@s2(full) "
          "[SEND_F5@s5 SEND_B1@s2 RECV_F7@s2 RECV_B3@s5] F7@s2+B3@s5(full) "
          "[SEND_F7@s2 SEND_B3@s5 RECV_F6@s5 RECV_B2@s2] F6@s5+B2@s2(full) "
          "[SEND_F6@s5 SEND_B2@s2 RECV_B4@s5] B4@s5(full) [SEND_B4@s5 RECV_F7@s5 RECV_B3@s2] "  // step 5
          "F7@s5+B3@s2(full) "
          "[SEND_F7@s5 SEND_B3@s2 RECV_B5@s5] B5@s5(full) [SEND_B5@s5 RECV_B4@s2] B4@s2(full) "  // step 6
          "[SEND_B4@s2 RECV_B6@s5] B6@s5(full) [SEND_B6@s5 RECV_B5@s2] B5@s2 [SEND_B5@s2 RECV_B7@s5] B7@s5 "
          "[SEND_B7@s5 RECV_B6@s2] B6@s2 "
          "[SEND_B6@s2] W5@s2 [RECV_B7@s2] B7@s2 "                                                           // step 7
          "[SEND_B7@s2] W7@s5 W6@s2 W7@s2",                                                                  // step 8
                                                                                                             // device 3
          "[RECV_F0@s3] F0@s3 [RECV_F1@s3] F0@s4 [SEND_F0@s4] F1@s3 [RECV_F2@s3] F1@s4 [SEND_F1@s4] F2@s3 "  // step 2
          "[RECV_F3@s3] F2@s4 [SEND_F2@s4] F3@s3 [RECV_F4@s3] F3@s4 "
          "F4@s3 [SEND_F3@s4 RECV_B0@s4] B0@s4(full) F4@s4+B0@s3(full) "  // step 4
          "[SEND_F4@s4 SEND_B0@s3 RECV_F5@s3 RECV_B1@s4] F5@s3+B1@s4(full) F5@s4+B1@s3(full) "
          "[SEND_F5@s4 SEND_B1@s3 RECV_F6@s3 RECV_B2@s4] F6@s3+B2@s4(full) F6@s4+B2@s3(full) "
          "[SEND_F6@s4 SEND_B2@s3 RECV_F7@s3 RECV_B3@s4] F7@s3+B3@s4(full) F7@s4+B3@s3(full) "
          "[SEND_F7@s4 SEND_B3@s3 RECV_B4@s4] B4@s4(full) B4@s3(full) [SEND_B4@s3 RECV_B5@s4] B5@s4(full) "  // step 6
          "B5@s3(full) [SEND_B5@s3 RECV_B6@s4] B6@s4 B6@s3 [SEND_B6@s3 RECV_B7@s4] B7@s4 B7@s3 "
          "[SEND_B7@s3] W6@s4 W6@s3 W7@s4 W7@s3",  // step 8
      });
}

// DualPipe: devices 0 and 3 are V-rank 0 of 2, devices 1 and 2 the middle
// ranks; microbatches 0-3 go down stages 0-3, 4-7 up stages 4-7.
TEST(CommDualPipe, DualPipePostsWhatItsStepPosts) {
  ExpectPrograms(
      "dualpipe",
      {
          // device 0
          "F0@s0 [SEND_F0@s0] F1@s0 "                                                           // step 1
          "[SEND_F1@s0] F2@s0 [RECV_F4@s7] F4@s7 "                                              // step 2
          "[SEND_F2@s0] B4@s7 [SEND_B4@s7 RECV_F5@s7] W4@s7 F5@s7 "                             // step 3
          "F3@s0+B5@s7(full) [SEND_F3@s0 SEND_B5@s7 RECV_F6@s7 RECV_B0@s0] F6@s7+B0@s0(full) "  // step 4
          "B6@s7(full) [SEND_B6@s7 RECV_F7@s7 RECV_B1@s0] F7@s7+B1@s0(full) "                   // step 5
          "B7@s7(full) [SEND_B7@s7 RECV_B2@s0] B2@s0 "                                          // step 6
          "W2@s0 [RECV_B3@s0] B3@s0 "                                                           // step 7
          "W3@s0",                                                                              // step 8
                                                                                                // device 1
          "[RECV_F0@s1] F0@s1 [SEND_F0@s1 RECV_F1@s1 RECV_F4@s6] F4@s6 [SEND_F4@s6] F1@s1 "     // step 2
          "[SEND_F1@s1 RECV_F2@s1 RECV_F5@s6] F5@s6 "
          "F2@s1 [SEND_F5@s6 RECV_B4@s6] B4@s6(full) [SEND_F2@s1 SEND_B4@s6 RECV_F6@s6 RECV_B0@s1] "  // step 4
          "F6@s6+B0@s1(full) [SEND_F6@s6 SEND_B0@s1 RECV_F3@s1 RECV_B5@s6] F3@s1+B5@s6(full) "
          "[SEND_F3@s1 SEND_B5@s6 RECV_F7@s6 RECV_B1@s1] F7@s6+B1@s1(full) "
          "[SEND_F7@s6 SEND_B1@s1 RECV_B6@s6] B6@s6(full) [SEND_B6@s6 RECV_B2@s1] B2@s1(full) "  // step 6
          "[SEND_B2@s1 RECV_B7@s6] B7@s6 [SEND_B7@s6 RECV_B3@s1] B3@s1 "
          "[SEND_B3@s1] W7@s6 W3@s1",                                                        // step 8
                                                                                             // device 2
          "[RECV_F4@s5] F4@s5 [SEND_F4@s5 RECV_F5@s5 RECV_F0@s2] F0@s2 [SEND_F0@s2] F5@s5 "  // step 2
          "[SEND_F5@s5 RECV_F6@s5 RECV_F1@s2] F1@s2 "
          "F6@s5 [SEND_F1@s2 RECV_B0@s2] B0@s2(full) [SEND_F6@s5 SEND_B0@s2 RECV_F2@s2 RECV_B4@s5] "  // step 4
          "F2@s2+B4@s5(full) [SEND_F2@s2 SEND_B4@s5 RECV_F7@s5 RECV_B1@s2] F7@s5+B1@s2(full) "
          "[SEND_F7@s5 SEND_B1@s2 RECV_F3@s2 RECV_B5@s5] F3@s2+B5@s5(full) "
          "[SEND_F3@s2 SEND_B5@s5 RECV_B2@s2] B2@s2(full) [SEND_B2@s2 RECV_B6@s5] B6@s5(full) "  // step 6
          "[SEND_B6@s5 RECV_B3@s2] B3@s2 [SEND_B3@s2 RECV_B7@s5] B7@s5 "
          "[SEND_B7@s5] W3@s2 W7@s5",                                                           // step 8
                                                                                                // device 3
          "F4@s4 [SEND_F4@s4] F5@s4 "                                                           // step 1
          "[SEND_F5@s4] F6@s4 [RECV_F0@s3] F0@s3 "                                              // step 2
          "[SEND_F6@s4] B0@s3 [SEND_B0@s3 RECV_F1@s3] W0@s3 F1@s3 "                             // step 3
          "F7@s4+B1@s3(full) [SEND_F7@s4 SEND_B1@s3 RECV_F2@s3 RECV_B4@s4] F2@s3+B4@s4(full) "  // step 4
          "B2@s3(full) [SEND_B2@s3 RECV_F3@s3 RECV_B5@s4] F3@s3+B5@s4(full) "                   // step 5
          "B3@s3(full) [SEND_B3@s3 RECV_B6@s4] B6@s4 "                                          // step 6
          "W6@s4 [RECV_B7@s4] B7@s4 "                                                           // step 7
          "W7@s4",                                                                              // step 8
      });
}

// tests/data/dualpipe/step_calls.txt: what step() posts, recorded by
// running it (scripts/record_dualpipe_calls.py) for dualpipev P = 2..5 and
// dualpipe P = 2, 4, 6 at M = 2P and beyond. With the model's overlapped
// call (ppsim's default) each F+B is one slot; without it (--no-overlap)
// step() runs the pair's F then its full B, with nothing posted between.
TEST(CommDualPipe, EveryRecordedRankIsItsProgram) {
  std::ifstream in(PPSIM_TEST_DATA_DIR "/dualpipe/step_calls.txt");
  ASSERT_TRUE(in) << "tests/data/dualpipe/step_calls.txt";
  int checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    char name[16];
    int P = 0, M = 0, d = 0, used = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%15s P=%d M=%d device %d: %n", name, &P, &M, &d, &used), 4) << line;
    const std::string want = line.substr(static_cast<size_t>(used));
    for (bool overlap : {true, false}) {
      Problem p = Dual(P, M);
      p.overlap = overlap;
      Schedule s;
      Result<CommProgram> program = Lowered(name, p, &s);
      ASSERT_TRUE(program.ok()) << line << ": " << program.error().message;
      std::string apart = want;
      for (size_t at; !overlap && (at = apart.find('+')) != std::string::npos;) apart[at] = ' ';
      EXPECT_EQ(Calls(s.space, program->devices[d]), apart)
          << name << " P=" << P << " M=" << M << " device " << d << (overlap ? "" : " without overlap");
    }
    ++checked;
  }
  EXPECT_EQ(checked, 78);  // every rank of 21 sizes
}

TEST(CommDualPipe, OtherSchedulesAreRefusedByName) {
  for (const char* name : {"1f1b", "interleaved", "zbv"}) {
    Problem p = Dual(4, 8);
    if (std::string(name) == "interleaved") p.v = 2;
    Schedule s;
    Result<CommProgram> program = Lowered(name, p, &s);
    ASSERT_FALSE(program.ok()) << name;
    EXPECT_EQ(program.error().code, ErrorCode::kPrecondition) << name;
    EXPECT_EQ(program.error().message, "--comms dualpipe lowers DeepSeek's DualPipe and DualPipeV step(): " +
                                           std::string(name) + " is neither dualpipe nor dualpipev");
  }
}

// An order that is not step()'s is named where it parts from it.
TEST(CommDualPipe, AnOrderThatIsNotStepsIsRefusedWhereItDiffers) {
  Problem p = Dual(4, 8);
  Result<Schedule> s = Generate("dualpipev", p);
  ASSERT_TRUE(s.ok());
  std::swap(s->devices[1][0], s->devices[1][1]);
  Result<CommProgram> program = LowerComms(p, *s);
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.error().code, ErrorCode::kPrecondition);
  EXPECT_EQ(program.error().message,
            "--comms dualpipe runs DeepSeek's step(), but device 1's order is not its: step() computes F0@s1 where "
            "its queue has F1@s1");
}

}  // namespace
}  // namespace ppsim
