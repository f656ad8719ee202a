#include "interlink/xml/KeptNodes.hpp"

namespace interlink::xml {

KeptNode keptNodeOf(const XmlElement& element) {
  KeptNode node;
  node.name = element.name;
  node.attributes.reserve(element.attributes.size());
  for (const Attribute& attribute : element.attributes) node.attributes.emplace_back(attribute.name, attribute.value);
  node.text = element.trimmedText();
  node.children.reserve(element.children.size());
  for (const XmlElement& child : element.children) node.children.push_back(keptNodeOf(child));
  return node;
}

XmlElement elementOf(const KeptNode& node, const SourceLocation& where) {
  XmlElement element;
  element.name = node.name;
  element.where = where;
  element.attributes.reserve(node.attributes.size());
  for (const auto& [name, value] : node.attributes) element.attributes.push_back(Attribute{name, value, where});
  element.text = node.text;
  element.children.reserve(node.children.size());
  for (const KeptNode& child : node.children) element.children.push_back(elementOf(child, where));
  return element;
}

}  // namespace interlink::xml
