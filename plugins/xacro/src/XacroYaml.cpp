// xacro.load_yaml: YAML through libyaml (the C library PyYAML itself uses), with scalars typed as PyYAML's safe loader types them
// (YAML 1.1 core rules), since xacro files index and compute with those values.
#include <yaml.h>

#include <algorithm>

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

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// [0-9_]* from `i`; returns the end.
std::size_t digitsOrUnderscores(const std::string& s, std::size_t i) {
  while (i < s.size() && (isDigit(s[i]) || s[i] == '_')) ++i;
  return i;
}

/// PyYAML's int: [-+]?(0|[1-9][0-9_]*) (the decimal forms).
bool yamlInt(const std::string& s) {
  std::size_t i = s.size() > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i >= s.size() || !isDigit(s[i])) return false;
  if (s[i] == '0') return i + 1 == s.size();
  return digitsOrUnderscores(s, i + 1) == s.size();
}

/// PyYAML's float: [-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+][0-9]+)? (a dot required).
bool yamlFloat(const std::string& s) {
  std::size_t i = s.size() > 0 && (s[0] == '-' || s[0] == '+') ? 1 : 0;
  const std::size_t integer = digitsOrUnderscores(s, i);
  if (integer < s.size() && s[integer] != '.') return false;
  if (integer >= s.size()) return false;
  if (integer == i && (integer + 1 >= s.size() || !isDigit(s[integer + 1]))) return false;  // "." alone, ".e1"
  std::size_t j = digitsOrUnderscores(s, integer + 1);
  if (j == s.size()) return true;
  if (s[j] != 'e' && s[j] != 'E') return false;
  ++j;
  if (j >= s.size() || (s[j] != '-' && s[j] != '+')) return false;
  ++j;
  if (j >= s.size()) return false;
  while (j < s.size() && isDigit(s[j])) ++j;
  return j == s.size();
}

/// A plain scalar typed by PyYAML's implicit resolvers (YAML 1.1).
Value plainScalar(const std::string& s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return Value();
  for (const char* word : {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}) {
    if (s == word) return true;
  }
  for (const char* word : {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}) {
    if (s == word) return false;
  }
  if (yamlInt(s)) {
    std::int64_t i = 0;
    if (parsePythonInt(withoutUnderscores(s), i)) return i;
  }
  const std::string sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? s.substr(0, 1) : "";
  const std::string unsigned_ = s.substr(sign.size());
  if (unsigned_ == ".inf" || unsigned_ == ".Inf" || unsigned_ == ".INF") return sign == "-" ? -HUGE_VAL : HUGE_VAL;
  if (sign.empty() && (s == ".nan" || s == ".NaN" || s == ".NAN")) return std::nan("");
  if (yamlFloat(s)) {
    double d = 0;
    if (parsePythonFloat(withoutUnderscores(s), d)) return d;
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
