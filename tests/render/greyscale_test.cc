// The picture reads in greyscale: an F, a B and a W cell differ in lightness,
// not in hue alone. The rule (see the palette in display_list.h): any two
// fills of different op kinds, at any chunk of any v, differ by at least 10
// in CIELAB lightness L*; every label still contrasts 4.5:1 with its fill.
#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <map>

#include "png_reader.h"
#include "render/frame_painter.h"
#include "draw/color_util.h"
#include "scene_fixture.h"

namespace ppsim::render::testing {
namespace {

constexpr OpKind kKinds[] = {OpKind::kF, OpKind::kB, OpKind::kW, OpKind::kR};

TEST(Greyscale, EveryShadeOfOneKindIsTenLStarFromEveryShadeOfAnother) {
  for (int va = 1; va <= 4; ++va) {
    for (int vb = 1; vb <= 4; ++vb) {
      for (int ca = 0; ca < va; ++ca) {
        for (int cb = 0; cb < vb; ++cb) {
          for (OpKind a : kKinds) {
            for (OpKind b : kKinds) {
              if (a == b) continue;
              const Color x = OpFill(a, ca, va), y = OpFill(b, cb, vb);
              EXPECT_GE(std::abs(Lightness(x) - Lightness(y)), 10.0)
                  << KindChar(a) << " c" << ca << "/" << va << " " << Hex(x) << " vs " << KindChar(b) << " c" << cb
                  << "/" << vb << " " << Hex(y);
            }
          }
        }
      }
    }
  }
  // Before this rule, F and W came out as greys of about 112 and 129 (of 255).
  EXPECT_GE(std::abs(Lightness(palette::kForward) - Lightness(palette::kWeightGrad)), 20.0);
}

TEST(Greyscale, EveryShadeTakesALabelAtFourAndAHalfToOne) {
  for (int v = 1; v <= 8; ++v) {
    for (int c = 0; c < v; ++c) {
      for (OpKind k : kKinds) {
        const Color fill = OpFill(k, c, v);
        EXPECT_GE(Contrast(TextOn(fill), fill), 4.5) << KindChar(k) << " c" << c << "/" << v << " " << Hex(fill);
      }
    }
  }
}

// The painted pixels: in a PNG of 1F1B, ZB-V (F, B, W; two chunks) and
// DualPipe, every op cell's grey (sampled inside the cell, off its label)
// falls in its kind's band, and the bands are 10 L* apart.
TEST(Greyscale, PaintedCellsOfDifferentKindsAreTenLStarApart) {
  Fixture f({{"1F1B", "1f1b"}, {"ZB-V", "zbv"}, {"DualPipe", "dualpipe"}}, 4, 8);
  auto m = NewMeasurer();
  Result<DisplayList> list = Layout(f.input, *m);
  ASSERT_TRUE(list.ok()) << list.error().message;
  PngPixels png(*RenderPng(*list, list->last_tick));
  std::map<char, std::pair<double, double>> band;  // kind -> (darkest, lightest) L*
  int cells = 0;
  for (const Item& item : list->items) {
    if (item.role != Role::kOp || item.box.w < 4 || item.box.h < 4) continue;
    // Off the label, just below a whole backward's W-coloured top bar.
    const Color px =
        png.At(static_cast<int>(item.box.x) + 1, static_cast<int>(item.box.y + std::floor(item.box.h / 6)) + 1);
    const double l = Lightness(px);
    auto [it, fresh] = band.try_emplace(item.op_kind, l, l);
    it->second = {std::min(it->second.first, l), std::max(it->second.second, l)};
    ++cells;
  }
  ASSERT_EQ(band.size(), 3u);
  EXPECT_GT(cells, 100);
  // F darkest, then W, then B; each band 10 L* clear of the next.
  EXPECT_GE(band['W'].first - band['F'].second, 10.0) << band['F'].second << " " << band['W'].first;
  EXPECT_GE(band['B'].first - band['W'].second, 10.0) << band['W'].second << " " << band['B'].first;
}

}  // namespace
}  // namespace ppsim::render::testing
