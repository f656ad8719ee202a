// The hardened XML reader: locations, malformed input, entity and DOCTYPE refusal, depth limit,
// re-serialisation.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xml {
namespace {

const Diagnostic& onlyError(const Diagnostics& diagnostics) {
  EXPECT_EQ(diagnostics.size(), 1u) << test::dump(diagnostics);
  return diagnostics.items().front();
}

TEST(XmlParser, BuildsTreeWithTextAndAttributes) {
  Diagnostics diagnostics;
  const auto root = parse("<sdf version=\"1.9\">\n  <model name='m'>\n    <pose>1 2 3 0 0 0</pose>\n  </model>\n</sdf>\n",
                          "a.sdf", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_TRUE(diagnostics.empty());
  EXPECT_EQ(root->name, "sdf");
  EXPECT_EQ(root->attributeOr("version", ""), "1.9");
  EXPECT_EQ(root->attributeOr("missing", "fallback"), "fallback");
  const XmlElement* model = root->child("model");
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->attributeOr("name", ""), "m");
  ASSERT_NE(model->child("pose"), nullptr);
  EXPECT_EQ(model->child("pose")->text, "1 2 3 0 0 0");
  EXPECT_EQ(model->child("pose")->trimmedText(), "1 2 3 0 0 0");
  EXPECT_EQ(root->childrenNamed("model").size(), 1u);
  EXPECT_EQ(root->child("link"), nullptr);
}

TEST(XmlParser, ReportsCommentsWithTheirPlacesWhenAsked) {
  // Comments are not in the tree; a reader that keeps them (xacro) gets each with its parent (by
  // document order), the number of child elements before it and the text on either side.
  const std::string text = "<!--a-->\n<r>t <!--b-->\n <c><!--c--></c><!--d-->\n\n<e/></r><!--e-->";
  std::vector<XmlComment> comments;
  ParseOptions options;
  options.comments = &comments;
  Diagnostics diagnostics;
  const auto root = parse(text, "c.xml", diagnostics, options);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  ASSERT_EQ(comments.size(), 5u);
  EXPECT_EQ(comments[0].text, "a");
  EXPECT_EQ(comments[0].parent, XmlComment::kOutsideRoot);
  EXPECT_EQ(comments[0].index, 0u);
  EXPECT_EQ(comments[1].text, "b");
  EXPECT_EQ(comments[1].parent, 0u);
  EXPECT_EQ(comments[1].index, 0u);
  EXPECT_EQ(comments[1].textBefore, "t ");
  EXPECT_EQ(comments[1].textAfter, "\n ");
  EXPECT_EQ(comments[1].where.line, 2);
  EXPECT_EQ(comments[2].parent, 1u);  // inside <c>, the second element in document order
  EXPECT_EQ(comments[2].index, 0u);
  EXPECT_EQ(comments[3].text, "d");
  EXPECT_EQ(comments[3].parent, 0u);
  EXPECT_EQ(comments[3].index, 1u);  // after <c>
  EXPECT_EQ(comments[3].textAfter, "\n\n");
  EXPECT_EQ(comments[4].parent, XmlComment::kOutsideRoot);
  EXPECT_EQ(comments[4].index, 1u);
  // The tree is the same as without the option.
  Diagnostics quiet;
  const auto plain = parse(text, "c.xml", quiet);
  ASSERT_TRUE(plain);
  EXPECT_EQ(root->toXml(), plain->toXml());
  EXPECT_EQ(root->text, plain->text);
}

TEST(XmlParser, ReportsWhereEachElementBeganInItsParentsTextWhenAsked) {
  // Mixed content: the parent's text is one string; a reader that evaluates text in document
  // order (xacro) splits it where each child began.
  const std::string text = "<r>one<a>in a</a>two<b/>three<c><d/>x</c></r>";
  std::vector<std::size_t> lengths;
  ParseOptions options;
  options.parentTextLengths = &lengths;
  Diagnostics diagnostics;
  const auto root = parse(text, "m.xml", diagnostics, options);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->text, "onetwothree");
  // r, a, b, c, d in document order: a began after "one", b after "onetwo", c after "onetwothree";
  // d began when <c> had no text yet.
  EXPECT_EQ(lengths, (std::vector<std::size_t>{0, 3, 6, 11, 0}));
  EXPECT_EQ(root->children[2].text, "x");
}

TEST(XmlParser, RecordsStartTagAndAttributeLocations) {
  Diagnostics diagnostics;
  const std::string text =
      "<?xml version=\"1.0\"?>\n"
      "<sdf version=\"1.9\">\n"
      "  <model name=\"m\"\n"
      "         canonical_link=\"l\">\n"
      "    <link name=\"l\"/>\t<frame  name=\"f\"></frame>\r\n"
      "    <é x=\"1\"/><joint name=\"j\"/>\n"
      "  </model>\n"
      "</sdf>\n";
  const auto root = parse(text, "/tmp/locations.sdf", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->where.file, "/tmp/locations.sdf");
  EXPECT_EQ(root->where.line, 2);
  EXPECT_EQ(root->where.column, 1);
  ASSERT_EQ(root->attributes.size(), 1u);
  EXPECT_EQ(root->attributes[0].where.line, 2);
  EXPECT_EQ(root->attributes[0].where.column, 6);

  const XmlElement& model = root->children.at(0);
  EXPECT_EQ(model.where.line, 3);
  EXPECT_EQ(model.where.column, 3);
  ASSERT_NE(model.attribute("canonical_link"), nullptr);
  EXPECT_EQ(model.attribute("name")->where.line, 3);
  EXPECT_EQ(model.attribute("name")->where.column, 10);
  EXPECT_EQ(model.attribute("canonical_link")->where.line, 4);
  EXPECT_EQ(model.attribute("canonical_link")->where.column, 10);

  ASSERT_EQ(model.children.size(), 4u);
  EXPECT_EQ(model.children[0].name, "link");
  EXPECT_EQ(model.children[0].where.line, 5);
  EXPECT_EQ(model.children[0].where.column, 5);
  EXPECT_EQ(model.children[1].name, "frame");
  EXPECT_EQ(model.children[1].where.line, 5);
  EXPECT_EQ(model.children[1].where.column, 22);
  EXPECT_EQ(model.children[1].attributes.at(0).where.column, 30);
  // A two-byte UTF-8 name counts as one column.
  EXPECT_EQ(model.children[2].name, "é");
  EXPECT_EQ(model.children[2].where.line, 6);
  EXPECT_EQ(model.children[2].where.column, 5);
  EXPECT_EQ(model.children[3].where.line, 6);
  EXPECT_EQ(model.children[3].where.column, 15);
}

TEST(XmlParser, MalformedXmlGivesOneSyntaxErrorWithLineAndColumn) {
  Diagnostics diagnostics;
  const auto root = parse("<sdf version=\"1.9\">\n  <model name=\"m\">\n  </modl>\n</sdf>\n", "bad.sdf", diagnostics);
  EXPECT_FALSE(root);
  const Diagnostic& error = onlyError(diagnostics);
  EXPECT_EQ(error.code, ErrorCode::XML_SYNTAX);
  EXPECT_EQ(error.where.file, "bad.sdf");
  EXPECT_EQ(error.where.line, 3);
  EXPECT_GT(error.where.column, 0);
  EXPECT_NE(error.message.find("model"), std::string::npos) << error.message;
}

TEST(XmlParser, MalformedCorpusFile) {
  const std::string path = test::vendored("sdformat/test/sdf/invalid_xml_syntax.sdf");
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Diagnostics diagnostics;
  EXPECT_FALSE(parse(content, path, diagnostics));
  const Diagnostic& error = onlyError(diagnostics);
  EXPECT_EQ(error.code, ErrorCode::XML_SYNTAX);
  EXPECT_GT(error.where.line, 0);
  EXPECT_GT(error.where.column, 0);
}

TEST(XmlParser, EmptyAndBinaryInputAreSyntaxErrors) {
  Diagnostics empty;
  EXPECT_FALSE(parse("", "empty.sdf", empty));
  EXPECT_EQ(onlyError(empty).code, ErrorCode::XML_SYNTAX);

  Diagnostics binary;
  static const char kElfStart[] = "\x7f" "ELF\x02\x01\x01\0\0\0\xff\xfe\x00\x01";
  const std::string bytes(kElfStart, sizeof kElfStart - 1);  // every byte, NULs included
  EXPECT_FALSE(parse(bytes, "binary.sdf", binary));
  EXPECT_EQ(onlyError(binary).code, ErrorCode::XML_SYNTAX);
}

TEST(XmlParser, BareDoctypeIsAcceptedButNotOneWithSubset) {
  // A DOCTYPE that declares nothing is harmless.
  Diagnostics bare;
  EXPECT_TRUE(parse("<?xml version=\"1.0\"?>\n<!DOCTYPE sdf>\n<sdf/>", "doctype.sdf", bare)) << test::dump(bare);

  Diagnostics diagnostics;
  EXPECT_FALSE(parse("<?xml version=\"1.0\"?>\n<!DOCTYPE sdf [ <!ELEMENT sdf ANY> ]>\n<sdf/>", "doctype.sdf",
                     diagnostics));
  const Diagnostic& error = onlyError(diagnostics);
  EXPECT_EQ(error.code, ErrorCode::XML_SYNTAX);
  EXPECT_EQ(error.where.line, 2);
  EXPECT_NE(error.message.find("DOCTYPE"), std::string::npos) << error.message;
}

TEST(XmlParser, EntityExpansionBombIsRefused) {
  std::string bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n";
  bomb += "<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n";
  for (int i = 2; i <= 9; ++i) {
    bomb += "<!ENTITY lol" + std::to_string(i) + " \"";
    for (int k = 0; k < 10; ++k) bomb += "&lol" + std::to_string(i - 1) + ";";
    bomb += "\">\n";
  }
  bomb += "]>\n<sdf a=\"&lol9;\">&lol9;</sdf>\n";
  Diagnostics diagnostics;
  EXPECT_FALSE(parse(bomb, "bomb.sdf", diagnostics));
  EXPECT_EQ(onlyError(diagnostics).code, ErrorCode::XML_SYNTAX);
}

TEST(XmlParser, ExternalEntityIsNotLoaded) {
  const std::string secretPath = ::testing::TempDir() + "interlink_xml_secret.txt";
  {
    std::ofstream secret(secretPath);
    secret << "SECRET-CONTENT";
  }
  const std::string text = "<?xml version=\"1.0\"?>\n<!DOCTYPE sdf [<!ENTITY xxe SYSTEM \"file://" + secretPath +
                           "\">]>\n<sdf version=\"1.9\">&xxe;</sdf>\n";
  Diagnostics diagnostics;
  const auto root = parse(text, "xxe.sdf", diagnostics);
  EXPECT_FALSE(root);
  EXPECT_EQ(onlyError(diagnostics).code, ErrorCode::XML_SYNTAX);
  for (const Diagnostic& d : diagnostics) EXPECT_EQ(d.message.find("SECRET-CONTENT"), std::string::npos);
  std::remove(secretPath.c_str());
}

TEST(XmlParser, ExternalDtdIsNotLoaded) {
  Diagnostics diagnostics;
  EXPECT_FALSE(parse("<!DOCTYPE sdf SYSTEM \"http://127.0.0.1:9/never.dtd\">\n<sdf/>", "dtd.sdf", diagnostics));
  EXPECT_EQ(onlyError(diagnostics).code, ErrorCode::XML_SYNTAX);
}

TEST(XmlParser, UndeclaredEntityIsAnError) {
  Diagnostics diagnostics;
  EXPECT_FALSE(parse("<a>\n  &x;</a>", "u.xml", diagnostics));
  const Diagnostic& error = onlyError(diagnostics);
  EXPECT_EQ(error.code, ErrorCode::XML_SYNTAX);
  EXPECT_EQ(error.where.line, 2);
}

TEST(XmlParser, NestingDepthIsBounded) {
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "<e>";
  for (int i = 0; i < 40; ++i) deep += "</e>";
  ParseOptions options;
  options.maxDepth = 32;
  Diagnostics diagnostics;
  EXPECT_FALSE(parse(deep, "deep.xml", diagnostics, options));
  const Diagnostic& error = onlyError(diagnostics);
  EXPECT_EQ(error.code, ErrorCode::XML_SYNTAX);
  EXPECT_EQ(error.where.line, 1);
  EXPECT_EQ(error.where.column, 32 * 3 + 1);

  Diagnostics within;
  options.maxDepth = 40;
  EXPECT_TRUE(parse(deep, "deep.xml", within, options)) << test::dump(within);
}

TEST(XmlParser, PredefinedEntitiesAndCharacterReferencesAreRead) {
  Diagnostics diagnostics;
  const auto root = parse("<a v=\"&lt;&amp;&#65;&quot;\">x &gt; y<![CDATA[<z>]]></a>", "e.xml", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->attributeOr("v", ""), "<&A\"");
  EXPECT_EQ(root->text, "x > y<z>");
}

TEST(XmlParser, NamespacedNamesAreKeptAsWritten) {
  Diagnostics diagnostics;
  const auto root = parse("<sdf xmlns:custom=\"http://x\"><custom:thing custom:a=\"1\"/><undeclared:e/></sdf>",
                          "ns.sdf", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  EXPECT_EQ(root->attributeOr("xmlns:custom", ""), "http://x");
  ASSERT_EQ(root->children.size(), 2u);
  EXPECT_EQ(root->children[0].name, "custom:thing");
  EXPECT_TRUE(root->children[0].isNamespaced());
  EXPECT_EQ(root->children[0].attributeOr("custom:a", ""), "1");
  EXPECT_EQ(root->children[1].name, "undeclared:e");
  EXPECT_FALSE(root->isNamespaced());
}

TEST(XmlParser, ReserialisesWithEscaping) {
  Diagnostics diagnostics;
  const auto root = parse("<k a=\"x&quot;&lt;y&amp;\"><c>1 &lt; 2 &amp; 3</c><e/><ns:f>t</ns:f></k>", "r.xml",
                          diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  const std::string xml = root->toXml();
  EXPECT_EQ(xml, "<k a=\"x&quot;&lt;y&amp;\"><c>1 &lt; 2 &amp; 3</c><e/><ns:f>t</ns:f></k>");
  // And it reads back to the same tree.
  Diagnostics again;
  const auto reread = parse(xml, "r2.xml", again);
  ASSERT_TRUE(reread) << test::dump(again);
  EXPECT_EQ(reread->attributeOr("a", ""), "x\"<y&");
  EXPECT_EQ(reread->child("c")->text, "1 < 2 & 3");
  EXPECT_EQ(reread->toXml(), xml);
}

// The parser puts every element and attribute list of a tree in one arena (one block sized by
// its pre-parse scan). Readers still move, copy and change trees as they like: these are the
// uses that must keep working after the tree they came from is gone.
TEST(XmlParser, ListsMovedOutOfATreeOutliveIt) {
  std::vector<XmlElement> moved;
  {
    Diagnostics diagnostics;
    auto root = parse("<mujoco><body name='a'><geom size='1'/><geom size='2'/></body><body name='b'/></mujoco>",
                      "inc.xml", diagnostics);
    ASSERT_TRUE(root) << test::dump(diagnostics);
    moved.assign(std::make_move_iterator(root->children.begin()), std::make_move_iterator(root->children.end()));
  }  // the tree's root is destroyed here; its children's lists were moved out
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(moved[0].attributeOr("name", ""), "a");
  ASSERT_EQ(moved[0].children.size(), 2u);
  EXPECT_EQ(moved[0].children[1].attributeOr("size", ""), "2");
  moved[0].children.emplace_back().name = "site";  // and they can still grow
  EXPECT_EQ(moved[0].children.back().name, "site");
  EXPECT_EQ(moved[0].toXml(), "<body name=\"a\"><geom size=\"1\"/><geom size=\"2\"/><site/></body>");
}

TEST(XmlParser, CopiesOfAParsedTreeAreIndependentOfIt) {
  std::optional<XmlElement> copy;
  {
    Diagnostics diagnostics;
    const auto root = parse("<a x='1'><b><c/></b><b/></a>", "c.xml", diagnostics);
    ASSERT_TRUE(root) << test::dump(diagnostics);
    copy = *root;
    // A copy's lists come from the heap, not from the tree's arena.
    EXPECT_NE(copy->children.get_allocator(), root->children.get_allocator());
    EXPECT_EQ(copy->children.get_allocator().arena().get(), nullptr);
  }
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->toXml(), "<a x=\"1\"><b><c/></b><b/></a>");
}

TEST(XmlParser, ListsOfATreeDroppedByManyThreadsFreeTheArenaOnce) {
  // Each list holds a one-pointer reference on the arena (two per element, so its size matters);
  // the count is atomic: pieces of one tree may be dropped by different threads.
  static_assert(sizeof(detail::TreeArenaRef) == sizeof(void*));
  Diagnostics diagnostics;
  auto root = parse("<a><b><c/><c/></b><b><c/></b><b/><b/></a>", "t.xml", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  std::vector<XmlElement::Children> pieces;
  for (XmlElement& b : root->children) pieces.push_back(std::move(b.children));
  root.reset();  // the pieces keep the arena
  EXPECT_EQ(pieces[0].size(), 2u);
  std::vector<std::thread> threads;
  for (auto& piece : pieces) {
    // Read and dropped there (growing would allocate from the arena, which one thread owns).
    threads.emplace_back([list = std::move(piece)] {
      for (const XmlElement& c : list) EXPECT_EQ(c.name, "c");
    });
  }
  for (std::thread& t : threads) t.join();
}

TEST(XmlParser, AThreadParsesItsNextTreeIntoTheBlockItsLastTreeGaveBack) {
#ifdef INTERLINK_TREE_ARENA_POISONS
  GTEST_SKIP() << "under AddressSanitizer every arena block is the heap's, to report uses after release";
#else
  // A host loading descriptions again and again must not take the tree's block from the heap and
  // give it back at every load (with glibc's malloc that moved the program break up and down and
  // faulted the pages in again): the thread keeps the block for its next tree.
  const std::string text = "<robot name='r'><link name='a'/><link name='b'/></robot>";
  Diagnostics diagnostics;
  const void* first = nullptr;
  {
    const auto root = parse(text, "r.urdf", diagnostics);
    ASSERT_TRUE(root) << test::dump(diagnostics);
    first = root->children.data();
  }
  // Meanwhile the thread allocates blocks of every size around the tree's: one of them would be
  // the freed block, were it given back to the heap.
  std::vector<std::unique_ptr<char[]>> meanwhile;
  for (std::size_t bytes = 256; bytes <= 4096; bytes += 8) meanwhile.emplace_back(new char[bytes]);
  const auto again = parse(text, "r.urdf", diagnostics);
  ASSERT_TRUE(again) << test::dump(diagnostics);
  EXPECT_EQ(static_cast<const void*>(again->children.data()), first);
  EXPECT_EQ(again->children[1].attributeOr("name", ""), "b");
  // A tree built while another holds the spare takes a block of its own.
  const auto third = parse(text, "r.urdf", diagnostics);
  ASSERT_TRUE(third) << test::dump(diagnostics);
  EXPECT_NE(static_cast<const void*>(third->children.data()), first);
  EXPECT_EQ(third->toXml(), again->toXml());
#endif
}

TEST(XmlParser, TreeGrowsPastItsArenaEstimate) {
  // A reader that adds many elements after the parse (SDFormat's version upgrade and
  // unflattening do) outgrows the block the scan sized; the tree keeps working.
  Diagnostics diagnostics;
  auto root = parse("<model><link name='l0'/></model>", "g.sdf", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  ASSERT_NE(root->children.get_allocator().arena().get(), nullptr);  // the parser's arena
  for (int i = 1; i <= 20000; ++i) {
    XmlElement& link = root->children.emplace_back();
    link.name = "link";
    link.attributes.push_back(Attribute{"name", "l" + std::to_string(i), {}});
  }
  ASSERT_EQ(root->children.size(), 20001u);
  EXPECT_EQ(root->children[0].attributeOr("name", ""), "l0");
  EXPECT_EQ(root->children[12345].attributeOr("name", ""), "l12345");
  EXPECT_EQ(root->children.back().attributeOr("name", ""), "l20000");
}

TEST(XmlParser, LargeTreeReadsTheSameAsItsText) {
  // Thousands of elements and attributes, all in the arena: every one is where the text says.
  std::string text = "<sdf version='1.9'><model name='chain'>";
  for (int i = 0; i < 5000; ++i) {
    text += "<link name='link_" + std::to_string(i) + "'><pose relative_to='x'>" + std::to_string(i) +
            " 0 0 0 0 0</pose></link>";
  }
  text += "</model></sdf>";
  Diagnostics diagnostics;
  const auto root = parse(text, "big.sdf", diagnostics);
  ASSERT_TRUE(root) << test::dump(diagnostics);
  const XmlElement* model = root->child("model");
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(model->children.size(), 5000u);
  for (int i = 0; i < 5000; i += 499) {
    const XmlElement& link = model->children[static_cast<std::size_t>(i)];
    EXPECT_EQ(link.attributeOr("name", ""), "link_" + std::to_string(i));
    ASSERT_EQ(link.children.size(), 1u);
    EXPECT_EQ(link.children[0].attributeOr("relative_to", ""), "x");
    EXPECT_EQ(link.children[0].text, std::to_string(i) + " 0 0 0 0 0");
  }
}

}  // namespace
}  // namespace interlink::xml
