// The fast reader (for plain well-formed documents) against expat: the same tree, location
// for location and text piece for text piece, and the same diagnostics, for every XML file the
// tests vendor and for shapes of input that are almost XML. Documents it
// does not take are read by expat; plain ones must not fall back (that would lose the speed).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xml {
namespace {

std::string describe(const XmlElement& e, int depth = 0) {
  std::string out(static_cast<std::size_t>(depth) * 2, ' ');
  out += "<" + e.name + "> " + std::to_string(e.where.line) + ":" + std::to_string(e.where.column) + " " +
         std::string(e.where.file) + "\n";
  for (const Attribute& a : e.attributes) {
    out += std::string(static_cast<std::size_t>(depth) * 2 + 2, ' ') + "@" + a.name + "=[" + a.value + "] " +
           std::to_string(a.where.line) + ":" + std::to_string(a.where.column) + " " + std::string(a.where.file) + "\n";
  }
  out += std::string(static_cast<std::size_t>(depth) * 2 + 2, ' ') + "text=[" + e.text + "]\n";
  for (const XmlElement& c : e.children) out += describe(c, depth + 1);
  return out;
}

struct Reading {
  std::string tree;  // empty when nothing was read
  std::string diagnostics;
  bool fast = false;
};

/// `collect`: with the comments and parent text lengths a reader like xacro's asks for.
Reading read(std::string_view content, bool fastReader, Tolerance tolerance, bool collect) {
  Reading reading;
  Diagnostics diagnostics;
  ParseOptions options = toleratingLike(tolerance);
  options.fastReader = fastReader;
  options.readByFastReader = &reading.fast;
  std::vector<XmlComment> comments;
  std::vector<std::size_t> lengths;
  if (collect) {
    options.comments = &comments;
    options.parentTextLengths = &lengths;
  }
  if (auto root = parse(content, "doc.xml", diagnostics, options)) reading.tree = describe(*root);
  reading.diagnostics = test::dump(diagnostics);
  for (const XmlComment& c : comments) {
    reading.tree += "comment [" + c.text + "] " + std::to_string(c.where.line) + ":" + std::to_string(c.where.column) +
                    " in " + std::to_string(c.parent) + " at " + std::to_string(c.index) + " before [" + c.textBefore +
                    "] after [" + c.textAfter + "]\n";
  }
  for (std::size_t length : lengths) reading.tree += "text length " + std::to_string(length) + "\n";
  return reading;
}

/// Reads `content` both ways and expects the same (with and without comments collected);
/// returns whether the fast reader took it.
bool sameBothWays(std::string_view content, Tolerance tolerance = Tolerance::None) {
  bool fastEachTime = true;
  for (const bool collect : {false, true}) {
    const Reading fast = read(content, true, tolerance, collect);
    const Reading expat = read(content, false, tolerance, collect);
    EXPECT_FALSE(expat.fast);
    EXPECT_EQ(fast.tree, expat.tree) << "input: " << content;
    EXPECT_EQ(fast.diagnostics, expat.diagnostics) << "input: " << content;
    fastEachTime = fastEachTime && fast.fast;
  }
  return fastEachTime;
}

TEST(XmlFastReader, ReadsPlainDocumentsAsExpatDoes) {
  const char* plain[] = {
      "<a/>",
      "<?xml version=\"1.0\"?>\n<robot name='r'>\n  <link name=\"l\"/>\n</robot>\n",
      "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><a x='1'\n   y = \"2\"\t/>",
      "\xEF\xBB\xBF<a>\xC3\xA9t\xC3\xA9 \xF0\x9F\xA4\x96</a>",
      "<!-- c --><a>x<!-- in -->y</a><!-- after -->\n",
      "<a>one &amp; &lt;two&gt; &quot;&apos; &#65;&#x42;&#xe9;</a>",
      "<a v='a&amp;b &#x3C; &gt;' w=\"tab\there\nline\"/>",
      "<a>\n  <b/>\n  text after a child\n  <c/> more &amp; more \n</a>",
      "<a>  lead <b/>   <c/>\n\n   </a>",
      "<a><b><c><d>deep</d></c></b></a>",
      "<a xmlns:g='urn:x'><g:b g:c='1'/></a>",
      "<a>&amp;  </a>",
      "<a><b/>  &amp;  x  &#65;\ty</a>",
      "<a>]]</a>",
      "<a>a ] b ]] c</a>",
      "<a x='&gt;'>&gt;</a>",
      "<a>\t</a>",
      "<a></a >",
      "<a>\xC2\x85</a>",
      "<!-- before --><a>x<!--c-->y<b/>z &amp; <!--d--><c>t<!---->u</c>\n  <!-- e -->\n</a>\n<!-- after -->",
      "<a>\xF0\x9F\xA4\x96 \xC3\xA9<!--c--><b x='\xF0\x9F\xA4\x96'/>\xF0\x9F\xA4\x96<!--d--></a>",
      "<robot xmlns:xacro='http://ros.org/wiki/xacro'>text <xacro:property name='p' value='1'/> ${p} more\n  <link/> tail</robot>",
      // The tags' grammar as the reader checks it itself.
      "<a x = '1' >t</a\n>", "<a\n/>", "<a\tx='1'\n/>", "<a x='1' />", "<a.b-c_d:e _f='\"'/>", "<_:a/>",
      "<a>x<!--c-->y<!--d-->z</a>", "<a><!--c--><!--d-->t<b/>u<!--e--></a>", "<a>x<!--c--></a>",
      "<a v=\"it's\" w='say \"hi\"'>&lt;/a&gt;</a>", "<a>\n<!--c-->\n<b/>\n<!--d-->\n</a>",
  };
  for (const char* content : plain) EXPECT_TRUE(sameBothWays(content)) << "not read fast: " << content;
}

TEST(XmlFastReader, LeavesWhatIsNotPlainXmlToExpat) {
  const char* notPlain[] = {
      "<a x='1' x='2'/>",          // duplicate attribute
      "<a x='a<b'/>",              // '<' in a value
      "<a>&foo;</a>",              // undefined entity
      "<a>a & b</a>",              // bare '&'
      "<a>&#0;</a>", "<a>&#xD800;</a>", "<a>&#x110000;</a>", "<a>&#;</a>", "<a>&#X41;</a>",
      "text<a/>",                  // text before the root
      "<a/>text",                  // text after it
      "<a/><b/>",                  // two roots
      "<a>x</a>junk",
      "<a></a>x</a>",
      "<a/>x<!-- c -->",
      "<a><!-- x -- y --></a>",    // "--" in a comment
      "<a><!-- x ---></a>",
      "<a>]]></a>",
      "<a>\x01</a>", "<a>\r\n</a>", "<a x='\r'/>",
      "<a>\xC3</a>", "<a>\xED\xA0\x80</a>", "<a>\xEF\xBF\xBF</a>", "<a>\xC0\xAF</a>",
      " <?xml version='1.0'?><a/>", "<a/><?xml version='1.0'?>", "<?xml version='1.1'?><a/>",
      "<?xml version='1.0' encoding='ISO-8859-1'?><a>\xE9</a>", "<?xml version='1.0' encoding='ASCII'?><a/>",
      "<?xml version='1.0'?><?pi x?><a/>", "<a><?pi?></a>",
      "<!DOCTYPE a><a/>", "<a><![CDATA[x]]></a>",
      "<a>&#32;</a>", "<a v='&#10;'/>",
      "<\xC3\xA9/>", "<a \xC3\xA9='1'/>",
      "", "   ", "<a", "<a>", "<a></b>", "<a b/>", "<a b=c/>", "<a x='1'y='2'/>", "<a>< b</a>", "<1a/>",
      "<a/ >", "<a x='1'/ >", "</a>", "<a></a b>", "<a></ab>", "<ab></a>", "<a><b></a></b>", "<a x=\"1'/>",
      "<a x>", "<a ='1'/>", "<-a/>", "<a -b='1'/>", "<a x='1' x ='1'/>", "<a></ a>", "<a>x</a><!-- c -->y",
      "<!-- c -->x<a/>", "<a x='1'>", "<a><b/>", "<a/></a>", "<a x='1'\x01/>",
  };
  for (const char* content : notPlain) {
    EXPECT_FALSE(sameBothWays(content)) << "read fast: " << content;
  }
  // Tolerated flaws are blanked first; the rest of such a document is plain.
  EXPECT_TRUE(sameBothWays("<robot><!-- a -- b --><link name='l'/></robot>", Tolerance::LikeTinyXml));
  EXPECT_TRUE(sameBothWays("  <?xml version='1.0'?><robot/>", Tolerance::LikeTinyXml));
  EXPECT_TRUE(sameBothWays("?xml version='1.0'?>\n<sdf/>", Tolerance::LikeTinyXml2));
}

// A tag's attributes are compared in place while they are few, then sorted: a duplicate is found
// in either regime, wherever it stands.
TEST(XmlFastReader, DuplicateAttributesAreFoundAmongFewAndMany) {
  for (const int count : {2, 16, 17, 40}) {
    std::string unique = "<a";
    for (int i = 0; i < count; ++i) unique += " n" + std::to_string(i) + "='" + std::to_string(i) + "'";
    SCOPED_TRACE(count);
    EXPECT_TRUE(sameBothWays(unique + "/>"));
    for (const int first : {0, count / 2, count - 1}) {
      EXPECT_FALSE(sameBothWays(unique + " n" + std::to_string(first) + "='again'/>"));
    }
    EXPECT_FALSE(sameBothWays("<a n='x'" + unique.substr(2) + " n='y'/>"));
  }
}

// The check of the bytes goes sixteen at a time: what must stop it stops it at every offset.
TEST(XmlFastReader, ByteChecksHoldAtEveryOffsetOfABlock) {
  for (std::size_t before = 0; before < 40; ++before) {
    const std::string pad(before, 'x');
    SCOPED_TRACE(before);
    EXPECT_FALSE(sameBothWays("<a>" + pad + "\x01</a>"));
    EXPECT_FALSE(sameBothWays("<a>" + pad + "\r\n</a>"));
    EXPECT_FALSE(sameBothWays("<a>" + pad + "\xC3</a>"));
    EXPECT_FALSE(sameBothWays("<a>" + pad + "]]></a>"));
    EXPECT_FALSE(sameBothWays("<a>" + pad + "&bad;</a>"));
    EXPECT_FALSE(sameBothWays("<a v='" + pad + "\x7F\x80'/>"));
    EXPECT_TRUE(sameBothWays("<a>" + pad + "\xC3\xA9\t\n" + pad + "&amp;]<b/>" + pad + "</a>"));
  }
}

TEST(XmlFastReader, LimitsHoldOnEitherPath) {
  std::string deep;
  for (int i = 0; i < 600; ++i) deep += "<e>";
  for (int i = 0; i < 600; ++i) deep += "</e>";
  EXPECT_FALSE(sameBothWays(deep));  // deeper than ParseOptions::maxDepth: expat's error
  std::string fine;
  for (int i = 0; i < 500; ++i) fine += "<e>";
  for (int i = 0; i < 500; ++i) fine += "</e>";
  EXPECT_TRUE(sameBothWays(fine));
}

/// Reads every XML file under `root` both ways; returns {files, read fast}.
std::pair<std::size_t, std::size_t> compareFilesUnder(const std::string& root) {
  namespace fs = std::filesystem;
  std::size_t files = 0, fast = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.file_size() > (4u << 20)) continue;
    const std::string extension = entry.path().extension().string();
    if (extension != ".urdf" && extension != ".sdf" && extension != ".xml" && extension != ".xacro" &&
        extension != ".world" && extension != ".config" && extension != ".dae" && extension != ".skel") {
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SCOPED_TRACE(entry.path().string());
    ++files;
    if (sameBothWays(content)) ++fast;
  }
  return {files, fast};
}

TEST(XmlFastReader, EveryVendoredXmlFileReadsTheSameBothWays) {
  const auto [files, fast] = compareFilesUnder(test::sourceDir() + "/tests/data");
  std::printf("%zu of %zu vendored XML files read fast\n", fast, files);
  EXPECT_GT(files, 200u);
  // Nearly all real files are plain (the others: CR LF line ends, other encodings, CDATA, DOCTYPE).
  EXPECT_GT(fast * 10, files * 8) << fast << " of " << files << " read fast";
}

TEST(XmlFastReader, EveryCorpusXmlFileReadsTheSameBothWays) {
  if (!test::hasCorpus()) GTEST_SKIP() << "no external corpus (INTERLINK_TEST_CORPUS)";
  const auto [files, fast] = compareFilesUnder(test::externalCorpus());
  std::printf("%zu of %zu corpus XML files read fast\n", fast, files);
  EXPECT_GT(files, 500u);
  EXPECT_GT(fast * 10, files * 7) << fast << " of " << files << " read fast";
}

}  // namespace
}  // namespace interlink::xml
