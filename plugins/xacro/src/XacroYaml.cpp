// xacro.load_yaml: YAML through libyaml (the C library PyYAML itself uses), with scalars typed as PyYAML's safe loader types them
// (YAML 1.1 core rules), since xacro files index and compute with those values.
#include <yaml.h>

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

/// Counts converted nodes: aliases make a small document a large tree (a YAML bomb).
constexpr std::size_t kMaxYamlNodes = std::size_t{1} << 20;

Value convert(yaml_document_t& document, yaml_node_t* node, int depth, std::size_t& count) {
  if (!node) return Value();
  if (depth > 200) throw ExpressionError("YAML nested too deeply");
  if (++count > kMaxYamlNodes) throw ExpressionError("YAML document too large (aliases expanded)");
  switch (node->type) {
    case YAML_SCALAR_NODE: {
      const std::string tag = node->tag ? reinterpret_cast<const char*>(node->tag) : "";
      const std::string text(reinterpret_cast<const char*>(node->data.scalar.value), node->data.scalar.length);
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
      if (node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) return plainScalar(text);
      return text;  // quoted or a block scalar: a string
    }
    case YAML_SEQUENCE_NODE: {
      List items;
      for (yaml_node_item_t* item = node->data.sequence.items.start; item < node->data.sequence.items.top; ++item) {
        items.push_back(convert(document, yaml_document_get_node(&document, *item), depth + 1, count));
      }
      return items;
    }
    case YAML_MAPPING_NODE: {
      Dict items;
      for (yaml_node_pair_t* pair = node->data.mapping.pairs.start; pair < node->data.mapping.pairs.top; ++pair) {
        Value key = convert(document, yaml_document_get_node(&document, pair->key), depth + 1, count);
        Value value = convert(document, yaml_document_get_node(&document, pair->value), depth + 1, count);
        // A repeated key replaces the earlier value in its place, as in PyYAML (a Python dict).
        auto same = std::find_if(items.begin(), items.end(), [&](const auto& entry) { return equal(entry.first, key); });
        if (same != items.end()) {
          same->second = std::move(value);
        } else {
          items.emplace_back(std::move(key), std::move(value));
        }
      }
      return items;
    }
    case YAML_NO_NODE: break;
  }
  return Value();
}

}  // namespace

Value yamlToValue(std::string_view text) {
  yaml_parser_t parser;
  yaml_document_t document;
  if (!yaml_parser_initialize(&parser)) throw ExpressionError("YAML error: out of memory");
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  if (!yaml_parser_load(&parser, &document)) {
    const std::string message = std::string("YAML error: ") + (parser.problem ? parser.problem : "unreadable") +
                                " at line " + std::to_string(parser.problem_mark.line + 1) + ", column " +
                                std::to_string(parser.problem_mark.column + 1);
    yaml_parser_delete(&parser);
    throw ExpressionError(message);
  }
  struct Release {
    yaml_parser_t& parser;
    yaml_document_t& document;
    ~Release() {
      yaml_document_delete(&document);
      yaml_parser_delete(&parser);
    }
  } release{parser, document};
  std::size_t count = 0;
  return convert(document, yaml_document_get_root_node(&document), 0, count);
}

}  // namespace interlink::xacro
