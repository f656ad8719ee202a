// The expansion handed over as a tree (expansionTree) against the text it replaces: reading
// writeExpansion's text as the URDF plugin reads it must give the same elements, attributes, text
// and children, and every location must map back to the same xacro place and macro chain.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "XacroExpander.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::test {
namespace {

const std::string kPath = "/virtual/robot.urdf.xacro";

/// Where `at` (a location in the expanded document) came from, as the loader maps it: the last
/// origin at or before it.
plugin::ExpansionOrigin originOf(const std::vector<plugin::ExpansionOrigin>& origins, const SourceLocation& at) {
  const auto line = static_cast<std::uint32_t>(at.line);
  const auto column = static_cast<std::uint32_t>(at.column);
  auto after = std::upper_bound(origins.begin(), origins.end(), std::make_pair(line, column),
                                [](const std::pair<std::uint32_t, std::uint32_t>& p, const plugin::ExpansionOrigin& o) {
                                  return p.first < o.line || (p.first == o.line && p.second < o.column);
                                });
  EXPECT_NE(after, origins.begin());
  return after == origins.begin() ? plugin::ExpansionOrigin{} : *std::prev(after);
}

std::string placeOf(const plugin::ExpansionOrigin& o) {
  return o.where.file.str() + ":" + std::to_string(o.where.line) + ":" + std::to_string(o.where.column) + " step " +
         std::to_string(o.step);
}

/// Compares two trees field by field; `count` counts the elements and attributes compared.
void expectSameTree(const xml::XmlElement& tree, const std::vector<plugin::ExpansionOrigin>& treeOrigins,
                    const xml::XmlElement& read, const std::vector<plugin::ExpansionOrigin>& textOrigins,
                    std::size_t& count) {
  ++count;
  ASSERT_EQ(tree.name, read.name);
  EXPECT_EQ(tree.text, read.text) << "<" << tree.name << ">";
  EXPECT_EQ(tree.where.file.str(), kPath);
  EXPECT_EQ(placeOf(originOf(treeOrigins, tree.where)), placeOf(originOf(textOrigins, read.where))) << "<" << tree.name << ">";
  ASSERT_EQ(tree.attributes.size(), read.attributes.size()) << "<" << tree.name << ">";
  for (std::size_t i = 0; i < tree.attributes.size(); ++i) {
    ++count;
    EXPECT_EQ(tree.attributes[i].name, read.attributes[i].name);
    EXPECT_EQ(tree.attributes[i].value, read.attributes[i].value) << tree.attributes[i].name;
    EXPECT_EQ(placeOf(originOf(treeOrigins, tree.attributes[i].where)),
              placeOf(originOf(textOrigins, read.attributes[i].where)))
        << tree.attributes[i].name;
  }
  ASSERT_EQ(tree.children.size(), read.children.size()) << "<" << tree.name << ">";
  for (std::size_t i = 0; i < tree.children.size(); ++i) {
    expectSameTree(tree.children[i], treeOrigins, read.children[i], textOrigins, count);
  }
}

/// Expands `source` twice: once written and read back as the URDF plugin reads text, once as a
/// tree. Returns the number of elements and attributes compared, or 0 when no tree was made.
std::size_t compareTreeWithText(const std::string& source) {
  Diagnostics diagnostics;
  xacro::Expansion forText = xacro::expandXacro(kPath, source, nullptr, {}, diagnostics);
  EXPECT_FALSE(diagnostics.hasErrors()) << dump(diagnostics);
  std::vector<plugin::ExpansionOrigin> textOrigins;
  const std::string text = xacro::writeExpansion(forText, textOrigins);
  const auto read = xml::parse(text, kPath, diagnostics, xml::toleratingLike(xml::Tolerance::LikeTinyXml));
  EXPECT_TRUE(read.has_value()) << dump(diagnostics) << text;
  EXPECT_TRUE(diagnostics.empty()) << dump(diagnostics);

  Diagnostics again;
  xacro::Expansion forTree = xacro::expandXacro(kPath, source, nullptr, {}, again);
  xml::XmlElement tree;
  std::vector<plugin::ExpansionOrigin> treeOrigins;
  if (!xacro::expansionTree(forTree, kPath, tree, treeOrigins)) {
    EXPECT_TRUE(treeOrigins.empty());
    return 0;
  }
  std::size_t count = 0;
  if (read) expectSameTree(tree, treeOrigins, *read, textOrigins, count);
  return count;
}

const char* const kHeader = "<?xml version=\"1.0\"?>\n<!-- before the root -->\n";

TEST(XacroTree, ReadsAsTheWrittenTextWouldWithEveryLocationMappedAlike) {
  const std::string source = std::string(kHeader) + R"xml(<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <!-- a comment inside -->
  <xacro:property name="L" value="0.5"/>
  <xacro:macro name="part" params="n *shape">
    <link name="${n}" zeta="z" alpha="a">
      <visual><geometry><xacro:insert_block name="shape"/></geometry></visual>
      <!-- between children -->
      <inertial>
        <mass value="${L * 2}"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
      </inertial>
    </link>
  </xacro:macro>
  <xacro:part n="one"><box size="1 2 3"/></xacro:part>
  <xacro:part n="two"><cylinder radius="${L}" length="1"/></xacro:part>
  <link name="base"/>
  <xacro:element xacro:name="joint" name="j" type="fixed">
    <xacro:attribute name="extra" value="${L + 1}"/>
    <parent link="base"/><child link="one"/>
  </xacro:element>
  <gazebo reference="one">
    text before   <material>Gazebo/Red</material>
      text after ${L}
    <sensor a="&amp; &lt; &gt; &quot; tab&#9;line&#10;cr&#13;end" type="x">  spaced &amp; &lt;text&gt;  </sensor>
    <empty>   </empty>
    <onlyComments><!-- c1 --><!-- c2 --></onlyComments>
    <deep><a><b><c><d>leaf</d></c></b></a></deep>
  </gazebo>
</robot>
<!-- after the root -->
)xml";
  const std::size_t compared = compareTreeWithText(source);
  EXPECT_GT(compared, 40u);  // the tree was made and compared (0: it was not)
}

TEST(XacroTree, TextBeyondAsciiReadsAsTheWrittenTextWould) {
  // UTF-8 in values, text and comments (two, three and four bytes), and U+007F, which XML allows.
  const std::string source = std::string(kHeader) +
                             "<robot name=\"r\">\n  <!-- caf\xC3\xA9, 90\xC2\xB0 -->\n"
                             "  <link name=\"base\" note=\"\xE2\x82\xAC \xF0\x9F\x8D\x94 \x7F\"><x>\xC2\xB5m</x></link>\n</robot>\n";
  EXPECT_GT(compareTreeWithText(source), 3u);
}

TEST(XacroTree, ANameBeyondAsciiIsLeftToTheText) {
  // The reader checks such names by XML's rules for them: the expansion is written and parsed.
  const std::string source = std::string(kHeader) +
                             "<robot name=\"r\"><link name=\"base\"/><caf\xC3\xA9/></robot>\n";
  EXPECT_EQ(compareTreeWithText(source), 0u);
}

TEST(XacroTree, ANameXmlRefusesIsLeftToTheText) {
  // xacro:element makes any name; one that is not an XML name is written, and reading the text
  // reports it as it always did.
  Diagnostics diagnostics;
  xacro::Expansion expansion = xacro::expandXacro(kPath, std::string(kHeader) + R"xml(<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"/>
  <xacro:element xacro:name="${'not a name'}"/>
</robot>)xml", nullptr, {}, diagnostics);
  ASSERT_TRUE(expansion.root.has_value()) << dump(diagnostics);
  xml::XmlElement tree;
  std::vector<plugin::ExpansionOrigin> origins;
  EXPECT_FALSE(xacro::expansionTree(expansion, kPath, tree, origins));
  EXPECT_TRUE(origins.empty());
  EXPECT_EQ(expansion.root->name, "robot");  // nothing was moved out
  ASSERT_EQ(expansion.root->children.size(), 2u);
  EXPECT_EQ(expansion.root->children[1].name, "not a name");
}

}  // namespace
}  // namespace interlink::test
