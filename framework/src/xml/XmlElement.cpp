// XmlElement queries and re-serialisation.
#include "interlink/xml/XmlElement.hpp"

namespace interlink::xml {
namespace {

bool isXmlSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void appendEscaped(std::string& out, std::string_view text, bool inAttribute) {
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"':
        if (inAttribute) {
          out += "&quot;";
        } else {
          out += c;
        }
        break;
      // Attribute values are normalised by readers; keep line breaks and tabs as references.
      case '\n':
        if (inAttribute) {
          out += "&#10;";
        } else {
          out += c;
        }
        break;
      case '\r': out += "&#13;"; break;
      case '\t':
        if (inAttribute) {
          out += "&#9;";
        } else {
          out += c;
        }
        break;
      default: out += c;
    }
  }
}

void serialise(const XmlElement& element, std::string& out) {
  out += '<';
  out += element.name;
  for (const Attribute& attribute : element.attributes) {
    out += ' ';
    out += attribute.name;
    out += "=\"";
    appendEscaped(out, attribute.value, true);
    out += '"';
  }
  if (element.children.empty() && element.text.empty()) {
    out += "/>";
    return;
  }
  out += '>';
  if (element.children.empty()) {
    appendEscaped(out, element.text, false);
  } else {
    // Text interleaved with children was concatenated on reading; white space between children
    // carries no meaning, other text is written before the children.
    const std::string trimmed = element.trimmedText();
    appendEscaped(out, trimmed, false);
    for (const XmlElement& child : element.children) serialise(child, out);
  }
  out += "</";
  out += element.name;
  out += '>';
}

}  // namespace

const Attribute* XmlElement::attribute(std::string_view attributeName) const {
  for (const Attribute& a : attributes) {
    if (a.name == attributeName) return &a;
  }
  return nullptr;
}

std::string XmlElement::attributeOr(std::string_view attributeName, std::string_view fallback) const {
  const Attribute* found = attribute(attributeName);
  return found ? found->value : std::string(fallback);
}

const XmlElement* XmlElement::child(std::string_view childName) const {
  for (const XmlElement& c : children) {
    if (c.name == childName) return &c;
  }
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::childrenNamed(std::string_view childName) const {
  std::vector<const XmlElement*> found;
  for (const XmlElement& c : children) {
    if (c.name == childName) found.push_back(&c);
  }
  return found;
}

std::string XmlElement::trimmedText() const {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && isXmlSpace(text[begin])) ++begin;
  while (end > begin && isXmlSpace(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

bool XmlElement::isNamespaced() const { return name.find(':') != std::string::npos; }

std::string XmlElement::toXml() const {
  std::string out;
  serialise(*this, out);
  return out;
}

}  // namespace interlink::xml
