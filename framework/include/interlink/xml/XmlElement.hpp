#pragma once
// A small read-only XML tree that remembers where every element and attribute was written.
// Built by interlink::xml::parse (expat underneath); shared by every XML-based plugin.
#include <string>
#include <string_view>
#include <vector>

#include "interlink/SourceLocation.hpp"
#include "interlink/Export.hpp"

namespace interlink::xml {

struct Attribute {
  std::string name;   // qualified, as written ("xmlns:foo", "name")
  std::string value;
  SourceLocation where;
};

class INTERLINK_API XmlElement {
 public:
  std::string name;  // qualified, as written ("link", "ignition:foo")
  std::vector<Attribute> attributes;
  std::vector<XmlElement> children;
  std::string text;  // character data directly inside this element, concatenated, untrimmed
  SourceLocation where;

  const Attribute* attribute(std::string_view attributeName) const;
  /// Attribute value or `fallback` when absent.
  std::string attributeOr(std::string_view attributeName, std::string_view fallback) const;
  /// First child with that name, or null.
  const XmlElement* child(std::string_view childName) const;
  std::vector<const XmlElement*> childrenNamed(std::string_view childName) const;
  /// `text` without leading and trailing white space.
  std::string trimmedText() const;
  /// True when the name has a namespace prefix ("prefix:local").
  bool isNamespaced() const;
  /// The element re-serialised as XML (for elements kept but not interpreted).
  std::string toXml() const;
};

}  // namespace interlink::xml
