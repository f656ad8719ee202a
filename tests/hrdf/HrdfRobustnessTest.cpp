// Bad input never crashes or hangs: corpus files cut short and with attribute values replaced
// by garbage all come back with located errors (or load).
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "HrdfSupport.hpp"
#include "TestSupport.hpp"

namespace {

using namespace interlink;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(HrdfRobustness, MutatedCorpusFilesFailCleanly) {
  Loader loader;
  test::TempDir dir;
  const std::string source = readFile(test::vendored("hrdf/hebi-hrdf/examples/X-Series-Double-Shoulder-7DOF.hrdf"));
  ASSERT_FALSE(source.empty());
  const char* garbage[] = {"", " ", "((((", "1e999", "pi pi", "Rx(", "-", "nan", "0 0", "\xff\xfe", "1/0",
                           "Rx(1)*", "1 0 0 0 1 0 0 0 1 1", "&amp;", "X5-", "Inline Inline"};
  int loads = 0, refused = 0;
  // Every attribute value replaced by each garbage string in turn.
  std::size_t at = 0;
  while ((at = source.find("=\"", at)) != std::string::npos) {
    const std::size_t end = source.find('"', at + 2);
    if (end == std::string::npos) break;
    for (const char* g : garbage) {
      std::string mutated = source.substr(0, at + 2) + g + source.substr(end);
      const auto result = loader.loadFile(dir.write("m.hrdf", mutated));
      ++loads;
      if (!result.ok()) {
        ++refused;
        for (const auto& d : result.diagnostics) {
          if (d.isError()) {
            EXPECT_FALSE(d.where.file.empty()) << d.format();
          }
        }
      }
    }
    at = end;
  }
  // The file cut short at many places.
  for (std::size_t cut = 0; cut < source.size(); cut += 37) {
    const auto result = loader.loadFile(dir.write("c.hrdf", source.substr(0, cut)));
    ++loads;
    refused += !result.ok();
  }
  EXPECT_GT(loads, 300);
  EXPECT_GT(refused, loads / 2);
}

}  // namespace
