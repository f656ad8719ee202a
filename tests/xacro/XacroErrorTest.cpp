// xacro's errors, located in the xacro file with the macro/include chain as notes; the URDF
// plugin's findings mapped back through the expansion; hostile input bounded; the CLI.
#include <gtest/gtest.h>

#include <chrono>

#include "XacroSupport.hpp"

namespace interlink::test {
namespace {

/// The first error, and the notes that follow it.
struct Reported {
  Diagnostic error;
  std::vector<Diagnostic> notes;
};

Reported firstError(const Diagnostics& diagnostics) {
  Reported out;
  bool found = false;
  for (const Diagnostic& d : diagnostics) {
    if (!found && d.isError()) {
      out.error = d;
      found = true;
    } else if (found && d.severity == Severity::Note) {
      out.notes.push_back(d);
    } else if (found) {
      break;
    }
  }
  EXPECT_TRUE(found) << dump(diagnostics);
  return out;
}

TEST(XacroErrors, EvaluatedCommentIsLocatedAtTheComment) {
  // After <!-- xacro:eval-comments --> a comment is an expression text like any other: ROS's xacro
  // stops at an undefined name in it; a comment not evaluated may hold anything.
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot("  <!-- ${free} -->\n  <!-- xacro:eval-comments -->\n  <!-- ${missing} -->"));
  ASSERT_FALSE(r.ok());
  const Reported e = firstError(r.diagnostics);
  EXPECT_EQ(e.error.code, ErrorCode::EXPANSION_ERROR);
  EXPECT_NE(e.error.message.find("name 'missing' is not defined"), std::string::npos) << e.error.message;
  EXPECT_EQ(e.error.where.line, 6);
  EXPECT_EQ(e.error.where.column, 3);

  // An evaluated comment that XML cannot hold is refused, not written broken.
  const LoadResult dashes = loadXacro(scratch, robot("  <!-- xacro:eval-comments -->\n  <!-- ${'a' + '-' * 2} -->"));
  ASSERT_FALSE(dashes.ok());
  EXPECT_TRUE(hasMessage(dashes.diagnostics, "'--' is not allowed in a comment")) << dump(dashes.diagnostics);
}

TEST(XacroErrors, UndefinedPropertyIsLocatedAtTheAttribute) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot("  <link name=\"a\">\n    <visual><geometry><box size=\"${missing} 1 1\"/></geometry></visual></link>"));
  ASSERT_FALSE(r.ok());
  const Reported e = firstError(r.diagnostics);
  EXPECT_EQ(e.error.code, ErrorCode::EXPANSION_ERROR);
  EXPECT_NE(e.error.message.find("name 'missing' is not defined"), std::string::npos) << e.error.message;
  EXPECT_NE(e.error.message.find("when evaluating expression 'missing'"), std::string::npos);
  EXPECT_EQ(e.error.where.line, 5);
  EXPECT_GT(e.error.where.column, 20);
  EXPECT_NE(e.error.where.file.str().find("robot.urdf.xacro"), std::string::npos);
}

TEST(XacroErrors, ErrorInsideAMacroOfAnIncludedFileCarriesTheChain) {
  Scratch scratch;
  scratch.write("arm.xacro", "<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n"
                             "  <xacro:macro name=\"arm\" params=\"n\">\n"
                             "    <link name=\"${n}_${undefined_thing}\"/>\n"
                             "  </xacro:macro>\n</robot>\n");
  const LoadResult r = loadXacro(scratch, robot("  <xacro:include filename=\"arm.xacro\"/>\n  <xacro:macro name=\"outer\">\n"
                                                "    <xacro:arm n=\"x\"/>\n  </xacro:macro>\n  <xacro:outer/>"));
  ASSERT_FALSE(r.ok());
  const Reported e = firstError(r.diagnostics);
  EXPECT_NE(e.error.where.file.str().find("arm.xacro"), std::string::npos) << dump(r.diagnostics);
  EXPECT_EQ(e.error.where.line, 3);
  ASSERT_EQ(e.notes.size(), 2u) << dump(r.diagnostics);
  EXPECT_EQ(e.notes[0].message, "in expansion of macro 'arm'");
  EXPECT_EQ(e.notes[0].where.line, 6);
  EXPECT_EQ(e.notes[1].message, "in expansion of macro 'outer'");
  EXPECT_EQ(e.notes[1].where.line, 8);
}

TEST(XacroErrors, UrdfFindingsInsideAMacroMapBackWithTheChain) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot("  <xacro:macro name=\"bad_joint\" params=\"name\">\n"
                                                "    <joint name=\"${name}\" type=\"revolute\"><parent link=\"base\"/><child link=\"nowhere\"/>\n"
                                                "      <axis xyz=\"0 0 1\"/><limit lower=\"0\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n"
                                                "  </xacro:macro>\n  <xacro:bad_joint name=\"j\"/>"));
  ASSERT_FALSE(r.ok());
  const Reported e = firstError(r.diagnostics);
  EXPECT_NE(e.error.code, ErrorCode::EXPANSION_ERROR) << dump(r.diagnostics);  // the URDF plugin's or the graph's
  EXPECT_NE(e.error.where.file.str().find("robot.urdf.xacro"), std::string::npos) << dump(r.diagnostics);
  EXPECT_GE(e.error.where.line, 5);
  EXPECT_LE(e.error.where.line, 6);
}

TEST(XacroErrors, MissingParameterUnknownMacroAndBadBlocks) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:macro name="m" params="a b *blk"><link name="${a}${b}"/></xacro:macro>
  <xacro:m a="1"><origin/></xacro:m>
  <xacro:m a="1" b="2" c="3"><origin/></xacro:m>
  <xacro:m a="1" b="2"/>
  <xacro:nothere/>)xml"));
  EXPECT_TRUE(hasMessage(r.diagnostics, "Undefined parameters [b]")) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "Invalid parameter \"c\"")) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "Not enough blocks")) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "unknown macro name: xacro:nothere")) << dump(r.diagnostics);
  EXPECT_EQ(r.diagnostics.errorCount(), 4u) << dump(r.diagnostics);  // every error, not the first
}

TEST(XacroErrors, IncludeNotFoundBadExpressionBadConditionUndefinedArgument) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:include filename="no/such/file.xacro"/>
  <link name="${1 +}"/>
  <xacro:if value="maybe"><link name="x"/></xacro:if>
  <link name="$(arg not_given)"/>
  <xacro:include filename="optional_missing.xacro" optional="true"/>)xml"));
  EXPECT_TRUE(hasMessage(r.diagnostics, "file.xacro")) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "invalid syntax")) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "which is not a boolean expression")) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "Undefined substitution argument not_given")) << dump(r.diagnostics);
  EXPECT_FALSE(hasMessage(r.diagnostics, "optional_missing")) << dump(r.diagnostics);
  // One error for the missing file: the include service's, which says where it searched.
  EXPECT_EQ(r.diagnostics.errorCount(), 4u) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "searched: ")) << dump(r.diagnostics);
}

TEST(XacroErrors, AMissingIncludeOrYamlFileIsOneErrorWithTheMacroChain) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:macro name="parts"><xacro:include filename="no/such/part.xacro"/></xacro:macro>
  <xacro:parts/>
  <link name="${xacro.load_yaml('no_such.yaml')['name']}"/>
  <link name="${xacro.load_yaml('no_such.yaml')['other']}"/>)xml"));
  ASSERT_FALSE(r.ok());
  // The second load of the same missing file says nothing new: once per expansion (UR's
  // descriptions load one YAML file for every property that reads it).
  EXPECT_EQ(r.diagnostics.errorCount(), 2u) << dump(r.diagnostics);
  std::size_t lookups = 0, notes = 0;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.severity == Severity::Error) {
      EXPECT_EQ(d.code, ErrorCode::URI_LOOKUP) << d.message;
      ++lookups;
    }
    if (d.severity == Severity::Note && d.message.find("in expansion of macro 'parts'") != std::string::npos) {
      EXPECT_EQ(d.code, ErrorCode::URI_LOOKUP);
      EXPECT_EQ(d.where.line, 6);  // the call
      ++notes;
    }
  }
  EXPECT_EQ(lookups, 2u);
  EXPECT_EQ(notes, 1u) << dump(r.diagnostics);
  EXPECT_FALSE(hasMessage(r.diagnostics, "No such file or directory")) << dump(r.diagnostics);
}

TEST(XacroErrors, UsesOfAPropertyThatFailedAreNotReportedAgain) {
  // One cause, one error: properties computed from a missing YAML file, and a property whose
  // value fails at its first use, are follow-ons wherever they are used. An unrelated mistake after
  // them is still reported.
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="cfg" value="${xacro.load_yaml('missing.yaml')}" lazy_eval="false"/>
  <xacro:property name="a" value="${cfg['a']}"/>
  <xacro:property name="b" value="${cfg['b']}" scope="global"/>
  <xacro:property name="z" value="${1 / 0}"/>
  <link name="l_${a}"/><link name="m_${b}"/><link name="n_${a}_${b}"/>
  <link name="z1_${z}"/><link name="z2_${z}"/>
  <link name="${not_defined_anywhere}"/>)xml"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.errorCount(), 3u) << dump(r.diagnostics);
  EXPECT_TRUE(r.diagnostics.contains(ErrorCode::URI_LOOKUP)) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "division by zero")) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "name 'not_defined_anywhere' is not defined")) << dump(r.diagnostics);
  EXPECT_FALSE(hasMessage(r.diagnostics, "name 'cfg'")) << dump(r.diagnostics);
}

TEST(XacroHostile, InfiniteRecursionIsStopped) {
  Scratch scratch;
  const auto start = std::chrono::steady_clock::now();
  const LoadResult r = loadXacro(scratch, robot(R"xml(<xacro:macro name="f" params="n"><xacro:f n="${n + 1}"/></xacro:macro><xacro:f n="0"/>)xml"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.diagnostics.contains(ErrorCode::EXPANSION_LIMIT)) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "nested more than 200")) << dump(r.diagnostics);
}

TEST(XacroHostile, SelfInsertingBlocksAndLongPropertyChainsAreStopped) {
  Scratch scratch;
  const LoadResult blocks = loadXacro(scratch, robot(R"xml(<xacro:property name="b"><xacro:insert_block name="b"/></xacro:property>
  <xacro:insert_block name="b"/>)xml"));
  ASSERT_FALSE(blocks.ok());
  EXPECT_TRUE(blocks.diagnostics.contains(ErrorCode::EXPANSION_LIMIT)) << dump(blocks.diagnostics);
  std::string chain = "<xacro:property name=\"p0\" value=\"0\"/>\n";
  for (int i = 1; i <= 5000; ++i) {
    chain += "<xacro:property name=\"p" + std::to_string(i) + "\" value=\"${p" + std::to_string(i - 1) + " + 1}\"/>\n";
  }
  chain += "<link name=\"l${p5000}\"/>";
  const LoadResult properties = loadXacro(scratch, robot(chain));
  ASSERT_FALSE(properties.ok());
  EXPECT_TRUE(hasMessage(properties.diagnostics, "properties defined through more than")) << dump(properties.diagnostics);
}

// Each attribute xacro:attribute sets is looked for by name among the element's: 60 000 of them
// took 10 s, for an expansion the XML reader then refused (over 4 096 attributes). The one past
// the reader's limit is refused where it is set.
TEST(XacroHostile, AttributesSetOnOneElementAreBoundedWhereTheyAreSet) {
  Scratch scratch;
  std::string attributes;
  for (int i = 0; i < 5000; ++i) {
    attributes += "<xacro:attribute name=\"a" + std::to_string(i) + "\" value=\"x\"/>\n";
  }
  const LoadResult r = loadXacro(scratch, robot("<link name=\"l\">\n" + attributes + "</link>"));
  ASSERT_FALSE(r.ok());
  const Reported limit = firstError(r.diagnostics);
  EXPECT_EQ(limit.error.code, ErrorCode::EXPANSION_LIMIT) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "more than 4096 attributes")) << dump(r.diagnostics);
  // robot() puts the body at line 4; `name` is the link's first attribute, so the 4 096th
  // xacro:attribute (line 5 + 4 095) makes the 4 097th.
  EXPECT_EQ(limit.error.where.line, 5 + 4095) << dump(r.diagnostics);
  // Setting one name again and again is no new attribute.
  std::string again;
  for (int i = 0; i < 5000; ++i) again += "<xacro:attribute name=\"a\" value=\"" + std::to_string(i) + "\"/>\n";
  const LoadResult same = loadXacro(scratch, robot("<link name=\"l\">\n" + again + "</link>"));
  EXPECT_FALSE(same.diagnostics.contains(ErrorCode::EXPANSION_LIMIT)) << dump(same.diagnostics);
}

TEST(XacroHostile, ExponentialMacroBombIsBounded) {
  Scratch scratch;
  std::string body;
  body += "<xacro:macro name=\"m0\"><link name=\"x\"/></xacro:macro>\n";
  for (int i = 1; i <= 40; ++i) {
    body += "<xacro:macro name=\"m" + std::to_string(i) + "\"><xacro:m" + std::to_string(i - 1) + "/><xacro:m" +
            std::to_string(i - 1) + "/></xacro:macro>\n";
  }
  body += "<xacro:m40/>";
  const auto start = std::chrono::steady_clock::now();
  const LoadResult r = loadXacro(scratch, robot(body));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.diagnostics.contains(ErrorCode::EXPANSION_LIMIT)) << dump(r.diagnostics);
  EXPECT_TRUE(hasMessage(r.diagnostics, "macro calls in one expansion")) << dump(r.diagnostics);
}

TEST(XacroHostile, SelfIncludeAndHugeValuesAreRefused) {
  Scratch scratch;
  const LoadResult cycle = loadXacro(scratch, robot("<xacro:include filename=\"robot.urdf.xacro\"/>"));
  ASSERT_FALSE(cycle.ok());
  EXPECT_TRUE(cycle.diagnostics.contains(ErrorCode::INCLUDE_CYCLE) || cycle.diagnostics.contains(ErrorCode::INCLUDE_DEPTH))
      << dump(cycle.diagnostics);
  const LoadResult huge = loadXacro(scratch, robot("<link name=\"${'a' * 10 ** 9}\"/>"));
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(hasMessage(huge.diagnostics, "too large")) << dump(huge.diagnostics);
}

// Each value is bounded (16 MB); what the expressions build or copy in all is bounded too
// (ExpansionLimits::maxValueBytes): before, three hundred 16 MB properties took 80 s and all
// memory, one such property used ten thousand times or one expression building such a string a
// thousand times as long. One EXPANSION_LIMIT error says so and the expansion stops.
TEST(XacroHostile, WhatExpressionsBuildInAllIsBounded) {
  Scratch scratch;
  std::string many;
  for (int i = 0; i < 300; ++i) {
    const std::string name = "p" + std::to_string(i);
    many += "<xacro:property name=\"" + name + "\" value=\"${'a' * 16000000 + '" + std::to_string(i) + "'}\"/>\n";
    many += "<xacro:if value=\"${len(" + name + ") > 5}\"></xacro:if>\n";
  }
  std::string reused = "<xacro:property name=\"big\" value=\"${'a' * 16000000}\"/>\n";
  for (int i = 0; i < 10000; ++i) reused += "<xacro:if value=\"${len(big) > 5}\"></xacro:if>\n";
  // Texts joined from pieces count too (each piece here is too small to count): 65 536 names of
  // nine 255-byte pieces (four per call of m0, 16 384 calls) spend the budget in the joins.
  std::string joined = "<xacro:property name=\"h\" value=\"${'h' * 255}\"/>\n"
                       "<xacro:macro name=\"m0\"><link name=\"${h}${h}${h}${h}${h}${h}${h}${h}${h}\"/>"
                       "<link name=\"${h}${h}${h}${h}${h}${h}${h}${h}${h}\"/><link name=\"${h}${h}${h}${h}${h}${h}${h}${h}${h}\"/>"
                       "<link name=\"${h}${h}${h}${h}${h}${h}${h}${h}${h}\"/></xacro:macro>\n";
  for (int i = 1; i <= 14; ++i) {
    joined += "<xacro:macro name=\"m" + std::to_string(i) + "\"><xacro:m" + std::to_string(i - 1) + "/><xacro:m" +
              std::to_string(i - 1) + "/></xacro:macro>\n";
  }
  joined += "<xacro:m14/>";
  std::string terms = "len('a' * 16000000)";
  for (int i = 0; i < 1000; ++i) terms += " + len('a' * 16000000)";
  const std::string oneExpression = "<link name=\"l${" + terms + "}\"/>";
  for (const std::string& body : {many, reused, oneExpression, joined}) {
    const auto start = std::chrono::steady_clock::now();
    const LoadResult r = loadXacro(scratch, robot(body));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.diagnostics.errorCount(), 1u) << dump(r.diagnostics);
    EXPECT_TRUE(r.diagnostics.contains(ErrorCode::EXPANSION_LIMIT)) << dump(r.diagnostics);
    EXPECT_TRUE(hasMessage(r.diagnostics, "MiB of strings and lists in all")) << dump(r.diagnostics);
  }
  // A description far below the bound is not affected: a 1 MB string used twenty times.
  std::string modest = "<xacro:property name=\"s\" value=\"${'b' * 1000000}\"/>\n";
  for (int i = 0; i < 20; ++i) modest += "<link name=\"l" + std::to_string(i) + "_${len(s)}\"/>\n";
  const LoadResult fine = loadXacro(scratch, robot(modest));
  EXPECT_FALSE(fine.diagnostics.contains(ErrorCode::EXPANSION_LIMIT)) << dump(fine.diagnostics);
  EXPECT_NE(fine.expandedText.find("<link name=\"l19_1000000\"/>"), std::string::npos);
}

// A word of `params` that is not `name:=default` is one parameter's name, as xacro reads it
// (its parse_macro_arg splits at white space): "b://c" took only "b", left "://c", where no name
// could start, and the loop never ended (fuzz_xacro's first finding).
TEST(XacroHostile, ParameterWordsThatAreNotNamesEndTheirParse) {
  Scratch scratch;
  const auto start = std::chrono::steady_clock::now();
  const LoadResult r = loadXacro(scratch, robot(R"xml(<xacro:macro name="m" params="a b://c d=:e :f">
    <link name="${a}${d}"/></xacro:macro>
  <xacro:m a="x"/>)xml"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(hasMessage(r.diagnostics, "Undefined parameters [b://c,:f]")) << dump(r.diagnostics);
  const LoadResult defaults = loadXacro(scratch, robot(R"xml(<xacro:macro name="m" params="a d=:e">
    <link name="${a}${d}"/></xacro:macro>
  <xacro:m a="x"/>)xml"));
  EXPECT_NE(defaults.expandedText.find("<link name=\"x:e\"/>"), std::string::npos) << dump(defaults.diagnostics);
}

TEST(XacroHostile, IncludeCountIsBounded) {
  // The same small file included again and again (no cycle): the loader's include count bounds it.
  Scratch scratch;
  scratch.write("part.xacro", R"xml(<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:property name="p" value="1"/></robot>)xml");
  std::string body;
  for (int i = 0; i < 60; ++i) body += "<xacro:include filename=\"part.xacro\"/>\n";
  LoadOptions options;
  options.maxIncludedModels = 50;
  const LoadResult r = loadXacro(scratch, robot(body), {}, "robot.urdf.xacro", options);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.diagnostics.contains(ErrorCode::INCLUDE_LIMIT)) << dump(r.diagnostics);
}

TEST(XacroCli, CheckDirectoryArgConvertAndFrames) {
  Scratch scratch;
  const std::string file = scratch.write("models/arm.urdf.xacro", robot(R"xml(
  <xacro:arg name="id" default="a"/>
  <link name="$(arg id)_tip"/>
  <joint name="j" type="revolute"><parent link="base"/><child link="$(arg id)_tip"/><origin xyz="0 0 1"/>
    <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>)xml"));
  scratch.write("models/broken.xacro", robot("<link name=\"${oops}\"/>"));
  const std::string library = scratch.write("models/lib.xacro", R"xml(<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="p" value="1"/><xacro:macro name="m"><link name="l"/></xacro:macro></robot>)xml");
  const std::string cli = cliPath();
  const CommandResult check = run(cli + " check " + scratch.path("models"));
  EXPECT_EQ(check.exitCode, 1) << check.output;
  EXPECT_NE(check.output.find("broken.xacro:4"), std::string::npos) << check.output;
  EXPECT_NE(check.output.find("name 'oops' is not defined"), std::string::npos) << check.output;

  EXPECT_EQ(check.output.find("lib.xacro:2"), std::string::npos) << check.output;  // a macro library is no error
  const CommandResult libraryCheck = run(cli + " check " + library);
  EXPECT_EQ(libraryCheck.exitCode, 0) << libraryCheck.output;

  const CommandResult frames = run(cli + " frames " + file + " --arg id:=fr3 --positions 0.5");
  EXPECT_EQ(frames.exitCode, 0) << frames.output;
  EXPECT_NE(frames.output.find("fr3_tip"), std::string::npos) << frames.output;

  const CommandResult tree = run(cli + " tree " + file + " --arg id:=b");
  EXPECT_EQ(tree.exitCode, 0) << tree.output;
  EXPECT_NE(tree.output.find("b_tip"), std::string::npos) << tree.output;

  const std::string dot = scratch.path("arm.dot");
  const CommandResult graph = run(cli + " graph " + file + " --arg id:=g -o " + dot);
  EXPECT_EQ(graph.exitCode, 0) << graph.output;
  EXPECT_NE(readFile(dot).find("g_tip"), std::string::npos);

  const std::string page = scratch.path("arm.html");
  const CommandResult view = run(cli + " view " + file + " --arg id:=v -o " + page);
  EXPECT_EQ(view.exitCode, 0) << view.output;
  EXPECT_NE(readFile(page).find("v_tip"), std::string::npos);

  const std::string out = scratch.path("arm.urdf");
  const CommandResult convert = run(cli + " convert " + file + " --arg id:=c -o " + out);
  EXPECT_EQ(convert.exitCode, 0) << convert.output;
  const std::string written = readFile(out);
  EXPECT_NE(written.find("<link name=\"c_tip\"/>"), std::string::npos) << written;
  EXPECT_EQ(written.find("xacro:"), std::string::npos) << written;
  const CommandResult reread = run(cli + " check " + out);
  EXPECT_EQ(reread.exitCode, 0) << reread.output;

  const CommandResult bad = run(cli + " check " + file + " --arg nonsense");
  EXPECT_EQ(bad.exitCode, 2) << bad.output;
}

}  // namespace
}  // namespace interlink::test
