// Issue 12 class 5: XML that the formats' reference readers (TinyXML2 for libsdformat, TinyXML for
// urdfdom) accept although it is not well-formed is read with a located XML_SYNTAX warning, line
// and column numbers stay exact, and the hardening (no DTD, no entities) is unchanged.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xml {
namespace {

const ParseOptions kLikeLibsdformat = toleratingLike(Tolerance::LikeTinyXml2);
const ParseOptions kLikeUrdfdom = toleratingLike(Tolerance::LikeTinyXml);

std::vector<Diagnostic> warnings(const Diagnostics& diagnostics) {
  std::vector<Diagnostic> out;
  for (const auto& d : diagnostics) {
    if (d.severity == Severity::Warning) out.push_back(d);
  }
  return out;
}

/// The element named `name` at depth-first position, for checking positions after a flaw.
const XmlElement* find(const XmlElement& root, const std::string& name) {
  if (root.name == name) return &root;
  for (const auto& child : root.children) {
    if (const XmlElement* found = find(child, name)) return found;
  }
  return nullptr;
}

TEST(XmlTolerance, DoubleDashInCommentIsAWarningAtItsPlaceAndPositionsStayExact) {
  const std::string text =
      "<?xml version=\"1.0\"?>\n"
      "<!--\n"
      "  gz sim --gui-config x.config\n"  // "--" at line 3, column 10
      "-->\n"
      "<sdf version=\"1.9\">\n"
      "  <!-- a --- b ---><world name=\"w\"/>\n"  // "--" inside at line 6, column 10
      "</sdf>\n";
  for (const ParseOptions& options : {kLikeLibsdformat, kLikeUrdfdom}) {
    Diagnostics diagnostics;
    const auto root = parse(text, "dash.sdf", diagnostics, options);
    ASSERT_TRUE(root) << test::dump(diagnostics);
    EXPECT_FALSE(diagnostics.hasErrors());
    const auto found = warnings(diagnostics);
    ASSERT_EQ(found.size(), 2u) << test::dump(diagnostics);
    EXPECT_EQ(found[0].code, ErrorCode::XML_SYNTAX);
    EXPECT_EQ(found[0].where.file, "dash.sdf");
    EXPECT_EQ(found[0].where.line, 3);
    EXPECT_EQ(found[0].where.column, 10);
    EXPECT_NE(found[0].message.find("'--' inside a comment"), std::string::npos) << found[0].message;
    EXPECT_NE(found[0].message.find("refused by a strict load"), std::string::npos) << found[0].message;
    EXPECT_EQ(found[1].where.line, 6);
    EXPECT_EQ(found[1].where.column, 10);
    // Nothing after the comments moved.
    EXPECT_EQ(root->where.line, 5);
    EXPECT_EQ(root->where.column, 1);
    const XmlElement* world = find(*root, "world");
    ASSERT_NE(world, nullptr);
    EXPECT_EQ(world->where.line, 6);
    EXPECT_EQ(world->where.column, 20);
    EXPECT_EQ(world->attributes.at(0).where.column, 27);
    EXPECT_EQ(world->attributeOr("name", ""), "w");
  }
}

TEST(XmlTolerance, WhiteSpaceBeforeTheDeclarationIsAWarning) {
  const std::string text = " \n  <?xml version=\"1.0\" ?>\n<sdf version=\"1.6\"><world name=\"w\"/></sdf>\n";
  for (const ParseOptions& options : {kLikeLibsdformat, kLikeUrdfdom}) {
    Diagnostics diagnostics;
    const auto root = parse(text, "space.sdf", diagnostics, options);
    ASSERT_TRUE(root) << test::dump(diagnostics);
    const auto found = warnings(diagnostics);
    ASSERT_EQ(found.size(), 1u) << test::dump(diagnostics);
    EXPECT_EQ(found[0].code, ErrorCode::XML_SYNTAX);
    EXPECT_EQ(found[0].where.line, 2);
    EXPECT_EQ(found[0].where.column, 3);
    EXPECT_NE(found[0].message.find("white space before the XML declaration"), std::string::npos) << found[0].message;
    EXPECT_EQ(root->where.line, 3);
    EXPECT_EQ(find(*root, "world")->where.column, 20);
  }
}

TEST(XmlTolerance, DamagedDeclarationIsTextBeforeTheRootWhichOnlyTinyXml2Reads) {
  // gz-sim's test/worlds/reset_detachable_joint.sdf starts like this.
  const std::string text = "?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sdf version=\"1.6\">\n  <world name=\"w\"/>\n</sdf>\n";
  Diagnostics diagnostics;
  const auto root = parse(text, "damaged.sdf", diagnostics, kLikeLibsdformat);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  const auto found = warnings(diagnostics);
  ASSERT_EQ(found.size(), 1u) << test::dump(diagnostics);
  EXPECT_EQ(found[0].where.line, 1);
  EXPECT_EQ(found[0].where.column, 1);
  EXPECT_NE(found[0].message.find("text before the root element"), std::string::npos) << found[0].message;
  EXPECT_NE(found[0].message.find("?xml version"), std::string::npos) << found[0].message;
  EXPECT_EQ(find(*root, "world")->where.line, 3);
  EXPECT_EQ(find(*root, "world")->where.column, 3);

  // urdfdom's TinyXML stops at such text and finds no root: refused, as check_urdf refuses it.
  Diagnostics urdf;
  EXPECT_FALSE(parse(text, "damaged.urdf", urdf, kLikeUrdfdom));
  EXPECT_TRUE(urdf.hasErrors());
}

TEST(XmlTolerance, ADeclarationAfterACommentIsReadOnlyLikeTinyXml) {
  const std::string text = "<!-- c -->\n<?xml version=\"1.0\"?>\n<robot name=\"r\"/>\n";
  Diagnostics urdf;
  ASSERT_TRUE(parse(text, "late.urdf", urdf, kLikeUrdfdom)) << test::dump(urdf);
  ASSERT_EQ(warnings(urdf).size(), 1u) << test::dump(urdf);
  EXPECT_EQ(warnings(urdf)[0].where.line, 2);
  // TinyXML2 refuses a declaration after anything else (XML_ERROR_PARSING_DECLARATION).
  Diagnostics sdf;
  EXPECT_FALSE(parse(text, "late.sdf", sdf, kLikeLibsdformat));
}

TEST(XmlTolerance, WithoutToleranceEveryFlawIsASyntaxError) {
  for (const std::string text : {"<!-- a -- b -->\n<sdf/>", "  <?xml version=\"1.0\"?>\n<sdf/>", "?xml version=\"1.0\"?>\n<sdf/>"}) {
    Diagnostics diagnostics;
    EXPECT_FALSE(parse(text, "strict.sdf", diagnostics)) << text;
    ASSERT_EQ(diagnostics.size(), 1u) << test::dump(diagnostics);
    EXPECT_EQ(diagnostics.items()[0].code, ErrorCode::XML_SYNTAX);
    EXPECT_TRUE(diagnostics.items()[0].isError());
    EXPECT_GT(diagnostics.items()[0].where.line, 0);
  }
}

TEST(XmlTolerance, WhatTinyXml2AlsoRefusesStaysRefused) {
  for (const std::string text : {"<sdf/>\ntext after the root", "<sdf><a></sdf>", "<!-- never closed\n<sdf/>"}) {
    Diagnostics diagnostics;
    EXPECT_FALSE(parse(text, "bad.sdf", diagnostics, kLikeLibsdformat)) << text;
    EXPECT_TRUE(diagnostics.hasErrors());
  }
}

TEST(XmlTolerance, HardeningIsKept) {
  // A tolerated flaw does not open the door to a DTD or an entity.
  Diagnostics doctype;
  EXPECT_FALSE(parse("  <?xml version=\"1.0\"?>\n<!-- a -- b -->\n<!DOCTYPE sdf [ <!ENTITY x \"y\"> ]>\n<sdf>&x;</sdf>",
                     "doctype.sdf", doctype, kLikeLibsdformat));
  ASSERT_TRUE(doctype.hasErrors());
  bool located = false;
  for (const auto& d : doctype) located = located || (d.isError() && d.where.line == 3 && d.message.find("DOCTYPE") != std::string::npos);
  EXPECT_TRUE(located) << test::dump(doctype);

  Diagnostics entity;
  EXPECT_FALSE(parse("?xml?>\n<sdf>&undeclared;</sdf>", "entity.sdf", entity, kLikeLibsdformat));
  EXPECT_TRUE(entity.hasErrors());

  // "<!--" inside CDATA is text, not a comment to repair.
  Diagnostics cdata;
  const auto root = parse("<sdf><![CDATA[ <!-- a -- b ]]></sdf>", "cdata.sdf", cdata, kLikeLibsdformat);
  ASSERT_TRUE(root) << test::dump(cdata);
  EXPECT_TRUE(cdata.empty()) << test::dump(cdata);
  EXPECT_EQ(root->text, " <!-- a -- b ");
}

TEST(XmlTolerance, GazeboDefaultWorldReadsWithWarningsAtTheRealLines) {
  // gz-sim's examples/worlds/default.sdf: a usage comment with "--gui-config" on line 12.
  const std::string path = test::vendored("gazebo/gz-sim/examples/worlds/default.sdf");
  const std::string text = test::readFile(path);
  ASSERT_FALSE(text.empty()) << path;
  Diagnostics strict;
  EXPECT_FALSE(parse(text, path, strict));
  Diagnostics diagnostics;
  const auto root = parse(text, path, diagnostics, kLikeLibsdformat);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  const auto found = warnings(diagnostics);
  ASSERT_EQ(found.size(), 1u) << test::dump(diagnostics);
  // The line of the first "--" inside the comment, counted independently.
  const std::size_t comment = text.find("<!--");
  const std::size_t dash = text.find("--", comment + 4);
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(dash), '\n'));
  const int column = static_cast<int>(dash - text.rfind('\n', dash));
  EXPECT_EQ(found[0].where.line, line);
  EXPECT_EQ(found[0].where.column, column);
  // The root element is where the text has it.
  const std::size_t sdf = text.find("<sdf");
  EXPECT_EQ(root->where.line, 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(sdf), '\n')));
}

}  // namespace
}  // namespace interlink::xml
