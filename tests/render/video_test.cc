// Video through ffmpeg: a playable file, the same bytes twice (bitexact
// flags), and clear failures that leave an existing output untouched.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "render/frame_painter.h"
#include "ppsim/render/video.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class VideoTest : public ::testing::Test {
 protected:
  VideoTest() : fixture_({{"GPipe", "gpipe"}, {"1F1B", "1f1b"}}, 4, 6, 640, 360) {
    auto m = NewMeasurer();
    list_ = std::move(*Layout(fixture_.input, *m));
    dir_ = fs::temp_directory_path() / ("ppsim-video-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    options_.pacing = PaceFor(list_.last_tick, 10);
  }
  ~VideoTest() override { fs::remove_all(dir_); }
  size_t FilesInDir() const { return std::distance(fs::directory_iterator(dir_), fs::directory_iterator()); }

  Fixture fixture_;
  DisplayList list_;
  fs::path dir_;
  VideoOptions options_;
};

TEST_F(VideoTest, Mp4IsH264AndDeterministic) {
  const fs::path a = dir_ / "a.mp4", b = dir_ / "b.mp4";
  Error e = EncodeVideo(list_, a, options_);
  ASSERT_EQ(e.code, ErrorCode::kOk) << e.message;
  ASSERT_EQ(EncodeVideo(list_, b, options_).code, ErrorCode::kOk);
  const std::string bytes = Slurp(a);
  ASSERT_GT(bytes.size(), 1000u);
  EXPECT_EQ(bytes.substr(4, 4), "ftyp");
  EXPECT_NE(bytes.find("avc1"), std::string::npos);  // H.264
  EXPECT_EQ(bytes, Slurp(b));
  EXPECT_EQ(FilesInDir(), 2u);  // no temporary files left behind
  // Duration: the 1 s poster, 19 ticks of half a second, then the 5 s hold.
  const std::string cmd = "ffprobe -v error -show_entries format=duration -of csv=p=0 " + a.string();
  FILE* probe = popen(cmd.c_str(), "r");
  ASSERT_NE(probe, nullptr);
  double seconds = 0;
  EXPECT_EQ(fscanf(probe, "%lf", &seconds), 1);
  pclose(probe);
  EXPECT_NEAR(seconds, 1 + 19 * 0.5 + 5, 0.25);
}

double ProbeSeconds(const fs::path& file) {
  const std::string cmd = "ffprobe -v error -show_entries format=duration -of csv=p=0 " + file.string();
  FILE* probe = popen(cmd.c_str(), "r");
  double seconds = 0;
  if (probe == nullptr || fscanf(probe, "%lf", &seconds) != 1) seconds = -1;
  if (probe != nullptr) pclose(probe);
  return seconds;
}

TEST_F(VideoTest, WebmAndGifLastAsLongAsTheMp4) {
  options_.format = VideoFormat::kWebm;
  const fs::path webm = dir_ / "a.webm", gif = dir_ / "a.gif";
  Error e = EncodeVideo(list_, webm, options_);
  ASSERT_EQ(e.code, ErrorCode::kOk) << e.message;
  EXPECT_NEAR(ProbeSeconds(webm), 15.5, 0.1);
  EXPECT_NE(Slurp(webm).find("webm"), std::string::npos);
  options_.format = VideoFormat::kGif;
  e = EncodeVideo(list_, gif, options_);
  ASSERT_EQ(e.code, ErrorCode::kOk) << e.message;
  EXPECT_NEAR(ProbeSeconds(gif), 15.5, 0.1);
  EXPECT_EQ(Slurp(gif).substr(0, 6), "GIF89a");
}

std::string Output(const std::string& cmd);

// The WebM's final frame against the PNG of the same frame: no visible
// artefacts (chroma smear, blocking) means a high PSNR.
TEST_F(VideoTest, WebmFinalFrameMatchesThePng) {
  options_.format = VideoFormat::kWebm;
  const fs::path webm = dir_ / "a.webm", png = dir_ / "final.png", last = dir_ / "last.png";
  ASSERT_EQ(EncodeVideo(list_, webm, options_).code, ErrorCode::kOk);
  Result<std::string> bytes = RenderPng(list_, list_.last_tick);
  ASSERT_TRUE(bytes.ok());
  std::ofstream(png, std::ios::binary) << *bytes;
  ASSERT_EQ(std::system(("ffmpeg -v error -sseof -1 -i " + webm.string() + " -update 1 -y " + last.string()).c_str()), 0);
  const std::string log = Output("ffmpeg -hide_banner -i " + last.string() + " -i " + png.string() +
                                 " -lavfi '[0:v][1:v]psnr' -f null - 2>&1");
  const size_t at = log.find("average:");
  ASSERT_NE(at, std::string::npos) << log;
  EXPECT_GE(std::stod(log.substr(at + 8)), 40.0) << log;
}

std::string Output(const std::string& cmd) {
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  if (f == nullptr) return out;
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  pclose(f);
  return out;
}

// Each image is coded once and held by copies: the file is still constant
// frame rate at --fps, every tick lasts exactly frames_per_tick frames, in
// order, and the final frame the 5 s hold on top; the video opens on the
// final frame (1 s), so its first frame is never an empty chart.
void ExpectH264AtTenFps(const fs::path& a) {
  EXPECT_EQ(Output("ffprobe -v error -select_streams v -show_entries stream=codec_name,pix_fmt,r_frame_rate,"
                "avg_frame_rate,nb_frames -of csv=p=0 " + a.string()),
            "h264,yuv420p,10/1,10/1,155\n");  // (10 + 19 ticks x 5 + 50) frames at 10 fps
  EXPECT_NEAR(ProbeSeconds(a), 15.5, 0.01);
}

void ExpectEveryTickHeldItsFrames(const fs::path& a) {
  ExpectH264AtTenFps(a);
  // Runs of identical decoded frames: one per tick, in tick order.
  std::istringstream md5s(Output("ffmpeg -v error -i " + a.string() + " -f framemd5 -"));
  std::vector<std::pair<std::string, int>> runs;
  for (std::string line; std::getline(md5s, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::string hash = line.substr(line.rfind(',') + 1);
    if (runs.empty() || runs.back().first != hash) runs.push_back({hash, 0});
    ++runs.back().second;
  }
  ASSERT_EQ(runs.size(), 20u);
  EXPECT_EQ(runs.front().second, 10);  // the poster
  EXPECT_NE(runs.front().first, runs[1].first);  // is not tick 0's empty chart (it is the final frame, coded as an IDR)
  for (size_t t = 1; t + 1 < runs.size(); ++t) EXPECT_EQ(runs[t].second, 5) << "tick " << t - 1;
  EXPECT_EQ(runs.back().second, 5 + 50);
}

TEST_F(VideoTest, Mp4IsConstantRateWithEveryTickHeldItsFrames) {
  const fs::path a = dir_ / "a.mp4";
  Error e = EncodeVideo(list_, a, options_);
  ASSERT_EQ(e.code, ErrorCode::kOk) << e.message;
  ExpectEveryTickHeldItsFrames(a);
}

// The plain path (src/render/h264_splice/h264_splice.h, "the way out"):
// x264 codes every frame and ffmpeg writes the MP4; as many frames, still
// H.264 4:2:0 at the same rate and length. (A repeat is coded again, so it
// may decode a little sharper than the frame before: no runs of identical
// frames to count here.)
TEST_F(VideoTest, Mp4EveryFrameCodingGivesTheSameFramesAndRate) {
  options_.mp4 = Mp4Coding::kEveryFrame;
  const fs::path a = dir_ / "a.mp4", b = dir_ / "b.mp4";
  Error e = EncodeVideo(list_, a, options_);
  ASSERT_EQ(e.code, ErrorCode::kOk) << e.message;
  ExpectH264AtTenFps(a);
  ASSERT_EQ(EncodeVideo(list_, b, options_).code, ErrorCode::kOk);
  EXPECT_EQ(Slurp(a), Slurp(b));
  EXPECT_EQ(FilesInDir(), 2u);  // no temporary files left behind
}

// ffmpeg's start-up is a large share of a short video's CPU: one run per
// video, whichever way the MP4 is coded.
TEST_F(VideoTest, Mp4StartsFfmpegOnce) {
  const fs::path log = dir_ / "runs.log", wrapper = dir_ / "ffmpeg-counting";
  std::ofstream(wrapper) << "#!/bin/sh\necho run >> '" << log.string() << "'\nexec ffmpeg \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  options_.ffmpeg = wrapper.string();
  for (Mp4Coding coding : {Mp4Coding::kSplice, Mp4Coding::kEveryFrame}) {
    options_.mp4 = coding;
    fs::remove(log);
    Error e = EncodeVideo(list_, dir_ / "a.mp4", options_);
    ASSERT_EQ(e.code, ErrorCode::kOk) << e.message;
    EXPECT_EQ(Slurp(log), "run\n");
  }
}

TEST_F(VideoTest, MissingFfmpegSaysWhatToInstall) {
  const fs::path out = dir_ / "out.mp4";
  std::ofstream(out) << "previous";
  options_.ffmpeg = "ppsim-no-such-ffmpeg";
  Error e = EncodeVideo(list_, out, options_);
  EXPECT_EQ(e.code, ErrorCode::kMissingTool);
  EXPECT_THAT(e.message, ::testing::HasSubstr("install ffmpeg (apt-get install ffmpeg)"));
  EXPECT_EQ(Slurp(out), "previous");
  EXPECT_EQ(FilesInDir(), 1u);
}

TEST_F(VideoTest, FailingFfmpegIsReportedAndLeavesTheOutputAlone) {
  const fs::path out = dir_ / "out.mp4";
  std::ofstream(out) << "previous";
  options_.ffmpeg = "/bin/false";  // exits 1 without reading its input: the pipe breaks
  Error e = EncodeVideo(list_, out, options_);
  EXPECT_EQ(e.code, ErrorCode::kIo);
  EXPECT_THAT(e.message, ::testing::HasSubstr("ffmpeg failed writing"));
  EXPECT_THAT(e.message, ::testing::HasSubstr("exit status 1"));
  EXPECT_EQ(Slurp(out), "previous");
  EXPECT_EQ(FilesInDir(), 1u);
}

// The MP4 writer's own error paths, in both codings (issue 14's leftover):
// an output that is a directory is refused before ffmpeg runs and stays a
// directory; a device is written directly, and a full one (/dev/full) is an
// I/O error naming it, not a crash or a success.
TEST_F(VideoTest, Mp4OntoADirectoryIsRefusedAndTheDirectoryKept) {
  const fs::path out = dir_ / "d.mp4";
  fs::create_directory(out);
  for (Mp4Coding coding : {Mp4Coding::kSplice, Mp4Coding::kEveryFrame}) {
    options_.mp4 = coding;
    Error e = EncodeVideo(list_, out, options_);
    EXPECT_EQ(e.code, ErrorCode::kIo);
    EXPECT_THAT(e.Text(), ::testing::HasSubstr("it is a directory"));
    EXPECT_TRUE(fs::is_directory(out));
    EXPECT_EQ(FilesInDir(), 1u);  // no temporary left beside it
  }
}

TEST_F(VideoTest, Mp4OntoAFullDeviceIsAnIoError) {
  if (!fs::is_character_file("/dev/full")) GTEST_SKIP() << "no /dev/full";
  for (Mp4Coding coding : {Mp4Coding::kSplice, Mp4Coding::kEveryFrame}) {
    options_.mp4 = coding;
    Error e = EncodeVideo(list_, "/dev/full", options_);
    EXPECT_EQ(e.code, ErrorCode::kIo);
    EXPECT_THAT(e.Text(), ::testing::HasSubstr("/dev/full"));
    EXPECT_THAT(e.Text(), ::testing::HasSubstr("No space left on device"));
    EXPECT_TRUE(fs::is_character_file("/dev/full"));
    EXPECT_EQ(FilesInDir(), 0u);
  }
}

TEST_F(VideoTest, OddSizeIsRefused) {
  list_.width = 641;
  Error e = EncodeVideo(list_, dir_ / "odd.mp4", options_);
  EXPECT_EQ(e.code, ErrorCode::kInvalidValue);
  EXPECT_THAT(e.message, ::testing::HasSubstr("even"));
}

}  // namespace
}  // namespace ppsim::render::testing
