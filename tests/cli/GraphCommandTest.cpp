// `interlink graph` as a user runs it, and the DOT writer through the library API.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <boost/filesystem.hpp>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

const std::string kWorkcell = test::sourceDir() + "/samples/models/workcell.sdf";
const std::string kKlann = test::vendored("shift/klann_linkage/klann_linkage.json");

test::CommandResult cli(const std::string& args) { return test::run(test::cliPath() + " " + args); }

std::string tempDir() {
  static const std::string dir = test::makeTempDir("interlink-graph");
  return dir;
}

using test::readFile;

std::uint32_t bigEndian32(const std::string& bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(Graph, RendersACorpusModelToANonTrivialPng) {
  const std::string png = tempDir() + "/klann.png";
  auto result = cli("graph " + kKlann + " -o " + png);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  const std::string bytes = readFile(png);
  ASSERT_GE(bytes.size(), 33u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(bytes.substr(12, 4), "IHDR");  // the first chunk
  const std::uint32_t width = bigEndian32(bytes, 16);
  const std::uint32_t height = bigEndian32(bytes, 20);
  EXPECT_GE(width, 300u);
  EXPECT_GE(height, 200u);
  EXPECT_GT(bytes.size(), 20000u) << width << "x" << height;
  EXPECT_FALSE(fs::exists(png + ".interlink-tmp.dot"));  // the intermediate file is removed
}

TEST(Graph, SvgAndDotOutputs) {
  const std::string svg = tempDir() + "/workcell.svg";
  auto result = cli("graph " + kWorkcell + " -o " + svg);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  const std::string text = readFile(svg);
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("model left_arm"), std::string::npos);

  const std::string dot = tempDir() + "/workcell.dot";
  ASSERT_EQ(cli("graph " + kWorkcell + " -o " + dot).exitCode, 0);
  EXPECT_NE(readFile(dot).find("digraph interlink"), std::string::npos);
  auto stdoutDot = cli("graph " + kWorkcell);  // no -o: DOT on standard output
  EXPECT_EQ(stdoutDot.exitCode, 0);
  EXPECT_EQ(stdoutDot.output, readFile(dot));
}

TEST(Graph, EveryDotOutputFormat) {
  // pdf and jpg, which the first version refused, are `dot -T` formats like svg and png.
  const std::string pdf = tempDir() + "/workcell.pdf";
  auto result = cli("graph " + kWorkcell + " -o " + pdf);
  ASSERT_EQ(result.exitCode, 0) << result.output;
  EXPECT_EQ(readFile(pdf).substr(0, 5), "%PDF-");
  const std::string jpg = tempDir() + "/workcell.jpg";
  ASSERT_EQ(cli("graph " + kWorkcell + " -o " + jpg).exitCode, 0);
  EXPECT_EQ(readFile(jpg).substr(0, 3), std::string("\xFF\xD8\xFF", 3));  // JPEG start of image
  EXPECT_FALSE(fs::exists(pdf + ".interlink-tmp.dot"));
}

TEST(Graph, DotHasEveryFrameClustersAndEdgeStyles) {
  Loader loader;
  LoadResult loaded = loader.loadFile(kWorkcell);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  const std::string dot = convert::writeDot(loaded);
  // One node per frame of the graph, the root included.
  const std::regex node("\\n    f[0-9]+ \\[label=");
  EXPECT_EQ(std::distance(std::sregex_iterator(dot.begin(), dot.end(), node), std::sregex_iterator()),
            static_cast<long>(loaded.graph.frames().size()));
  EXPECT_EQ(count(dot, "subgraph cluster_"), 3u);  // left_arm, right_arm, camera_rig
  EXPECT_EQ(count(dot, "penwidth=2]"), 2 * loaded.kinematics.joints().size());  // parent->joint->child
  EXPECT_GT(count(dot, "style=dashed, color=blue"), 0u);                        // attached-to
  EXPECT_GT(count(dot, "style=dotted, color=gray40"), 0u);                      // relative-to
  EXPECT_EQ(count(dot, "loop closure"), 1u);  // only the legend: the work cell has no loops
}

TEST(Graph, LoopClosuresAreMarked) {
  Loader loader;
  LoadResult loaded = loader.loadFile(kKlann);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  std::size_t loops = 0;
  for (const auto& joint : loaded.kinematics.joints()) loops += joint.loopClosure ? 1 : 0;
  ASSERT_GT(loops, 0u);
  const std::string dot = convert::writeDot(loaded);
  EXPECT_EQ(count(dot, "label=\"loop closure\\n"), loops);  // on the edge into each loop joint, before its pose
  EXPECT_EQ(count(dot, "color=red, penwidth=2, style=bold"), 2 * loops);
}

TEST(Graph, ErrorsAndUsage) {
  auto help = cli("graph --help");
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.output.find("usage: interlink graph"), std::string::npos);
  EXPECT_EQ(cli("graph").exitCode, 2);
  // Any extension is a `dot -T` format; one that dot does not know fails with the reason.
  auto unknown = cli("graph " + kWorkcell + " -o " + tempDir() + "/x.notaformat");
  EXPECT_EQ(unknown.exitCode, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("dot -T?"), std::string::npos) << unknown.output;
  EXPECT_EQ(cli("graph " + kWorkcell + " -o " + tempDir() + "/noextension").exitCode, 2);
  EXPECT_EQ(cli("graph " + kWorkcell + " --bogus").exitCode, 2);

  // Without `dot` on PATH, .png is refused with a message that says what is missing.
  auto noDot = test::run("env PATH=/nonexistent " + test::cliPath() + " graph " + kWorkcell + " -o " + tempDir() +
                         "/nodot.png");
  EXPECT_EQ(noDot.exitCode, 2);
  EXPECT_NE(noDot.output.find("'dot' was not found on PATH"), std::string::npos) << noDot.output;
  EXPECT_FALSE(fs::exists(tempDir() + "/nodot.png"));

  const std::string broken = tempDir() + "/broken.sdf";
  std::ofstream(broken) << "<sdf version=\"1.9\"><model name=\"m\"><link name=\"a\"/><link name=\"a\"/></model></sdf>";
  auto invalid = cli("graph " + broken + " -o " + tempDir() + "/broken.png");
  EXPECT_EQ(invalid.exitCode, 1) << invalid.output;
  EXPECT_NE(invalid.output.find("DUPLICATE_NAME"), std::string::npos);
}

/// The poses urdf_to_graphviz writes on its parent link -> joint edges, by joint name.
std::map<std::string, Pose> urdfToGraphvizJointPoses(const std::string& urdf) {
  const std::string prefix = tempDir() + "/reference";
  const auto run = test::run("cd " + tempDir() + " && urdf_to_graphviz " + urdf + " " + prefix);
  EXPECT_EQ(run.exitCode, 0) << run.output;
  const std::string gv = readFile(prefix + ".gv");
  // "base_link" -> "joint_1" [label="xyz: 0 0 0.1 \nrpy: 0 -0 1.5708"]
  const std::regex edge(R"re("([^"]+)" -> "([^"]+)" \[label="xyz: (\S+) (\S+) (\S+) \\nrpy: (\S+) (\S+) (\S+)"\])re");
  std::map<std::string, Pose> poses;
  for (std::sregex_iterator it(gv.begin(), gv.end(), edge), end; it != end; ++it) {
    const std::smatch& m = *it;
    poses[m[2]] = poseFromXyzRpy(std::stod(m[3]), std::stod(m[4]), std::stod(m[5]), std::stod(m[6]), std::stod(m[7]),
                                 std::stod(m[8]));
  }
  return poses;
}

/// The poses on our parent link -> joint edges, by joint name (nodes are f<frame index>).
std::map<std::string, Pose> interlinkJointPoses(const LoadResult& loaded, const std::string& dot) {
  const std::regex edge(R"re(  f([0-9]+) -> f([0-9]+) \[label="xyz: (\S+) (\S+) (\S+)\\nrpy: (\S+) (\S+) (\S+)")re");
  std::map<std::string, Pose> poses;
  for (std::sregex_iterator it(dot.begin(), dot.end(), edge), end; it != end; ++it) {
    const std::smatch& m = *it;
    const std::string& joint = loaded.graph.frames().at(std::stoul(m[2])).name;
    poses[joint] = poseFromXyzRpy(std::stod(m[3]), std::stod(m[4]), std::stod(m[5]), std::stod(m[6]), std::stod(m[7]),
                                  std::stod(m[8]));
  }
  return poses;
}

TEST(Graph, EdgePosesMatchUrdfToGraphviz) {
  // Real robots with rotated joint origins; both tools print six significant digits.
  for (const char* name : {"panda.urdf", "ur5_robot.urdf", "baxter.urdf"}) {
    const std::string urdf = test::sourceDir() + "/tests/data/example-robot-data/" + name;
    Loader loader;
    LoadResult loaded = loader.loadFile(urdf);
    ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
    const auto ours = interlinkJointPoses(loaded, convert::writeDot(loaded));
    const auto reference = urdfToGraphvizJointPoses(urdf);
    ASSERT_GT(reference.size(), 5u) << name;
    EXPECT_EQ(ours.size(), loaded.kinematics.joints().size()) << name;
    std::size_t rotated = 0;
    for (const auto& [joint, expected] : reference) {
      auto found = ours.find(joint);
      ASSERT_NE(found, ours.end()) << name << ": no pose label on the edge into " << joint;
      EXPECT_TRUE(found->second.isApprox(expected, 1e-4))
          << name << " " << joint << ":\n" << found->second.matrix() << "\nvs urdf_to_graphviz\n" << expected.matrix();
      rotated += expected.linear().isIdentity(1e-9) ? 0 : 1;
    }
    EXPECT_GT(rotated, 0u) << name << ": the comparison must cover rotated origins";
  }
}

TEST(Graph, KinematicTreeAloneAndWithoutPoses) {
  Loader loader;
  LoadResult loaded = loader.loadFile(kWorkcell);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  std::size_t linksAndJoints = 0;
  for (const FrameInfo& frame : loaded.graph.frames()) {
    linksAndJoints += frame.kind == FrameKind::Link || frame.kind == FrameKind::Joint ? 1 : 0;
  }
  ASSERT_LT(linksAndJoints + 1, loaded.graph.frames().size());  // the work cell has other frames to leave out

  const auto tree = cli("graph --tree " + kWorkcell);
  ASSERT_EQ(tree.exitCode, 0) << tree.output;
  const std::regex node("\n    f[0-9]+ \\[label=");
  EXPECT_EQ(std::distance(std::sregex_iterator(tree.output.begin(), tree.output.end(), node), std::sregex_iterator()),
            static_cast<long>(linksAndJoints + 1));  // and the root
  EXPECT_EQ(count(tree.output, "style=dashed, color=blue"), 0u);
  EXPECT_EQ(count(tree.output, "style=dotted, color=gray40"), 0u);
  EXPECT_EQ(count(tree.output, "penwidth=2]"), 2 * loaded.kinematics.joints().size());
  EXPECT_EQ(count(tree.output, "label=\"xyz: "), loaded.kinematics.joints().size());

  const auto plain = cli("graph --tree --no-poses " + kWorkcell);
  ASSERT_EQ(plain.exitCode, 0) << plain.output;
  EXPECT_EQ(count(plain.output, "xyz: "), 0u);
  EXPECT_EQ(count(plain.output, "penwidth=2]"), 2 * loaded.kinematics.joints().size());

  const std::string pdf = tempDir() + "/tree.pdf";
  ASSERT_EQ(cli("graph --tree " + kWorkcell + " -o " + pdf).exitCode, 0);
  EXPECT_EQ(readFile(pdf).substr(0, 5), "%PDF-");
}

}  // namespace
}  // namespace interlink
