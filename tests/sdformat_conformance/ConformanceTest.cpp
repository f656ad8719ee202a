// Differential conformance against libsdformat 12.3: every in-scope file of libsdformat's own
// test corpus (test/sdf/*.sdf) is loaded by both implementations, which must agree on the verdict
// (valid / invalid), on the set of error code names of an invalid file, and on the pose of every
// frame of a valid file (to 1e-9). Interlink's side goes through the real Loader and the real
// SDFormat plugin; libsdformat's side is ReferenceSdformat.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "InterlinkSide.hpp"
#include "ReferenceSdformat.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink::conformance {
namespace {

/// Files of the corpus that are outside issue 2's scope (the kinematic subset). The test checks
/// that each of them exists, so the table cannot silently go stale.
struct OutOfScopeFile {
  const char* file;
  const char* reason;
};

const std::vector<OutOfScopeFile>& outOfScopeFiles() {
  static const std::vector<OutOfScopeFile> table = {
      {"include_with_interface_api_frame_semantics.sdf",
       "includes double_pendulum.toml through a host CustomModelParser (Interface API, issue 3)"},
      {"include_with_interface_api_reposture.sdf",
       "includes a '.nonce_1' file that only a host CustomModelParser answers (Interface API, issue 3)"},
      {"model_include_with_interface_api.sdf",
       "includes double_pendulum.toml through a host CustomModelParser (Interface API, issue 3)"},
      {"world_include_with_interface_api.sdf",
       "includes double_pendulum.toml through a host CustomModelParser (Interface API, issue 3)"},
      {"material_normal_map_missing.sdf",
       "libsdformat's Material class (not its schema) requires the file a <pbr> <normal_map> names to "
       "exist; Interlink checks the schema only and does not resolve material textures"},
      {"material_script_no_uri.sdf",
       "same verdict, different code: libsdformat's Material class reports the missing <script><uri> as "
       "ELEMENT_INVALID (and the missing <name> as ELEMENT_MISSING), Interlink's schema check reports both "
       "as ELEMENT_MISSING; the <shader> type is not a value list in the description"},
      {"nested_multiple_elements_error_world.sdf",
       "the error is about <actor> and <light> beside <model> in included files; actors are outside "
       "the kinematic subset"},
      {"stricter_semantics_desc.sdf",
       "a libsdformat element-description (schema) file for its own description parser, not an "
       "SDFormat document"},
  };
  return table;
}

// libsdformat's test/sdf: the external corpus's whole directory, else the files tests/data/sdformat
// vendors (each compared the same way).
std::string sdfDirectory() { return test::corpus("sdformat/test/sdf"); }
std::string modelDirectory() { return test::corpus("sdformat/test/integration/model"); }

bool isOutOfScope(const std::string& file) {
  const auto& table = outOfScopeFiles();
  return std::any_of(table.begin(), table.end(), [&](const OutOfScopeFile& entry) { return file == entry.file; });
}

/// File names (not paths) of every *.sdf in the corpus directory, sorted.
std::vector<std::string> corpusFiles(bool inScope) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(sdfDirectory(), error)) {
    if (entry.path().extension() != ".sdf") continue;
    const std::string name = entry.path().filename().string();
    if (isOutOfScope(name) != inScope) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string testNameFor(const std::string& file) {
  std::string name = std::filesystem::path(file).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

/// gtest's name generator: the file's stem, e.g. "joint_child_frame".
std::string fileTestName(const testing::TestParamInfo<std::string>& file) { return testNameFor(file.param); }

// ---------------------------------------------------------------------------------------------
// Interlink's side

// ---------------------------------------------------------------------------------------------
// Reporting

std::string joined(const std::set<std::string>& items) {
  std::string out = "{";
  for (const auto& item : items) out += (out.size() > 1 ? ", " : "") + item;
  return out + "}";
}

std::string theirMessages(const ReferenceResult& theirs) {
  std::string out;
  for (const auto& m : theirs.messages) out += "  " + m + "\n";
  return out.empty() ? "  (none)\n" : out;
}

std::string ourMessages(const OursResult& ours) {
  return ours.diagnostics.empty() ? "  (none)\n" : ours.diagnostics;
}

// ---------------------------------------------------------------------------------------------
// The tests

class SdformatConformance : public testing::TestWithParam<std::string> {};

TEST_P(SdformatConformance, SameVerdictCodesAndPosesAsLibsdformat) {
  const std::string path = sdfDirectory() + "/" + GetParam();
  const ReferenceResult theirs = loadWithLibsdformat(path, modelDirectory());
  const OursResult ours = loadWithInterlink(path, {modelDirectory()});

  ASSERT_EQ(ours.valid, theirs.valid) << GetParam() << ": verdicts differ\n"
                                      << "  Interlink:   " << (ours.valid ? "valid" : "invalid") << "\n"
                                      << "  libsdformat: " << (theirs.valid ? "valid" : "invalid") << "\n"
                                      << "Interlink diagnostics:\n"
                                      << ourMessages(ours) << "libsdformat errors:\n"
                                      << theirMessages(theirs);

  if (!theirs.valid) {
    // "The same error code" (issue 2, item 7) is checked where the vocabularies overlap (item 3):
    //  - the root cause, libsdformat's first error, is among ours;
    //  - we report no shared code libsdformat does not report for the file.
    // libsdformat also reports the consequences of a root cause (a *_GRAPH_ERROR for the vertex a
    // bad reference left without an edge, "Failed to load a world" around any world error);
    // Interlink reports the cause once, so those follow-ons are not required. Interlink's finer
    // codes (XML_SYNTAX, VALUE_INVALID, ...) have no libsdformat name: shown, not compared.
    std::set<std::string> invented;
    for (const auto& code : ours.sharedCodes) {
      if (!theirs.codes.count(code)) invented.insert(code);
    }
    const std::string allOurs = ours.codes != ours.sharedCodes ? "  (all: " + joined(ours.codes) + ")" : "";
    const std::string details = "  Interlink:   " + joined(ours.sharedCodes) + allOurs + "\n" +
                                "  libsdformat: " + joined(theirs.codes) + " (first: " + theirs.firstCode + ")\n" +
                                "Interlink diagnostics:\n" + ourMessages(ours) + "libsdformat errors:\n" +
                                theirMessages(theirs);
    EXPECT_TRUE(ours.sharedCodes.count(theirs.firstCode))
        << GetParam() << ": the root cause " << theirs.firstCode << " is missing from Interlink's errors\n" << details;
    EXPECT_TRUE(invented.empty()) << GetParam() << ": Interlink reports " << joined(invented)
                                  << ", which libsdformat does not\n" << details;
    return;
  }

  ASSERT_TRUE(theirs.resolveErrors.empty()) << GetParam() << ": libsdformat could not resolve a pose:\n"
                                            << ::testing::PrintToString(theirs.resolveErrors);
  EXPECT_TRUE(ours.inconsistencies.empty()) << GetParam() << ": Interlink's frame graph is inconsistent:\n"
                                            << ::testing::PrintToString(ours.inconsistencies);

  const FrameComparison frames = compareFrames(ours.frames, theirs.frames);
  EXPECT_TRUE(frames.duplicates.empty()) << GetParam() << ": frames listed twice: "
                                         << ::testing::PrintToString(frames.duplicates);
  EXPECT_EQ(frames.differenceCount, 0) << GetParam() << ": " << frames.differenceCount << " of " << frames.theirCount
                                       << " frames differ (poses in the root frame):\n"
                                       << frames.differences;
  // A valid file must give frames to compare, unless libsdformat also has none (an empty world).
  EXPECT_EQ(ours.frames.empty(), theirs.frames.empty());
}

INSTANTIATE_TEST_SUITE_P(Corpus, SdformatConformance, testing::ValuesIn(corpusFiles(true)),
                         fileTestName);

/// Out-of-scope files are not compared, but loading them must still end in a result: no plugin
/// exception, and every error says what is wrong.
class SdformatOutOfScope : public testing::TestWithParam<std::string> {};

TEST_P(SdformatOutOfScope, LoadsWithoutEscapedExceptionAndExplainsEveryError) {
  LoadOptions options;
  options.resourcePaths = {modelDirectory()};
  const LoadResult loaded = sharedLoader().loadFile(sdfDirectory() + "/" + GetParam(), options);
  for (const auto& d : loaded.diagnostics) {
    EXPECT_NE(d.code, ErrorCode::PLUGIN_EXCEPTION) << d.format();
    if (d.isError()) {
      EXPECT_NE(d.code, ErrorCode::NONE) << d.format();
      EXPECT_FALSE(d.message.empty()) << d.format();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, SdformatOutOfScope, testing::ValuesIn(corpusFiles(false)),
                         fileTestName);

TEST(SdformatConformanceScope, EveryOutOfScopeFileExistsOnceAndHasAReason) {
  INTERLINK_SKIP_WITHOUT_CORPUS("sdformat");
  std::set<std::string> seen;
  for (const auto& entry : outOfScopeFiles()) {
    EXPECT_TRUE(std::filesystem::is_regular_file(sdfDirectory() + "/" + entry.file)) << entry.file;
    EXPECT_TRUE(seen.insert(entry.file).second) << entry.file << " is listed twice";
    EXPECT_GT(std::string(entry.reason).size(), 20u) << entry.file << " needs a reason";
  }
}

TEST(SdformatConformanceScope, MostOfTheCorpusIsCompared) {
  INTERLINK_SKIP_WITHOUT_CORPUS("sdformat");
  const auto inScope = corpusFiles(true);
  const auto outOfScope = corpusFiles(false);
  EXPECT_EQ(outOfScope.size(), outOfScopeFiles().size());
  EXPECT_GE(inScope.size(), 100u) << "the corpus at " << sdfDirectory() << " looks incomplete";
}

/// Without the SDFormat plugin every comparison would fail for one reason; say it once, plainly.
TEST(SdformatConformanceScope, TheSdformatPluginIsLoaded) {
  EXPECT_TRUE(sharedLoader().plugins().formatFor("model.sdf"))
      << "no plugin claims .sdf; searched: " << ::testing::PrintToString(sharedLoader().plugins().searchDirectories())
      << "; loaded: " << sharedLoader().plugins().describeFormats();
}

TEST(SdformatConformanceScope, TestNamesAreUnique) {
  std::set<std::string> names;
  for (const auto& file : corpusFiles(true)) EXPECT_TRUE(names.insert(testNameFor(file)).second) << file;
}

/// The reference side composes each scope's poses itself (libsdformat cannot resolve a nested
/// link to "world"). World frames F2..F7 of this file are posed relative_to nested elements, which
/// libsdformat resolves on its own across scopes: X_W_F = X_W_E * (k 0 0) must hold for each.
TEST(SdformatReferenceSide, ComposedScopesAgreeWithLibsdformatsCrossScopeResolution) {
  const ReferenceResult theirs =
      loadWithLibsdformat(sdfDirectory() + "/world_relative_to_nested_reference.sdf", modelDirectory());
  ASSERT_TRUE(theirs.valid) << ::testing::PrintToString(theirs.messages);
  std::map<std::string, Pose> byName;
  for (const auto& frame : theirs.frames) byName[frame.name] = frame.pose;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"F2", "M1"}, {"F3", "M1::L1"}, {"F4", "M1::J1"}, {"F5", "M1::F1"}, {"F6", "M1::CM1"}, {"F7", "M1::CM1::L"}};
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto& [frame, relativeTo] = cases[k];
    ASSERT_EQ(byName.count(frame), 1u) << frame;
    ASSERT_EQ(byName.count(relativeTo), 1u) << relativeTo;
    const Pose expected = byName[relativeTo] * Eigen::Translation3d(static_cast<double>(k + 2), 0, 0);
    EXPECT_TRUE(nearlyEqual(byName[frame], expected))
        << frame << " relative to " << relativeTo << ": " << describe(byName[frame]) << " vs " << describe(expected);
  }
}

/// The name table of the reference side covers every sdf::ErrorCode value, and each name is one
/// Interlink knows, so a code can never differ only by spelling.
TEST(SdformatConformanceScope, EveryLibsdformatCodeNameIsAnInterlinkCode) {
  for (int value = 1; value < 1000 && libsdformatCodeName(value) != "UNKNOWN"; ++value) {
    const std::string name = libsdformatCodeName(value);
    EXPECT_NE(codeFromName(name), ErrorCode::NONE) << name << " has no Interlink ErrorCode";
    EXPECT_EQ(std::string(codeName(codeFromName(name))), name);
  }
}

}  // namespace
}  // namespace interlink::conformance
