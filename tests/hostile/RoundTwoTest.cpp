// The second round of hostile inputs besides meshes (issue 29): stacks (MJCF includes splicing
// deep trees, the MJCF writer on a long chain), quadratic SKEL joints, poses that overflow, mimic
// cycles, and output lost on a full device. Those that once crashed or took seconds run through
// the CLI in a bounded process.
#include <fstream>

#include "HostileInputs.hpp"
#include "HostileRoundTwoInputs.hpp"
#include "HostileSupport.hpp"

namespace interlink::test {
namespace {

std::string writeAll(const Scratch& scratch, const hostile::RoundTwoFileSet& files) {
  for (const auto& [name, text] : files) scratch.write(name, text);
  return scratch.path(files.front().first);
}

TEST(Stack, MjcfIncludesSplicingDeepTreesAreBoundedAcrossFiles) {
  Scratch scratch;
  const std::string model = writeAll(scratch, hostile::mjcfDeepIncludes(10, 500));
  const CommandResult result = boundedCli("check '" + model + "'", 20);
  EXPECT_EQ(result.exitCode, 1) << "crashed or hung: " << result.output;
  EXPECT_NE(result.output.find("INCLUDE_DEPTH"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("f1.xml:2:"), std::string::npos) << "not located at the <include>" << result.output;
}

TEST(Stack, MjcfIncludesWithinTheDepthStillLoad) {
  Scratch scratch;
  const LoadResult result = hostileLoader().loadFile(writeAll(scratch, hostile::mjcfDeepIncludes(3, 50)));
  EXPECT_TRUE(result.ok()) << dump(result.diagnostics);
  EXPECT_GE(result.graph.frames().size(), 150u);
}

TEST(Stack, MjcfWriterOnALongChainDoesNotRecurse) {
  Scratch scratch;
  const std::string chain = scratch.write("chain.urdf", hostile::urdfChain(10000));
  const std::string out = scratch.path("chain.mjcf");
  const CommandResult result = boundedCli("convert '" + chain + "' -o '" + out + "'", 20 * kSanitizerSlowdown);
  // The writer nests 10 000 bodies without recursing; the read-back of every written file (issue
  // 28) then refuses XML nested deeper than the reader's 512 levels, and nothing is left behind.
  ASSERT_EQ(result.exitCode, 1) << "crashed or hung: " << result.output;
  EXPECT_NE(result.output.find("deeper than 512"), std::string::npos) << result.output;
  EXPECT_FALSE(std::ifstream(out).good()) << "a file that does not read back was left at " << out;
}

TEST(LinearTime, SkelJointChainIsLinear) {
  Scratch scratch;
  const CommandResult result =
      boundedCli("check '" + scratch.write("chain.skel", hostile::skelJointChain(30000)) + "' >/dev/null", 2 * kSanitizerSlowdown);
  EXPECT_EQ(result.exitCode, 0) << result.output;
}

TEST(Arithmetic, OverflowingOffsetsAreAnErrorAtTheJoint) {
  Scratch scratch;
  const std::string file = scratch.write("overflow.urdf", hostile::urdfOverflowingOffsets());
  const LoadResult result = hostileLoader().loadFile(file);
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::VALUE_INVALID);
  ASSERT_NE(d, nullptr) << "two offsets of 1.5e308 passed: " << dump(result.diagnostics);
  EXPECT_TRUE(mentions(d, "not finite")) << d->message;
  EXPECT_EQ(d->where.line, 6) << d->format();  // the second joint, where the sum overflows
  std::size_t count = 0;
  for (const Diagnostic& each : result.diagnostics) count += each.code == ErrorCode::VALUE_INVALID;
  EXPECT_EQ(count, 1u) << "reported again below the cause: " << dump(result.diagnostics);
  const CommandResult frames = boundedCli("frames '" + file + "'");
  EXPECT_NE(frames.exitCode, 0) << frames.output;
  EXPECT_EQ(frames.output.find("nan"), std::string::npos) << frames.output;
}

TEST(Mimic, SelfReferenceAndCyclesAreRefused) {
  Scratch scratch;
  const LoadResult self = hostileLoader().loadFile(scratch.write("self.urdf", hostile::urdfMimicCycle(1)));
  const Diagnostic* d = findCode(self.diagnostics, ErrorCode::JOINT_AXIS_MIMIC_INVALID);
  ASSERT_NE(d, nullptr) << dump(self.diagnostics);
  EXPECT_TRUE(mentions(d, "mimics itself")) << d->message;

  const LoadResult cycle = hostileLoader().loadFile(scratch.write("cycle.urdf", hostile::urdfMimicCycle(3)));
  d = findCode(cycle.diagnostics, ErrorCode::JOINT_AXIS_MIMIC_INVALID);
  ASSERT_NE(d, nullptr) << dump(cycle.diagnostics);
  EXPECT_TRUE(mentions(d, "cycle of 3")) << d->message;
}

TEST(Mimic, SdformatSelfReferenceAndCyclesAreRefused) {
  Scratch scratch;
  auto model = [](const char* firstLeader, const char* secondLeader) {
    auto joint = [](const std::string& name, const std::string& parent, const std::string& child, const char* leader) {
      return "<joint name='" + name + "' type='revolute'><parent>" + parent + "</parent><child>" + child +
             "</child><axis><xyz>0 0 1</xyz><mimic joint='" + leader +
             "' axis='axis'><multiplier>1</multiplier><offset>0</offset><reference>0</reference></mimic></axis></joint>";
    };
    return "<sdf version='1.11'><model name='m'><link name='a'/><link name='b'/><link name='c'/>" +
           joint("j1", "a", "b", firstLeader) + joint("j2", "b", "c", secondLeader) + "</model></sdf>\n";
  };
  const LoadResult self = hostileLoader().loadFile(scratch.write("self.sdf", model("j1", "j1")));
  const Diagnostic* d = findCode(self.diagnostics, ErrorCode::JOINT_AXIS_MIMIC_INVALID);
  ASSERT_NE(d, nullptr) << dump(self.diagnostics);
  EXPECT_TRUE(mentions(d, "mimics itself")) << d->message;
  const LoadResult cycle = hostileLoader().loadFile(scratch.write("cycle.sdf", model("j2", "j1")));
  d = findCode(cycle.diagnostics, ErrorCode::JOINT_AXIS_MIMIC_INVALID);
  ASSERT_NE(d, nullptr) << dump(cycle.diagnostics);
  EXPECT_TRUE(mentions(d, "cycle of 2")) << d->message;
}

TEST(Mimic, LongCycleIsFoundInLinearTime) {
  Scratch scratch;
  const CommandResult result =
      boundedCli("check '" + scratch.write("cycle.urdf", hostile::urdfMimicCycle(20000)) + "'", 2 * kSanitizerSlowdown);
  EXPECT_EQ(result.exitCode, 1) << result.output.substr(0, 2000);
  EXPECT_NE(result.output.find("cycle of 20000"), std::string::npos) << result.output.substr(0, 2000);
}

// MJCF's mimic is <equality><joint joint1 joint2>: joint1 follows joint2. A joint coupled to
// itself is refused (as MuJoCo refuses it); a cycle MuJoCo loads as soft constraints, so it is a
// DEVIATION_TOLERATED warning naming the cycle, refused under --strict.
TEST(Mimic, MjcfEqualityCouplingsToItselfAndInCyclesAreReported) {
  Scratch scratch;
  const LoadResult self = hostileLoader().loadFile(scratch.write("self.xml", hostile::mjcfEqualityCycle(1)));
  const Diagnostic* d = findCode(self.diagnostics, ErrorCode::JOINT_AXIS_MIMIC_INVALID);
  ASSERT_NE(d, nullptr) << dump(self.diagnostics);
  EXPECT_TRUE(d->isError());
  EXPECT_TRUE(mentions(d, "to itself")) << d->message;
  EXPECT_EQ(d->where.line, 6) << d->format();

  const std::string two = scratch.write("two.xml", hostile::mjcfEqualityCycle(2));
  const LoadResult cycle = hostileLoader().loadFile(two);
  d = findCode(cycle.diagnostics, ErrorCode::DEVIATION_TOLERATED);
  ASSERT_NE(d, nullptr) << dump(cycle.diagnostics);
  EXPECT_TRUE(mentions(d, "cycle of 2 joints (j1 -> j2 -> j1)")) << d->message;
  EXPECT_GT(d->where.line, 0) << d->format();
  EXPECT_TRUE(cycle.ok()) << dump(cycle.diagnostics);
  LoadOptions strict;
  strict.strict = true;
  EXPECT_FALSE(hostileLoader().loadFile(two, strict).ok());
}

TEST(Mimic, LongMjcfEqualityCycleIsFoundInLinearTime) {
  Scratch scratch;
  const std::string file = scratch.write("cycle.xml", hostile::mjcfEqualityCycle(20000, 10));
  const CommandResult result = boundedCli("check --strict '" + file + "'", 2 * kSanitizerSlowdown);
  EXPECT_EQ(result.exitCode, 1) << result.output.substr(0, 2000);
  EXPECT_NE(result.output.find("cycle of 20000 joints (... -> "), std::string::npos) << result.output.substr(0, 2000);
}

TEST(LostOutput, WriteErrorsAreIoErrors) {
  Scratch scratch;
  const std::string model = scratch.write("chain.urdf", hostile::urdfChain(200));
  for (const char* command : {"check", "frames", "tree"}) {
    const CommandResult result = boundedCli(std::string(command) + " '" + model + "' >/dev/full");
    EXPECT_EQ(result.exitCode, 2) << command << ": " << result.output;
    EXPECT_NE(result.output.find("cannot write"), std::string::npos) << command << ": " << result.output;
  }
  const CommandResult json = boundedCli("check --format json '" + model + "' >/dev/full");
  EXPECT_EQ(json.exitCode, 2) << json.output;
}

}  // namespace
}  // namespace interlink::test
