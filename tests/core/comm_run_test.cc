// Communication as ops (comm_run.h): the latency model is its limit case,
// a transfer's time is latency + bytes / bandwidth from its rendezvous, a
// link's posting order blocks, and bad programs and deadlocks are named.
#include <gtest/gtest.h>

#include "ppsim/comm_run.h"
#include "ppsim/generators.h"
#include "ppsim/simulate.h"

namespace ppsim {
namespace {

// Every RECV of a device posted before its first action: the most eager order.
CommProgram Eager(const CommProgram& adjacent) {
  CommProgram out;
  for (const auto& d : adjacent.devices) {
    std::vector<CommAction> recvs, rest;
    for (const CommAction& a : d)
      (a.kind == CommKind::kRecvF || a.kind == CommKind::kRecvB ? recvs : rest).push_back(a);
    recvs.insert(recvs.end(), rest.begin(), rest.end());
    out.devices.push_back(recvs);
  }
  return out;
}

// Every RECV posted at the step's start, any number in flight, no size
// term: each transfer starts when its producer ends and lasts the latency,
// so every op of every registry schedule lands where Place() puts it with
// comm = latency. Posted just before its consumer instead, a RECV meets its
// SEND only then and the latency shows, unless it is 0.
TEST(CommRun, LatencyModelIsTheLimitCase) {
  int schedules = 0;
  for (const GeneratorInfo& g : Generators()) {
    for (Tick c : {Tick{0}, Tick{3}}) {
      Problem p;
      p.P = 4;
      p.M = 8;
      p.comm = c;
      Result<Timeline> t = Simulate(g.name, p);
      if (!t) continue;  // a precondition this size does not meet
      CommModel model;
      model.latency = t->problem.comm;  // in ticks, once scaled
      model.concurrency = 0;
      const CommProgram adjacent = LowerAdjacent(t->problem, t->schedule);
      std::vector<CommProgram> programs = {Eager(adjacent)};
      if (c == 0) programs.push_back(adjacent);
      for (const CommProgram& program : programs) {
        Result<CommRun> run = RunComms(t->problem, t->schedule, program, model);
        ASSERT_TRUE(run) << g.name << ": " << run.error().Text();
        ASSERT_EQ(run->timeline.makespan, t->makespan) << g.name << " comm " << c;
        for (size_t id = 0; id < t->end.size(); ++id) {
          if (t->end[id] < 0) continue;
          ASSERT_EQ(run->timeline.end[id], t->end[id]) << g.name << " " << OpName(t->schedule.space.At(id));
          ASSERT_EQ(run->timeline.Start(id), t->Start(id)) << g.name << " " << OpName(t->schedule.space.At(id));
        }
      }
      if (c == 0) ++schedules;
    }
  }
  EXPECT_GE(schedules, 10);
}

// 1F1B, P = 2, M = 1, F = B = 1: F0@s0 [0,1), its output of 10 bytes over a
// link of latency 1 and 4 bytes a tick takes 1 + 3 = 4 ticks, [1,5); F0@s1
// [5,6), B0@s1 [6,7), its gradient [7,11), B0@s0 [11,12).
TEST(CommRun, TransferTakesLatencyPlusBytesOverBandwidth) {
  Problem p;
  p.P = 2;
  p.M = 1;
  Result<Schedule> s = Generate("1f1b", p);
  ASSERT_TRUE(s);
  CommModel model;
  model.latency = 1;
  model.bandwidth = 4;
  model.transfer_bytes = {10};
  Result<CommRun> run = RunComms(p, *s, LowerAdjacent(p, *s), model);
  ASSERT_TRUE(run) << run.error().Text();
  EXPECT_EQ(run->timeline.makespan, 12);
  ASSERT_EQ(run->transfers.size(), 2u);
  EXPECT_EQ(run->transfers[0].start, 1);
  EXPECT_EQ(run->transfers[0].end, 5);
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(run->devices[d].comm_time, 8);
    EXPECT_EQ(run->devices[d].exposed, 4);       // each waits one transfer out
    EXPECT_EQ(run->devices[d].peak_send_bytes, 10);  // held to the step's end
  }
  ASSERT_EQ(run->links.size(), 2u);
  EXPECT_EQ(run->links[0].busy, 4);
}

// GPipe, P = 2, M = 2, latency 5, device 1 posting both RECV_Fs first. On
// its one stream a pending RECV holds back the next: F1's transfer waits
// for F0's, [6, 11), though F1@s0 ended at 2; two at a time, [2, 7). Posted
// in the reverse order, F0's waits behind F1's: F0@s1 starts at 12, not 6.
TEST(CommRun, APendingRecvHoldsBackTheNext) {
  Problem p;
  p.P = 2;
  p.M = 2;
  Result<Schedule> s = Generate("gpipe", p);
  ASSERT_TRUE(s);
  CommProgram eager = LowerAdjacent(p, *s);
  eager.devices[1] = Eager(eager).devices[1];  // device 1 has no RECV_B
  const OpId f0s1 = s->space.Id(OpKind::kF, 0, 1), f1s1 = s->space.Id(OpKind::kF, 1, 1);
  CommModel model;
  model.latency = 5;
  Result<CommRun> one = RunComms(p, *s, eager, model);
  ASSERT_TRUE(one) << one.error().Text();
  EXPECT_EQ(one->timeline.Start(f1s1), 11);
  model.concurrency = 2;
  Result<CommRun> two = RunComms(p, *s, eager, model);
  ASSERT_TRUE(two) << two.error().Text();
  EXPECT_EQ(two->timeline.Start(f1s1), 7);

  CommProgram reversed = eager;
  std::swap(reversed.devices[1][0], reversed.devices[1][1]);
  two = RunComms(p, *s, reversed, model);
  ASSERT_TRUE(two) << two.error().Text();
  EXPECT_EQ(two->timeline.Start(f0s1), 6);
  model.concurrency = 1;
  one = RunComms(p, *s, reversed, model);
  ASSERT_TRUE(one) << one.error().Text();
  EXPECT_EQ(one->timeline.Start(f0s1), 12);
}

// 1F1B, P = 2, M = 1, device 0 posting RECV_B0 first: its SEND_F0 waits
// for a gradient that needs the forward it sends.
TEST(CommRun, AnEarlyRecvCanHangItsOwnSend) {
  Problem p;
  p.P = 2;
  p.M = 1;
  Result<Schedule> s = Generate("1f1b", p);
  ASSERT_TRUE(s);
  CommProgram program = LowerAdjacent(p, *s);
  program.devices[0] = Eager(program).devices[0];
  Result<CommRun> run = RunComms(p, *s, program, CommModel{});
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().code, ErrorCode::kDeadlock);
  EXPECT_EQ(run.error().Text(),
            "deadlock: device 1 waits on RECV_F0@s1 before F0@s1; SEND_F0@s0 queues behind RECV_B0@s0 on device 0");
  CommModel unlimited;
  unlimited.concurrency = 0;
  EXPECT_TRUE(RunComms(p, *s, program, unlimited));
}

// Blocking batches: device 0 waits for its gradient before it has sent the
// forward that device 1 needs to make it.
TEST(CommRun, DeadlockNamesTheCycle) {
  Problem p;
  p.P = 2;
  p.M = 1;
  Result<Schedule> s = Generate("1f1b", p);
  ASSERT_TRUE(s);
  CommProgram program = LowerAdjacent(p, *s);
  auto& d0 = program.devices[0];  // F0, SEND_F0, RECV_B0, B0
  std::vector<CommAction> blocked = {d0[2], d0[0], d0[1], d0[3]};
  blocked[0].batch = 0;
  d0 = blocked;
  program.devices[1][0].batch = 0;  // RECV_F0 blocking too
  Result<CommRun> run = RunComms(p, *s, program, CommModel{});
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().code, ErrorCode::kDeadlock);
  EXPECT_EQ(run.error().Text(),
            "deadlock: device 0 waits on RECV_B0@s0 before F0@s0; device 1 waits on RECV_F0@s1 before F0@s1");
}

TEST(CommRun, BadProgramsAreNamed) {
  Problem p;
  p.P = 2;
  p.M = 1;
  Result<Schedule> s = Generate("1f1b", p);
  ASSERT_TRUE(s);
  const CommProgram good = LowerAdjacent(p, *s);
  CommProgram no_recv = good;
  no_recv.devices[1].erase(no_recv.devices[1].begin());  // RECV_F0@s1
  Result<CommRun> run = RunComms(p, *s, no_recv, CommModel{});
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().Text(), "SEND_F0@s0 on device 0 has no RECV_F0@s1 on device 1");
  CommProgram twice = good;
  twice.devices[1].insert(twice.devices[1].begin(), twice.devices[1][0]);
  run = RunComms(p, *s, twice, CommModel{});
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().Text(), "RECV_F0@s1 appears twice (device 1 at action 1 and device 1)");
  CommProgram wrong = good;
  wrong.devices[0].push_back(wrong.devices[1][0]);
  run = RunComms(p, *s, wrong, CommModel{});
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().Text(), "RECV_F0@s1 is on device 0, but stage 1 is computed on device 1");
  CommModel bad;
  bad.bandwidth = -1;
  EXPECT_EQ(ValidateCommModel(bad, 2).Text(), "link.bandwidth must be > 0, got -1");
}

}  // namespace
}  // namespace ppsim
