// The core-model JSON plugin through the real loader: it and the Shift plugin share `.json` and
// each takes only its own files; malformed and hostile core-model files get located diagnostics
// (line:column, code, what was expected), all of them, and never a crash or a partial model.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

const Loader& loader() { return test::sharedLoader(); }

const std::string& scratch() {
  static const std::string dir = test::makeTempDir("interlink-core-model");
  return dir;
}

/// A small valid core model: the JSON that `convert` writes for a two-link URDF.
const std::string& validJson() {
  static const std::string text = [] {
    const std::string urdf = scratch() + "/arm.urdf";
    std::ofstream(urdf) << R"(<robot name="arm">
  <link name="base"/>
  <link name="upper"><inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.5" rpy="0.3 0.2 0.1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="5" velocity="2"/></joint>
</robot>
)";
    const LoadResult loaded = loader().loadFile(urdf);
    EXPECT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
    return convert::writeJson(loaded);
  }();
  return text;
}

LoadResult loadJson(const std::string& text, const std::string& name = "model.json") {
  const std::string path = scratch() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return loader().loadFile(path);
}

/// `text` with the first occurrence of `from` replaced by `to` (which must exist).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// The 1-based line of the first occurrence of `needle` in `text`.
int lineOf(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  return at == std::string::npos ? -1 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

std::size_t countCode(const Diagnostics& diagnostics, ErrorCode code, Severity severity = Severity::Error) {
  return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) {
    return d.code == code && d.severity == severity;
  }));
}

TEST(CoreModelReader, ReadsWhatConvertWrites) {
  const LoadResult loaded = loadJson(validJson());
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  EXPECT_EQ(loaded.document.format, "urdf");  // the rules it was first read under
  ASSERT_TRUE(loaded.document.model);
  EXPECT_EQ(loaded.document.model->source.format, "urdf");
  ASSERT_EQ(loaded.kinematics.dofs().size(), 1u);
  EXPECT_EQ(loaded.kinematics.dofs()[0].name, "shoulder");
  EXPECT_EQ(convert::writeJson(loaded), validJson());
}

TEST(CoreModelReader, ShiftAndCoreModelSniffersEachDeclineTheOther) {
  // A core model is not read as Shift (it has "joints" and "frames" too) ...
  const LoadResult core = loadJson(validJson(), "core.json");
  ASSERT_TRUE(core.ok()) << test::dump(core.diagnostics);
  EXPECT_EQ(core.document.model->links.size(), 2u);
  // ... and a Shift file is not read as a core model.
  const LoadResult shiftFile = loader().loadFile(test::vendored("shift/pendulum/pendulum.json"));
  ASSERT_TRUE(shiftFile.ok()) << test::dump(shiftFile.diagnostics);
  EXPECT_EQ(shiftFile.document.format, "shift");
}

TEST(CoreModelReader, UnknownSchemaVersionIsRefusedWithAReason) {
  for (const std::string& version : {std::string("2"), std::string("0"), std::string("\"1\""), std::string("1.5")}) {
    const std::string text = replaced(validJson(), "\"interlink_model\": 1", "\"interlink_model\": " + version);
    const LoadResult loaded = loadJson(text);
    EXPECT_FALSE(loaded.ok()) << version;
    ASSERT_EQ(countCode(loaded.diagnostics, ErrorCode::VERSION_UNSUPPORTED), 1u) << version << test::dump(loaded.diagnostics);
    for (const Diagnostic& d : loaded.diagnostics) {
      if (d.code != ErrorCode::VERSION_UNSUPPORTED) continue;
      EXPECT_NE(d.message.find("reads version 1"), std::string::npos) << d.message;
      EXPECT_EQ(d.where.line, 2) << d.format();
      EXPECT_GT(d.where.column, 0) << d.format();
    }
  }
}

TEST(CoreModelReader, SyntaxErrorIsLocated) {
  std::string text = validJson();
  const int line = lineOf(text, "\"links\"");
  text = replaced(text, "\"links\": [", "\"links\": [,");
  const LoadResult loaded = loadJson(text);
  EXPECT_FALSE(loaded.ok());
  ASSERT_EQ(countCode(loaded.diagnostics, ErrorCode::JSON_SYNTAX), 1u) << test::dump(loaded.diagnostics);
  EXPECT_EQ(loaded.diagnostics.items().front().where.line, line) << test::dump(loaded.diagnostics);
}

TEST(CoreModelReader, EveryWrongMemberIsReportedAtItsValue) {
  std::string text = validJson();
  text = replaced(text, "\"mass\": 2", "\"mass\": \"heavy\"");
  text = replaced(text, "\"type\": \"revolute\"", "\"type\": \"hinge\"");
  text = replaced(text, "\"self_collide\": false", "\"self_collide\": 0");
  const LoadResult loaded = loadJson(text);
  EXPECT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.diagnostics.errorCount(), 3u) << test::dump(loaded.diagnostics);
  for (const Diagnostic& d : loaded.diagnostics) {
    if (!d.isError()) continue;
    EXPECT_GT(d.where.line, 1) << d.format();
    EXPECT_GT(d.where.column, 0) << d.format();
    EXPECT_NE(d.message.find("expected"), std::string::npos) << d.format();
  }
  const auto has = [&](ErrorCode code, const std::string& needle, int line) {
    return std::any_of(loaded.diagnostics.begin(), loaded.diagnostics.end(), [&](const Diagnostic& d) {
      return d.code == code && d.message.find(needle) != std::string::npos && d.where.line == line;
    });
  };
  EXPECT_TRUE(has(ErrorCode::ATTRIBUTE_INCORRECT_TYPE, "'mass'", lineOf(text, "\"heavy\""))) << test::dump(loaded.diagnostics);
  EXPECT_TRUE(has(ErrorCode::VALUE_INVALID, "'hinge'", lineOf(text, "\"hinge\""))) << test::dump(loaded.diagnostics);
  EXPECT_TRUE(has(ErrorCode::ATTRIBUTE_INCORRECT_TYPE, "'self_collide'", lineOf(text, "\"self_collide\": 0")))
      << test::dump(loaded.diagnostics);
}

TEST(CoreModelReader, MissingMembersNameWhatWasExpected) {
  // Whole lines out: the model's canonical link and the first link's gravity switch.
  const auto withoutLine = [](std::string text, const std::string& key) {
    const std::size_t at = text.find(key);
    EXPECT_NE(at, std::string::npos) << key;
    if (at == std::string::npos) return text;
    const std::size_t begin = text.rfind('\n', at) + 1;
    return text.erase(begin, text.find('\n', at) + 1 - begin);
  };
  std::string text = withoutLine(validJson(), "\"canonical_link\": ");
  text = withoutLine(text, "\"gravity\": true,");
  const LoadResult loaded = loadJson(text);
  EXPECT_FALSE(loaded.ok());
  EXPECT_EQ(countCode(loaded.diagnostics, ErrorCode::ELEMENT_MISSING), 2u) << test::dump(loaded.diagnostics);
  for (const Diagnostic& d : loaded.diagnostics) {
    if (d.code == ErrorCode::ELEMENT_MISSING) {
      EXPECT_GT(d.where.line, 0) << d.format();
    }
  }
}

TEST(CoreModelReader, UnknownMemberIsAWarningAndTheModelLoads) {
  const std::string text = replaced(validJson(), "\"static\": false,", "\"static\": false,\n  \"colour\": \"red\",");
  const LoadResult loaded = loadJson(text);
  EXPECT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  EXPECT_EQ(countCode(loaded.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED, Severity::Warning), 1u)
      << test::dump(loaded.diagnostics);
}

TEST(CoreModelReader, RotationsMustBeRotations) {
  // The joint pose of the sample is not the identity: spoil its quaternion, then its matrix.
  const std::string text = validJson();
  const std::size_t joint = text.find("\"name\": \"shoulder\"");
  ASSERT_NE(joint, std::string::npos);
  const std::size_t quaternion = text.find("\"quaternion_wxyz\": [", joint);
  std::string notUnit = text;
  notUnit.insert(quaternion + std::string("\"quaternion_wxyz\": [").size(), "7");
  LoadResult loaded = loadJson(notUnit);
  EXPECT_FALSE(loaded.ok());
  EXPECT_EQ(countCode(loaded.diagnostics, ErrorCode::POSE_FORMAT_INVALID), 1u) << test::dump(loaded.diagnostics);

  const std::size_t rotation = text.find("\"rotation\": [", joint);
  std::string notMatching = text;
  notMatching.replace(rotation, std::string("\"rotation\": [").size(), "\"rotation\": [1, 0, 0, 0, 1, 0, 0, 0, 1], \"x\": [");
  loaded = loadJson(notMatching);
  EXPECT_FALSE(loaded.ok());
  EXPECT_EQ(countCode(loaded.diagnostics, ErrorCode::POSE_FORMAT_INVALID), 1u) << test::dump(loaded.diagnostics);
}

TEST(CoreModelReader, HostileInputsAreRefusedCleanly) {
  const std::string prefix = "{\"interlink_model\": 1, \"document\": ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"empty", ""},
      {"array root", "[1, 2, 3]"},
      {"no version", "{\"document\": {}}"},
      {"document is a string", prefix + "\"model\"}"},
      {"deep nesting", prefix + std::string(100000, '[') + std::string(100000, ']') + "}"},
      {"huge integer", replaced(validJson(), "\"line\": 1,", "\"line\": 99999999999999999999999,")},
      {"negative count", replaced(validJson(), "\"line\": 1,", "\"line\": -4,")},
      {"nul byte", prefix + std::string("{\"model\": \"a\0b\"}}", 18)},
      {"truncated", validJson().substr(0, validJson().size() / 2)},
      {"models not objects", prefix + "{\"source_file\": \"\", \"format\": \"x\", \"format_version\": \"\", \"worlds\": [1, \"a\"], "
                                      "\"model\": null, \"lights\": [], \"kept\": []}}"},
  };
  for (const auto& [name, text] : cases) {
    const LoadResult loaded = loadJson(text);
    EXPECT_FALSE(loaded.ok()) << name;
    EXPECT_TRUE(loaded.diagnostics.hasErrors()) << name;
    for (const Diagnostic& d : loaded.diagnostics) {
      if (!d.isError()) continue;
      EXPECT_NE(d.code, ErrorCode::NONE) << name << ": " << d.format();
      EXPECT_FALSE(d.where.file.empty()) << name << ": " << d.format();
      EXPECT_FALSE(d.message.empty()) << name;
    }
  }
}

TEST(CoreModelReader, CliReadsConvertOutputBack) {
  const std::string urdf = test::sourceDir() + "/tests/urdf/data/demo_arm.urdf";
  const std::string json = scratch() + "/demo_arm.json";
  const std::string packages = " -I " + test::sourceDir() + "/tests/urdf/data/packages ";
  const auto convert = test::run(test::cliPath() + " convert " + urdf + " -o " + json + packages);
  ASSERT_EQ(convert.exitCode, 0) << convert.output;
  const auto fromUrdf = test::run(test::cliPath() + " frames " + urdf + packages);
  const auto fromJson = test::run(test::cliPath() + " frames " + json + packages);
  ASSERT_EQ(fromJson.exitCode, 0) << fromJson.output;
  // The same frames line by line; only the header names the file read.
  const auto body = [](const std::string& text) { return text.substr(text.find('\n') + 1); };
  EXPECT_EQ(body(fromJson.output), body(fromUrdf.output));
  EXPECT_GT(body(fromUrdf.output).size(), 200u);
  const auto check = test::run(test::cliPath() + " check --from interlink_model " + json + packages);
  EXPECT_EQ(check.exitCode, 0) << check.output;
  const auto plugins = test::run(test::cliPath() + " plugins");
  EXPECT_NE(plugins.output.find("interlink_model"), std::string::npos) << plugins.output;
}

}  // namespace
}  // namespace interlink
