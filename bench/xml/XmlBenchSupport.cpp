#include "XmlBenchSupport.hpp"

#include <xercesc/framework/MemBufInputSource.hpp>
#include <xercesc/sax2/DefaultHandler.hpp>
#include <xercesc/sax2/SAX2XMLReader.hpp>
#include <xercesc/sax2/XMLReaderFactory.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/XMLUni.hpp>

#include <memory>

#include "interlink/xml/XmlParser.hpp"

namespace interlink::bench {
namespace {

namespace xc = XERCES_CPP_NAMESPACE;

std::size_t countElements(const xml::XmlElement& element) {
  std::size_t count = 1;
  for (const xml::XmlElement& child : element.children) count += countElements(child);
  return count;
}

class CountingHandler : public xc::DefaultHandler {
 public:
  void startElement(const XMLCh* const, const XMLCh* const, const XMLCh* const, const xc::Attributes&) override {
    ++elements;
  }
  std::size_t elements = 0;
};

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

std::size_t xercesFloor(const std::string& content, const std::string& fileName) {
  static const bool ready = [] {
    xc::XMLPlatformUtils::Initialize();
    return true;
  }();
  (void)ready;
  CountingHandler handler;
  std::unique_ptr<xc::SAX2XMLReader> reader(xc::XMLReaderFactory::createXMLReader());
  reader->setFeature(xc::XMLUni::fgSAX2CoreNameSpaces, false);
  reader->setFeature(xc::XMLUni::fgSAX2CoreValidation, false);
  reader->setProperty(xc::XMLUni::fgXercesScannerName, const_cast<XMLCh*>(xc::XMLUni::fgWFXMLScanner));
  reader->setContentHandler(&handler);
  reader->setErrorHandler(&handler);
  xc::MemBufInputSource source(reinterpret_cast<const XMLByte*>(content.data()), content.size(), fileName.c_str(),
                               false);
  reader->parse(source);
  return handler.elements;
}

}  // namespace interlink::bench
