// Every schedule, over a grid of sizes and costs: the order is complete
// (every op once, on its stage's device) and places without deadlock, or
// the schedule refuses the size with a precondition error.
#include <gtest/gtest.h>

#include <string>

#include "ppsim/generators.h"
#include "ppsim/placement.h"

namespace ppsim {
namespace {

TEST(ZooGrid, EveryScheduleCompletesOrRefuses) {
  int placed = 0;
  for (const GeneratorInfo& g : Generators()) {
    for (int P = 1; P <= 8; ++P) {
      for (int M = 1; M <= 3 * P + 2; ++M) {
        for (int v = 1; v <= (g.fixed_chunks == 0 ? 3 : 1); ++v) {
          for (int costs = 0; costs < 2; ++costs) {
            Problem p;
            p.P = P;
            p.M = M;
            p.v = v;
            if (costs == 1) {
              p.costs.f = {2};
              p.costs.b = {3};
              p.costs.w = {1};
              p.costs.fb = {4};
              p.comm = 1;
            }
            const std::string label = g.name + " P=" + std::to_string(P) + " M=" + std::to_string(M) +
                                      " v=" + std::to_string(v);
            Result<Schedule> s = Generate(g.name, p);
            if (!s.ok()) {
              EXPECT_EQ(s.error().code, ErrorCode::kPrecondition) << label << ": " << s.error().message;
              continue;
            }
            Error e = CheckComplete(p, *s);
            ASSERT_EQ(e.code, ErrorCode::kOk) << label << ": " << e.message;
            Result<Timeline> t = Place(p, std::move(*s));
            ASSERT_TRUE(t.ok()) << label << ": " << t.error().message;
            ++placed;
          }
        }
      }
    }
  }
  EXPECT_GT(placed, 1000);
}

}  // namespace
}  // namespace ppsim
