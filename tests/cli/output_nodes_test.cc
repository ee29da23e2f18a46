// What `-o` does to a node that is not a regular file, and to one of the
// command's own inputs: a block device or a socket cannot be written as a
// stream, so the run is refused (exit 12) and the node kept; an output that
// is an input is refused, naming both, and the input kept (issue 21). FIFOs,
// character devices and symlinks: outputs_cli_test.cc.
#include <gtest/gtest.h>

#include <string>

#include "cli/shell_run.h"
#include "ppsim/error.h"

namespace ppsim {
namespace {

using testing::RunInDir;
using testing::ScratchDir;

const int kIo = ExitCode(ErrorCode::kIo);

// mknod needs root (CAP_MKNOD), as CI runs; the test says so when it cannot.
TEST(OutputNodes, ABlockDeviceIsKeptAndTheRunRefused) {
  ScratchDir dir;
  for (const std::string args : {"simulate -s 1f1b -P 4 -M 6 --json -o blk",
                                 "render \"$PPSIM_EXAMPLES/gpipe_vs_1f1b.toml\" -o blk --format svg",
                                 "search -P 2 -M 4 --max-activations 2 --json -o blk",
                                 "render \"$PPSIM_EXAMPLES/gpipe_vs_1f1b.toml\" -o ok.svg -o blk.svg"}) {
    const bool two = args.find("blk.svg") != std::string::npos;  // all outputs or none: no ok.svg either
    const testing::DirRun run = RunInDir(dir, std::string("rm -f blk*; mknod ") + (two ? "blk.svg" : "blk") +
                                                  " b 7 0 || exit 99", args);
    if (run.exit_code == 99) GTEST_SKIP() << "mknod needs root";
    EXPECT_EQ(run.exit_code, kIo) << args << "\n" << run.err;
    EXPECT_EQ(run.err, std::string("ppsim: cannot write ") + (two ? "blk.svg" : "blk") +
                           ": it is a block device (ppsim writes regular files, FIFOs and character devices)\n")
        << args;
    EXPECT_EQ(dir.List(), run.before) << args << ": a file was left behind";
    const testing::DirRun after = RunInDir(dir, "", std::string("--version >/dev/null; stat -c %F ") + (two ? "blk.svg" : "blk") + " >&2");
    EXPECT_EQ(after.err, "block special file\n") << args;
  }
}

TEST(OutputNodes, ASocketIsKeptAndTheRunRefused) {
  ScratchDir dir;
  const std::string make_socket =
      "python3 -c \"import socket; socket.socket(socket.AF_UNIX).bind('sock')\" || exit 99";
  const testing::DirRun run = RunInDir(dir, make_socket, "simulate -s gpipe -P 2 -M 2 --json -o sock");
  if (run.exit_code == 99) GTEST_SKIP() << "no python3 to make a socket";
  EXPECT_EQ(run.exit_code, kIo) << run.err;
  EXPECT_EQ(run.err, "ppsim: cannot write sock: it is a socket (ppsim writes regular files, FIFOs and character "
                     "devices)\n");
  const testing::DirRun after = RunInDir(dir, "", "--version >/dev/null; stat -c %F sock >&2");
  EXPECT_EQ(after.err, "socket\n");
}

// `ppsim render s.toml -o s.toml --format svg` once replaced the scene with its own picture.
TEST(OutputNodes, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  ScratchDir dir;
  const std::string setup =
      "cp \"$PPSIM_EXAMPLES/gpipe_vs_1f1b.toml\" s.toml && ln -s s.toml link.toml && ln s.toml hard.svg";
  struct Case {
    const char* args;
    const char* err;
  };
  for (const Case& c : {
           Case{"render s.toml -o s.toml --format svg", "ppsim: cannot write s.toml: it is an input of this command\n"},
           Case{"render s.toml -o link.toml --format svg",
                "ppsim: cannot write link.toml: it is s.toml, an input of this command\n"},
           Case{"render s.toml -o a.svg -o hard.svg",  // all outputs or none: no a.svg either
                "ppsim: cannot write hard.svg: it is s.toml, an input of this command\n"},
           Case{"simulate -s 1f1b --cost-file s.toml -o s.toml", nullptr},  // not a cost file: its own error
       }) {
    const testing::DirRun run = RunInDir(dir, "rm -f s.toml link.toml hard.svg a.svg; " + setup, c.args);
    if (c.err != nullptr) {
      EXPECT_EQ(run.exit_code, kIo) << c.args << "\n" << run.err;
      EXPECT_EQ(run.err, c.err) << c.args;
    } else {
      EXPECT_NE(run.exit_code, 0) << c.args;
    }
    const testing::DirRun same = RunInDir(dir, "", "--version >/dev/null; cmp s.toml \"$PPSIM_EXAMPLES/gpipe_vs_1f1b.toml\" >&2 && echo same >&2");
    EXPECT_EQ(same.err, "same\n") << c.args << ": the scene was changed";
    EXPECT_EQ(run.before, dir.List()) << c.args << ": a file was left behind";
  }
}

// `render -o a.svg -o /dev/full` replaced a.svg, then failed on the device:
// every output of one call is committed, or none is.
TEST(OutputNodes, AFailedDeviceLeavesTheOtherOutputsAsTheyWere) {
  ScratchDir dir;
  const testing::DirRun run = RunInDir(dir, "echo old > a.svg; ln -s /dev/full full.svg",
                                       "render \"$PPSIM_EXAMPLES/gpipe_vs_1f1b.toml\" -o a.svg -o full.svg");
  EXPECT_EQ(run.exit_code, kIo) << run.err;
  EXPECT_EQ(run.err, "ppsim: cannot write /dev/full: No space left on device\n");
  EXPECT_EQ(testing::Slurp(dir.path() + "/a.svg"), "old\n");
  EXPECT_EQ(dir.List(), run.before);
}

}  // namespace
}  // namespace ppsim
