// Public xacro descriptions of six vendors (tests/data/<package>, origin and licence in their
// README.md), expanded by Interlink with up to three argument settings each, against the URDF that ROS's
// xacro (ros2 branch) produced for the same arguments (tests/data/xacro_reference, see its
// README.md). Compared: the expanded text (without layout), its comments, the whole core model (links, inertials, visuals and collisions with their
// colours, joints with limits and axes; as the JSON core model without file locations) and every
// frame's pose at zero and at two random non-zero configurations.
#include <gtest/gtest.h>
#include <jansson.h>

#include <random>
#include <regex>
#include <thread>

#include "XacroSupport.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::test {
namespace {

struct Case {
  const char* reference;  // tests/data/xacro_reference/<reference>.urdf
  const char* xacro;      // under tests/data
  Arguments arguments;
};

const Case kCases[] = {
    {"franka_fr3_default", "franka_description/robots/fr3/fr3.urdf.xacro", {}},
    {"franka_fr3_nohand_prefixed", "franka_description/robots/fr3/fr3.urdf.xacro", {{"hand", "false"}, {"arm_prefix", "left"}}},
    {"franka_fer_sc", "franka_description/robots/fer/fer.urdf.xacro", {{"with_sc", "true"}}},
    {"ur5e", "ur_description/urdf/ur.urdf.xacro", {{"ur_type", "ur5e"}, {"name", "ur5e"}}},
    {"ur10e_prefixed_safety", "ur_description/urdf/ur.urdf.xacro",
     {{"ur_type", "ur10e"}, {"name", "ur"}, {"tf_prefix", "arm_"}, {"safety_limits", "true"}}},
    {"ur3", "ur_description/urdf/ur.urdf.xacro", {{"ur_type", "ur3"}, {"name", "ur3"}}},
    {"tb3_burger", "turtlebot3_description/urdf/turtlebot3_burger.urdf.xacro", {}},
    {"tb3_waffle_laser", "turtlebot3_description/urdf/turtlebot3_waffle.urdf.xacro", {{"laser_visual", "true"}}},
    {"tb3_waffle_pi_imu", "turtlebot3_description/urdf/turtlebot3_waffle_pi.urdf.xacro", {{"imu_visual", "true"}}},
    // Meshes named file://$(find realsense2_description)/meshes/...: an absolute path.
    {"realsense_d435_default", "realsense2_description/urdf/test_d435_camera.urdf.xacro", {}},
    {"realsense_d435_nominal_plug", "realsense2_description/urdf/test_d435_camera.urdf.xacro",
     {{"use_nominal_extrinsics", "true"}, {"add_plug", "true"}}},
    {"realsense_d435_boxes", "realsense2_description/urdf/test_d435_camera.urdf.xacro", {{"use_mesh", "false"}}},
    // Joint limits written ${radians(...)}: Python's rounding of math.radians.
    {"fanuc_lrmate200id", "fanuc_lrmate200id_support/urdf/lrmate200id.xacro", {}},
    {"kuka_kr6r900sixx", "kuka_kr6_support/urdf/kr6r900sixx.xacro", {}},
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.reference; }

std::string dataDir() { return sourceDir() + "/tests/data"; }

/// With the expanded text kept (the tests compare it with ROS's xacro's), or without.
LoadOptions options(const Arguments& arguments, bool keepText = true) {
  LoadOptions o;
  o.keepExpandedText = keepText;
  // $(find franka_description) is tests/data/franka_description: the ROS package path is asked
  // first (a package directory found there, as ROS answers it, has no trailing '/').
  o.packagePaths = {dataDir()};
  o.resourcePaths = {dataDir()};
  o.arguments = arguments;
  return o;
}

/// A reference URDF as ROS's xacro wrote it here, the absolute path of tests/data (in file://
/// URIs of $(find ...)) written @TESTS_DATA@ so that the test runs in any checkout.
std::string referenceText(const Case& c) {
  static const std::regex kData("@TESTS_DATA@");
  return std::regex_replace(readFile(dataDir() + "/xacro_reference/" + c.reference + ".urdf"), kData, dataDir());
}

/// The JSON core model without what names files and places in them (they differ by design: the
/// xacro sources against the reference URDF).
/// A kept element's XML text without the layout between and around elements (xacro's printer
/// and Interlink's indent differently; the elements, attributes and texts are compared).
std::string withoutLayout(const std::string& xml) {
  static const std::regex kBetween(R"(>\s+)");
  static const std::regex kBefore(R"(\s+<)");
  return std::regex_replace(std::regex_replace(xml, kBetween, ">"), kBefore, "<");
}

void stripLocations(json_t* value) {
  if (json_is_object(value)) {
    json_t* path = json_object_get(value, "path");
    json_t* text = json_object_get(value, "text");
    if (json_is_string(path) && json_is_string(text)) {
      json_object_set_new(value, "text", json_string(withoutLayout(json_string_value(text)).c_str()));
    }
    for (const char* key : {"file", "line", "column", "where", "source", "sourceFile", "source_file", "resolved",
                            "meshResolvedPath", "mesh_resolved_path"}) {
      json_object_del(value, key);
    }
    const char* key;
    json_t* member;
    json_object_foreach(value, key, member) stripLocations(member);
  } else if (json_is_array(value)) {
    for (std::size_t i = 0; i < json_array_size(value); ++i) stripLocations(json_array_get(value, i));
  }
}

std::string coreModel(const LoadResult& result) {
  json_error_t error;
  json_t* root = json_loads(convert::writeJson(result).c_str(), 0, &error);
  if (!root) return std::string("unreadable JSON: ") + error.text;
  stripLocations(root);
  char* text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
  std::string out = text ? text : "";
  free(text);
  json_decref(root);
  return out;
}

/// The first line where two texts differ, for the failure message.
std::string firstDifference(const std::string& a, const std::string& b) {
  std::size_t line = 1, i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) {
    if (a[i] == '\n') ++line;
    ++i;
  }
  const auto around = [&](const std::string& s) { return s.substr(s.rfind('\n', i) == std::string::npos ? 0 : s.rfind('\n', i) + 1, 160); };
  return "line " + std::to_string(line) + ":\n  interlink: " + around(a) + "\n  reference: " + around(b);
}

/// An XML document without its comments, declaration and layout, empty elements written `<x/>`:
/// what is left is what xacro's expansion says (elements, attributes in xacro's sorted order, texts).
std::string expansionText(const std::string& xml) {
  static const std::regex kComment(R"(<!--[\s\S]*?-->)");
  static const std::regex kDeclaration(R"(<\?xml[^>]*\?>)");
  static const std::regex kEmpty(R"(<([\w:]+)([^<>]*[^/<>])?></\1>)");
  std::string text = std::regex_replace(xml, kComment, "");
  text = withoutLayout(std::regex_replace(text, kDeclaration, ""));
  text = std::regex_replace(text, kEmpty, "<$1$2/>");
  const auto first = text.find_first_not_of(" \n");
  return first == std::string::npos ? std::string() : text.substr(first, text.find_last_not_of(" \n") - first + 1);
}

/// The comments of an XML text in order (ROS's xacro's four banner comments left out).
std::vector<std::string> commentsOf(const std::string& xml, bool withoutBanner) {
  static const std::regex kComment(R"(<!--([\s\S]*?)-->)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), kComment); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1].str());
  }
  if (withoutBanner && out.size() >= 4 && out[1].find("autogenerated by xacro") != std::string::npos) {
    out.erase(out.begin(), out.begin() + 4);
  }
  return out;
}

class XacroDifferential : public ::testing::TestWithParam<Case> {};

TEST_P(XacroDifferential, CoreModelAndFramesMatchRosXacro) {
  const Case& c = GetParam();
  Loader loader;
  const LoadResult ours = loader.loadFile(dataDir() + "/" + c.xacro, options(c.arguments));
  ASSERT_TRUE(ours.ok()) << dump(ours.diagnostics);
  const std::string referenceUrdf = referenceText(c);
  const LoadResult theirs =
      loader.loadString(referenceUrdf, dataDir() + "/xacro_reference/" + c.reference + ".urdf", options({}));
  ASSERT_TRUE(theirs.ok()) << dump(theirs.diagnostics);
  ASSERT_TRUE(ours.document.model && theirs.document.model);
  EXPECT_GE(ours.document.model->links.size(), 3u);

  // The expansion is ROS's xacro's, element for element and attribute for attribute.
  const std::string expansion = expansionText(ours.expandedText);
  const std::string reference = expansionText(referenceUrdf);
  EXPECT_TRUE(expansion == reference) << firstDifference(expansion, reference);
  // The comments too, in order: those directly before xacro elements are gone, as in xacro.
  const std::vector<std::string> referenceComments = commentsOf(referenceUrdf, true);
  EXPECT_FALSE(referenceComments.empty());
  EXPECT_EQ(commentsOf(ours.expandedText, false), referenceComments);

  const std::string a = coreModel(ours);
  const std::string b = coreModel(theirs);
  EXPECT_EQ(a.size(), b.size());
  EXPECT_TRUE(a == b) << firstDifference(a, b);
  // A load that keeps no text hands the URDF plugin the expansion as a tree: the same model, the
  // same diagnostics.
  const LoadResult asTree = loader.loadFile(dataDir() + "/" + c.xacro, options(c.arguments, false));
  EXPECT_TRUE(asTree.expandedText.empty());
  EXPECT_EQ(dump(asTree.diagnostics), dump(ours.diagnostics));
  const std::string t = coreModel(asTree);
  EXPECT_TRUE(t == b) << firstDifference(t, b);

  // Frames at zero and two random configurations inside the joint limits.
  const auto& dofs = ours.kinematics.dofs();
  ASSERT_EQ(dofs.size(), theirs.kinematics.dofs().size());
  for (std::size_t d = 0; d < dofs.size(); ++d) ASSERT_EQ(dofs[d].name, theirs.kinematics.dofs()[d].name);
  std::mt19937 random(33);
  std::size_t compared = 0;
  for (int configuration = 0; configuration < 3; ++configuration) {
    std::vector<double> q(dofs.size(), 0.0);
    if (configuration > 0) {
      for (double& value : q) value = std::uniform_real_distribution<double>(-1.2, 1.2)(random);
    }
    Diagnostics diagnostics;
    const auto poseA = ours.kinematics.framePoses(q, diagnostics);
    const auto poseB = theirs.kinematics.framePoses(q, diagnostics);
    ASSERT_TRUE(poseA && poseB) << dump(diagnostics);
    const auto& framesA = ours.graph.frames();
    ASSERT_EQ(framesA.size(), theirs.graph.frames().size());
    for (std::size_t f = 0; f < framesA.size(); ++f) {
      const auto other = theirs.graph.find(framesA[f].name);
      ASSERT_TRUE(other.has_value()) << framesA[f].name;
      const Pose& x = (*poseA)[f];
      const Pose& y = (*poseB)[*other];
      EXPECT_LT((x.translation() - y.translation()).norm(), 1e-12) << framesA[f].name;
      EXPECT_LT((x.linear() - y.linear()).norm(), 1e-12) << framesA[f].name;
      ++compared;
    }
  }
  EXPECT_GT(compared, 3 * dofs.size());
}

INSTANTIATE_TEST_SUITE_P(Vendors, XacroDifferential, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& caseInfo) { return std::string(caseInfo.param.reference); });

TEST(XacroDifferential, RepeatedAndConcurrentLoadsOfOneLoaderExpandAsTheFirst) {
  // The plugin keeps parsed files, YAML documents and expressions for the process: loads after
  // the first (other arguments, other descriptions sharing files, several threads at once) must
  // expand exactly as the first load did, and the first is ROS's xacro's (the test above).
  const Loader loader;
  std::vector<std::string> first;
  for (const Case& c : kCases) {
    const LoadResult r = loader.loadFile(dataDir() + "/" + c.xacro, options(c.arguments));
    ASSERT_TRUE(r.ok()) << c.reference << ": " << dump(r.diagnostics);
    first.push_back(r.expandedText + dump(r.diagnostics));
  }
  constexpr std::size_t kThreads = 4;
  const std::size_t cases = std::size(kCases);
  std::vector<std::vector<std::string>> mismatches(kThreads);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t round = 0; round < 2; ++round) {
        for (std::size_t i = 0; i < cases; ++i) {
          const std::size_t k = (i + t) % cases;  // threads expand different descriptions at once
          const LoadResult r = loader.loadFile(dataDir() + "/" + kCases[k].xacro, options(kCases[k].arguments));
          if (r.expandedText + dump(r.diagnostics) != first[k]) mismatches[t].push_back(kCases[k].reference);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (std::size_t t = 0; t < kThreads; ++t) {
    EXPECT_TRUE(mismatches[t].empty()) << "thread " << t << " expanded " << mismatches[t].front() << " otherwise";
  }
}

TEST(XacroDifferential, EvalCommentsAsRosXacro) {
  // xacro:eval-comments: the comments after it are evaluated until the next element or text,
  // `xacro:eval-comments:off` ends it; comments directly before xacro elements are removed. The
  // file exercises each rule; the reference is ROS's xacro's output for it.
  Loader loader;
  const LoadResult ours = loader.loadFile(dataDir() + "/xacro_reference/eval_comments.urdf.xacro", options({}));
  ASSERT_TRUE(ours.ok()) << dump(ours.diagnostics);
  const std::string referenceText = readFile(dataDir() + "/xacro_reference/eval_comments.urdf");
  const std::vector<std::string> reference = commentsOf(referenceText, true);
  ASSERT_EQ(reference.size(), 17u);
  EXPECT_EQ(commentsOf(ours.expandedText, false), reference);
  EXPECT_NE(ours.expandedText.find("<!-- evaluated: length=0.5 width=0.25 arm=left -->"), std::string::npos);
  EXPECT_NE(ours.expandedText.find("<!-- not evaluated after text: ${length} -->"), std::string::npos);
  const LoadResult theirs = loader.loadString(referenceText, dataDir() + "/xacro_reference/eval_comments.urdf", options({}));
  ASSERT_TRUE(theirs.ok()) << dump(theirs.diagnostics);
  EXPECT_EQ(coreModel(ours), coreModel(theirs));
}

TEST(XacroDifferential, ConvertWritesWhatRosXacroWritesModuloLayout) {
  // The expansion itself (convert robot.urdf.xacro -o robot.urdf) reads back to the same model.
  Loader loader;
  const LoadResult ours = loader.loadFile(dataDir() + "/ur_description/urdf/ur.urdf.xacro",
                                          options({{"ur_type", "ur5e"}, {"name", "ur5e"}}));
  ASSERT_TRUE(ours.ok()) << dump(ours.diagnostics);
  ASSERT_EQ(ours.expandedExtension, ".urdf");
  const LoadResult reread = loader.loadString(ours.expandedText, dataDir() + "/ur_description/urdf/expanded.urdf", options({}));
  ASSERT_TRUE(reread.ok()) << dump(reread.diagnostics);
  EXPECT_EQ(coreModel(reread), coreModel(ours));
}

}  // namespace
}  // namespace interlink::test
