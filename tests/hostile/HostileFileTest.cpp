// Files no model loader should trust: FIFOs, devices, directories, symbolic link loops, files
// over the size limit, other encodings, NUL bytes, paths that leave the model's directory tree.
// Each must end at once with a located diagnostic that says why.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "HostileSupport.hpp"

namespace interlink::test {
namespace {

namespace fs = std::filesystem;

const std::string kModel = R"(<?xml version="1.0"?>
<sdf version="1.9">
  <model name="m"><link name="l"/></model>
</sdf>
)";

std::string includeOf(const std::string& uri) {
  return "<sdf version=\"1.9\">\n<world name=\"w\">\n  <include><uri>" + uri + "</uri></include>\n</world>\n</sdf>\n";
}

/// The CLI on `file`, bounded (a hang shows as kStoppedByBound).
CommandResult checkWithCli(const std::string& file) { return boundedCli("check '" + file + "'"); }

TEST(NonRegularFile, FifoAsModelIsRefusedWithoutBlocking) {
  Scratch scratch;
  const std::string fifo = scratch.path("pipe.sdf");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const CommandResult result = checkWithCli(fifo);
  EXPECT_NE(result.exitCode, kStoppedByBound) << "the load blocked on the FIFO" << result.output;
  EXPECT_NE(result.exitCode, 0) << result.output;
  EXPECT_NE(result.output.find("FIFO"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("FILE_READ"), std::string::npos) << result.output;
}

TEST(NonRegularFile, FifoAsIncludeIsRefusedAtTheInclude) {
  Scratch scratch;
  ASSERT_EQ(::mkfifo(scratch.path("pipe.sdf").c_str(), 0600), 0);
  const std::string world = scratch.write("world.sdf", includeOf("pipe.sdf"));
  const CommandResult result = checkWithCli(world);
  EXPECT_NE(result.exitCode, kStoppedByBound) << "the load blocked on the FIFO" << result.output;
  EXPECT_NE(result.output.find("world.sdf:3:"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("FIFO"), std::string::npos) << result.output;
}

TEST(NonRegularFile, SymlinkToDevZeroIsRefusedAsTopLevelAndAsInclude) {
  Scratch scratch;
  ASSERT_EQ(::symlink("/dev/zero", scratch.path("zero.sdf").c_str()), 0);
  ASSERT_EQ(::symlink("/dev/urandom", scratch.path("random.urdf").c_str()), 0);
  for (const char* name : {"zero.sdf", "random.urdf"}) {
    const LoadResult top = hostileLoader().loadFile(scratch.path(name));
    const Diagnostic* d = findCode(top.diagnostics, ErrorCode::FILE_READ);
    ASSERT_NE(d, nullptr) << dump(top.diagnostics);
    EXPECT_TRUE(mentions(d, "character device")) << d->message;
  }
  // As an include, the link leaves the model's tree: refused by a confined load first, and by the
  // file check by default.
  const std::string world = scratch.write("world.sdf", includeOf("zero.sdf"));
  EXPECT_TRUE(hostileLoader().loadFile(world, confined()).diagnostics.contains(ErrorCode::PATH_OUTSIDE_ROOTS));
  const LoadResult included = hostileLoader().loadFile(world);
  const Diagnostic* d = findCode(included.diagnostics, ErrorCode::FILE_READ);
  ASSERT_NE(d, nullptr) << dump(included.diagnostics);
  EXPECT_TRUE(mentions(d, "character device")) << d->message;
  EXPECT_EQ(d->where.line, 3);  // at the <include>
}

TEST(NonRegularFile, SymlinkLoopSaysSo) {
  Scratch scratch;
  ASSERT_EQ(::symlink(scratch.path("b.sdf").c_str(), scratch.path("a.sdf").c_str()), 0);
  ASSERT_EQ(::symlink(scratch.path("a.sdf").c_str(), scratch.path("b.sdf").c_str()), 0);
  const LoadResult result = hostileLoader().loadFile(scratch.path("a.sdf"));
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::FILE_READ);
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_TRUE(mentions(d, "symbolic link loop")) << d->message;
  EXPECT_FALSE(mentions(d, "no such file")) << d->message;
}

TEST(NonRegularFile, HrdfIncludeOfFifoOrDirectorySaysWhatItIs) {
  Scratch scratch;
  ASSERT_EQ(::mkfifo(scratch.path("pipe.hrdf").c_str(), 0600), 0);
  fs::create_directories(scratch.path("folder.hrdf"));
  for (const auto& [target, kind] : {std::pair<std::string, std::string>{"pipe.hrdf", "FIFO"}, {"folder.hrdf", "directory"}}) {
    const std::string top = scratch.write("top.hrdf", "<robot version=\"1.6.0\">\n  <include path=\"" + target + "\"/>\n</robot>\n");
    const LoadResult result = hostileLoader().loadFile(top);
    const Diagnostic* d = findCode(result.diagnostics, ErrorCode::FILE_READ);
    ASSERT_NE(d, nullptr) << dump(result.diagnostics);
    EXPECT_TRUE(mentions(d, kind)) << d->message;
    EXPECT_FALSE(mentions(d, "not found")) << d->message;
    EXPECT_EQ(d->where.line, 2);
  }
}

TEST(FileSize, LimitFromLoadOptionsIsEnforcedForEveryFile) {
  Scratch scratch;
  const std::string padded = kModel + std::string(4000, ' ');
  const std::string model = scratch.write("big.sdf", padded);
  LoadOptions options;
  options.maxFileBytes = 1000;
  EXPECT_TRUE(loadReports(model, options, ErrorCode::FILE_READ, "maxFileBytes"));

  const LoadResult included = hostileLoader().loadFile(scratch.write("world.sdf", includeOf("big.sdf")), options);
  const Diagnostic* d = findCode(included.diagnostics, ErrorCode::FILE_READ);
  ASSERT_NE(d, nullptr) << dump(included.diagnostics);
  EXPECT_EQ(d->where.line, 3);

  options.maxFileBytes = 1 << 20;  // the same files within the limit load
  EXPECT_TRUE(hostileLoader().loadFile(model, options).ok());
}

TEST(Encoding, Utf16AndUtf32AreNamedNotCalledBinary) {
  Scratch scratch;
  auto widen = [](const std::string& ascii, int width, bool little) {
    std::string out;
    for (char c : ascii) {
      std::string unit(static_cast<std::size_t>(width), '\0');
      unit[little ? 0 : static_cast<std::size_t>(width - 1)] = c;
      out += unit;
    }
    return out;
  };
  const struct {
    std::string name, bytes, expected;
  } cases[] = {
      {"le16.sdf", std::string("\xFF\xFE", 2) + widen(kModel, 2, true), "UTF-16LE"},
      {"be16.sdf", std::string("\xFE\xFF", 2) + widen(kModel, 2, false), "UTF-16BE"},
      {"le32.sdf", std::string("\xFF\xFE\0\0", 4) + widen(kModel, 4, true), "UTF-32LE"},
      {"nobom16.urdf", widen("<robot name=\"r\"><link name=\"a\"/></robot>", 2, true), "UTF-16LE"},
  };
  for (const auto& c : cases) {
    const LoadResult result = hostileLoader().loadFile(scratch.write(c.name, c.bytes));
    const Diagnostic* d = findCode(result.diagnostics, ErrorCode::FILE_ENCODING);
    ASSERT_NE(d, nullptr) << c.name << "\n" << dump(result.diagnostics);
    EXPECT_TRUE(mentions(d, c.expected)) << d->message;
    EXPECT_TRUE(mentions(d, "convert it to UTF-8")) << d->message;
    EXPECT_FALSE(result.diagnostics.contains(ErrorCode::FILE_BINARY)) << dump(result.diagnostics);
  }
}

TEST(Encoding, InvalidUtf8IsLocatedAndNeverEchoed) {
  Scratch scratch;
  const std::string text = "<sdf version=\"1.9\">\n  <model name=\"m\">\n    <link name=\"caf\xC3\xA9-\xFF\x80x\"/>\n"
                           "    <link name=\"ok\"/><link name=\"\xE2\x82\"/>\n  </model>\n</sdf>\n";
  const LoadResult result = hostileLoader().loadFile(scratch.write("bad.sdf", text));
  std::vector<const Diagnostic*> found;
  for (const auto& d : result.diagnostics) {
    if (d.code == ErrorCode::FILE_ENCODING) found.push_back(&d);
  }
  ASSERT_EQ(found.size(), 2u) << dump(result.diagnostics);
  EXPECT_EQ(found[0]->where.line, 3);
  EXPECT_EQ(found[0]->where.column, 22);  // after 21 characters: 4 spaces, <link name=" and café-
  EXPECT_TRUE(mentions(found[0], "\\xFF\\x80")) << found[0]->message;
  EXPECT_TRUE(mentions(found[1], "\\xE2\\x82")) << found[1]->message;
  EXPECT_EQ(found[1]->where.line, 4);
  const std::string all = dump(result.diagnostics);
  EXPECT_TRUE(std::none_of(all.begin(), all.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; }))
      << "raw bytes echoed: " << all;
}

TEST(Encoding, DeclaredLatin1IsLeftToTheXmlReader) {
  Scratch scratch;
  const std::string text = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<sdf version=\"1.9\">\n"
                           "  <model name=\"caf\xE9\"><link name=\"l\"/></model>\n</sdf>\n";
  const LoadResult result = hostileLoader().loadFile(scratch.write("latin1.sdf", text));
  EXPECT_TRUE(result.ok()) << dump(result.diagnostics);
  ASSERT_TRUE(result.document.model.has_value());
  EXPECT_EQ(result.document.model->name, "caf\xC3\xA9");
}

TEST(Encoding, NulByteAnywhereIsFoundNotTruncated) {
  Scratch scratch;
  // 70 000 bytes of comment first: the NUL is past the first 64 KiB, on line 5.
  const std::string text = "<sdf version=\"1.9\">\n<!--\n" + std::string(70000, 'x') + "\n-->\n  <model name=\"m\">" +
                           std::string(1, '\0') + "<link name=\"l\"/></model>\n</sdf>\n";
  const LoadResult result = hostileLoader().loadFile(scratch.write("nul.sdf", text));
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::FILE_BINARY);
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(d->where.line, 5);
  EXPECT_EQ(d->where.column, 19);
  EXPECT_FALSE(result.ok());
}

TEST(PathPolicy, ConfinedIncludesMayNotLeaveTheModelTree) {
  Scratch scratch;
  scratch.write("elsewhere/thing/model.sdf", kModel);
  const std::string world = scratch.write("project/world.sdf", includeOf("../elsewhere/thing/model.sdf"));
  LoadResult result = hostileLoader().loadFile(world, confined());
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS);
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(d->where.line, 3);
  EXPECT_TRUE(mentions(d, "outside the directories this load is confined to")) << d->message;
  EXPECT_TRUE(mentions(d, "LoadOptions::confineToRoots")) << d->message;
  // Short: the file, the roots, the option (the scratch directory's long name aside).
  std::string words = d->message;
  const std::string dir = scratch.dir().string();
  for (std::size_t at = words.find(dir); at != std::string::npos; at = words.find(dir)) words.erase(at, dir.size());
  EXPECT_LT(words.size(), 200u) << d->message;

  // An absolute path out of the tree: the same refusal.
  result = hostileLoader().loadFile(scratch.write("project/abs.sdf", includeOf(scratch.path("elsewhere/thing/model.sdf"))),
                                    confined());
  EXPECT_TRUE(result.diagnostics.contains(ErrorCode::PATH_OUTSIDE_ROOTS)) << dump(result.diagnostics);

  // A resource path makes the other tree allowed; so does leaving the load unconfined.
  LoadOptions withResources = confined();
  withResources.resourcePaths = {scratch.path("elsewhere")};
  result = hostileLoader().loadFile(scratch.write("project/byuri.sdf", includeOf("model://thing/model.sdf")), withResources);
  EXPECT_TRUE(result.ok()) << dump(result.diagnostics);
  result = hostileLoader().loadFile(world);
  EXPECT_TRUE(result.ok()) << dump(result.diagnostics);
}

TEST(PathPolicy, DefaultOptionsFollowPathsAndConfineIsAChoice) {
  // Issue 26: relative and absolute paths are followed by default, as every format's reference
  // tool follows them; --confine (LoadOptions::confineToRoots) is for hosts of untrusted files.
  Scratch scratch;
  scratch.write("elsewhere/thing/model.sdf", kModel);
  const std::string world = scratch.write("project/world.sdf", includeOf("../elsewhere/thing/model.sdf"));
  const LoadResult result = hostileLoader().loadFile(world);  // LoadOptions{}
  EXPECT_TRUE(result.ok()) << dump(result.diagnostics);
  EXPECT_FALSE(result.diagnostics.contains(ErrorCode::PATH_OUTSIDE_ROOTS)) << dump(result.diagnostics);

  // The CLI: followed by default; --confine refuses (exit 1), a resource path allows it again.
  CommandResult cli = checkWithCli(world);
  EXPECT_EQ(cli.exitCode, 0) << cli.output;
  cli = boundedCli("check --confine '" + world + "'");
  EXPECT_EQ(cli.exitCode, 1) << cli.output;
  EXPECT_NE(cli.output.find("PATH_OUTSIDE_ROOTS"), std::string::npos) << cli.output;
  cli = boundedCli("check --confine -I '" + scratch.path("elsewhere") + "' '" + world + "'");
  EXPECT_EQ(cli.exitCode, 0) << cli.output;
}

TEST(PathPolicy, HrdfIncludeCannotReachEtcPasswd) {
  Scratch scratch;
  const std::string top = scratch.write(
      "robot.hrdf", "<robot version=\"1.6.0\">\n  <include path=\"../../../../../../../../../../etc/passwd\"/>\n</robot>\n");
  const LoadResult result = hostileLoader().loadFile(top, confined());
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS);
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(d->where.line, 2);
  EXPECT_TRUE(mentions(d, "/etc/passwd")) << d->message;
  EXPECT_FALSE(result.diagnostics.contains(ErrorCode::XML_SYNTAX)) << "the file was read: " << dump(result.diagnostics);
}

TEST(PathPolicy, ShiftMeshOutsideTheTreeIsNotOpened) {
  Scratch scratch;
  const std::string model = scratch.write("model/robot.json", R"({"model_parameters": {"version": "0.2",
    "include_directories": ["/"]},
  "assemblies": [{"name": "arm", "bodies": [
    {"name": "b", "mass": 1.0, "geometry": {"type": "mesh", "filename": "etc/passwd"}}
  ]}]})");
  const LoadResult result = hostileLoader().loadFile(model, confined());
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS);
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(d->where.line, 4);
  EXPECT_TRUE(mentions(d, "/etc/passwd")) << d->message;
}

TEST(ShiftDiagnostics, NullMassIsLocated) {
  Scratch scratch;
  const std::string model = scratch.write("null.json", R"({"model_parameters": {"version": "0.2"},
  "assemblies": [{"name": "arm", "bodies": [
    {"name": "b",
     "mass": null}
  ]}]})");
  const LoadResult result = hostileLoader().loadFile(model);
  const Diagnostic* d = nullptr;
  for (const auto& item : result.diagnostics) {
    if (item.message.find("mass") != std::string::npos) d = &item;
  }
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(d->where.line, 4) << d->format();
  EXPECT_EQ(d->where.column, 6) << d->format();
}

}  // namespace
}  // namespace interlink::test
