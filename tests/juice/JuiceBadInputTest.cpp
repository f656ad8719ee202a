// Bad input: small files written by the test, one per check, loaded through the real loader.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "JuiceTestSupport.hpp"

namespace interlink::test::juice {
namespace {

bool mentions(const Diagnostic& d, const std::string& text) { return d.message.find(text) != std::string::npos; }

TEST(JuiceBadInput, DuplicateIdsAreErrorsEveryOneReported) {
  const std::string text = modelFile(body("10", "A", "0 0 1") + body("10", "B", "1 0 1") + body("20", "C", "2 0 1"),
                                     joint("RevoluteJoint", "20", "J", "10", "10"));
  const std::string path = tempDir().write("duplicate_ids.jm", text);
  LoadResult r = load(path);
  EXPECT_FALSE(r.ok());
  auto duplicates = withCode(r.diagnostics, ErrorCode::DUPLICATE_NAME);
  ASSERT_EQ(duplicates.size(), 2u) << dump(r.diagnostics);  // body B repeats 10, joint J repeats 20
  for (const Diagnostic* d : duplicates) {
    EXPECT_TRUE(d->isError());
    EXPECT_EQ(d->where.file, path);
    EXPECT_GT(d->where.column, 0);
    EXPECT_TRUE(mentions(*d, "expected IDs unique")) << d->message;
  }
  EXPECT_EQ(duplicates[0]->where.line, lineOf(text, "<ID>10</ID>\n    <Name>B"));
  EXPECT_TRUE(mentions(*duplicates[1], "'J'")) << duplicates[1]->message;
}

TEST(JuiceBadInput, JointsWithMissingOrIdenticalBodiesAreReportedAndKept) {
  const std::string text =
      modelFile(body("1", "A", "0 0 1") + body("2", "B", "1 0 1"),
                joint("RevoluteJoint", "101", "ToNowhere", "999", "2") + joint("RevoluteJoint", "102", "FromNowhere", "1", "0"),
                joint("PrismaticJoint", "103", "Self", "1", "1"), joint("SphericalJoint", "104", "Good", "1", "2"));
  const std::string path = tempDir().write("joint_bodies.jm", text);
  LoadResult r = load(path);
  ASSERT_TRUE(r.document.model.has_value()) << dump(r.diagnostics);
  auto parent = withCode(r.diagnostics, ErrorCode::JOINT_PARENT_LINK_INVALID);
  auto child = withCode(r.diagnostics, ErrorCode::JOINT_CHILD_LINK_INVALID);
  auto same = withCode(r.diagnostics, ErrorCode::JOINT_PARENT_SAME_AS_CHILD);
  ASSERT_EQ(parent.size(), 1u) << dump(r.diagnostics);
  ASSERT_EQ(child.size(), 1u) << dump(r.diagnostics);
  ASSERT_EQ(same.size(), 1u) << dump(r.diagnostics);
  EXPECT_EQ(parent[0]->where.line, lineOf(text, "<Body1>999</Body1>"));
  EXPECT_TRUE(mentions(*parent[0], "999") && mentions(*parent[0], "expected the ID of a body")) << parent[0]->message;
  EXPECT_EQ(child[0]->where.line, lineOf(text, "<Body2>0</Body2>"));
  EXPECT_TRUE(mentions(*same[0], "'Self'")) << same[0]->message;
  for (const Diagnostic* d : {parent[0], child[0], same[0]}) {
    // Warnings, as Juice ignores such joints, and they say so.
    EXPECT_EQ(d->severity, Severity::Warning) << d->format();
    EXPECT_TRUE(mentions(*d, "Juice attaches this joint to nothing, so it is left out of the model")) << d->format();
    EXPECT_EQ(d->where.file, path);
    EXPECT_GT(d->where.column, 0);
  }
  // Juice attaches such joints to nothing: only the good one is a joint, the others are kept.
  const Model& m = *r.document.model;
  ASSERT_EQ(m.joints.size(), 1u);
  EXPECT_EQ(m.joints[0].name, "Good_104");
  EXPECT_EQ(m.joints[0].type, JointType::Ball);
  EXPECT_EQ(std::count_if(m.kept.begin(), m.kept.end(),
                          [](const KeptElement& k) { return k.path.find("Joints/") != std::string::npos; }),
            3);
}

TEST(JuiceBadInput, TwinsThatDoNotExistOrDoNotPointBack) {
  const std::string text = modelFile(body("1", "Left", "-1 0 1", "0 0 0", "2") + body("2", "Right", "1 0 1", "0 0 0", "3") +
                                     body("3", "Other", "0 0 3", "0 0 0", "0") + body("4", "Lonely", "0 0 4", "0 0 0", "77"));
  const std::string path = tempDir().write("twins.jm", text);
  LoadResult r = load(path);
  auto twins = withCode(r.diagnostics, ErrorCode::ELEMENT_INVALID);
  // Left -> Right but Right -> Other; Right -> Other but Other -> 0; Lonely -> 77 (no such body).
  ASSERT_EQ(twins.size(), 3u) << dump(r.diagnostics);
  EXPECT_TRUE(mentions(*twins[0], "point back")) << twins[0]->message;
  EXPECT_EQ(twins[0]->where.line, lineOf(text, "<Twin>2</Twin>"));
  EXPECT_TRUE(mentions(*twins[1], "point back")) << twins[1]->message;
  EXPECT_TRUE(mentions(*twins[2], "77") && mentions(*twins[2], "names nothing")) << twins[2]->message;
  EXPECT_EQ(twins[2]->where.line, lineOf(text, "<Twin>77</Twin>"));
  for (const Diagnostic* d : twins) EXPECT_EQ(d->where.file, path);
}

TEST(JuiceBadInput, ShapesOutOfRange) {
  const std::string box = "<BoxDimensions><X>1</X><Y>1</Y><Z>1</Z></BoxDimensions><Mass>1</Mass>";
  const std::string text = modelFile(body("1", "Seven", "0 0 1", "0 0 0", "0", box + "<Shape>7</Shape>") +
                                     body("2", "Zero", "0 0 2", "0 0 0", "0", box + "<Shape>0</Shape>") +
                                     body("3", "Half", "0 0 3", "0 0 0", "0", box + "<Shape>2.5</Shape>") +
                                     body("4", "Flat", "0 0 4", "0 0 0", "0",
                                          "<BoxDimensions><X>1</X><Y>0</Y><Z>1</Z></BoxDimensions><Shape>1</Shape><Mass>-2</Mass>"));
  const std::string path = tempDir().write("shapes.jm", text);
  LoadResult r = load(path);
  EXPECT_FALSE(r.ok());
  auto invalid = withCode(r.diagnostics, ErrorCode::VALUE_INVALID);
  ASSERT_EQ(invalid.size(), 5u) << dump(r.diagnostics);
  EXPECT_EQ(invalid[0]->where.line, lineOf(text, "<Shape>7</Shape>"));
  EXPECT_TRUE(mentions(*invalid[0], "expected 1 (box), 2 (capsule), 3 (sphere) or 4 (cylinder)")) << invalid[0]->message;
  EXPECT_EQ(invalid[1]->where.line, lineOf(text, "<Shape>0</Shape>"));
  EXPECT_EQ(invalid[2]->where.line, lineOf(text, "<Shape>2.5</Shape>"));
  EXPECT_TRUE(mentions(*invalid[3], "Mass") || mentions(*invalid[4], "Mass")) << dump(r.diagnostics);
  EXPECT_TRUE(mentions(*invalid[3], "BoxDimensions/Y") || mentions(*invalid[4], "BoxDimensions/Y")) << dump(r.diagnostics);
  for (const Diagnostic* d : invalid) {
    EXPECT_TRUE(d->isError());
    EXPECT_EQ(d->where.file, path);
  }
}

TEST(JuiceBadInput, NonNumericValuesAllReported) {
  const std::string text = modelFile(
      body("1", "A", "abc 0 1") + body("2", "B", "0 0 1", "0 0 0", "0",
                                       "<BoxDimensions><X>1</X><Y>1</Y><Z>1</Z></BoxDimensions><Shape>1</Shape><Mass>heavy</Mass>"),
      joint("RevoluteJoint", "3", "J", "1", "2", "0 0 1", "0 zero 0",
            "<LoStopValue>-10</LoStopValue><HiStopValue>ten</HiStopValue><LoStopFlag>1</LoStopFlag><HiStopFlag>maybe</HiStopFlag>"),
      "", "", "<Friction>lots</Friction>\n");
  const std::string path = tempDir().write("numbers.jm", text);
  LoadResult r = load(path);
  EXPECT_FALSE(r.ok());
  auto invalid = withCode(r.diagnostics, ErrorCode::VALUE_INVALID);
  // abc, heavy, zero, ten, maybe, lots: every one, not only the first.
  ASSERT_EQ(invalid.size(), 6u) << dump(r.diagnostics);
  std::vector<int> lines;
  for (const Diagnostic* d : invalid) {
    EXPECT_EQ(d->where.file, path);
    EXPECT_GT(d->where.column, 0);
    lines.push_back(d->where.line);
  }
  for (const char* needle : {"<X>abc</X>", "<Mass>heavy</Mass>", "<P>zero</P>", "<HiStopValue>ten", "<HiStopFlag>maybe",
                             "<Friction>lots"})
    EXPECT_NE(std::find(lines.begin(), lines.end(), lineOf(text, needle)), lines.end()) << needle << "\n"
                                                                                           << dump(r.diagnostics);
  bool saysExpected = std::any_of(invalid.begin(), invalid.end(),
                                  [](const Diagnostic* d) { return mentions(*d, "'heavy'") && mentions(*d, "expected"); });
  EXPECT_TRUE(saysExpected) << dump(r.diagnostics);
}

TEST(JuiceBadInput, UnknownElementsAreReportedAndKept) {
  const std::string text = modelFile(
      body("1", "A", "0 0 1", "0 0 0", "0",
           "<BoxDimensions><X>1</X><Y>1</Y><Z>1</Z><W>1</W></BoxDimensions><Shape>1</Shape><Mass>1</Mass><Colour>red</Colour>"),
      "", "", "", "<Wind>3</Wind>\n<ERP units=\"none\">1</ERP>\n");
  const std::string path = tempDir().write("unknown.jm", text);
  LoadResult r = load(path);
  ASSERT_TRUE(r.document.model.has_value());
  auto unknown = withCode(r.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED);
  ASSERT_EQ(unknown.size(), 3u) << dump(r.diagnostics);
  std::vector<int> lines;
  for (const Diagnostic* d : unknown) {
    EXPECT_FALSE(d->isError());
    EXPECT_TRUE(mentions(*d, "expected one of")) << d->message;
    lines.push_back(d->where.line);
  }
  EXPECT_NE(std::find(lines.begin(), lines.end(), lineOf(text, "<Wind>")), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), lineOf(text, "<Colour>")), lines.end());
  auto attributes = withCode(r.diagnostics, ErrorCode::ATTRIBUTE_INVALID);
  ASSERT_EQ(attributes.size(), 1u) << dump(r.diagnostics);
  EXPECT_EQ(attributes[0]->where.line, lineOf(text, "units=\"none\""));
  EXPECT_TRUE(mentions(*attributes[0], "'units'")) << attributes[0]->message;
  const Model& m = *r.document.model;
  for (const char* keptPath : {"Model/Wind", "Model/Bodies/Body/Colour", "Model/Bodies/Body/BoxDimensions/W"})
    EXPECT_TRUE(std::any_of(m.kept.begin(), m.kept.end(), [&](const KeptElement& k) { return k.path == keptPath; })) << keptPath;
}

TEST(JuiceBadInput, RepeatedMissingStrayAndMalformedIds) {
  const std::string text = modelFile(
      "  <Body>\n    <ID>1</ID>\n    <Name>NoPose</Name>\n    <Mass>1</Mass>\n    <Mass>2</Mass>\n"
      "    <BoxDimensions><X>1</X><Y>1</Y><Z>1</Z></BoxDimensions>\n  </Body>\n" +
          body("two words", "BadId", "0 0 1") + body("3", "C", "0 0 2"),
      joint("RevoluteJoint", "4", "J", "1", "3") + "stray text\n");
  const std::string path = tempDir().write("repeated.jm", text);
  LoadResult r = load(path);
  ASSERT_TRUE(r.document.model.has_value()) << dump(r.diagnostics);
  auto repeated = withCode(r.diagnostics, ErrorCode::ELEMENT_INVALID);
  ASSERT_EQ(repeated.size(), 2u) << dump(r.diagnostics);  // the second <Mass>, the stray text
  EXPECT_EQ(repeated[0]->where.line, lineOf(text, "<Mass>2</Mass>"));
  EXPECT_TRUE(mentions(*repeated[0], "the first one is used")) << repeated[0]->message;
  EXPECT_TRUE(mentions(*repeated[1], "stray text")) << repeated[1]->message;
  EXPECT_DOUBLE_EQ(r.document.model->links[0].inertial.mass, 1);
  auto missing = withCode(r.diagnostics, ErrorCode::ELEMENT_MISSING);
  ASSERT_EQ(missing.size(), 2u) << dump(r.diagnostics);  // Position and Rotation of NoPose
  EXPECT_TRUE(mentions(*missing[0], "<Position>")) << missing[0]->message;
  EXPECT_TRUE(mentions(*missing[1], "<Rotation>")) << missing[1]->message;
  auto invalid = withCode(r.diagnostics, ErrorCode::VALUE_INVALID);
  ASSERT_EQ(invalid.size(), 1u) << dump(r.diagnostics);
  EXPECT_EQ(invalid[0]->where.line, lineOf(text, "<ID>two words</ID>"));
  EXPECT_FALSE(r.ok());
}

TEST(JuiceBadInput, WrongRootAndBrokenXml) {
  const std::string notJuice = tempDir().write("robot.jm", "<robot name=\"r\"><link name=\"a\"/></robot>\n");
  LoadResult r = load(notJuice);
  EXPECT_FALSE(r.ok());
  auto invalid = withCode(r.diagnostics, ErrorCode::ELEMENT_INVALID);
  ASSERT_EQ(invalid.size(), 1u) << dump(r.diagnostics);
  EXPECT_TRUE(mentions(*invalid[0], "<Model FileVersion=\"1\">")) << invalid[0]->message;
  EXPECT_EQ(invalid[0]->where.line, 1);

  const std::string broken = tempDir().write("broken.jm", "<Model FileVersion=\"1\">\n<Bodies>\n</Model>\n");
  LoadResult b = load(broken);
  EXPECT_FALSE(b.ok());
  auto syntax = withCode(b.diagnostics, ErrorCode::XML_SYNTAX);
  ASSERT_EQ(syntax.size(), 1u) << dump(b.diagnostics);
  EXPECT_EQ(syntax[0]->where.line, 3);
}

TEST(JuiceBadInput, XmlSnifferClaimsOnlyJuiceRoots) {
  plugin::PluginDescriptor const* descriptor = nullptr;
  PluginHandle handle = loader().plugins().findByName("juice");
  ASSERT_TRUE(handle) << loader().plugins().describeFormats();
  descriptor = &handle.descriptor();
  ASSERT_NE(descriptor->format, nullptr);
  ASSERT_NE(descriptor->format->sniff, nullptr);
  auto sniff = [&](const std::string& path, const std::string& head) {
    return descriptor->format->sniff(path.c_str(), head.data(), head.size());
  };
  EXPECT_GE(sniff("a.xml", "<?xml version=\"1.0\"?>\n<!-- juice -->\n<Model FileVersion=\"1\">\n<Gravity>"), 90);
  EXPECT_GE(sniff("a.xml", "\xEF\xBB\xBF<Model FileVersionAttribute=\"1\">"), 90);
  EXPECT_EQ(sniff("a.xml", "<?xml version=\"1.0\"?>\n<robot name=\"r\">"), 0);
  EXPECT_EQ(sniff("a.xml", "<Model name=\"m\">"), 0);       // a <Model> without FileVersion
  EXPECT_EQ(sniff("a.xml", "<ModelSet FileVersion=\"1\">"), 0);
  EXPECT_EQ(sniff("a.xml", "<sdf version=\"1.9\"><model name=\"Model\">"), 0);
  EXPECT_EQ(sniff("a.jm", "<Model FileVersion=\"1\">"), 100);

  // And a Juice file named .xml loads through the registry like a .jm.
  const std::string path = tempDir().write("model.xml", modelFile(body("1", "A", "0 0 1")));
  LoadResult r = load(path);
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_EQ(r.document.format, "juice");
  EXPECT_EQ(r.document.model->links.size(), 1u);
}

}  // namespace
}  // namespace interlink::test::juice
