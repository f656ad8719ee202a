// Every xacro feature through the real loader: the xacro plugin expands, the URDF plugin reads the
// expansion. Each test checks the expanded text and what the model holds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "XacroSupport.hpp"

namespace interlink::test {
namespace {

TEST(XacroProperties, ValuesExpressionsAndLiterals) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="L" value="0.5"/>
  <xacro:property name="half" value="${L / 2}"/>
  <xacro:property name="name" value="arm"/>
  <link name="${name}_link"><inertial><mass value="${L * 4}"/><inertia ixx="${half}" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="${name}_link"/>
    <origin xyz="${half} 0 ${L ** 2}" rpy="0 0 ${pi / 2}"/><axis xyz="0 0 1"/>
    <limit lower="${-pi}" upper="${pi}" effort="1" velocity="1"/></joint>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_NE(r.expandedText.find(R"xml(xyz="0.25 0 0.25")xml"), std::string::npos) << r.expandedText;
  EXPECT_NE(r.expandedText.find(R"xml(rpy="0 0 1.5707963267948966")xml"), std::string::npos);
  const Link* link = linkNamed(r, "arm_link");
  ASSERT_NE(link, nullptr);
  EXPECT_DOUBLE_EQ(link->inertial.mass, 2.0);
  EXPECT_DOUBLE_EQ(link->inertial.inertia(0, 0), 0.25);
  const Joint* joint = jointNamed(r, "j");
  ASSERT_NE(joint, nullptr);
  EXPECT_DOUBLE_EQ(joint->axes[0].lower, -M_PI);
}

TEST(XacroProperties, LazyEvaluationUsesTheValueAtFirstUse) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="b" value="${a * 2}"/>
  <xacro:property name="a" value="3"/>
  <link name="l${b}"/><joint name="j" type="fixed"><parent link="base"/><child link="l6"/></joint>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_NE(linkNamed(r, "l6"), nullptr);
}

TEST(XacroProperties, ContentBlocksAreInsertedWhereAsked) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="o" value="0.125"/>
  <xacro:property name="origin_block"><origin xyz="${o} 0 0" rpy="0 0 0"/></xacro:property>
  <link name="a"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="a"/><xacro:insert_block name="origin_block"/></joint>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  const Joint* joint = jointNamed(r, "j");
  ASSERT_NE(joint, nullptr);
  EXPECT_DOUBLE_EQ(joint->pose.pose.translation().x(), 0.125);
}

TEST(XacroProperties, ScopesLocalGlobalParentDefaultRemove) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="x" value="outer"/>
  <xacro:macro name="m">
    <xacro:property name="x" value="inner"/>
    <xacro:property name="g" value="global_${x}" scope="global"/>
    <xacro:property name="p" value="parent_${x}" scope="parent"/>
    <link name="${x}"/>
  </xacro:macro>
  <xacro:m/>
  <link name="${x}_after"/>
  <link name="${g}"/>
  <link name="${p}"/>
  <xacro:property name="x" default="ignored"/>
  <xacro:property name="d" default="used"/>
  <link name="${x}_${d}"/>
  <xacro:property name="d" remove="true"/>
  <xacro:property name="d" default="again"/>
  <link name="${d}"/>)xml"));
  const std::string& text = r.expandedText;
  ASSERT_FALSE(text.empty()) << dump(r.diagnostics);
  EXPECT_NE(text.find(R"xml(name="inner")xml"), std::string::npos) << text;  // the macro's own scope
  EXPECT_NE(text.find(R"xml(name="outer_after")xml"), std::string::npos);    // ... does not leak
  EXPECT_NE(text.find(R"xml(name="global_inner")xml"), std::string::npos);
  EXPECT_NE(text.find(R"xml(name="parent_inner")xml"), std::string::npos);
  EXPECT_NE(text.find(R"xml(name="outer_used")xml"), std::string::npos);
  EXPECT_NE(text.find(R"xml(name="again")xml"), std::string::npos);
}

TEST(XacroArguments, DefaultsOptionsAndXacroArg) {
  Scratch scratch;
  const std::string text = robot(R"xml(
  <xacro:arg name="arm_id" default="fr3"/>
  <xacro:arg name="hand" default="true"/>
  <link name="$(arg arm_id)_link0"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="$(arg arm_id)_link0"/></joint>
  <xacro:if value="$(arg hand)"><link name="hand"/><joint name="h" type="fixed"><parent link="base"/><child link="hand"/></joint></xacro:if>
  <gazebo reference="${xacro.arg('arm_id')}_copy"/>)xml");
  const LoadResult defaults = loadXacro(scratch, text);
  ASSERT_TRUE(defaults.ok()) << dump(defaults.diagnostics);
  EXPECT_NE(linkNamed(defaults, "fr3_link0"), nullptr);
  EXPECT_NE(linkNamed(defaults, "hand"), nullptr);
  EXPECT_NE(defaults.expandedText.find("fr3_copy"), std::string::npos);
  const LoadResult given = loadXacro(scratch, text, {{"arm_id", "fp3"}, {"hand", "false"}});
  ASSERT_TRUE(given.ok()) << dump(given.diagnostics);
  EXPECT_NE(linkNamed(given, "fp3_link0"), nullptr);
  EXPECT_EQ(linkNamed(given, "hand"), nullptr);
}

TEST(XacroSubstitutions, FindThroughResourcePathsAndRosPackagePath) {
  Scratch scratch;
  scratch.write("packages/my_pkg/package.xml", "<package/>");
  scratch.write("packages/my_pkg/urdf/part.xacro", R"xml(<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="from_package"/><joint name="p" type="fixed"><parent link="base"/><child link="from_package"/></joint></robot>)xml");
  const std::string text = robot(R"xml(<xacro:include filename="$(find my_pkg)/urdf/part.xacro"/>
  <gazebo reference="${'$(find my_pkg)'.endswith('my_pkg')}"/>)xml");
  LoadOptions options;
  options.resourcePaths = {scratch.path("packages")};  // -I DIR
  const LoadResult r = loadXacro(scratch, text, {}, "robot.urdf.xacro", options);
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_NE(linkNamed(r, "from_package"), nullptr);
  EXPECT_NE(r.expandedText.find(R"xml(reference="True")xml"), std::string::npos);

  ::setenv("ROS_PACKAGE_PATH", scratch.path("packages").c_str(), 1);
  const LoadResult fromEnvironment = loadXacro(scratch, text);
  ::unsetenv("ROS_PACKAGE_PATH");
  ASSERT_TRUE(fromEnvironment.ok()) << dump(fromEnvironment.diagnostics);
  EXPECT_NE(linkNamed(fromEnvironment, "from_package"), nullptr);
  // No trailing '/', as ROS answers: "$(find my_pkg)/meshes" is written with one '/'.
  EXPECT_NE(fromEnvironment.expandedText.find(R"xml(reference="True")xml"), std::string::npos) << fromEnvironment.expandedText;

  // ROS 2's install layout: PREFIX/share/PKG, prefixes in AMENT_PREFIX_PATH.
  scratch.write("install/share/my_pkg/package.xml", "<package/>");
  scratch.write("install/share/my_pkg/urdf/part.xacro", R"xml(<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="from_ament"/><joint name="p" type="fixed"><parent link="base"/><child link="from_ament"/></joint></robot>)xml");
  ::setenv("AMENT_PREFIX_PATH", (scratch.path("nothing_here") + ":" + scratch.path("install")).c_str(), 1);
  const LoadResult fromAment = loadXacro(scratch, text);
  ::unsetenv("AMENT_PREFIX_PATH");
  ASSERT_TRUE(fromAment.ok()) << dump(fromAment.diagnostics);
  EXPECT_NE(linkNamed(fromAment, "from_ament"), nullptr);
}

TEST(XacroSubstitutions, EnvOptenvEvalDirname) {
  Scratch scratch;
  ::setenv("INTERLINK_XACRO_TEST", "from_env", 1);
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:arg name="n" default="3"/>
  <link name="$(env INTERLINK_XACRO_TEST)"/>
  <link name="$(optenv INTERLINK_XACRO_UNSET fallback text)"/>
  <link name="$(optenv INTERLINK_XACRO_TEST other)_2"/>
  <link name="e$(eval n * 2 + 1)"/>
  <link name="${'$(dirname)' != ''}"/>)xml"));
  ::unsetenv("INTERLINK_XACRO_TEST");
  ASSERT_FALSE(r.expandedText.empty()) << dump(r.diagnostics);
  EXPECT_NE(r.expandedText.find(R"xml(name="from_env")xml"), std::string::npos) << r.expandedText;
  EXPECT_NE(r.expandedText.find(R"xml(name="fallback text")xml"), std::string::npos);
  EXPECT_NE(r.expandedText.find(R"xml(name="from_env_2")xml"), std::string::npos);
  EXPECT_NE(r.expandedText.find(R"xml(name="e7")xml"), std::string::npos);
  EXPECT_NE(r.expandedText.find(R"xml(name="True")xml"), std::string::npos);
}

TEST(XacroMacros, ParametersAndDefaults) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="inherited" value="from_scope"/>
  <xacro:property name="side" value="left"/>
  <xacro:macro name="seg" params="name length:=0.5 side:=^ inherited:=^|unused other:=^|fallback">
    <link name="${name}_${side}_${inherited}_${other}"><visual><geometry><box size="${length} 1 1"/></geometry></visual></link>
    <joint name="${name}_j" type="fixed"><parent link="base"/><child link="${name}_${side}_${inherited}_${other}"/></joint>
  </xacro:macro>
  <xacro:seg name="a"/>
  <xacro:seg name="b" length="2" side="right" other="given"/>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  const Link* a = linkNamed(r, "a_left_from_scope_fallback");
  ASSERT_NE(a, nullptr);
  EXPECT_DOUBLE_EQ(a->visuals.at(0).geometry.size.x(), 0.5);
  const Link* b = linkNamed(r, "b_right_from_scope_given");
  ASSERT_NE(b, nullptr);
  EXPECT_DOUBLE_EQ(b->visuals.at(0).geometry.size.x(), 2.0);
}

TEST(XacroMacros, BlockParametersAndInsertBlock) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:macro name="wrap" params="name *origin **shapes">
    <link name="${name}"><visual><xacro:insert_block name="shapes"/></visual></link>
    <joint name="${name}_j" type="fixed"><parent link="base"/><child link="${name}"/><xacro:insert_block name="origin"/></joint>
  </xacro:macro>
  <xacro:property name="k" value="2"/>
  <xacro:wrap name="w">
    <origin xyz="${k} 0 0"/>
    <shapes><geometry><sphere radius="${k / 4}"/></geometry></shapes>
  </xacro:wrap>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  const Joint* joint = jointNamed(r, "w_j");
  ASSERT_NE(joint, nullptr);
  EXPECT_DOUBLE_EQ(joint->pose.pose.translation().x(), 2.0);
  const Link* link = linkNamed(r, "w");
  ASSERT_NE(link, nullptr);
  ASSERT_EQ(link->visuals.size(), 1u);
  EXPECT_DOUBLE_EQ(link->visuals[0].geometry.radius, 0.5);
}

TEST(XacroMacros, RecursionBuildsAChain) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:macro name="chain" params="n parent">
    <xacro:if value="${n > 0}">
      <link name="l${n}"/>
      <joint name="j${n}" type="revolute"><parent link="${parent}"/><child link="l${n}"/>
        <origin xyz="0 0 0.1"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <xacro:chain n="${n - 1}" parent="l${n}"/>
    </xacro:if>
  </xacro:macro>
  <xacro:chain n="5" parent="base"/>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_EQ(r.document.model->links.size(), 6u);
  EXPECT_EQ(r.kinematics.dofs().size(), 5u);
}

TEST(XacroIncludes, MacrosFromIncludedFilesAndNamespaces) {
  Scratch scratch;
  scratch.write("inc/parts.xacro", R"xml(<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="size" value="0.2"/>
  <xacro:macro name="part" params="name"><link name="${name}"><collision><geometry><box size="${size} ${size} ${size}"/></geometry></collision></link>
  <joint name="${name}_j" type="fixed"><parent link="base"/><child link="${name}"/></joint></xacro:macro>
</robot>)xml");
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:include filename="inc/parts.xacro"/>
  <xacro:include filename="inc/parts.xacro" ns="other"/>
  <xacro:part name="plain"/>
  <xacro:other.part name="namespaced"/>
  <link name="s${other.size * 10}"/><joint name="s" type="fixed"><parent link="base"/><child link="s2.0"/></joint>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_NE(linkNamed(r, "plain"), nullptr);
  EXPECT_NE(linkNamed(r, "namespaced"), nullptr);
  EXPECT_NE(linkNamed(r, "s2.0"), nullptr);
}

// The plugin keeps parsed files (with their macros) and YAML documents for the process, by path
// and a copy of the text: a file edited between two loads (here to text of the same size) is read
// as it is now, macro parameters included; an unchanged one gives the same expansion.
TEST(XacroIncludes, FilesEditedBetweenLoadsAreReadAsTheyAreNow) {
  Scratch scratch;
  const auto write = [&](const std::string& size, const std::string& effort) {
    scratch.write("inc/parts.xacro", R"xml(<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="size" value=")xml" + size + R"xml("/>
  <xacro:macro name="part" params="suffix:=)xml" + size + R"xml("><link name="p${suffix}"/></xacro:macro>
  <!-- kept -->
</robot>)xml");
    scratch.write("config/limits.yaml", "effort: " + effort + "\n");
  };
  const std::string body = robot(R"xml(
  <xacro:include filename="inc/parts.xacro"/>
  <xacro:property name="cfg" value="${xacro.load_yaml('config/limits.yaml')}"/>
  <link name="l${size}"/>
  <xacro:part/><joint name="pj" type="fixed"><parent link="base"/><child link="p${size}"/></joint>
  <joint name="j" type="revolute"><parent link="base"/><child link="l${size}"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="1" effort="${cfg.effort}" velocity="1"/></joint>)xml");
  const std::string path = scratch.write("robot.urdf.xacro", body);
  const Loader loader;  // one loader, as Python's: its plugin and the plugin's tables stay loaded
  write("1", "10");
  const LoadResult first = loader.loadFile(path);
  ASSERT_TRUE(first.ok()) << dump(first.diagnostics);
  EXPECT_NE(linkNamed(first, "l1"), nullptr);
  EXPECT_NE(linkNamed(first, "p1"), nullptr);
  const LoadResult again = loader.loadFile(path);
  ASSERT_TRUE(again.ok()) << dump(again.diagnostics);
  EXPECT_EQ(again.expandedText, first.expandedText);
  write("2", "20");
  const LoadResult edited = loader.loadFile(path);
  ASSERT_TRUE(edited.ok()) << dump(edited.diagnostics);
  EXPECT_NE(linkNamed(edited, "l2"), nullptr) << edited.expandedText;
  EXPECT_NE(linkNamed(edited, "p2"), nullptr) << edited.expandedText;  // the macro's default as edited
  const Joint* joint = jointNamed(edited, "j");
  ASSERT_NE(joint, nullptr);
  EXPECT_DOUBLE_EQ(joint->axes[0].effort, 20);
}

TEST(XacroConditionals, IfAndUnlessAcceptXacroBooleans) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="on" value="true"/>
  <xacro:if value="${on}"><link name="if_true"/></xacro:if>
  <xacro:if value="false"><link name="if_false"/></xacro:if>
  <xacro:if value="1"><link name="if_one"/></xacro:if>
  <xacro:unless value="0"><link name="unless_zero"/></xacro:unless>
  <xacro:unless value="${1 + 1 == 2}"><link name="unless_true"/></xacro:unless>)xml"));
  ASSERT_FALSE(r.expandedText.empty()) << dump(r.diagnostics);
  EXPECT_NE(r.expandedText.find("if_true"), std::string::npos);
  EXPECT_EQ(r.expandedText.find("if_false"), std::string::npos);
  EXPECT_NE(r.expandedText.find("if_one"), std::string::npos);
  EXPECT_NE(r.expandedText.find("unless_zero"), std::string::npos);
  EXPECT_EQ(r.expandedText.find("unless_true"), std::string::npos);
}

TEST(XacroElements, ElementAndAttribute) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="kind" value="link"/>
  <xacro:element xacro:name="${kind}" name="made"><xacro:attribute name="type" value="${'unused'}"/></xacro:element>
  <joint name="j" type="fixed"><parent link="base"/><xacro:element xacro:name="child"><xacro:attribute name="link" value="made"/></xacro:element></joint>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_NE(linkNamed(r, "made"), nullptr);
  EXPECT_NE(r.expandedText.find(R"xml(<link name="made" type="unused"/>)xml"), std::string::npos) << r.expandedText;
  EXPECT_NE(r.expandedText.find(R"xml(<child link="made"/>)xml"), std::string::npos);
}

TEST(XacroYaml, LoadYamlWithTypesAndAngles) {
  Scratch scratch;
  scratch.write("config/limits.yaml", R"xml(joints:
  shoulder:
    lower: !degrees -90
    upper: !radians pi / 4
    wrist: !degrees 145
    effort: 87
    name: "shoulder_joint"
  list: [1, 2.5, three]
flag: true
)xml");
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="cfg" value="${xacro.load_yaml('config/limits.yaml')}"/>
  <xacro:property name="s" value="${cfg['joints']['shoulder']}"/>
  <link name="l"/>
  <joint name="${s.name}" type="revolute"><parent link="base"/><child link="l"/><axis xyz="0 0 1"/>
    <limit lower="${s['lower']}" upper="${s.upper}" effort="${s.effort}" velocity="${cfg.joints.list[1]}"/></joint>
  <xacro:if value="${cfg.flag and cfg['joints']['list'][2] == 'three'}"><gazebo reference="typed"/></xacro:if>
  <gazebo reference="${s.wrist}"/>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  const Joint* joint = jointNamed(r, "shoulder_joint");
  ASSERT_NE(joint, nullptr);
  EXPECT_NEAR(joint->axes[0].lower, -M_PI / 2, 1e-15);
  EXPECT_NEAR(joint->axes[0].upper, M_PI / 4, 1e-15);
  EXPECT_DOUBLE_EQ(joint->axes[0].effort, 87);
  EXPECT_DOUBLE_EQ(joint->axes[0].velocity, 2.5);
  EXPECT_NE(r.expandedText.find("typed"), std::string::npos);
  // !degrees is xacro's math.radians of the value, rounded as Python rounds it.
  EXPECT_NE(r.expandedText.find(R"xml(<gazebo reference="2.530727415391778"/>)xml"), std::string::npos) << r.expandedText;
}

// PyYAML's implicit types of plain scalars (YAML 1.1): signs, infinities, NaN, underscores in
// numbers, the boolean words, null; the expected text is what Python's str() gives for
// yaml.safe_load of the same document (checked with PyYAML 6).
TEST(XacroYaml, PlainScalarsTypedAsPyYamlTypesThem) {
  Scratch scratch;
  scratch.write("config/scalars.yaml", R"yaml(a: -.inf
b: +.Inf
c: .nan
d: 1_000
e: 1_0.5
f: off
g: Yes
h: ~
i: 0.12345678901234567
j: -12
k: +7
l: on_off
)yaml");
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="v" value="${xacro.load_yaml('config/scalars.yaml')}"/>
  <gazebo reference="${v.a} ${v.b} ${v.c} ${v.d} ${v.e} ${v.f} ${v.g} ${v.h} ${v.i} ${v.j} ${v.k} ${v.l}"/>
  <gazebo reference="${v.d + 1} ${v.e * 2} ${v.k - 8} ${v.f or v.g}"/>)xml"));
  ASSERT_FALSE(r.expandedText.empty()) << dump(r.diagnostics);
  EXPECT_NE(r.expandedText.find(R"(reference="-inf inf nan 1000 10.5 False True None 0.12345678901234566 -12 7 on_off")"),
            std::string::npos)
      << r.expandedText;
  EXPECT_NE(r.expandedText.find(R"(reference="1001 21.0 -1 True")"), std::string::npos) << r.expandedText;
}

TEST(XacroDocument, CommentsAndXmlModelProcessingInstruction) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, R"xml(<?xml version="1.0"?>
<?xml-model href="https://raw.githubusercontent.com/ros/urdfdom/master/xsd/urdf.xsd" ?>
<!-- a comment before the root -->
<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <!-- a comment with ${undefined} is not evaluated -->
  <link name="base"/>
  <xacro:property name="x" value="1"/> <!-- after a property -->
</robot>)xml");
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_EQ(r.expandedText.find("xmlns:xacro"), std::string::npos);  // the xacro namespace is removed
  // Comments are kept as written (before the root too), as xacro keeps them.
  EXPECT_NE(r.expandedText.find("<!-- a comment before the root -->\n<robot"), std::string::npos) << r.expandedText;
  EXPECT_NE(r.expandedText.find("<!-- a comment with ${undefined} is not evaluated -->"), std::string::npos);
  EXPECT_NE(r.expandedText.find("<!-- after a property -->"), std::string::npos);
  EXPECT_NE(linkNamed(r, "base"), nullptr);
}

TEST(XacroDocument, EscapedDollarAndTextContent) {
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="ns" value="arm"/>
  <gazebo><plugin name="p" filename="lib.so"><robotNamespace>/${ns}</robotNamespace><raw>$${not_evaluated}</raw></plugin></gazebo>)xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  EXPECT_NE(r.expandedText.find("<robotNamespace>/arm</robotNamespace>"), std::string::npos) << r.expandedText;
  EXPECT_NE(r.expandedText.find("<raw>${not_evaluated}</raw>"), std::string::npos);
}

TEST(XacroDocument, MixedContentIsEvaluatedAndKeptInDocumentOrder) {
  // xacro evaluates each text node when its walk reaches it and keeps it in its place: text after
  // a property definition sees the property (xacro's own test emoji.xacro), text before it does not.
  Scratch scratch;
  const LoadResult r = loadXacro(scratch, robot(R"xml(
  <xacro:property name="w" value="1"/>
  <gazebo>${w}<xacro:property name="w" value="2"/>${w}<plugin name="p"/>${w * 10}</gazebo>
  <xacro:property name="burger" value="&#x1F354;"/>
  ${burger})xml"));
  ASSERT_TRUE(r.ok()) << dump(r.diagnostics);
  // As ROS's xacro writes it: each text node on its own line among the elements.
  EXPECT_NE(r.expandedText.find("  <gazebo>\n    1\n    2\n    <plugin name=\"p\"/>\n    20\n  </gazebo>\n"),
            std::string::npos)
      << r.expandedText;
  EXPECT_NE(r.expandedText.find("  \xF0\x9F\x8D\x94\n</robot>"), std::string::npos) << r.expandedText;
}

}  // namespace
}  // namespace interlink::test
