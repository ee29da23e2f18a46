// MappedFile: the bytes of a regular file without a copy, and exactly
// ReadFile's errors and limits for everything else.
#include "ppsim/io/mapped_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "ppsim/io/atomic_file.h"

namespace ppsim {
namespace {

namespace fs = std::filesystem;

class MappedFileTest : public ::testing::Test {
 protected:
  MappedFileTest() : dir_(fs::temp_directory_path() / ("ppsim-mapped-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~MappedFileTest() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(MappedFileTest, HoldsTheFilesBytes) {
  const fs::path p = dir_ / "t.json";
  std::ofstream(p, std::ios::binary) << std::string("{\"ops\": []}\0tail", 16);
  Result<io::MappedFile> f = io::MappedFile::Open(p.string(), 1 << 20);
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->text(), std::string_view("{\"ops\": []}\0tail", 16));
  io::MappedFile moved = std::move(*f);  // the view moves with it
  EXPECT_EQ(moved.text().size(), 16u);
}

TEST_F(MappedFileTest, ErrorsAreReadFilesOwn) {
  const fs::path big = dir_ / "big.json", empty = dir_ / "empty.json";
  std::ofstream(big) << std::string(100, ' ');
  std::ofstream(empty) << "";
  for (const std::string& path : {(dir_ / "missing.json").string(), dir_.string(), big.string()}) {
    Result<io::MappedFile> mapped = io::MappedFile::Open(path, 10);
    Result<std::string> read = io::ReadFile(path, 10);
    ASSERT_FALSE(mapped.ok()) << path;
    ASSERT_FALSE(read.ok()) << path;
    EXPECT_EQ(mapped.error().code, read.error().code) << path;
    EXPECT_EQ(mapped.error().message, read.error().message) << path;
  }
  Result<io::MappedFile> f = io::MappedFile::Open(empty.string(), 10);  // nothing to map: read, as ReadFile does
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->text(), "");
}

}  // namespace
}  // namespace ppsim
