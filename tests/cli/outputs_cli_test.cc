// Where outputs go, end to end (docs/reliability.md "Outputs"): devices,
// FIFOs and symlinks stay what they are, temporaries never outlive a run,
// and the little things a newcomer meets (--version, "wrote FILE", out/).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/shell_run.h"
#include "ppsim/error.h"

namespace ppsim {
namespace {

using testing::DirRun;
using testing::RunInDir;
using testing::ScratchDir;
namespace fs = std::filesystem;

TEST(Outputs, DevNullStaysACharacterDevice) {
  ScratchDir dir;
  const DirRun run = RunInDir(dir, "", "simulate -o /dev/null --json");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(dir.List(), std::vector<std::string>{});
}

TEST(Outputs, AFifoIsWrittenDirectlyAndStaysAFifo) {
  ScratchDir dir;
  const DirRun run = RunInDir(dir, "mkfifo f; (cat f >got &)", "simulate -o f; sleep 0.2; cat got");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("makespan 18"), std::string::npos) << run.out;
  EXPECT_TRUE(fs::is_fifo(dir.path() + "/f"));
}

TEST(Outputs, ASymlinksTargetIsReplacedAndTheLinkKept) {
  ScratchDir dir;
  const DirRun run = RunInDir(dir, "mkdir real; echo old >real/x.txt; ln -s real/x.txt link.txt",
                              "simulate -o link.txt");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::is_symlink(dir.path() + "/link.txt"));
  EXPECT_NE(testing::Slurp(dir.path() + "/real/x.txt").find("makespan 18"), std::string::npos);
  EXPECT_EQ(run.err, "ppsim: wrote link.txt\n");
  EXPECT_EQ(dir.List(), run.before);  // no temporary left beside the link or in real/
  EXPECT_EQ(fs::directory_iterator(dir.path() + "/real")->path().filename(), "x.txt");
}

TEST(Outputs, AReplacedFileKeepsItsPermissions) {
  ScratchDir dir;
  const DirRun run = RunInDir(dir, "echo old >x.txt; chmod 600 x.txt", "simulate -o x.txt");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(fs::status(dir.path() + "/x.txt").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
}

TEST(Outputs, RenderCreatesTheTourFolderOut) {
  ScratchDir dir;
  const DirRun run = RunInDir(dir, "", "render $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml -o out/g.svg -o out/g.html");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(fs::is_regular_file(dir.path() + "/out/g.svg"));
  EXPECT_TRUE(fs::is_regular_file(dir.path() + "/out/g.html"));
  EXPECT_EQ(run.err, "ppsim: wrote out/g.svg\nppsim: wrote out/g.html\n");
}

TEST(Outputs, RenderWritesNothingWhenOneOutputFails) {
  ScratchDir dir;
  const DirRun run =
      RunInDir(dir, "echo old >a.svg", "render $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml -o a.svg -o no/such/dir/b.svg");
  EXPECT_EQ(run.exit_code, ExitCode(ErrorCode::kIo));
  EXPECT_EQ(testing::Slurp(dir.path() + "/a.svg"), "old\n");
  EXPECT_EQ(dir.List(), run.before);
}

TEST(Outputs, SimulateSaysWhatItWrote) {
  ScratchDir dir;
  const DirRun run = RunInDir(dir, "", "simulate --json -o s.json");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.err, "ppsim: wrote s.json\n");
}

TEST(Outputs, PathsThatAreNotUtf8AreEscapedInJsonAndMessages) {
  ScratchDir dir;
  DirRun run = RunInDir(dir, "", "render $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml -o $'\\xff.svg' --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["outputs"][0]["path"], "\\xff.svg");
  run = RunInDir(dir, "cp $PPSIM_EXAMPLES/custom_1f1b.txt $'\\xfe.txt'", "simulate --schedule-file $'\\xfe.txt' --json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(nlohmann::json::accept(run.out)) << run.out;
  run = RunInDir(dir, "", "simulate -o $'no\\xfd/x.json'");
  EXPECT_EQ(run.err, "ppsim: cannot write no\\xfd/x.json: no directory no\\xfd\n");
}

TEST(Cli, VersionIsOneLine) {
  ScratchDir dir;
  const DirRun run = RunInDir(dir, "", "--version");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.out, "ppsim 0.1.0\n");
}

TEST(Cli, ThreadsBeyondTheCoresAreCapped) {
  ScratchDir dir;
  const DirRun run = RunInDir(dir, "", "check $PPSIM_EXAMPLES/gpipe_vs_1f1b.toml --sweep P=1..2 --sweep M=2..3 --threads 100000");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "tried 4 points; 0 counterexample(s)\n");
}

// A render interrupted while ffmpeg runs: SIGTERM (or SIGINT) removes the
// output's temporaries and ffmpeg's log, and the previous output stays.
void InterruptRender(int sig) {
  ScratchDir dir;
  const std::string bin = dir.path() + "/bin";
  fs::create_directory(bin);
  std::ofstream(bin + "/ffmpeg") << "#!/bin/sh\nexec sleep 60\n";  // an encoder that never finishes
  fs::permissions(bin + "/ffmpeg", fs::perms::owner_all);
  std::ofstream(dir.path() + "/a.mp4") << "old";
  const pid_t pid = fork();
  if (pid == 0) {
    chdir(dir.path().c_str());
    setenv("PATH", (bin + ":/usr/bin:/bin").c_str(), 1);
    setenv("TMPDIR", dir.path().c_str(), 1);
    execl(PPSIM_BINARY, "ppsim", "render", (std::string(PPSIM_SOURCE_DIR) + "/examples/gpipe_vs_1f1b.toml").c_str(),
          "-o", "a.mp4", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until ffmpeg's log exists: the render is under way.
  bool started = false;
  for (int i = 0; i < 600 && !started; ++i) {
    for (const std::string& name : dir.List()) started = started || name.rfind("ppsim-child-", 0) == 0;
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_TRUE(started) << "ffmpeg never started";
  kill(pid, sig);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig);
  EXPECT_EQ(dir.List(), (std::vector<std::string>{"a.mp4", "bin"}));
  EXPECT_EQ(testing::Slurp(dir.path() + "/a.mp4"), "old");
}

TEST(Signals, SigtermRemovesEveryTemporary) { InterruptRender(SIGTERM); }
TEST(Signals, SigintRemovesEveryTemporary) { InterruptRender(SIGINT); }

}  // namespace
}  // namespace ppsim
