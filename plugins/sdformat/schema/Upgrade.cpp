#include "Upgrade.hpp"

#include <string_view>
#include <vector>

#include "SchemaData.hpp"

namespace interlink::sdformat::schema {
namespace {

using xml::XmlElement;

/// Every element at `path` ("world/model/link") below `e`.
void collect(XmlElement& e, std::string_view path, std::vector<XmlElement*>& out) {
  if (path.empty()) {
    out.push_back(&e);
    return;
  }
  const std::size_t slash = path.find('/');
  const std::string_view head = path.substr(0, slash);
  const std::string_view rest = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  for (XmlElement& child : e.children) {
    if (child.name == head) collect(child, rest, out);
  }
}

void apply(XmlElement& e, const RenameRule& rule) {
  XmlElement* holder = &e;
  std::size_t holderIndex = 0;
  if (rule.fromElement) {
    holder = nullptr;
    for (std::size_t i = 0; i < e.children.size(); ++i) {
      if (e.children[i].name == rule.fromElement) {
        holder = &e.children[i];
        holderIndex = i;
        break;
      }
    }
    if (!holder) return;
  }
  for (std::size_t a = 0; a < holder->attributes.size(); ++a) {
    if (holder->attributes[a].name != rule.fromAttribute) continue;
    XmlElement value;
    value.name = rule.toElement;
    value.text = holder->attributes[a].value;
    value.where = holder->attributes[a].where;
    holder->attributes.erase(holder->attributes.begin() + static_cast<std::ptrdiff_t>(a));
    const bool holderEmptied = rule.fromElement && holder->attributes.empty() && holder->children.empty();
    if (holderEmptied) {
      e.children[holderIndex] = std::move(value);  // <origin pose="..."/> becomes <pose>...</pose> in place
    } else {
      e.children.push_back(std::move(value));
    }
    return;
  }
}

}  // namespace

void upgradeFrom1_0(XmlElement& root) {
  const RenameRules rules = upgradeRules1_0();
  std::vector<XmlElement*> targets;
  for (std::size_t i = 0; i < rules.count; ++i) {
    targets.clear();
    const std::string_view path = rules.rules[i].path;
    collect(root, path, targets);
    // The rules name models inside a world; a 1.0 model file holds its model at the root.
    if (path.substr(0, 6) == "world/") collect(root, path.substr(6), targets);
    for (XmlElement* target : targets) apply(*target, rules.rules[i]);
  }
}

}  // namespace interlink::sdformat::schema
