// `ppsim explain -o report.svg|.png|.html` through the shipped binary: the
// measured run drawn above its ideal on one time axis, each late op marked
// by its lateness, the findings as closing lines; every figure checked
// against the same run's --json.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "cli/run_tool.h"

namespace ppsim {
namespace {

using nlohmann::json;
using testing::RunPpsim;
using testing::Slurp;

const std::string kStraggler = std::string(PPSIM_TEST_DATA_DIR) + "/traces/pub-1f1b-P4-M4-straggler";

std::string TempDir(const std::string& name) {
  const std::string dir = "/tmp/ppsim_explain_picture_" + std::to_string(::getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The true costs (truth.json) as a cost file in ns ticks, so that rank 3 is found a straggler.
std::string ExpectFile(const std::string& dir) {
  const json truth = json::parse(Slurp(kStraggler + "/truth.json"));
  std::string f, bw;
  for (const auto& c : truth["costs_us"]) {
    f += (f.empty() ? "" : ", ") + std::to_string(std::llround(c["F"].get<double>() * 1000));
    bw += (bw.empty() ? "" : ", ") + std::to_string(std::llround(c["B"].get<double>() * 1000));
  }
  const std::string path = dir + "/true_costs.toml";
  std::ofstream(path) << "F = [" << f << "]\nBW = [" << bw << "]\n";
  return path;
}

// µs with ns kept, as the picture writes them: 28249.474, 28249.5.
std::string Us(double us) {
  const long long ns = std::llround(us * 1000);
  std::string frac = std::to_string(ns % 1000 + 1000).substr(1);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  return std::to_string(ns / 1000) + (frac.empty() ? "" : "." + frac);
}

struct Rect {
  double x, w;
};
// The <rect>s of one fill, in document order.
std::vector<Rect> RectsOf(const std::string& svg, const std::string& fill) {
  std::vector<Rect> out;
  const std::regex re("<rect x=\"([0-9.]+)\" y=\"[0-9.]+\" width=\"([0-9.]+)\" height=\"[0-9.]+\" fill=\"" + fill + "\"");
  for (std::sregex_iterator it(svg.begin(), svg.end(), re), end; it != end; ++it)
    out.push_back({std::stod((*it)[1]), std::stod((*it)[2])});
  return out;
}

TEST(ExplainPictureCli, MeasuredAboveIdealOnOneAxisWithLateOpsMarked) {
  const std::string dir = TempDir("svg");
  auto run = RunPpsim("explain " + kStraggler + " --json --expect " + ExpectFile(dir) + " -o " + dir + "/r.svg");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json j = json::parse(run.out);  // pictures alone: the report still on stdout
  const std::string svg = Slurp(dir + "/r.svg");
  const double measured = j["measured"]["makespan_us"], ideal = j["ideal"]["makespan_us"];
  ASSERT_GT(measured - ideal, 3000.0);  // the straggler's cost
  EXPECT_NE(svg.find("finish " + Us(measured) + " \u00B5s"), std::string::npos);
  EXPECT_NE(svg.find("finish " + Us(ideal) + " \u00B5s"), std::string::npos);
  EXPECT_NE(svg.find(j["findings"][0]["text"].get<std::string>()), std::string::npos);  // a closing line
  // The charts' areas (#f6f6f6, measured first): one scale, so the ideal's
  // is shorter by (measured - ideal) of the axis, to the pixel.
  const std::vector<Rect> grid = RectsOf(svg, "#f6f6f6");
  ASSERT_EQ(grid.size(), 2u);
  EXPECT_EQ(grid[0].x, grid[1].x);
  const double px_per_us = grid[0].w / measured;
  EXPECT_NEAR(grid[0].w - grid[1].w, (measured - ideal) * px_per_us, 1.0);
  // One bar per late op (and the legend's swatch), each as wide as its
  // lateness; the labels drawn say it.
  const std::vector<Rect> marks = RectsOf(svg, "#b00020");
  ASSERT_FALSE(j["late_ops"].empty());
  ASSERT_EQ(marks.size(), j["late_ops"].size() + 1);
  double widest_late = 0, widest_bar = 0;
  for (const auto& l : j["late_ops"]) widest_late = std::max(widest_late, l["late_us"].get<double>());
  for (size_t i = 1; i < marks.size(); ++i) widest_bar = std::max(widest_bar, marks[i].w);
  EXPECT_NEAR(widest_bar, widest_late * px_per_us, 1.0);
  int labels = 0;
  for (const auto& l : j["late_ops"]) {
    const std::string text = ">+" + Us(l["late_us"].get<double>()) + "</text>";
    labels += svg.find(text) != std::string::npos;
  }
  EXPECT_GE(labels, 8);
  const std::string rank0_last = ">+" + Us(j["late_ops"][3]["late_us"].get<double>()) + "</text>";
  EXPECT_EQ(j["late_ops"][3]["op"], "0B3");
  EXPECT_NE(svg.find(rank0_last), std::string::npos);
}

TEST(ExplainPictureCli, PngAndPageAndReportFromOneRun) {
  const std::string dir = TempDir("all");
  auto run = RunPpsim("explain " + kStraggler + " -o " + dir + "/r.png -o " + dir + "/r.html -o " + dir + "/r.txt");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");  // the report went to r.txt
  EXPECT_NE(Slurp(dir + "/r.txt").find("measured  31364.8"), std::string::npos);
  const std::string png = Slurp(dir + "/r.png");
  ASSERT_GT(png.size(), 24u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  EXPECT_EQ(static_cast<unsigned char>(png[18]) * 256 + static_cast<unsigned char>(png[19]), 1920);  // IHDR width
  const std::string html = Slurp(dir + "/r.html");
  EXPECT_NE(html.find("Measured (the trace)"), std::string::npos);
  EXPECT_NE(html.find("finish 31364.803 \u00B5s"), std::string::npos);
}

TEST(ExplainPictureCli, UnwritablePictureWritesNothing) {
  const std::string dir = TempDir("bad");
  auto run = RunPpsim("explain " + kStraggler + " -o " + dir + "/r.svg -o " + dir + "/no/such/r.png");
  EXPECT_EQ(run.exit_code, 12) << run.err;
  EXPECT_NE(run.err.find("no/such/r.png"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/r.svg"));
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace ppsim
