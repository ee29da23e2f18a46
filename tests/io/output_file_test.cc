// OutputFile, the one way every writer puts an output in place: nothing
// appears before Commit, an uncommitted output leaves the previous file as it
// was and no temporary behind, stdout and devices are written directly.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "ppsim/io/atomic_file.h"

namespace ppsim {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ppsim_output_file_" + std::to_string(getpid()));
    fs::create_directories(dir_);
    path_ = (dir_ / "out.txt").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  size_t Entries() const { return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {})); }
  static void Put(const std::string& path, const std::string& bytes) { std::ofstream(path) << bytes; }
  fs::path dir_;
  std::string path_;
};

TEST_F(OutputFileTest, NothingAppearsBeforeCommit) {
  Result<io::OutputFile> out = io::OutputFile::Open(path_);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_NE(out->into(), path_);
  EXPECT_EQ(fs::path(out->into()).parent_path(), dir_);  // beside the target: rename is atomic
  Put(out->into(), "new");
  EXPECT_FALSE(fs::exists(path_));
  ASSERT_EQ(out->Commit().code, ErrorCode::kOk);
  EXPECT_EQ(*io::ReadFile(path_), "new");
  EXPECT_EQ(Entries(), 1u);  // no temporary left
}

TEST_F(OutputFileTest, AnUncommittedOutputLeavesThePreviousFileAndNoTemporary) {
  Put(path_, "old");
  {
    Result<io::OutputFile> out = io::OutputFile::Open(path_);
    ASSERT_TRUE(out.ok()) << out.error().message;
    Put(out->into(), "half");
    EXPECT_EQ(Entries(), 2u);
  }
  EXPECT_EQ(*io::ReadFile(path_), "old");
  EXPECT_EQ(Entries(), 1u);
}

TEST_F(OutputFileTest, StdoutAndDevicesAreWrittenDirectlyUnlessStaged) {
  EXPECT_EQ(io::OutputFile::Open("-")->into(), "-");
  EXPECT_EQ(io::OutputFile::Open("/dev/null")->into(), "/dev/null");
  Result<io::OutputFile> staged = io::OutputFile::Open("/dev/null", io::OutputFile::Devices::kStaged);
  ASSERT_TRUE(staged.ok()) << staged.error().message;
  EXPECT_NE(staged->into(), "/dev/null");
  Put(staged->into(), "bytes");
  ASSERT_EQ(staged->Commit().code, ErrorCode::kOk);
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));  // still the device
}

TEST_F(OutputFileTest, AMissingDirectoryIsAnIoErrorNamingThePath) {
  Result<io::OutputFile> out = io::OutputFile::Open((dir_ / "no" / "out.txt").string());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::kIo);
  EXPECT_NE(out.error().message.find("out.txt"), std::string::npos) << out.error().message;
}

TEST_F(OutputFileTest, WriteFileAtomicallyReplacesTheFile) {
  Put(path_, "old");
  ASSERT_EQ(io::WriteFileAtomically(path_, "new").code, ErrorCode::kOk);
  EXPECT_EQ(*io::ReadFile(path_), "new");
  EXPECT_EQ(Entries(), 1u);
}

}  // namespace
}  // namespace ppsim
