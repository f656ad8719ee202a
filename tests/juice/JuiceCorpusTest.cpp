// Conformance over the whole Juice corpus, through the real loader and plugin library.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "JuiceTestSupport.hpp"
#include "interlink/juice/JuiceComponents.hpp"

namespace interlink::test::juice {
namespace {

/// Counts written by hand from inspecting each file (a separate script, not the plugin, listed
/// the elements): bodies, hinges, sliders, ball joints, and joints Juice attaches to nothing
/// because Body1/Body2 is 0, names no body, or both name the same body.
struct Expected {
  const char* file;
  int bodies;
  int revolute;
  int prismatic;
  int spherical;
  int inert;
};

const Expected kExpected[] = {
    {"Backhoe.jm", 6, 5, 1, 0, 0},
    {"BackhoeClaw.jm", 9, 6, 1, 0, 0},
    {"Boarder.jm", 19, 15, 3, 2, 0},
    {"BoarderTest.jm", 13, 9, 0, 4, 0},
    {"Bug.jm", 2, 1, 0, 0, 0},
    {"CarChassis2.jm", 11, 12, 2, 0, 0},
    {"DeathTollCritter.jm", 17, 16, 0, 0, 0},
    {"DeathTollCritter2.jm", 17, 16, 0, 0, 0},
    {"DeathTollCritter3.jm", 21, 20, 0, 0, 2},
    {"DeathTollCritter4.jm", 17, 16, 0, 0, 0},
    {"Dihno2.jm", 17, 16, 0, 0, 0},
    {"Handmade4Segment.jm", 20, 19, 0, 0, 0},
    {"IsThisABug.jm", 2, 0, 1, 0, 0},
    {"MPS_2.jm", 19, 21, 1, 0, 0},
    {"MPS_toolkit.jm", 16, 15, 0, 0, 2},
    {"Mech2.jm", 13, 12, 0, 0, 0},
    {"NewManypedeSegment.jm", 5, 5, 0, 0, 5},
    {"Pogo.jm", 4, 2, 1, 0, 0},
    {"PrecessionTest.jm", 3, 2, 0, 0, 0},
    {"Quadrapod3.jm", 13, 12, 0, 0, 0},
    {"Quadrapod3_bak.jm", 13, 12, 0, 0, 0},
    {"Segwack.jm", 0, 0, 0, 0, 0},
    {"Segwack1.jm", 4, 2, 1, 0, 0},
    {"SimpleBoarder.jm", 5, 1, 3, 0, 0},
    {"SimpleHex.jm", 13, 12, 0, 0, 0},
    {"SimpleHex2.jm", 13, 12, 0, 0, 0},
    {"SnakeSpheres.jm", 20, 20, 0, 0, 1},
    {"Spinner.jm", 6, 5, 0, 0, 0},
    {"Trebuchet.jm", 24, 11, 0, 9, 0},
    {"Trebuchetsturvat.jm", 42, 18, 0, 14, 0},
    {"bigsixpack.jm", 7, 6, 0, 0, 0},
    {"bird.jm", 10, 9, 0, 4, 0},
    {"bird1.jm", 10, 9, 0, 4, 0},
    {"bird2.jm", 11, 6, 0, 8, 0},
    {"bird3.jm", 8, 5, 0, 4, 0},
    {"empty.jm", 0, 0, 0, 0, 0},
    {"fourdolls.jm", 40, 16, 0, 20, 0},
    {"fourdolls_boxes.jm", 40, 16, 0, 20, 0},
    {"fourdolls_capsules.jm", 40, 16, 0, 20, 0},
    {"humanoid.jm", 19, 18, 0, 0, 0},
    {"humanoid2.jm", 19, 18, 0, 0, 0},
    {"motorcycle.jm", 7, 5, 1, 0, 0},
    {"pterosaur.jm", 27, 16, 4, 12, 0},
    {"pterosaur2.jm", 31, 16, 6, 16, 0},
    {"pterosaur_balljoints.jm", 31, 16, 6, 16, 0},
    {"pterosaur_hinges.jm", 25, 24, 0, 0, 0},
    {"pterosaur_hinges2.jm", 25, 24, 0, 0, 0},
    {"pterosaur_hinges_backup.jm", 23, 22, 0, 0, 0},
    {"puppeteer.jm", 23, 20, 2, 0, 0},
    {"ragdoll.jm", 10, 4, 0, 5, 0},
    {"simpleant2.jm", 13, 12, 0, 0, 0},
    {"sixpack_notoys.jm", 7, 6, 0, 0, 0},
    {"test/70test.jm", 2, 0, 0, 0, 0},
    {"test/BoxStack.jm", 36, 0, 0, 0, 0},
    {"test/DihnoFileTest.jm", 17, 16, 0, 0, 0},
    {"test/DihnoFileTest2.jm", 17, 16, 0, 0, 0},
    {"test/Gyro.jm", 4, 3, 0, 0, 3},
    {"test/HingeLoop.jm", 4, 4, 0, 0, 0},
    {"test/JointTest.jm", 4, 1, 1, 0, 0},
    {"test/JustOneBox.jm", 1, 0, 0, 0, 0},
    {"test/NetworkTest4.jm", 0, 0, 0, 0, 0},
    {"test/SliderTest.jpm.jm", 2, 0, 1, 0, 0},
    {"test/StackBoxBall.jm", 12, 0, 0, 0, 0},
    {"test/StackBoxBallCylinder.jm", 12, 0, 0, 0, 0},
    {"test/adam-bustedODEPinning.jm", 2, 0, 0, 0, 0},
    {"test/adam-odeExplodingBeam.jm", 1, 0, 0, 0, 0},
    {"test/cylinder.jm", 1, 0, 0, 0, 0},
    {"test/networktest.jm", 2, 1, 0, 0, 0},
    {"test/networktest2.jm", 2, 1, 0, 0, 0},
    {"test/networktest3.jm", 11, 5, 5, 0, 0},
    {"test/simpletest.jm", 2, 1, 0, 0, 0},
    {"test/tmp.jm", 2, 0, 0, 0, 0},
    {"test/twobox.jm", 2, 1, 0, 0, 0},
};

/// Juice's models/ folder in the external corpus (the whole-folder tests are skipped without it).
std::string corpusRoot() { return interlink::test::externalCorpus() + "/juice/models"; }

/// A model of that folder: the copy in tests/data/juice when the repository carries one, else the
/// external corpus's.
std::string juiceFile(const std::string& file) {
  const std::string copy = interlink::test::vendored("juice/models/" + file);
  return std::filesystem::exists(copy) ? copy : corpusRoot() + "/" + file;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// Independent cross-check of the table: occurrences of an opening tag in the raw text.
int countTag(const std::string& text, const std::string& tag) {
  int n = 0;
  for (std::size_t at = text.find(tag); at != std::string::npos; at = text.find(tag, at + 1)) ++n;
  return n;
}

TEST(JuiceCorpus, HasSeventyFourFiles) {
  INTERLINK_SKIP_WITHOUT_CORPUS("juice");
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(corpusRoot()))
    if (entry.is_regular_file()) files.insert(std::filesystem::relative(entry.path(), corpusRoot()).generic_string());
  EXPECT_EQ(files.size(), 74u);
  // Every well-formed file is in the table; the one that is not is simpleant2.jp.jm.
  std::set<std::string> listed;
  for (const Expected& e : kExpected) listed.insert(e.file);
  EXPECT_EQ(listed.size(), 73u);
  for (const std::string& f : files) {
    if (f != "simpleant2.jp.jm") {
      EXPECT_TRUE(listed.count(f)) << f << " is missing from the table";
    }
  }
}

class JuiceCorpusFile : public ::testing::TestWithParam<Expected> {};

TEST_P(JuiceCorpusFile, LoadsWithExpectedBodiesAndJoints) {
  const Expected& e = GetParam();
  const std::string path = juiceFile(e.file);
  if (!std::filesystem::exists(path)) {  // most files are not vendored
    INTERLINK_SKIP_WITHOUT_CORPUS("juice");
  }
  const std::string text = readAll(path);
  ASSERT_FALSE(text.empty()) << path;
  // The table agrees with a plain count of tags in the file.
  EXPECT_EQ(countTag(text, "<Body>"), e.bodies);
  EXPECT_EQ(countTag(text, "<RevoluteJoint>"), e.revolute);
  EXPECT_EQ(countTag(text, "<PrismaticJoint>"), e.prismatic);
  EXPECT_EQ(countTag(text, "<SphericalJoint>"), e.spherical);

  LoadResult r = load(path);
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  ASSERT_TRUE(r.document.model.has_value()) << dump(r.diagnostics);
  const Model& m = *r.document.model;
  EXPECT_EQ(r.document.format, "juice");
  EXPECT_EQ(m.links.size(), static_cast<std::size_t>(e.bodies));
  EXPECT_EQ(m.joints.size(), static_cast<std::size_t>(e.revolute + e.prismatic + e.spherical - e.inert));
  int revolute = 0, prismatic = 0, ball = 0;
  for (const Joint& j : m.joints) {
    revolute += j.type == JointType::Revolute;
    prismatic += j.type == JointType::Prismatic;
    ball += j.type == JointType::Ball;
  }
  EXPECT_EQ(revolute + prismatic + ball, static_cast<int>(m.joints.size()));
  EXPECT_LE(revolute, e.revolute);
  EXPECT_LE(prismatic, e.prismatic);
  EXPECT_LE(ball, e.spherical);
  // Inert joints are reported (never silently dropped) and kept as data.
  std::size_t inertReported = withCode(r.diagnostics, ErrorCode::JOINT_PARENT_LINK_INVALID).size() +
                              withCode(r.diagnostics, ErrorCode::JOINT_CHILD_LINK_INVALID).size() +
                              withCode(r.diagnostics, ErrorCode::JOINT_PARENT_SAME_AS_CHILD).size();
  EXPECT_GE(inertReported, static_cast<std::size_t>(e.inert));
  if (e.inert == 0) {
    EXPECT_EQ(inertReported, 0u) << dump(r.diagnostics);
  }
  std::size_t keptJoints = std::count_if(m.kept.begin(), m.kept.end(), [](const KeptElement& k) {
    return k.path.find("Joints/") != std::string::npos;
  });
  EXPECT_EQ(keptJoints, static_cast<std::size_t>(e.inert));
  // Behaviours are preserved as opaque XML.
  auto behaviors = std::find_if(m.kept.begin(), m.kept.end(), [](const KeptElement& k) { return k.path == "Model/Behaviors"; });
  ASSERT_NE(behaviors, m.kept.end());
  EXPECT_EQ(behaviors->text.rfind("<Behaviors", 0), 0u);
  // Every body keeps its Juice name and ID where the user can find them.
  const auto* juice = m.extensions.find<interlink::juice::JuiceComponents>();
  ASSERT_NE(juice, nullptr);
  ASSERT_EQ(juice->bodies.size(), m.links.size());
  for (std::size_t i = 0; i < m.links.size(); ++i) {
    EXPECT_EQ(juice->bodies[i].link, m.links[i].name);
    EXPECT_FALSE(juice->bodies[i].id.empty()) << m.links[i].name;
    // The link is named <Name>_<ID> (or body_<ID>), so both stay findable.
    EXPECT_NE(m.links[i].name.find("_" + juice->bodies[i].id), std::string::npos) << m.links[i].name;
  }
  EXPECT_TRUE(m.gravity.has_value());  // Juice gives every model a gravity (its default when unwritten)
  // The corpus is read without complaint beyond what it really has: inert joints, one-sided
  // twins (pterosaur*) and asymmetric twins.
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_TRUE(d.code == ErrorCode::SYMMETRY || d.code == ErrorCode::ELEMENT_INVALID ||
                d.code == ErrorCode::JOINT_PARENT_LINK_INVALID || d.code == ErrorCode::JOINT_CHILD_LINK_INVALID ||
                d.code == ErrorCode::JOINT_PARENT_SAME_AS_CHILD)
        << d.format();
  }
}

std::string testName(const ::testing::TestParamInfo<Expected>& info) {
  std::string name = info.param.file;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllWellFormed, JuiceCorpusFile, ::testing::ValuesIn(kExpected), testName);

TEST(JuiceCorpus, SimpleAnt2JpIsNotWellFormedXml) {
  const std::string path = juiceFile("simpleant2.jp.jm");
  LoadResult r = load(path);
  EXPECT_FALSE(r.ok());
  auto syntax = withCode(r.diagnostics, ErrorCode::XML_SYNTAX);
  ASSERT_FALSE(syntax.empty()) << dump(r.diagnostics);
  // The root <Model ...> is closed by </1013AB34> on line 804.
  EXPECT_EQ(syntax.front()->where.line, 804) << syntax.front()->format();
  EXPECT_GT(syntax.front()->where.column, 0) << syntax.front()->format();
  EXPECT_NE(syntax.front()->where.file.str().find("simpleant2.jp.jm"), std::string::npos) << syntax.front()->format();
}

TEST(JuiceCorpus, GravityAndModelParametersAreKept) {
  LoadResult r = load(juiceFile("humanoid.jm"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  const Model& m = *r.document.model;
  EXPECT_EQ(m.name, "humanoid");
  ASSERT_TRUE(m.gravity.has_value());
  EXPECT_EQ(*m.gravity, Vector3(0, 0, -50));  // <Gravity>50</Gravity>: a magnitude along -Z
  EXPECT_EQ(m.readingNotes.at("juice.gravity_source"), "file");
  EXPECT_EQ(m.parameters.count("juice.Gravity"), 0u);  // typed, not also text
  EXPECT_EQ(m.parameters.at("juice.Friction"), "75");
  for (const char* key : {"juice.ERP", "juice.CFM", "juice.StandardSpeed", "juice.SpeedFactor", "juice.PoseDelay",
                          "juice.PosePhase"})
    EXPECT_EQ(m.parameters.count(key), 1u) << key;

  // A file without <Gravity> gets Juice's own default, and says so.
  LoadResult noGravity = load(juiceFile("Backhoe.jm"));
  ASSERT_TRUE(noGravity.ok()) << dump(noGravity.diagnostics);
  ASSERT_TRUE(noGravity.document.model->gravity.has_value());
  EXPECT_EQ(*noGravity.document.model->gravity, Vector3(0, 0, -9.81));
  EXPECT_EQ(noGravity.document.model->readingNotes.at("juice.gravity_source").rfind("default", 0), 0u);
  EXPECT_EQ(noGravity.document.model->parameters.count("juice.Gravity"), 0u);
}

TEST(JuiceCorpus, OlderDimensionsAndFileVersionAttributeForms) {
  // simpleant2.jm: FileVersion, <Dimensions> boxes without <Shape>: Juice's default box.
  LoadResult r = load(juiceFile("simpleant2.jm"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  const Model& m = *r.document.model;
  ASSERT_EQ(m.links.size(), 13u);
  for (const Link& link : m.links) {
    ASSERT_EQ(link.visuals.size(), 1u);
    EXPECT_EQ(link.visuals[0].geometry.type, GeometryType::Box) << link.name;
  }
  // The first body: <Dimensions> 0.25 0.25 1.
  EXPECT_TRUE(m.links[0].visuals[0].geometry.size.isApprox(Vector3(0.25, 0.25, 1)));
}

TEST(JuiceCorpus, FileVersionAttributeFormOnceTheXmlIsRepaired) {
  // simpleant2.jp.jm is simpleant2.jm with the older FileVersionAttribute and a broken end tag.
  std::string text = readAll(juiceFile("simpleant2.jp.jm"));
  const std::size_t broken = text.find("</1013AB34>");
  ASSERT_NE(broken, std::string::npos);
  text.replace(broken, 11, "</Model>");
  LoadResult r = load(tempDir().write("simpleant2_repaired.jm", text));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  const Model& m = *r.document.model;
  EXPECT_EQ(m.links.size(), 13u);
  EXPECT_EQ(m.joints.size(), 12u);
  EXPECT_EQ(m.readingNotes.at("juice.file_version_attribute"), "FileVersionAttribute");
  EXPECT_EQ(r.document.formatVersion, "1");
}

TEST(JuiceCorpus, SymmetryWarnings) {
  // Report which corpus files have twins that are not mirror images about the Y-Z plane.
  std::map<std::string, std::size_t> asymmetric;
  for (const Expected& e : kExpected) {
    if (!std::filesystem::exists(juiceFile(e.file))) continue;  // without the external corpus: the vendored files
    LoadResult r = load(juiceFile(e.file));
    std::size_t n = withCode(r.diagnostics, ErrorCode::SYMMETRY).size();
    for (const Diagnostic* d : withCode(r.diagnostics, ErrorCode::SYMMETRY)) EXPECT_FALSE(d->isError());
    if (n) asymmetric[e.file] = n;
  }
  std::ostringstream report;
  for (const auto& [file, n] : asymmetric) report << file << ": " << n << " asymmetric twin pair(s)\n";
  std::cout << "[ juice symmetry ]\n" << report.str();
  RecordProperty("asymmetric_files", static_cast<int>(asymmetric.size()));

  // Verified by hand: in DeathTollCritter.jm 'Left Outer Toe' is at x = -1.75 and its twin
  // 'Right Outer Toe' at x = 1.765.
  EXPECT_TRUE(asymmetric.count("DeathTollCritter.jm")) << report.str();
  LoadResult r = load(juiceFile("DeathTollCritter.jm"));
  auto symmetry = withCode(r.diagnostics, ErrorCode::SYMMETRY);
  ASSERT_EQ(symmetry.size(), 1u) << dump(r.diagnostics);
  EXPECT_NE(symmetry[0]->message.find("'Left Outer Toe'"), std::string::npos) << symmetry[0]->message;
  EXPECT_NE(symmetry[0]->message.find("'Right Outer Toe'"), std::string::npos) << symmetry[0]->message;
  EXPECT_NE(symmetry[0]->message.find("1.765"), std::string::npos) << symmetry[0]->message;
  EXPECT_GT(symmetry[0]->where.line, 0);

  // Mirror-image models give no warning; 0.999999 against -1 (humanoid.jm) is within tolerance;
  // wheels turned by roll 90 on both sides (Spinner.jm) are the same shape mirrored.
  for (const char* file : {"Quadrapod3.jm", "SimpleHex.jm", "humanoid.jm", "Spinner.jm", "ragdoll.jm"})
    EXPECT_FALSE(asymmetric.count(file)) << file << "\n" << report.str();
}

}  // namespace
}  // namespace interlink::test::juice
