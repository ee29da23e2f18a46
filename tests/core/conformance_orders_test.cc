// Every entry of tests/data/pytorch_orders_public.json: PyTorch's
// per-rank order for a schedule and size must equal ours, op for op.
//
// PyTorch writes ops as <kind><microbatch>s<stage> with kinds F, B (full
// backward), I (input gradient) and W, and "(a;b)OVERLAP_F_B" for an
// overlapped pair. ppsim splits the backward of every split schedule, so
// there PyTorch's full B is our B followed by its W, and a pair whose
// backward is full is our F&B compound op followed by that W.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "ppsim/generators.h"

namespace ppsim {
namespace {

const std::map<std::string, std::string>& PyTorchNames() {
  static const std::map<std::string, std::string> names = {
      {"ScheduleGPipe", "gpipe"},          {"Schedule1F1B", "1f1b"},
      {"ScheduleInterleaved1F1B", "interleaved"}, {"ScheduleLoopedBFS", "looped-bfs"},
      {"ScheduleInterleavedZeroBubble", "zb1p"},  {"ScheduleZBVZeroBubble", "zbv"},
      {"ScheduleDualPipeV", "dualpipev"}};
  return names;
}

// "F3s1" -> kind 'F', "3@s1".
struct Token {
  char kind = 0;
  std::string where;  // "3@s1"
};

Token ParseAction(const std::string& text) {
  Token t;
  const size_t s = text.find('s');
  EXPECT_TRUE(text.size() >= 4 && s != std::string::npos) << "bad action '" << text << "'";
  if (text.size() < 4 || s == std::string::npos) return t;
  t.kind = text[0];
  t.where = text.substr(1, s - 1) + "@s" + text.substr(s + 1);
  return t;
}

// PyTorch's ops in ppsim's names, a full backward expanded as described above.
std::vector<std::string> Expected(const std::vector<std::string>& rank, bool split) {
  std::vector<std::string> out;
  for (const std::string& text : rank) {
    if (text.front() == '(') {
      const size_t semi = text.find(';'), close = text.find(')');
      EXPECT_EQ(text.substr(close + 1), "OVERLAP_F_B") << text;
      const Token f = ParseAction(text.substr(1, semi - 1));
      const Token b = ParseAction(text.substr(semi + 1, close - semi - 1));
      EXPECT_EQ(f.kind, 'F') << text;
      out.push_back("(F" + f.where + ";B" + b.where + ")");
      if (split && b.kind == 'B') out.push_back("W" + b.where);
      continue;
    }
    const Token t = ParseAction(text);
    switch (t.kind) {
      case 'F': out.push_back("F" + t.where); break;
      case 'I': out.push_back("B" + t.where); break;
      case 'W': out.push_back("W" + t.where); break;
      case 'B':
        out.push_back("B" + t.where);
        if (split) out.push_back("W" + t.where);
        break;
      default: ADD_FAILURE() << "unknown action '" << text << "'";
    }
  }
  return out;
}

std::vector<std::string> Ours(const Schedule& s, int device) {
  std::vector<std::string> out;
  for (const Slot& slot : s.devices[device]) {
    if (slot.pair())
      out.push_back("(" + OpName(s.space.At(slot.op)) + ";" + OpName(s.space.At(slot.overlapped)) + ")");
    else
      out.push_back(OpName(s.space.At(slot.op)));
  }
  return out;
}

std::string Around(const std::vector<std::string>& v, size_t i) {
  std::string out;
  for (size_t k = i >= 3 ? i - 3 : 0; k < std::min(v.size(), i + 4); ++k)
    out += (k == i ? "[" : "") + v[k] + (k == i ? "] " : " ");
  return out;
}

TEST(Conformance, PyTorchOrdersPublic) {
  std::ifstream in(std::string(PPSIM_TEST_DATA_DIR) + "/pytorch_orders_public.json");
  ASSERT_TRUE(in) << "cannot read the conformance file";
  const nlohmann::json doc = nlohmann::json::parse(in);
  ASSERT_GT(doc.at("entries").size(), 0u);
  std::map<std::string, int> checked;
  for (const nlohmann::json& e : doc.at("entries")) {
    const std::string pytorch = e.at("schedule");
    ASSERT_TRUE(PyTorchNames().count(pytorch)) << "no ppsim schedule for " << pytorch;
    const std::string name = PyTorchNames().at(pytorch);
    Problem p;
    p.P = e.at("P");
    p.M = e.at("M");
    p.v = e.at("v");
    const std::string label = name + " P=" + std::to_string(p.P) + " M=" + std::to_string(p.M) +
                              " v=" + std::to_string(p.v);
    Result<Schedule> s = Generate(name, p);
    ASSERT_TRUE(s.ok()) << label << ": " << s.error().message;
    ASSERT_EQ(CheckComplete(p, *s).code, ErrorCode::kOk) << label << ": " << CheckComplete(p, *s).message;
    const std::vector<int> stage_to_rank = e.at("stage_to_rank");
    ASSERT_EQ(static_cast<int>(stage_to_rank.size()), p.stages()) << label;
    for (int st = 0; st < p.stages(); ++st) EXPECT_EQ(p.DeviceOf(st), stage_to_rank[st]) << label << " stage " << st;
    const auto& ranks = e.at("ranks");
    ASSERT_EQ(static_cast<int>(ranks.size()), p.P) << label;
    for (int d = 0; d < p.P; ++d) {
      const std::vector<std::string> want = Expected(ranks[d], s->split_backward);
      const std::vector<std::string> got = Ours(*s, d);
      size_t i = 0;
      while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
      EXPECT_TRUE(i == want.size() && i == got.size())
          << label << ", device " << d << ": first difference at op " << i << "\n  pytorch: " << Around(want, i)
          << "\n  ppsim:   " << Around(got, i);
    }
    ++checked[name];
  }
  // The public file covers these five; a new entry with a known name is checked too.
  for (const char* name : {"gpipe", "1f1b", "interleaved", "zbv", "dualpipev"}) EXPECT_GT(checked[name], 0) << name;
}

}  // namespace
}  // namespace ppsim
