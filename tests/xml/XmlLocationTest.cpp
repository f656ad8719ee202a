// Where interlink::xml::parse says elements and attributes are: checked against the text itself on
// every XML file of the corpus, and on the awkward cases (line ends, byte-order mark, non-ASCII,
// comments, CDATA, '>' in attribute values, tags over several lines, other encodings).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xml {
namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Where each line of `text` starts (LF, CR LF and CR end a line; a leading byte-order mark is
/// skipped), found once per text so that locating every element stays linear in the file.
std::vector<std::size_t> lineStarts(const std::string& text) {
  std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  std::vector<std::size_t> starts{i};
  for (; i < text.size(); ++i) {
    if (text[i] != '\n' && text[i] != '\r') continue;
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
    starts.push_back(i + 1);
  }
  return starts;
}

/// The byte offset of (line, column) counted the way Xerces counts them (one column per UTF-16
/// unit), written independently of the parser; npos when out of range.
std::size_t offsetOf(const std::string& text, const std::vector<std::size_t>& starts, int line, int column) {
  if (line < 1 || static_cast<std::size_t>(line) > starts.size()) return std::string::npos;
  std::size_t i = starts[static_cast<std::size_t>(line) - 1];
  for (int c = 1; c < column;) {
    if (i >= text.size() || text[i] == '\n' || text[i] == '\r') return std::string::npos;
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    c += length == 4 ? 2 : 1;
    i += length;
  }
  return i;
}

/// Every element's position holds "<name" and every attribute's position holds its name.
void expectPositionsPointAtNames(const std::string& text, const std::vector<std::size_t>& starts,
                                 const XmlElement& element, const std::string& file, int& checked) {
  const std::size_t at = offsetOf(text, starts, element.where.line, element.where.column);
  ASSERT_NE(at, std::string::npos) << file << " <" << element.name << "> at " << element.where.line << ":"
                                   << element.where.column;
  EXPECT_EQ(text.compare(at, element.name.size() + 1, "<" + element.name), 0)
      << file << " <" << element.name << "> at " << element.where.line << ":" << element.where.column << " reads '"
      << text.substr(at, 20) << "'";
  EXPECT_EQ(element.where.file, file);
  for (const Attribute& attribute : element.attributes) {
    const std::size_t attributeAt = offsetOf(text, starts, attribute.where.line, attribute.where.column);
    ASSERT_NE(attributeAt, std::string::npos) << file << " " << attribute.name;
    EXPECT_EQ(text.compare(attributeAt, attribute.name.size(), attribute.name), 0)
        << file << " <" << element.name << " " << attribute.name << "> at " << attribute.where.line << ":"
        << attribute.where.column << " reads '" << text.substr(attributeAt, 20) << "'";
    EXPECT_EQ(attribute.where.file, file);
  }
  ++checked;
  for (const XmlElement& child : element.children) expectPositionsPointAtNames(text, starts, child, file, checked);
}

void expectPositionsPointAtNames(const std::string& text, const std::string& file = "t.xml") {
  Diagnostics diagnostics;
  const auto root = parse(text, file, diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  int checked = 0;
  expectPositionsPointAtNames(text, lineStarts(text), *root, file, checked);
}

TEST(XmlLocations, EveryElementAndAttributeOfTheCorpus) {
  int files = 0;
  int elements = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(test::corpus(""))) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() ||
        (extension != ".sdf" && extension != ".urdf" && extension != ".world" && extension != ".config" &&
         extension != ".hrdf")) {
      continue;
    }
    const std::string path = entry.path().string();
    const std::string text = readFile(path);
    Diagnostics diagnostics;
    const auto root = parse(text, path, diagnostics);
    if (!root) continue;  // the corpus holds malformed files on purpose
    ++files;
    expectPositionsPointAtNames(text, lineStarts(text), *root, path, elements);
  }
  EXPECT_GT(files, 100);
  EXPECT_GT(elements, 5000);
}

TEST(XmlLocations, LineEndsOfEveryKind) {
  const std::string lf = "<a>\n  <b x=\"1\"\n     y='2'/>\n  <c/>\n</a>\n";
  std::string crlf;
  std::string cr;
  for (char c : lf) {
    crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    cr += c == '\n' ? '\r' : c;
  }
  for (const std::string& text : {lf, crlf, cr}) {
    Diagnostics diagnostics;
    const auto root = parse(text, "ends.xml", diagnostics);
    ASSERT_TRUE(root) << test::dump(diagnostics);
    ASSERT_EQ(root->children.size(), 2u);
    const XmlElement& b = root->children[0];
    EXPECT_EQ(b.where.line, 2);
    EXPECT_EQ(b.where.column, 3);
    EXPECT_EQ(b.attributes.at(0).where.line, 2);
    EXPECT_EQ(b.attributes.at(0).where.column, 6);
    EXPECT_EQ(b.attributes.at(1).where.line, 3);
    EXPECT_EQ(b.attributes.at(1).where.column, 6);
    EXPECT_EQ(root->children[1].where.line, 4);
    EXPECT_EQ(root->children[1].where.column, 3);
    expectPositionsPointAtNames(text);
  }
}

TEST(XmlLocations, ByteOrderMarkIsNotAColumn) {
  Diagnostics diagnostics;
  const auto root = parse("\xEF\xBB\xBF<a><b/></a>", "bom.xml", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->where.column, 1);
  EXPECT_EQ(root->children.at(0).where.column, 4);
}

// Expat counts the mark as the first column of line 1; comments and syntax errors, which take
// expat's position, must not.
TEST(XmlLocations, ByteOrderMarkIsNotAColumnOfCommentsOrErrors) {
  for (const bool fastReader : {true, false}) {
    SCOPED_TRACE(fastReader ? "fast reader" : "expat");
    ParseOptions options;
    options.fastReader = fastReader;
    std::vector<XmlComment> comments;
    options.comments = &comments;
    Diagnostics diagnostics;
    const auto root = parse("\xEF\xBB\xBF<a><!--c--><b/></a>\n<!--d-->", "bom.xml", diagnostics, options);
    ASSERT_TRUE(root) << test::dump(diagnostics);
    ASSERT_EQ(comments.size(), 2u);
    EXPECT_EQ(comments[0].where.line, 1);
    EXPECT_EQ(comments[0].where.column, 4);
    EXPECT_EQ(comments[1].where.line, 2);
    EXPECT_EQ(comments[1].where.column, 1);
  }
  // Expat places a mismatched end tag at its name: column 6 with or without the mark.
  for (const char* text : {"<a></b>", "\xEF\xBB\xBF<a></b>"}) {
    Diagnostics diagnostics;
    EXPECT_FALSE(parse(text, "bom.xml", diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << test::dump(diagnostics);
    EXPECT_EQ(diagnostics.begin()->where.line, 1);
    EXPECT_EQ(diagnostics.begin()->where.column, 6) << test::dump(diagnostics);
  }
  // A document type with declarations is refused before parsing, at its '<'.
  Diagnostics diagnostics;
  EXPECT_FALSE(parse("\xEF\xBB\xBF<!DOCTYPE a [<!ENTITY e 'x'>]><a/>", "bom.xml", diagnostics));
  ASSERT_EQ(diagnostics.size(), 1u) << test::dump(diagnostics);
  EXPECT_EQ(diagnostics.begin()->where.column, 1) << test::dump(diagnostics);
}

TEST(XmlLocations, NonAsciiCountsInUtf16Units) {
  // é: 2 bytes, one column; €: 3 bytes, one column; 😀: 4 bytes, two columns (a surrogate pair).
  Diagnostics diagnostics;
  const auto root = parse("<a x='\xC3\xA9' y='\xE2\x82\xAC'>\xF0\x9F\x98\x80<b z='1'/></a>", "utf8.xml", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->attributes.at(0).value, "\xC3\xA9");
  EXPECT_EQ(root->attributes.at(1).where.column, 10);
  EXPECT_EQ(root->children.at(0).where.column, 18);
  EXPECT_EQ(root->children.at(0).attributes.at(0).where.column, 21);
  EXPECT_EQ(root->text, "\xF0\x9F\x98\x80");
}

TEST(XmlLocations, MarkupThatIsNotAStartTag) {
  const std::string text =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE a>\n<!-- <x> - \n <y/> -->\n<a><?pi <z/> ?>"
      "<![CDATA[<w>\n]]></a\n><!-- after -->\n";
  std::string document = text;
  document.replace(document.find("</a\n>"), 5, "<b q=\"1>2\"\n r='&lt;'/></a\n>");
  Diagnostics diagnostics;
  const auto root = parse(document, "markup.xml", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->where.line, 5);
  EXPECT_EQ(root->where.column, 1);
  EXPECT_EQ(root->text, "<w>\n");
  const XmlElement& b = root->children.at(0);
  EXPECT_EQ(b.where.line, 6);
  EXPECT_EQ(b.where.column, 4);
  EXPECT_EQ(b.attributeOr("q", ""), "1>2");
  EXPECT_EQ(b.attributes.at(1).where.line, 7);
  EXPECT_EQ(b.attributes.at(1).where.column, 2);
  EXPECT_EQ(b.attributeOr("r", ""), "<");
  expectPositionsPointAtNames(document);
}

TEST(XmlLocations, OtherEncodingsStillParseWithLinesFromXerces) {
  // UTF-16LE with a byte-order mark: the bytes are not UTF-8, so positions come from Xerces (just
  // after each start tag) but the tree is the same.
  const std::string ascii = "<a>\n<b x='1'/></a>";
  std::string utf16 = "\xFF\xFE";
  for (char c : ascii) {
    utf16 += c;
    utf16 += '\0';
  }
  Diagnostics diagnostics;
  const auto root = parse(utf16, "utf16.xml", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->name, "a");
  ASSERT_EQ(root->children.size(), 1u);
  EXPECT_EQ(root->children[0].name, "b");
  EXPECT_EQ(root->children[0].attributeOr("x", ""), "1");
  EXPECT_EQ(root->children[0].where.line, 2);
  EXPECT_GT(root->children[0].where.column, 0);
  EXPECT_EQ(root->children[0].where.file, "utf16.xml");
}

TEST(XmlTree, TextAndChildrenKeepTheirOrderAndMeaning) {
  Diagnostics diagnostics;
  const auto root = parse("<r>\n  <m>x<i/>y<i/> <i/>\n</m>\n  <m>  </m><m><i/></m><e/>\n</r>", "tree.xml", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->text, "");  // only layout between children
  ASSERT_EQ(root->children.size(), 4u);
  EXPECT_EQ(root->children[0].text, "xy");  // text around children is kept, layout after them is not
  EXPECT_EQ(root->children[0].children.size(), 3u);
  EXPECT_EQ(root->children[1].text, "  ");  // no children: all of it is content
  EXPECT_EQ(root->children[2].children.size(), 1u);
  EXPECT_TRUE(root->children[3].children.empty());
  EXPECT_EQ(root->children[3].name, "e");
}

TEST(XmlTree, ChildCountsThatVaryBetweenElementsOfOneName) {
  // Children vectors are reserved from the previous element of the same name; counts that go
  // down and up again must still come out exact.
  std::string text = "<r>";
  const int counts[] = {8, 1, 3, 0, 20, 2, 2};
  for (int count : counts) {
    text += "<m>";
    for (int i = 0; i < count; ++i) text += "<i n='" + std::to_string(i) + "'/>";
    text += "</m>";
  }
  text += "</r>";
  Diagnostics diagnostics;
  const auto root = parse(text, "counts.xml", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  ASSERT_EQ(root->children.size(), std::size(counts));
  for (std::size_t m = 0; m < std::size(counts); ++m) {
    const XmlElement& element = root->children[m];
    ASSERT_EQ(element.children.size(), static_cast<std::size_t>(counts[m]));
    for (int i = 0; i < counts[m]; ++i) EXPECT_EQ(element.children[i].attributeOr("n", ""), std::to_string(i));
  }
  expectPositionsPointAtNames(text);
}

TEST(XmlTree, ParsingAgainAfterAStoppedParseWorks) {
  std::string deep;
  for (int i = 0; i < 20; ++i) deep += "<e>";
  for (int i = 0; i < 20; ++i) deep += "</e>";
  ParseOptions shallow;
  shallow.maxDepth = 5;
  for (int round = 0; round < 3; ++round) {
    Diagnostics refused;
    EXPECT_FALSE(parse(deep, "deep.xml", refused, shallow));
    EXPECT_EQ(refused.size(), 1u);
    Diagnostics fine;
    EXPECT_TRUE(parse(deep, "deep.xml", fine)) << test::dump(fine);
  }
}

}  // namespace
}  // namespace interlink::xml
