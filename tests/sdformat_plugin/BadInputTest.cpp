// Issue 2, item 10: every kind of bad SDFormat input gets a diagnostic with its code and, where the
// format has them, line and column. Loaded through the real Loader and the real plugin.
#include <gtest/gtest.h>

#include "SdfTestSupport.hpp"

namespace interlink::test {
namespace {

const std::string kLink = "<link name='l'/>";

std::string modelFile(const std::string& version, const std::string& body) {
  return "<?xml version='1.0'?>\n<sdf version='" + version + "'>\n<model name='m'>\n" + body + "\n</model>\n</sdf>\n";
}

/// The first finding of `code` in the load of the file at `path`, which is refused (a default
/// Diagnostic, and a failure, when there is none).
Diagnostic refusalOf(const std::string& path, ErrorCode code) {
  const LoadResult result = loadSdf(path);
  EXPECT_FALSE(result.ok()) << path;
  const Diagnostic* found = findCode(result.diagnostics, code);
  EXPECT_NE(found, nullptr) << path << "\n" << dump(result.diagnostics);
  return found ? *found : Diagnostic{};
}

/// libsdformat's own test file `name`.
std::string libsdformatTestFile(const std::string& name) { return vendored("sdformat/test/sdf/" + name); }

TEST(SdformatBadInput, MalformedXmlReportsLineAndColumn) {
  const auto path = writeFile(scratchDirectory() / "broken.sdf",
                              "<?xml version='1.0'?>\n<sdf version='1.9'>\n  <model name='m'>\n    <link name='l'>\n"
                              "  </model>\n</sdf>\n");
  const LoadResult result = loadSdf(path);
  EXPECT_FALSE(result.ok());
  const Diagnostic* syntax = findCode(result.diagnostics, ErrorCode::XML_SYNTAX);
  ASSERT_NE(syntax, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(syntax->where.file, path);
  EXPECT_EQ(syntax->where.line, 5);
  EXPECT_EQ(syntax->where.column, 5);
  EXPECT_NE(syntax->message.find("link"), std::string::npos) << syntax->message;
  // As libsdformat: the file as a whole could not be read.
  EXPECT_NE(findCode(result.diagnostics, ErrorCode::FILE_READ), nullptr);
}

TEST(SdformatBadInput, UnsupportedVersions) {
  // 1.1 was never published; 1.13 and 2.0 do not exist yet.
  for (const std::string version : {"1.1", "2.0", "1.13", "one"}) {
    const auto path = writeFile(scratchDirectory() / "version.sdf", modelFile(version, kLink));
    const LoadResult result = loadSdf(path);
    EXPECT_FALSE(result.ok()) << version;
    const Diagnostic* error = findCode(result.diagnostics, ErrorCode::VERSION_UNSUPPORTED);
    ASSERT_NE(error, nullptr) << version << "\n" << dump(result.diagnostics);
    EXPECT_EQ(error->where.line, 2);
    EXPECT_EQ(error->where.column, 6);  // the version attribute
    EXPECT_NE(error->message.find("1.0 or 1.2 to 1.12"), std::string::npos) << error->message;
  }
  for (const std::string version :
       {"1.0", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11", "1.12"}) {
    const LoadResult result = loadSdf(writeFile(scratchDirectory() / "ok.sdf", modelFile(version, kLink)));
    EXPECT_TRUE(result.ok()) << version << "\n" << dump(result.diagnostics);
  }
}

TEST(SdformatBadInput, MissingVersionAndWrongRoot) {
  const LoadResult noVersion =
      loadSdf(writeFile(scratchDirectory() / "noversion.sdf", "<sdf>\n<model name='m'><link name='l'/></model></sdf>"));
  const Diagnostic* error = findCode(noVersion.diagnostics, ErrorCode::FILE_READ);
  ASSERT_NE(error, nullptr) << dump(noVersion.diagnostics);
  EXPECT_EQ(error->where.line, 1);
  EXPECT_NE(error->message.find("version"), std::string::npos);

  const LoadResult robot = loadSdf(writeFile(scratchDirectory() / "robot.sdf", "<robot name='r'/>"));
  ASSERT_NE(findCode(robot.diagnostics, ErrorCode::FILE_READ), nullptr) << dump(robot.diagnostics);
  EXPECT_NE(findCode(robot.diagnostics, ErrorCode::FILE_READ)->message.find("<robot>"), std::string::npos);
}

TEST(SdformatBadInput, NanAndInfinitePoseValues) {
  for (const std::string value : {"nan", "inf", "-inf", "1e400"}) {
    const auto path = writeFile(scratchDirectory() / "nan.sdf",
                                modelFile("1.9", "<link name='l'>\n  <pose>0 " + value + " 0 0 0 0</pose>\n</link>"));
    const LoadResult result = loadSdf(path);
    EXPECT_FALSE(result.ok()) << value;
    const Diagnostic* error = findCode(result.diagnostics, ErrorCode::VALUE_INVALID);
    ASSERT_NE(error, nullptr) << value << "\n" << dump(result.diagnostics);
    EXPECT_EQ(error->where.file, path);
    EXPECT_EQ(error->where.line, 5);
    EXPECT_EQ(error->where.column, 3);
    EXPECT_NE(error->message.find("finite"), std::string::npos) << error->message;
  }
  // Non-numeric text likewise, with libsdformat's ELEMENT_INVALID and FILE_READ after it.
  const LoadResult text =
      loadSdf(writeFile(scratchDirectory() / "text.sdf", modelFile("1.9", "<link name='l'><pose>0 x 0 0 0 0</pose></link>")));
  EXPECT_NE(findCode(text.diagnostics, ErrorCode::VALUE_INVALID), nullptr) << dump(text.diagnostics);
  EXPECT_NE(findCode(text.diagnostics, ErrorCode::ELEMENT_INVALID), nullptr);
  EXPECT_NE(findCode(text.diagnostics, ErrorCode::FILE_READ), nullptr);
}

TEST(SdformatBadInput, PoseOfWrongLengthForItsRotationFormat) {
  struct Case {
    std::string pose;
    std::string expected;
  };
  const Case cases[] = {
      {"<pose>1 2 3 0 0</pose>", "6"},
      {"<pose>1 2 3 0 0 0 1</pose>", "6"},
      {"<pose rotation_format='euler_rpy'>1 2 3 0 0 0 0</pose>", "6"},
      {"<pose rotation_format='quat_xyzw'>1 2 3 0 0 0</pose>", "7"},
      {"<pose rotation_format='quat_xyzw'>1 2 3 0 0 0 1 0</pose>", "7"},
  };
  for (const Case& c : cases) {
    const auto path = writeFile(scratchDirectory() / "length.sdf", modelFile("1.9", "<link name='l'>\n" + c.pose + "</link>"));
    const LoadResult result = loadSdf(path);
    EXPECT_FALSE(result.ok()) << c.pose;
    const Diagnostic* error = findCode(result.diagnostics, ErrorCode::POSE_FORMAT_INVALID);
    ASSERT_NE(error, nullptr) << c.pose << "\n" << dump(result.diagnostics);
    EXPECT_EQ(error->where.line, 5);
    EXPECT_EQ(error->where.column, 1);
    EXPECT_NE(error->message.find("expected " + c.expected + " numbers"), std::string::npos) << error->message;
  }
}

TEST(SdformatBadInput, UnknownRotationFormatAndBadDegrees) {
  const LoadResult format = loadSdf(writeFile(
      scratchDirectory() / "format.sdf", modelFile("1.9", "<link name='l'><pose rotation_format='xyz'>0 0 0 0 0 0</pose></link>")));
  const Diagnostic* error = findCode(format.diagnostics, ErrorCode::ELEMENT_INVALID);
  ASSERT_NE(error, nullptr) << dump(format.diagnostics);
  EXPECT_NE(error->message.find("quat_xyzw"), std::string::npos);

  const LoadResult degrees = loadSdf(writeFile(
      scratchDirectory() / "degrees.sdf", modelFile("1.9", "<link name='l'><pose degrees='maybe'>0 0 0 0 0 0</pose></link>")));
  EXPECT_NE(findCode(degrees.diagnostics, ErrorCode::ATTRIBUTE_INVALID), nullptr) << dump(degrees.diagnostics);
}

TEST(SdformatBadInput, EmptyFileIsRefusedByTheCoreAndThePlugin) {
  const LoadResult result = loadSdf(writeFile(scratchDirectory() / "empty.sdf", ""));
  EXPECT_FALSE(result.ok());
  EXPECT_NE(findCode(result.diagnostics, ErrorCode::FILE_EMPTY), nullptr) << dump(result.diagnostics);

  // The plugin on its own does not crash either: the XML reader finds no root element.
  Document document;
  const Diagnostics direct = loadWithPluginOnly("", document);
  EXPECT_TRUE(direct.hasErrors());
  EXPECT_NE(findCode(direct, ErrorCode::XML_SYNTAX), nullptr) << dump(direct);
  EXPECT_FALSE(document.model);
  EXPECT_TRUE(document.worlds.empty());
}

TEST(SdformatBadInput, BinaryFileIsRefusedByTheCoreAndThePlugin) {
  const std::string bytes("\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0\xff\xfe\xfd", 23);
  const LoadResult result = loadSdf(writeFile(scratchDirectory() / "binary.sdf", bytes));
  EXPECT_FALSE(result.ok());
  EXPECT_NE(findCode(result.diagnostics, ErrorCode::FILE_BINARY), nullptr) << dump(result.diagnostics);

  Document document;
  const Diagnostics direct = loadWithPluginOnly(bytes, document);
  EXPECT_NE(findCode(direct, ErrorCode::XML_SYNTAX), nullptr) << dump(direct);
  EXPECT_FALSE(document.model);
}

TEST(SdformatBadInput, MissingRequiredAttributesAndElements) {
  const auto path = writeFile(scratchDirectory() / "missing.sdf",
                              modelFile("1.9",
                                        "<link/>\n"
                                        "<link name='a'/><link name='b'/>\n"
                                        "<joint name='j'><parent>a</parent><child>b</child></joint>\n"
                                        "<joint name='k' type='fixed'><child>b</child></joint>"));
  const LoadResult result = loadSdf(path);
  EXPECT_FALSE(result.ok());
  // Every problem is reported, not only the first.
  EXPECT_GE(countCode(result.diagnostics, ErrorCode::ATTRIBUTE_MISSING), 2u) << dump(result.diagnostics);
  bool typeReported = false;
  for (const auto& d : result.diagnostics) typeReported = typeReported || d.message.find("'type'") != std::string::npos;
  EXPECT_TRUE(typeReported) << dump(result.diagnostics);
  const Diagnostic* element = findCode(result.diagnostics, ErrorCode::ELEMENT_MISSING);
  ASSERT_NE(element, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(element->where.line, 7);
  EXPECT_NE(element->message.find("<parent>"), std::string::npos);
  const Diagnostic* first = findCode(result.diagnostics, ErrorCode::ATTRIBUTE_MISSING);
  EXPECT_EQ(first->where.line, 4);
  EXPECT_EQ(first->where.column, 1);
}

TEST(SdformatBadInput, InvalidJointTypeAndZeroAxis) {
  const LoadResult result = loadSdf(writeFile(
      scratchDirectory() / "joint.sdf",
      modelFile("1.9",
                "<link name='a'/><link name='b'/><link name='c'/>\n"
                "<joint name='j' type='hinge'><parent>a</parent><child>b</child></joint>\n"
                "<joint name='k' type='revolute'><parent>a</parent><child>c</child><axis><xyz>0 0 0</xyz></axis></joint>")));
  const Diagnostic* type = findCode(result.diagnostics, ErrorCode::ATTRIBUTE_INVALID);
  ASSERT_NE(type, nullptr) << dump(result.diagnostics);
  EXPECT_NE(type->message.find("hinge"), std::string::npos);
  EXPECT_EQ(type->where.line, 5);
  const Diagnostic* axis = findCode(result.diagnostics, ErrorCode::ELEMENT_INVALID);
  ASSERT_NE(axis, nullptr) << dump(result.diagnostics);
  EXPECT_NE(axis->message.find("norm"), std::string::npos);
  EXPECT_EQ(axis->where.line, 6);
}

TEST(SdformatBadInput, InvalidInertiaAsLibsdformat) {
  EXPECT_EQ(refusalOf(libsdformatTestFile("inertial_invalid.sdf"), ErrorCode::LINK_INERTIA_INVALID).where.line, 5);
}

TEST(SdformatBadInput, RootReferenceIsReserved) {
  const LoadResult result = loadSdf(vendored("sdformat/test/sdf/model_invalid_root_reference.sdf"));
  const Diagnostic* error = findCode(result.diagnostics, ErrorCode::ATTRIBUTE_INVALID);
  ASSERT_NE(error, nullptr) << dump(result.diagnostics);
  EXPECT_NE(error->message.find("__root__"), std::string::npos);
  EXPECT_GT(error->where.line, 0);
}

TEST(SdformatBadInput, DuplicateWorldsAndSeveralRootModels) {
  const LoadResult worlds = loadSdf(vendored("sdformat/test/sdf/world_duplicate.sdf"));
  EXPECT_NE(findCode(worlds.diagnostics, ErrorCode::DUPLICATE_NAME), nullptr) << dump(worlds.diagnostics);
  const LoadResult models = loadSdf(vendored("sdformat/test/sdf/root_multiple_models.sdf"));
  const Diagnostic* error = findCode(models.diagnostics, ErrorCode::ELEMENT_INCORRECT_TYPE);
  ASSERT_NE(error, nullptr) << dump(models.diagnostics);
  EXPECT_EQ(error->where.line, 6);
}

// --- produced by the framework's include resolution and frame-graph phases --------------------

TEST(SdformatBadInput, MissingInclude) {
  const auto path = writeFile(scratchDirectory() / "world.sdf",
                              "<sdf version='1.9'>\n<world name='w'>\n  <include>\n    <uri>does_not_exist.sdf</uri>\n"
                              "  </include>\n</world>\n</sdf>\n");
  EXPECT_EQ(refusalOf(path, ErrorCode::URI_LOOKUP).where.line, 3);
}

TEST(SdformatBadInput, IncludeCycle) {
  const auto dir = scratchDirectory();
  writeFile(dir / "b.sdf", "<sdf version='1.9'>\n<model name='b'>\n<link name='l'/>\n<include><uri>a.sdf</uri><name>a</name></include>\n</model>\n</sdf>\n");
  const auto a = writeFile(dir / "a.sdf", "<sdf version='1.9'>\n<model name='a'>\n<link name='l'/>\n<include><uri>b.sdf</uri><name>b</name></include>\n</model>\n</sdf>\n");
  const LoadResult result = loadSdf(a);
  EXPECT_FALSE(result.ok());
  EXPECT_NE(findCode(result.diagnostics, ErrorCode::INCLUDE_CYCLE), nullptr) << dump(result.diagnostics);
}

// The cycle is found from the files' canonical paths: through a link to a directory, and through
// a link to a file, the include names the file being loaded by another path.
TEST(SdformatBadInput, IncludeCycleThroughLinksIsFoundAsACycle) {
  const auto dir = scratchDirectory();
  std::filesystem::create_directories(dir / "real");
  std::filesystem::create_directory_symlink(dir / "real", dir / "alias");
  const auto a = writeFile(dir / "real" / "a.sdf",
                           "<sdf version='1.9'>\n<model name='a'>\n<link name='l'/>\n"
                           "<include><uri>../alias/a.sdf</uri><name>again</name></include>\n</model>\n</sdf>\n");
  const auto c = writeFile(dir / "real" / "c.sdf",
                           "<sdf version='1.9'>\n<model name='c'>\n<link name='l'/>\n"
                           "<include><uri>link.sdf</uri><name>again</name></include>\n</model>\n</sdf>\n");
  std::filesystem::create_symlink(dir / "real" / "c.sdf", dir / "real" / "link.sdf");
  for (const std::string& top : {a, c, (dir / "alias" / "c.sdf").string()}) {
    const LoadResult result = loadSdf(top);
    EXPECT_FALSE(result.ok()) << top;
    const Diagnostic* cycle = findCode(result.diagnostics, ErrorCode::INCLUDE_CYCLE);
    ASSERT_NE(cycle, nullptr) << top << "\n" << dump(result.diagnostics);
    // Found on the first return to the file: the chain holds it once before it repeats ("A -> A"),
    // not after a second pass under the other name ("A -> B -> B").
    const std::string canonical = std::filesystem::canonical(top).string();
    EXPECT_EQ(cycle->message, "include cycle: " + canonical + " -> " + canonical) << dump(result.diagnostics);
    EXPECT_EQ(findCode(result.diagnostics, ErrorCode::INCLUDE_DEPTH), nullptr) << top << "\n" << dump(result.diagnostics);
  }
}

TEST(SdformatBadInput, RunawayIncludeDepth) {
  const auto dir = scratchDirectory();
  constexpr int kFiles = 80;  // deeper than LoadOptions::maxIncludeDepth (64), no cycle
  for (int i = 0; i < kFiles; ++i) {
    std::string body = "<sdf version='1.9'>\n<model name='m" + std::to_string(i) + "'>\n<link name='l'/>\n";
    if (i + 1 < kFiles) body += "<include><uri>m" + std::to_string(i + 1) + ".sdf</uri></include>\n";
    body += "</model>\n</sdf>\n";
    writeFile(dir / ("m" + std::to_string(i) + ".sdf"), body);
  }
  const LoadResult result = loadSdf((dir / "m0.sdf").string());
  EXPECT_FALSE(result.ok());
  EXPECT_NE(findCode(result.diagnostics, ErrorCode::INCLUDE_DEPTH), nullptr) << dump(result.diagnostics);
  EXPECT_EQ(findCode(result.diagnostics, ErrorCode::INCLUDE_CYCLE), nullptr);
}

TEST(SdformatBadInput, ReservedNames) {
  EXPECT_GT(refusalOf(libsdformatTestFile("model_invalid_reserved_names.sdf"), ErrorCode::RESERVED_NAME).where.line, 0);
}

TEST(SdformatBadInput, ScopeDelimiterInAName) {
  const auto path = writeFile(scratchDirectory() / "colon.sdf", modelFile("1.9", "<link name='a::b'/>"));
  const LoadResult result = loadSdf(path);
  EXPECT_FALSE(result.ok());
  bool found = false;
  for (const auto& d : result.diagnostics) {
    if (d.isError() && d.message.find("::") != std::string::npos) {
      found = true;
      EXPECT_EQ(d.where.line, 4);
    }
  }
  EXPECT_TRUE(found) << dump(result.diagnostics);
}

TEST(SdformatBadInput, DuplicateSiblingNames) {
  const auto path = writeFile(scratchDirectory() / "duplicate.sdf",
                              modelFile("1.9", "<link name='l'/>\n<frame name='l' attached_to='l'/>"));
  const LoadResult result = loadSdf(path);
  EXPECT_FALSE(result.ok());
  const Diagnostic* error = findCode(result.diagnostics, ErrorCode::DUPLICATE_NAME);
  ASSERT_NE(error, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(error->where.line, 5);
}

}  // namespace
}  // namespace interlink::test
