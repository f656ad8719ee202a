// Inputs that once took time quadratic in their size (issue 14). Each runs through the CLI, in
// its own process, with a generous time bound: before the fix every one took from 5 s to minutes;
// now each takes well under a second (bench/hostile measures the growth: bench_hostile).
#include "HostileInputs.hpp"
#include "HostileSupport.hpp"
#include "interlink/UniqueNames.hpp"

namespace interlink::test {
namespace {

/// `interlink check` on `file` in its own process, stopped after 20 s of CPU time (kStoppedByBound).
CommandResult timedCheck(const std::string& file) { return boundedCli("check '" + file + "' >/dev/null"); }

TEST(LinearTime, LongUrdfChain) {
  Scratch scratch;
  const CommandResult result = timedCheck(scratch.write("chain.urdf", hostile::urdfChain(20000)));
  EXPECT_EQ(result.exitCode, 0) << result.output;
}

TEST(LinearTime, MinifiedShiftFile) {
  Scratch scratch;
  const std::string text = hostile::shiftMinified(9000);
  ASSERT_GT(text.size(), 1000000u);
  const CommandResult result = timedCheck(scratch.write("minified.json", text));
  EXPECT_NE(result.exitCode, kStoppedByBound) << result.output;
  EXPECT_NE(result.exitCode, -1);
}

TEST(LinearTime, DuplicateNamesInSkelJuiceAndShift) {
  Scratch scratch;
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"dup.skel", hostile::skelDuplicateSkeletons(20000)},
                                   {"dup.jm", hostile::juiceDuplicateBodies(32000)},
                                   {"dup.json", hostile::shiftDuplicateJoints(8000)}}) {
    const CommandResult result = timedCheck(scratch.write(name, text));
    EXPECT_NE(result.exitCode, kStoppedByBound) << name << result.output;
    EXPECT_NE(result.exitCode, -1) << name;
  }
}

TEST(LinearTime, BigYamlMappingInXacroAndItsLookUps) {
  // 150 000 keys (2 MB of YAML) and 5 000 look-ups: each key was searched linearly among those
  // before it, which took minutes.
  Scratch scratch;
  std::string yaml;
  for (int i = 0; i < 150000; ++i) yaml += "k" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  scratch.write("big.yaml", yaml);
  std::string xacro = "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
                      "  <xacro:property name=\"d\" value=\"${xacro.load_yaml('big.yaml')}\"/>\n";
  for (int i = 0; i < 5000; ++i) {
    xacro += "  <xacro:property name=\"p" + std::to_string(i) + "\" value=\"${d['k" + std::to_string(i * 29) + "']}\"/>\n";
  }
  xacro += "  <link name=\"l${p4999 + d['k149999']}\"/>\n</robot>\n";
  const CommandResult result = timedCheck(scratch.write("big.urdf.xacro", xacro));
  EXPECT_EQ(result.exitCode, 0) << result.output;
}

TEST(LinearTime, XacroMacroOfManyBlockParameters) {
  // 100 000 block parameters (1.7 MB): each bound one was erased from the front of the call's
  // list of parameters, which took 22 s.
  Scratch scratch;
  std::string params;
  std::string blocks;
  for (int i = 0; i < 100000; ++i) {
    params += " *b" + std::to_string(i);
    blocks += "<x" + std::to_string(i) + "/>";
  }
  const std::string xacro = "<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
                            "  <xacro:macro name=\"m\" params=\"" + params + "\"><link name=\"l\"><xacro:insert_block name=\"b99999\"/></link></xacro:macro>\n"
                            "  <xacro:m>" + blocks + "</xacro:m>\n</robot>\n";
  const CommandResult result = timedCheck(scratch.write("blocks.urdf.xacro", xacro));
  EXPECT_EQ(result.exitCode, 0) << result.output;
}

TEST(LinearTime, ManyAttributesAreRefusedBeforeParsing) {
  Scratch scratch;
  const std::string file = scratch.write("attributes.sdf", hostile::xmlManyAttributes(200000));
  const CommandResult timed = timedCheck(file);
  EXPECT_EQ(timed.exitCode, 1) << timed.output;
  const LoadResult result = hostileLoader().loadFile(file);
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::XML_SYNTAX);
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_TRUE(mentions(d, "attributes")) << d->message;
  EXPECT_EQ(d->where.line, 1);
  EXPECT_EQ(d->where.column, 1);
}

TEST(UniqueNames, RepeatsGetTheSameNamesAsProbingFromOne) {
  UniqueNames names("(", ")", 1);
  EXPECT_EQ(names.unique("s"), "s");
  EXPECT_EQ(names.unique("s"), "s(1)");
  names.add("s(2)");  // taken by a name written that way
  EXPECT_EQ(names.unique("s"), "s(3)");
  EXPECT_EQ(names.unique("s(1)"), "s(1)(1)");
  EXPECT_EQ(names.unique("t"), "t");
}

// The bounds the tests above rely on: each stops what it must and nothing else.
TEST(BoundedRun, ComputationIsStoppedAtItsCpuBound) {
  const CommandResult result = runBounded("while :; do :; done", 1);
  EXPECT_EQ(result.exitCode, kStoppedByBound);
  EXPECT_NE(result.output.find("1 s of CPU time"), std::string::npos) << result.output;
}

TEST(BoundedRun, BlockedProcessIsStoppedAtItsWallBound) {
  const CommandResult result = runBounded("echo started; sleep 600", 20, 1);
  EXPECT_EQ(result.exitCode, kStoppedByBound);
  EXPECT_NE(result.output.find("started\n"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("wall time: blocked"), std::string::npos) << result.output;
}

TEST(BoundedRun, AWaitThatUsesNoCpuIsNotStoppedByTheCpuBound) {
  const CommandResult result = runBounded("sleep 2; echo done; exit 3", 1);
  EXPECT_EQ(result.exitCode, 3) << result.output;
  EXPECT_EQ(result.output, "done\n");
}

TEST(BoundedRun, ACrashIsNotTakenForABound) {
  EXPECT_EQ(runBounded("kill -SEGV $$", 20).exitCode, -1);
}

TEST(BoundedRun, AKillFromOutsideIsNotTakenForTheCpuBound) {
  // SIGKILL also ends a process at its hard CPU limit; one that came with CPU time to spare did not.
  EXPECT_EQ(runBounded("kill -KILL $$", 20).exitCode, -1);
}

}  // namespace
}  // namespace interlink::test
