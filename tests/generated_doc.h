// A docs page section generated from a table (keys, render settings): the
// text between two marker lines must equal what the table writes now.
// PPSIM_UPDATE_DOCS=1 rewrites the section in place instead of failing.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace ppsim::testing {

inline void ExpectGeneratedSection(const std::string& path, const std::string& begin_marker,
                                   const std::string& end_marker, const std::string& generated) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  std::string doc = s.str();
  const size_t begin = doc.find(begin_marker), end = doc.find(end_marker);
  ASSERT_NE(begin, std::string::npos) << path << " lacks the markers";
  ASSERT_NE(end, std::string::npos);
  const size_t from = begin + begin_marker.size();
  if (std::getenv("PPSIM_UPDATE_DOCS") != nullptr) {
    doc.replace(from, end - from, generated);
    std::ofstream(path, std::ios::binary) << doc;
    return;
  }
  EXPECT_EQ(doc.substr(from, end - from), generated) << "rerun with PPSIM_UPDATE_DOCS=1 to regenerate";
}

}  // namespace ppsim::testing
