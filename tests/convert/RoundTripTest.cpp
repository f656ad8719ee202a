// Round trips through the writers, for every corpus file of every format that loads:
//  - SDFormat 1.9 output loaded by libsdformat 12.3 has every frame our loader resolved in the
//    original, with the same pose relative to the root (1e-9);
//  - URDF output passes check_urdf and reloads through our URDF plugin with the same link (and
//    explicit frame) poses; a graph that is not a tree is refused, naming its loop joints.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <boost/filesystem.hpp>

#include "CorpusFiles.hpp"
#include "SharedLoader.hpp"
#include "LibsdformatFrames.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

constexpr double kTolerance = 1e-9;

using test::corpusFiles;
using test::corpusOptions;
using test::CorpusFile;

const std::vector<std::string>& formats() {
  static const std::vector<std::string> all = {"sdformat", "urdf", "skel", "hrdf", "shift", "juice"};
  return all;
}

using test::sharedLoader;

std::string outputDir() {
  static const std::string dir = [] {
    const fs::path path = fs::temp_directory_path() / fs::unique_path("interlink-roundtrip-%%%%%%");
    fs::create_directories(path);
    return path.string();
  }();
  return dir;
}

std::string writeFile(const std::string& name, const std::string& text) {
  const std::string path = outputDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// Max difference of the two transforms' entries (translation and rotation matrix).
double poseDifference(const Pose& a, const Pose& b) { return (a.matrix() - b.matrix()).cwiseAbs().maxCoeff(); }

std::string poseText(const Pose& pose) {
  std::ostringstream out;
  out << pose.translation().transpose() << " | R row0 " << pose.linear().row(0);
  return out.str();
}

/// A corpus file's name as the list of expected rejections writes it: relative to the corpus (or
/// to DART's data, the source tree), with "/" separators.
std::string listedName(const std::string& path) {
  for (const std::string& root : {test::corpus(""), std::string(DART_SKEL_DATA_DIR) + "/", test::sourceDir() + "/"}) {
    if (path.rfind(root, 0) == 0) return path.substr(root.size());
  }
  return path;
}

/// Corpus files that are invalid by design and must be refused (tests/convert/data/
/// expected_rejections.txt). Every other file must load: a file that used to load and stops
/// loading fails its round trip instead of passing as a "clean rejection".
const std::set<std::string>& expectedRejections() {
  static const std::set<std::string> names = [] {
    std::set<std::string> out;
    std::ifstream in(test::sourceDir() + "/tests/convert/data/expected_rejections.txt");
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] != '#') out.insert(line);
    }
    return out;
  }();
  return names;
}

class RoundTrip : public ::testing::TestWithParam<CorpusFile> {
 protected:
  /// Loads the original; false for a file that is expected to be refused and is. A file that
  /// loads when it should be refused, or is refused when it should load, fails here.
  bool loadOriginal(LoadResult& result) {
    result = sharedLoader().loadFile(GetParam().path, corpusOptions());
    const bool expectRejection = expectedRejections().count(listedName(GetParam().path)) > 0;
    if (result.ok() && expectRejection) {
      ADD_FAILURE() << listedName(GetParam().path)
                    << " loads now but is listed in tests/convert/data/expected_rejections.txt; remove it there";
    }
    if (!result.ok() && !expectRejection) {
      ADD_FAILURE() << listedName(GetParam().path) << " no longer loads:\n" << test::dump(result.diagnostics);
    }
    return result.ok();
  }

  /// Many corpus files are invalid by design. Such a file is not converted; what is checked is
  /// that it was refused properly: at least one error, each with a code, a message and a file.
  static void expectCleanRejection(const LoadResult& result) {
    ASSERT_TRUE(result.diagnostics.hasErrors());
    for (const auto& d : result.diagnostics) {
      if (!d.isError()) continue;
      EXPECT_NE(d.code, ErrorCode::NONE) << d.format();
      EXPECT_FALSE(d.message.empty()) << d.format();
      EXPECT_FALSE(d.where.file.empty()) << d.format();
    }
  }
};

using SdformatRoundTrip = RoundTrip;
using UrdfRoundTrip = RoundTrip;

TEST_P(SdformatRoundTrip, LibsdformatResolvesTheSameFrames) {
  const CorpusFile& file = GetParam();
  LoadResult original;
  if (!loadOriginal(original)) return expectCleanRejection(original);

  Diagnostics diagnostics;
  const auto text = convert::writeSdformat(original, diagnostics);
  ASSERT_TRUE(text.has_value()) << test::dump(diagnostics);
  EXPECT_FALSE(diagnostics.hasErrors()) << test::dump(diagnostics);
  const std::string converted = writeFile(file.format + "_" + file.label + ".sdf", *text);

  const roundtrip::LibsdformatFrames reference = roundtrip::loadWithLibsdformat(converted);
  std::string errors;
  for (const auto& e : reference.errors) errors += e + "\n";
  ASSERT_TRUE(reference.valid) << converted << "\n" << errors;
  EXPECT_TRUE(reference.errors.empty()) << converted << "\n" << errors;

  const auto& frames = original.graph.frames();  // empty for a file of lights only
  for (std::size_t i = 1; i < frames.size(); ++i) {
    auto found = reference.frames.find(frames[i].name);
    if (found == reference.frames.end()) {
      ADD_FAILURE() << "libsdformat has no frame '" << frames[i].name << "' in " << converted;
      continue;
    }
    EXPECT_LT(poseDifference(found->second, frames[i].pose), kTolerance)
        << frames[i].name << " in " << converted << "\n  ours:        " << poseText(frames[i].pose)
        << "\n  libsdformat: " << poseText(found->second);
  }

  // And our own loader reads the output back to the same frames.
  const LoadResult reloaded = sharedLoader().loadFile(converted, corpusOptions());
  ASSERT_TRUE(reloaded.ok()) << test::dump(reloaded.diagnostics);
  for (std::size_t i = 1; i < frames.size(); ++i) {
    auto index = reloaded.graph.find(frames[i].name);
    ASSERT_TRUE(index.has_value()) << frames[i].name;
    EXPECT_LT(poseDifference(reloaded.graph.frames()[*index].pose, frames[i].pose), kTolerance) << frames[i].name;
  }
}

bool hasLoopClosure(const LoadResult& loaded) {
  const auto& joints = loaded.kinematics.joints();
  return std::any_of(joints.begin(), joints.end(), [](const TreeJoint& j) { return j.loopClosure; });
}

bool hasLinkOrFrame(const LoadResult& loaded) {
  const auto& frames = loaded.graph.frames();
  return std::any_of(frames.begin(), frames.end(),
                     [](const FrameInfo& f) { return f.kind == FrameKind::Link || f.kind == FrameKind::Frame; });
}

TEST_P(UrdfRoundTrip, CheckUrdfAcceptsAndLinksKeepTheirPoses) {
  const CorpusFile& file = GetParam();
  LoadResult original;
  if (!loadOriginal(original)) return expectCleanRejection(original);

  Diagnostics diagnostics;
  const auto text = convert::writeUrdf(original, diagnostics);
  if (!text && !hasLinkOrFrame(original)) {
    // Nothing a URDF robot could hold (an empty world, a file of lights).
    EXPECT_TRUE(diagnostics.contains(ErrorCode::ELEMENT_MISSING)) << test::dump(diagnostics);
    return;
  }
  if (!text) {
    // Refused only because URDF cannot hold the loops, and the message names the loop joints.
    ASSERT_TRUE(hasLoopClosure(original)) << test::dump(diagnostics);
    ASSERT_TRUE(diagnostics.contains(ErrorCode::KINEMATIC_LOOP)) << test::dump(diagnostics);
    for (const TreeJoint& joint : original.kinematics.joints()) {
      if (joint.loopClosure) {
        EXPECT_NE(test::dump(diagnostics).find("'" + joint.name + "'"), std::string::npos);
      }
    }
    return;
  }
  EXPECT_FALSE(hasLoopClosure(original));
  const std::string converted = writeFile(file.format + "_" + file.label + ".urdf", *text);
  const auto check = test::run("check_urdf '" + converted + "'");
  ASSERT_EQ(check.exitCode, 0) << converted << "\n" << check.output;

  const LoadResult reloaded = sharedLoader().loadFile(converted, corpusOptions());
  ASSERT_TRUE(reloaded.ok()) << converted << "\n" << test::dump(reloaded.diagnostics);
  // URDF has no model frame apart from its root link: compare relative to the reloaded model's
  // root link (or the root frame when the writer added a "world" link).
  const std::string rootLink = reloaded.document.model->canonicalLink;
  Pose X_root_ref_reloaded = Pose::Identity();
  Pose X_root_ref_original = Pose::Identity();
  if (!rootLink.empty()) {
    auto reloadedRoot = reloaded.graph.find(rootLink);
    ASSERT_TRUE(reloadedRoot.has_value());
    X_root_ref_reloaded = reloaded.graph.frames()[*reloadedRoot].pose;
    bool found = false;
    for (const FrameInfo& frame : original.graph.frames()) {
      if (convert::urdfName(frame.name) == rootLink && frame.kind == FrameKind::Link) {
        X_root_ref_original = frame.pose;
        found = true;
      }
    }
    ASSERT_TRUE(found) << "the URDF root link '" << rootLink << "' is not a link of the original";
  }
  std::size_t compared = 0;
  for (const FrameInfo& frame : original.graph.frames()) {
    if (frame.kind != FrameKind::Link && frame.kind != FrameKind::Frame) continue;
    auto index = reloaded.graph.find(convert::urdfName(frame.name));
    if (!index) {
      ADD_FAILURE() << "the URDF has no link '" << convert::urdfName(frame.name) << "' for '" << frame.name << "'";
      continue;
    }
    const Pose expected = X_root_ref_original.inverse() * frame.pose;
    const Pose actual = X_root_ref_reloaded.inverse() * reloaded.graph.frames()[*index].pose;
    EXPECT_LT(poseDifference(actual, expected), kTolerance)
        << frame.name << " in " << converted << "\n  original: " << poseText(expected) << "\n  reloaded: " << poseText(actual);
    ++compared;
  }
  EXPECT_GT(compared, 0u);
}

std::string labelOf(const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.label; }

#define INTERLINK_ROUNDTRIP_FORMAT(Name, format)                                                          \
  INSTANTIATE_TEST_SUITE_P(Name, SdformatRoundTrip, ::testing::ValuesIn(corpusFiles(format)), labelOf);     \
  INSTANTIATE_TEST_SUITE_P(Name, UrdfRoundTrip, ::testing::ValuesIn(corpusFiles(format)), labelOf);

INTERLINK_ROUNDTRIP_FORMAT(Sdformat, "sdformat")
INTERLINK_ROUNDTRIP_FORMAT(Urdf, "urdf")
INTERLINK_ROUNDTRIP_FORMAT(Skel, "skel")
INTERLINK_ROUNDTRIP_FORMAT(Hrdf, "hrdf")
INTERLINK_ROUNDTRIP_FORMAT(Shift, "shift")
INTERLINK_ROUNDTRIP_FORMAT(Juice, "juice")

TEST(RoundTripCorpus, EveryFormatHasFilesThatLoad) {
  for (const std::string& format : formats()) {
    const auto files = corpusFiles(format);
    EXPECT_FALSE(files.empty()) << format;
    std::size_t loaded = 0;
    for (const auto& file : files) loaded += sharedLoader().loadFile(file.path, corpusOptions()).ok() ? 1 : 0;
    EXPECT_GT(loaded, 0u) << "no " << format << " file of the corpus loads, so its round trip tests nothing";
  }
}

}  // namespace
}  // namespace interlink
