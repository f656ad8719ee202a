// xacro.load_yaml: YAML through libyaml (the C library PyYAML itself uses), with scalars typed as PyYAML's safe loader types them
// (YAML 1.1 core rules), since xacro files index and compute with those values.
#include <yaml.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "XacroExpander.hpp"

namespace interlink::xacro {

namespace {

class NoNames : public Environment {
 public:
  bool lookup(const std::string& name, Value& out) override { return builtinGlobal(name, out); }
};

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
  if (s.empty()) return Value();
  // Most scalars are names: only these first characters may start a null, bool or number.
  if (std::strchr("~nNyYtTofFO0123456789+-.", s[0]) == nullptr) return s;
  // Compared as string views (sizes first): a strlen and compare per word and scalar before.
  const std::string_view view = s;
  if (view == "~" || view == "null" || view == "Null" || view == "NULL") return Value();
  static constexpr std::string_view kTrue[] = {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"};
  static constexpr std::string_view kFalse[] = {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"};
  for (const std::string_view word : kTrue) {
    if (view == word) return true;
  }
  for (const std::string_view word : kFalse) {
    if (view == word) return false;
  }
  std::string separatorsRemoved;
  if (yamlInt(s)) {
    std::int64_t i = 0;
    if (parsePythonInt(withoutDigitSeparators(s, separatorsRemoved), i)) return i;
  }
  const bool sign = s[0] == '-' || s[0] == '+';
  const std::string_view unsignedPart = view.substr(sign ? 1 : 0);
  if (unsignedPart == ".inf" || unsignedPart == ".Inf" || unsignedPart == ".INF") return s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
  if (!sign && (view == ".nan" || view == ".NaN" || view == ".NAN")) return std::nan("");
  if (yamlFloat(s)) {
    double d = 0;
    if (parsePythonFloat(withoutDigitSeparators(s, separatorsRemoved), d)) return d;
  }
  return s;
}

/// Counts converted nodes: aliases make a small document a large tree (a YAML bomb).
constexpr std::size_t kMaxYamlNodes = std::size_t{1} << 20;

/// Builds values straight from libyaml's events (no document tree in between); an alias shares
/// the anchored value and counts its nodes again, as if it were expanded.
class EventReader {
 public:
  explicit EventReader(std::string_view text) {
    if (!yaml_parser_initialize(&parser_)) throw ExpressionError("YAML error: out of memory");
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~EventReader() {
    if (holding_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  EventReader(const EventReader&) = delete;
  EventReader& operator=(const EventReader&) = delete;

  /// The first document's root (none: null), as yaml_parser_load reads it.
  Value document() {
    next();  // stream start
    next();
    if (event_.type == YAML_STREAM_END_EVENT) return Value();
    next();  // past the document start
    return node(0);
  }

 private:
  void next() {
    if (holding_) {
      yaml_event_delete(&event_);
      holding_ = false;
    }
    if (!yaml_parser_parse(&parser_, &event_)) {
      throw ExpressionError(std::string("YAML error: ") + (parser_.problem ? parser_.problem : "unreadable") +
                            " at line " + std::to_string(parser_.problem_mark.line + 1) + ", column " +
                            std::to_string(parser_.problem_mark.column + 1));
    }
    holding_ = true;
  }

  void count(std::size_t nodes) {
    count_ += nodes;
    if (count_ > kMaxYamlNodes) throw ExpressionError("YAML document too large (aliases expanded)");
  }

  static std::string anchorOf(const yaml_char_t* anchor) {
    return anchor ? reinterpret_cast<const char*>(anchor) : std::string();
  }

  /// The node whose first event is the current one; leaves the current event on its last.
  Value node(int depth) {
    if (depth > 200) throw ExpressionError("YAML nested too deeply");
    const std::size_t countBefore = count_;
    count(1);
    std::string anchor;
    Value value;
    switch (event_.type) {
      case YAML_ALIAS_EVENT: {
        auto found = anchors_.find(anchorOf(event_.data.alias.anchor));
        if (found == anchors_.end()) throw ExpressionError("YAML error: found undefined alias");
        count(found->second.second - 1);
        return found->second.first;
      }
      case YAML_SCALAR_EVENT: {
        anchor = anchorOf(event_.data.scalar.anchor);
        const char* tag = reinterpret_cast<const char*>(event_.data.scalar.tag);
        const std::string text(reinterpret_cast<const char*>(event_.data.scalar.value), event_.data.scalar.length);
        const bool radians = tag && std::strcmp(tag, "!radians") == 0;
        if (radians || (tag && std::strcmp(tag, "!degrees") == 0)) {
          NoNames names;
          double number = 0;
          try {
            number = toDouble(evaluate(text, names), "a number");
          } catch (const ExpressionError& e) {
            throw ExpressionError("invalid expression: " + text + " (" + e.what() + ")");
          }
          value = radians ? number : pythonRadians(number);  // xacro: math.radians of the value
        } else if (event_.data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
          value = plainScalar(text);
        } else {
          value = text;  // quoted or a block scalar: a string
        }
        break;
      }
      case YAML_SEQUENCE_START_EVENT: {
        anchor = anchorOf(event_.data.sequence_start.anchor);
        List items;
        for (next(); event_.type != YAML_SEQUENCE_END_EVENT; next()) items.push_back(node(depth + 1));
        value = std::move(items);
        break;
      }
      case YAML_MAPPING_START_EVENT: {
        anchor = anchorOf(event_.data.mapping_start.anchor);
        Dict items;
        for (next(); event_.type != YAML_MAPPING_END_EVENT; next()) {
          Value key = node(depth + 1);
          next();
          Value item = node(depth + 1);
          // A repeated key replaces the earlier value in its place, as in PyYAML (a Python dict).
          items.set(std::move(key), std::move(item));
        }
        value = std::move(items);
        break;
      }
      default:
        throw ExpressionError("YAML error: unexpected event");
    }
    if (!anchor.empty()) anchors_[anchor] = {value, count_ - countBefore};
    return value;
  }

  yaml_parser_t parser_;
  yaml_event_t event_;
  bool holding_ = false;
  std::size_t count_ = 0;
  std::unordered_map<std::string, std::pair<Value, std::size_t>> anchors_;  // the value, its nodes
};

}  // namespace

Value yamlToValue(std::string_view text) {
  EventReader reader(text);
  return reader.document();
}

}  // namespace interlink::xacro
