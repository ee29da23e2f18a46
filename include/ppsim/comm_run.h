// Places a CommProgram in time (comm_model.h): the compute ops as a
// Timeline, which every metric, claim and renderer reads as before, plus
// what the communication did — each transfer from post to completion, each
// collective, each wait of a device's compute stream on a transfer, and the
// per-device and per-link figures derived from them.
//
// The step ends when every device has run its program and every transfer
// and collective it posted has completed (PyTorch waits its sends after the
// step's last action): Timeline::makespan is that end.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ppsim/comm_model.h"
#include "ppsim/error.h"
#include "ppsim/memory.h"
#include "ppsim/problem.h"
#include "ppsim/timeline.h"

namespace ppsim {

struct Transfer {
  bool backward = false;   // false: F's output to stage boundary+1; true: a gradient to stage boundary
  std::int32_t boundary = 0;
  std::int32_t microbatch = 0;
  int src = 0, dst = 0;    // devices
  Tick send_post = 0, recv_post = 0;
  Tick start = 0, end = 0;  // on the directed link src -> dst
  std::int64_t bytes = 0;
};

// UNSHARD or REDUCE_GRAD on a device's collective stream.
struct Collective {
  CommKind kind = CommKind::kUnshard;
  int device = 0;
  std::int32_t stage = 0;
  Tick start = 0, end = 0;
};

// The compute stream idle from `start` to `end` because a transfer had not
// completed though its producer had ended (exposed communication).
struct CommWait {
  int device = 0;
  Tick start = 0, end = 0;
  std::int32_t transfer = 0;  // index into CommRun::transfers
};

struct DeviceComm {
  Tick comm_time = 0;     // sum of the durations of the transfers it sends or receives
  Tick exposed = 0;       // sum of its waits
  std::int64_t peak_send_bytes = 0;  // send buffers held at once
};

struct LinkUse {
  int src = 0, dst = 0;
  Tick busy = 0;  // ticks with at least one transfer on the link
};

// What the communication did (Timeline::comms points to it).
struct CommFigures {
  std::vector<Transfer> transfers;
  std::vector<Collective> collectives;
  std::vector<CommWait> waits;
  std::vector<DeviceComm> devices;
  std::vector<LinkUse> links;  // each directed link that carried a transfer, by (src, dst)
};

struct CommRun : CommFigures {
  Timeline timeline;
};

// REQUIRES: ValidateProblem(problem), CheckComplete(problem, schedule) and
// ValidateCommModel(model) ok; `program` holds `schedule`'s slots in order.
// kBadSchedule when the program does not match the schedule (a slot
// missing or out of order, a SEND without its RECV or the reverse — naming
// both —, two RECVs for one transfer, a RECV on a device that does not
// compute its stage, a consumer before its RECV); kDeadlock naming the
// cycle of waiting actions ("device 0 waits on RECV_B0@s0 before B0@s0;
// device 1 waits on RECV_F0@s1 ..."); kInvalidValue when a sum overflows.
Result<CommRun> RunComms(const Problem& problem, const Schedule& schedule, const CommProgram& program,
                         const CommModel& model);

// Buffers RunCommsInto keeps from one call to the next, so that a sweep or
// a benchmark placing many programs does not touch fresh memory each time.
// What it holds is RunCommsInto's own.
class CommScratch {
 public:
  CommScratch();
  ~CommScratch();
  CommScratch(CommScratch&&) noexcept;
  CommScratch& operator=(CommScratch&&) noexcept;
  struct Buffers;
  Buffers& buffers() { return *buffers_; }

 private:
  std::unique_ptr<Buffers> buffers_;
};

// As RunComms, into `out`, reusing its buffers and `scratch`'s (as
// PlaceInto reuses a timeline's). On success `schedule` is moved into
// out.timeline; on error it is left where it was and `out` is unspecified.
// Each device walks its program in order, devices in turn
// (src/core/comm_walk.cc; its speed is in docs/performance.md).
Error RunCommsInto(const Problem& problem, Schedule&& schedule, const CommProgram& program, const CommModel& model,
                   CommScratch& scratch, CommRun& out);

// The bytes of send buffers each of the P devices holds over the step: each
// SEND's bytes from its post until its transfer completes
// (SendRelease::kCompletion) or to `makespan`, the step's end (kStepEnd, as
// PyTorch's runtime waits its sends after the step's last action). At a
// tick where buffers are released and others posted, the value is what is
// held after both. Each series' Peak() is DeviceComm::peak_send_bytes,
// except that a buffer held for no tick (released at its post) counts in
// that figure and in no tick here.
std::vector<StepSeries> SendBuffersHeld(const CommFigures& figures, int P, SendRelease release, Tick makespan);

// "RECV_F3@s1", "UNSHARD@s2", or OpName of a compute slot.
std::string CommActionName(const OpSpace& space, const CommAction& action);

}  // namespace ppsim
