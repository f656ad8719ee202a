// The core-model JSON round trip, for every corpus file of every format that loads: write the
// JSON, read it back through the core-model plugin (the real loader picks it by content among the
// `.json` plugins), and check that the frames (names and poses to 1e-12), the kinematic tree and
// the DOFs are the same, and that writing the read-back model gives the identical JSON text.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "CorpusFiles.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

using test::CorpusFile;

constexpr double kPoseTolerance = 1e-12;

const Loader& jsonLoader() {
  static const auto loader = std::make_unique<Loader>();
  return *loader;
}

const std::string& jsonOutputDir() {
  static const std::string dir = test::makeTempDir("interlink-json-roundtrip");
  return dir;
}

class JsonRoundTrip : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(JsonRoundTrip, ReadBackGivesTheSameFramesTreeAndText) {
  const CorpusFile& file = GetParam();
  const LoadResult original = jsonLoader().loadFile(file.path, test::corpusOptions());
  if (!original.ok()) GTEST_SKIP() << "does not load (outside \"every file that loads\")";

  const std::string text = convert::writeJson(original);
  const std::string path = jsonOutputDir() + "/" + file.format + "_" + file.label + ".json";
  std::ofstream(path, std::ios::binary) << text;
  const LoadResult reread = jsonLoader().loadFile(path, test::corpusOptions());
  ASSERT_TRUE(reread.ok()) << test::dump(reread.diagnostics);
  EXPECT_EQ(reread.document.format, original.document.format);

  const auto& before = original.graph.frames();
  const auto& after = reread.graph.frames();
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    ASSERT_EQ(after[i].name, before[i].name) << "frame " << i;
    EXPECT_EQ(after[i].kind, before[i].kind) << before[i].name;
    EXPECT_LE((after[i].pose.matrix() - before[i].pose.matrix()).cwiseAbs().maxCoeff(), kPoseTolerance)
        << before[i].name;
  }

  const auto& treeBefore = original.kinematics.joints();
  const auto& treeAfter = reread.kinematics.joints();
  ASSERT_EQ(treeAfter.size(), treeBefore.size());
  for (std::size_t i = 0; i < treeBefore.size(); ++i) {
    EXPECT_EQ(treeAfter[i].name, treeBefore[i].name);
    EXPECT_EQ(treeAfter[i].type, treeBefore[i].type) << treeBefore[i].name;
    EXPECT_EQ(treeAfter[i].parentLink, treeBefore[i].parentLink) << treeBefore[i].name;
    EXPECT_EQ(treeAfter[i].childLink, treeBefore[i].childLink) << treeBefore[i].name;
    EXPECT_EQ(treeAfter[i].firstDof, treeBefore[i].firstDof) << treeBefore[i].name;
    EXPECT_EQ(treeAfter[i].loopClosure, treeBefore[i].loopClosure) << treeBefore[i].name;
  }
  const auto& dofsBefore = original.kinematics.dofs();
  const auto& dofsAfter = reread.kinematics.dofs();
  ASSERT_EQ(dofsAfter.size(), dofsBefore.size());
  for (std::size_t i = 0; i < dofsBefore.size(); ++i) {
    EXPECT_EQ(dofsAfter[i].name, dofsBefore[i].name);
    EXPECT_EQ(dofsAfter[i].joint, dofsBefore[i].joint);
    EXPECT_EQ(dofsAfter[i].index, dofsBefore[i].index);
  }

  // Also at a non-zero configuration: the same DOFs move the same frames the same way.
  if (!dofsBefore.empty()) {
    std::vector<double> q(dofsBefore.size());
    for (std::size_t i = 0; i < q.size(); ++i) q[i] = 0.1 + 0.05 * static_cast<double>(i % 7);
    Diagnostics ignored;
    const auto posedBefore = original.kinematics.framePoses(q, ignored);
    const auto posedAfter = reread.kinematics.framePoses(q, ignored);
    ASSERT_EQ(posedAfter.has_value(), posedBefore.has_value());
    if (posedBefore) {
      ASSERT_EQ(posedAfter->size(), posedBefore->size());
      for (std::size_t i = 0; i < posedBefore->size(); ++i) {
        EXPECT_LE(((*posedAfter)[i].matrix() - (*posedBefore)[i].matrix()).cwiseAbs().maxCoeff(), kPoseTolerance)
            << before[i].name << " at q != 0";
      }
    }
  }

  const std::string again = convert::writeJson(reread);
  if (again != text) {
    std::size_t at = 0;
    while (at < text.size() && at < again.size() && text[at] == again[at]) ++at;
    const std::size_t from = at > 200 ? at - 200 : 0;
    FAIL() << "the read-back model writes different JSON, from byte " << at << ":\n--- first\n"
           << text.substr(from, 400) << "\n--- again\n" << again.substr(from, 400);
  }
}

std::vector<CorpusFile> everyFormat() {
  std::vector<CorpusFile> all;
  for (const char* format : {"sdformat", "urdf", "skel", "hrdf", "shift", "juice", "mjcf"}) {
    const auto files = test::corpusFiles(format);
    all.insert(all.end(), files.begin(), files.end());
  }
  return all;
}

std::string labelOf(const ::testing::TestParamInfo<CorpusFile>& info) {
  return info.param.format + "_" + info.param.label;
}

INSTANTIATE_TEST_SUITE_P(Corpus, JsonRoundTrip, ::testing::ValuesIn(everyFormat()), labelOf);

// The round trip above only counts when it ran: most corpus files of every format must load.
TEST(JsonRoundTripCoverage, EveryFormatHasFilesThatLoad) {
  for (const char* format : {"sdformat", "urdf", "skel", "hrdf", "shift", "juice", "mjcf"}) {
    const auto files = test::corpusFiles(format);
    ASSERT_FALSE(files.empty()) << format;
    std::size_t loaded = 0;
    for (const auto& file : files) loaded += jsonLoader().loadFile(file.path, test::corpusOptions()).ok() ? 1 : 0;
    EXPECT_GT(loaded, 0u) << format;
  }
}

}  // namespace
}  // namespace interlink
