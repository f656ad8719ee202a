#include "XmlBenchSupport.hpp"

#include <expat.h>

#include <memory>

#include "interlink/xml/XmlParser.hpp"

namespace interlink::bench {
namespace {

std::size_t countElements(const xml::XmlElement& element) {
  std::size_t count = 1;
  for (const xml::XmlElement& child : element.children) count += countElements(child);
  return count;
}

void countStartTag(void* count, const XML_Char*, const XML_Char**) { ++*static_cast<std::size_t*>(count); }

}  // namespace

std::string chainSdf(int links) {
  std::string out = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<model name=\"chain\">";
  for (int i = 0; i < links; ++i) {
    const std::string n = std::to_string(i);
    const std::string previous = std::to_string(i - 1);
    out += "\n  <link name=\"link_" + n + "\">\n    <pose";
    if (i > 0) out += " relative_to=\"link_" + previous + "\"";
    out += ">0 0 0.1 0 0.05 0</pose>\n    <inertial><mass>1.0</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy>"
           "<izz>0.01</izz></inertia></inertial>\n  </link>";
    out += "\n  <frame name=\"frame_" + n + "\" attached_to=\"link_" + n + "\"><pose>0.01 0 0 0 0 0</pose></frame>";
    if (i > 0) {
      out += "\n  <joint name=\"joint_" + n + "\" type=\"revolute\">\n    <parent>link_" + previous +
             "</parent><child>link_" + n +
             "</child>\n    <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>\n"
             "  </joint>";
    }
  }
  out += "\n</model>\n</sdf>";
  return out;
}

std::size_t parseAndDestroy(const std::string& content, const std::string& fileName) {
  Diagnostics diagnostics;
  const std::optional<xml::XmlElement> root = xml::parse(content, fileName, diagnostics);
  return root ? countElements(*root) : 0;
}

std::size_t expatFloor(const std::string& content, const std::string&) {
  std::size_t elements = 0;
  const std::unique_ptr<XML_ParserStruct, void (*)(XML_Parser)> parser(XML_ParserCreate(nullptr), XML_ParserFree);
  XML_SetUserData(parser.get(), &elements);
  XML_SetStartElementHandler(parser.get(), countStartTag);
  XML_Parse(parser.get(), content.data(), static_cast<int>(content.size()), XML_TRUE);
  return elements;
}

}  // namespace interlink::bench
