// Inputs that once took time quadratic in their size (issue 14). Each runs through the CLI, in
// its own process, with a generous time bound: before the fix every one took from 5 s to minutes;
// now each takes well under a second (bench/hostile measures the growth: bench_hostile).
#include "HostileInputs.hpp"
#include "HostileSupport.hpp"
#include "interlink/UniqueNames.hpp"

namespace interlink::test {
namespace {

/// `interlink check` on `file` in its own process, stopped by `timeout` after 20 s (exit code 124).
CommandResult timedCheck(const std::string& file) { return run("timeout 20 " + cliPath() + " check '" + file + "' >/dev/null"); }

TEST(LinearTime, LongUrdfChain) {
  Scratch scratch;
  const CommandResult result = timedCheck(scratch.write("chain.urdf", hostile::urdfChain(20000)));
  EXPECT_EQ(result.exitCode, 0) << "exit code 124: stopped after 20 s\n" << result.output;
}

TEST(LinearTime, MinifiedShiftFile) {
  Scratch scratch;
  const std::string text = hostile::shiftMinified(9000);
  ASSERT_GT(text.size(), 1000000u);
  const CommandResult result = timedCheck(scratch.write("minified.json", text));
  EXPECT_NE(result.exitCode, 124) << "stopped after 20 s";
  EXPECT_NE(result.exitCode, -1);
}

TEST(LinearTime, DuplicateNamesInSkelJuiceAndShift) {
  Scratch scratch;
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"dup.skel", hostile::skelDuplicateSkeletons(20000)},
                                   {"dup.jm", hostile::juiceDuplicateBodies(32000)},
                                   {"dup.json", hostile::shiftDuplicateJoints(8000)}}) {
    const CommandResult result = timedCheck(scratch.write(name, text));
    EXPECT_NE(result.exitCode, 124) << name << " stopped after 20 s";
    EXPECT_NE(result.exitCode, -1) << name;
  }
}

TEST(LinearTime, ManyAttributesAreRefusedBeforeParsing) {
  Scratch scratch;
  const std::string file = scratch.write("attributes.sdf", hostile::xmlManyAttributes(200000));
  const CommandResult timed = timedCheck(file);
  EXPECT_EQ(timed.exitCode, 1) << "exit code 124: stopped after 20 s";
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

}  // namespace
}  // namespace interlink::test
