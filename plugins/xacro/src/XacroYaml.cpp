// xacro.load_yaml: YAML through yaml-cpp, with scalars typed as PyYAML's safe loader types them
// (YAML 1.1 core rules), since xacro files index and compute with those values.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <regex>

#include "XacroExpander.hpp"

namespace interlink::xacro {

namespace {

class NoNames : public Environment {
 public:
  bool lookup(const std::string& name, Value& out) override { return builtinGlobal(name, out); }
};

std::string withoutUnderscores(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c != '_') out += c;
  }
  return out;
}

/// A plain scalar typed by PyYAML's implicit resolvers.
Value plainScalar(const std::string& s) {
  static const std::regex kNull("~|null|Null|NULL|");
  static const std::regex kTrue("yes|Yes|YES|true|True|TRUE|on|On|ON");
  static const std::regex kFalse("no|No|NO|false|False|FALSE|off|Off|OFF");
  static const std::regex kInt("[-+]?(0|[1-9][0-9_]*)");
  static const std::regex kFloat(
      "[-+]?([0-9][0-9_]*)\\.[0-9_]*([eE][-+][0-9]+)?|\\.[0-9_]+([eE][-+][0-9]+)?|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
  if (std::regex_match(s, kNull)) return Value();
  if (std::regex_match(s, kTrue)) return true;
  if (std::regex_match(s, kFalse)) return false;
  if (std::regex_match(s, kInt)) {
    std::int64_t i = 0;
    if (parsePythonInt(withoutUnderscores(s), i)) return i;
  }
  if (std::regex_match(s, kFloat)) {
    std::string text = withoutUnderscores(s);
    const auto dot = text.find(".inf");
    if (dot != std::string::npos) return text[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    if (text.find(".nan") != std::string::npos || text.find(".NaN") != std::string::npos ||
        text.find(".NAN") != std::string::npos) {
      return std::nan("");
    }
    for (char& c : text) c = static_cast<char>(c == 'I' || c == 'N' ? c - 'A' + 'a' : c);
    double d = 0;
    if (parsePythonFloat(text, d)) return d;
  }
  return s;
}

Value convert(const YAML::Node& node, int depth) {
  if (depth > 200) throw ExpressionError("YAML nested too deeply");
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return Value();
    case YAML::NodeType::Scalar: {
      const std::string& tag = node.Tag();
      const std::string& text = node.Scalar();
      if (tag == "!radians" || tag == "!degrees") {
        NoNames names;
        double value = 0;
        try {
          value = toDouble(evaluate(text, names), "a number");
        } catch (const ExpressionError& e) {
          throw ExpressionError("invalid expression: " + text + " (" + e.what() + ")");
        }
        return tag == "!degrees" ? value * M_PI / 180.0 : value;
      }
      if (tag == "?") return plainScalar(text);
      return text;  // quoted or explicitly tagged: a string
    }
    case YAML::NodeType::Sequence: {
      List items;
      for (const auto& item : node) items.push_back(convert(item, depth + 1));
      return items;
    }
    case YAML::NodeType::Map: {
      Dict items;
      for (const auto& entry : node) {
        Value key = convert(entry.first, depth + 1);
        Value value = convert(entry.second, depth + 1);
        // A repeated key replaces the earlier value in its place, as in PyYAML (a Python dict).
        auto same = std::find_if(items.begin(), items.end(), [&](const auto& item) { return equal(item.first, key); });
        if (same != items.end()) {
          same->second = std::move(value);
        } else {
          items.emplace_back(std::move(key), std::move(value));
        }
      }
      return items;
    }
  }
  return Value();
}

}  // namespace

Value yamlToValue(std::string_view text) {
  try {
    return convert(YAML::Load(std::string(text)), 0);
  } catch (const YAML::Exception& e) {
    throw ExpressionError(std::string("YAML error: ") + e.what());
  }
}

}  // namespace interlink::xacro
