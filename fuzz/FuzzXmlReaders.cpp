// libFuzzer harness for the XML reader's two paths: whatever the fast reader (for plain
// documents) takes, expat must read to the same tree, locations, comments and text lengths, with
// the same diagnostics; a difference aborts. Inputs it does not take are read by expat alone.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "interlink/xml/XmlParser.hpp"

namespace {

using namespace interlink;

void describe(const xml::XmlElement& e, std::string& out) {
  out += '<' + e.name + '@' + std::to_string(e.where.line) + ':' + std::to_string(e.where.column) + '\n';
  for (const xml::Attribute& a : e.attributes) {
    out += a.name + '=' + a.value + '@' + std::to_string(a.where.line) + ':' + std::to_string(a.where.column) + '\n';
  }
  out += "text " + e.text + '\n';
  for (const xml::XmlElement& c : e.children) describe(c, out);
  out += ">\n";
}

std::string read(std::string_view text, bool fast, bool collect, xml::Tolerance tolerance, bool& readFast) {
  Diagnostics diagnostics;
  xml::ParseOptions options = xml::toleratingLike(tolerance);
  options.fastReader = fast;
  options.readByFastReader = &readFast;
  options.maxDepth = 64;
  std::vector<xml::XmlComment> comments;
  std::vector<std::size_t> lengths;
  if (collect) {
    options.comments = &comments;
    options.parentTextLengths = &lengths;
  }
  std::string out;
  if (auto root = xml::parse(text, "fuzz.xml", diagnostics, options)) describe(*root, out);
  for (const Diagnostic& d : diagnostics) out += d.message + '@' + std::to_string(d.where.line) + ':' + std::to_string(d.where.column) + '\n';
  for (const xml::XmlComment& c : comments) {
    out += "comment " + c.text + '@' + std::to_string(c.where.line) + ':' + std::to_string(c.where.column) + ' ' +
           std::to_string(c.parent) + ' ' + std::to_string(c.index) + " [" + c.textBefore + "][" + c.textAfter + "]\n";
  }
  for (std::size_t length : lengths) out += std::to_string(length) + ' ';
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the options: comments collected or not, and whose leniency.
  const bool collect = data[0] & 1;
  const xml::Tolerance tolerance = (data[0] & 6) == 2 ? xml::Tolerance::LikeTinyXml
                                   : (data[0] & 6) == 4 ? xml::Tolerance::LikeTinyXml2
                                                        : xml::Tolerance::None;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  bool fastRead = false, expatRead = false;
  const std::string fast = read(text, true, collect, tolerance, fastRead);
  const std::string expat = read(text, false, collect, tolerance, expatRead);
  if (expatRead || fast != expat) {
    // Both readings, so that a finding says what differs.
    std::fprintf(stderr, "fast reader (%s):\n%s\nexpat:\n%s\n", fastRead ? "read" : "declined", fast.c_str(), expat.c_str());
    std::abort();
  }
  return 0;
}
