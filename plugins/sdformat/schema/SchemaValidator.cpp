#include "SchemaValidator.hpp"

#include "interlink/AsciiCase.hpp"
#include "interlink/SimilarNames.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/xml/SameName.hpp"

#include <charconv>
#include <optional>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "SchemaData.hpp"

namespace interlink::sdformat::schema {
namespace {

using xml::Attribute;
using xml::XmlElement;

std::string_view trimmed(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// Calls `accept(token)` for each white-space separated token of `text` until it returns false;
/// the number of tokens seen, or -1 when one was refused. Nothing is allocated: every element
/// value of a document passes here.
template <class Accept>
long forEachToken(std::string_view text, Accept accept) {
  long count = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isBlank(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !isBlank(text[i])) ++i;
    if (i > start) {
      ++count;
      if (!accept(text.substr(start, i - start))) return -1;
    }
  }
  return count;
}

bool parseNumber(std::string_view token, double& value) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  const auto [end, error] = fromChars(token.data(), token.data() + token.size(), value);
  return error == std::errc() && end == token.data() + token.size();
}

/// Decimal, or hexadecimal with 0x (libsdformat reads both, e.g. //collide_bitmask 0xAB).
bool parseInteger(std::string_view token, bool allowNegative, double& value) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  int base = 10;
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
    token.remove_prefix(2);
    base = 16;
  }
  long long integer = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), integer, base);
  if (error != std::errc() || end != token.data() + token.size() || (!allowNegative && integer < 0)) return false;
  value = static_cast<double>(integer);
  return true;
}

bool numbersOf(std::string_view text, std::size_t count, bool integers) {
  std::size_t seen = 0;
  double ignored = 0;
  const long tokens = forEachToken(text, [&](std::string_view part) {
    // More tokens than expected fail as a mismatch of count; no need to read them.
    return ++seen <= count && (integers ? parseInteger(part, true, ignored) : parseNumber(part, ignored));
  });
  return tokens >= 0 && static_cast<std::size_t>(tokens) == count;
}

/// r g b [a], each in [0, 1] (libsdformat refuses components outside).
bool colorMatches(std::string_view text) {
  std::size_t seen = 0;
  const long tokens = forEachToken(text, [&](std::string_view part) {
    double component = 0;
    return ++seen <= 4 && parseNumber(part, component) && component >= 0 && component <= 1;
  });
  return tokens == 3 || tokens == 4;
}

const char* typeName(ValueType type) {
  switch (type) {
    case ValueType::Bool: return "a bool (true, false, 1 or 0)";
    case ValueType::Int: return "an integer";
    case ValueType::UnsignedInt: return "a non-negative integer";
    case ValueType::Double: return "a number";
    case ValueType::Vector3: return "3 numbers";
    case ValueType::Vector2d: return "2 numbers";
    case ValueType::Vector2i: return "2 integers";
    case ValueType::Color: return "a colour (3 or 4 numbers from 0 to 1)";
    case ValueType::Pose: return "a pose (6 numbers, or 7 with rotation_format quat_xyzw)";
    case ValueType::Time: return "a time (seconds, or seconds and nanoseconds)";
    case ValueType::Quaternion: return "a quaternion (4 numbers)";
    case ValueType::Char: return "one character";
    case ValueType::String:
    case ValueType::None: return "text";
  }
  return "text";
}

/// Whether `text` is a value of `type`; `scalar` receives the number of scalar types.
bool valueMatches(ValueType type, std::string_view text, const XmlElement* owner, double& scalar, bool& isScalar) {
  isScalar = false;
  switch (type) {
    case ValueType::None:
    case ValueType::String: return true;
    case ValueType::Char: return text.size() == 1;
    case ValueType::Bool:
      return equalsIgnoringAsciiCase(text, "true") || equalsIgnoringAsciiCase(text, "false") || text == "1" || text == "0";
    case ValueType::Int: isScalar = true; return parseInteger(text, true, scalar);
    case ValueType::UnsignedInt: isScalar = true; return parseInteger(text, false, scalar);
    case ValueType::Double: isScalar = true; return parseNumber(text, scalar);
    case ValueType::Vector3: return numbersOf(text, 3, false);
    case ValueType::Vector2d: return numbersOf(text, 2, false);
    case ValueType::Vector2i: return numbersOf(text, 2, true);
    case ValueType::Quaternion: return numbersOf(text, 4, false);
    case ValueType::Color: return colorMatches(text);
    case ValueType::Time: return numbersOf(text, 1, false) || numbersOf(text, 2, true);
    case ValueType::Pose: {
      const Attribute* format = owner ? owner->attribute("rotation_format") : nullptr;
      const bool quaternion = format && trimmed(format->value) == "quat_xyzw";
      return numbersOf(text, quaternion ? 7 : 6, false);
    }
  }
  return true;
}

/// libsdformat reads an integer with std::stoi / std::stoul, which take the leading integer and
/// drop the rest ("64.5" is 64, "1u" is 1). The leading integer, when `text` has one and more.
std::optional<long long> leadingInteger(ValueType type, std::string_view text) {
  if (type != ValueType::Int && type != ValueType::UnsignedInt) return std::nullopt;
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  long long integer = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), integer);
  if (error != std::errc() || end == text.data() || (type == ValueType::UnsignedInt && integer < 0)) return std::nullopt;
  return integer;
}

std::string versionText(const VersionSchema& schema) {
  return std::to_string(schema.major) + "." + std::to_string(schema.minor);
}

class Validator {
 public:
  Validator(const VersionSchema& schema, Diagnostics& diagnostics) : schema_(schema), diagnostics_(diagnostics) {
    for (const Diagnostic& d : diagnostics.items()) {
      if (d.severity == Severity::Error) reported_.emplace(d.where.line, d.where.column, d.code);
    }
    version_ = versionText(schema);
  }

  int run(const XmlElement& root) {
    element(root, schema_.root);
    return schemaErrors_;
  }

 private:
  const SchemaNode& node(std::uint16_t index) const { return schema_.nodes[index]; }

  bool reportedAt(const SourceLocation& where) const {
    const auto it = reported_.lower_bound({where.line, where.column, ErrorCode{}});
    return it != reported_.end() && std::get<0>(*it) == where.line && std::get<1>(*it) == where.column;
  }
  bool reportedAt(const SourceLocation& where, ErrorCode code) const {
    return reported_.count({where.line, where.column, code}) > 0;
  }

  void schemaError(ErrorCode code, std::string message, const SourceLocation& where) {
    if (reportedAt(where, code)) return;
    diagnostics_.error(code, std::move(message), where);
    ++schemaErrors_;
  }

  void element(const XmlElement& e, std::uint16_t index) {
    const SchemaNode& description = node(index);
    attributes(e, description);
    value(e, description);
    if (description.copyData) return;  // //plugin: any content, as written
    // Which children of the description were seen: a slice of one buffer shared by the whole walk
    // (indices, not pointers: the nested calls below grow it), instead of a vector per element.
    const std::size_t seen = seen_.size();
    seen_.resize(seen + description.childCount, 0);
    for (const XmlElement& child : e.children) {
      if (child.isNamespaced()) continue;  // custom elements: kept, never checked (as libsdformat)
      bool found = false;
      for (std::uint16_t i = 0; i < description.childCount; ++i) {
        const SchemaChild& edge = schema_.children[description.firstChild + i];
        if (!xml::sameName(child.name, edge.name)) continue;  // inline: every child, every edge
        found = true;
        seen_[seen + i] = 1;
        if (edge.occurrence == Occurrence::Deprecated) {
          diagnostics_.warning(ErrorCode::ELEMENT_DEPRECATED,
                               "element <" + child.name + "> of <" + e.name + "> is deprecated in SDFormat " + version_,
                               child.where);
        }
        element(child, edge.node);
        break;
      }
      if (!found) {
        std::vector<std::string> children;
        for (std::uint16_t i = 0; i < description.childCount; ++i) {
          children.emplace_back(schema_.children[description.firstChild + i].name);
        }
        diagnostics_.warning(ErrorCode::ELEMENT_INCORRECT_TYPE,
                             "element <" + child.name + "> is not defined as a child of <" + e.name + "> in SDFormat " +
                                 version_ + "; kept as written" + didYouMean(child.name, children),
                             child.where);
      }
    }
    for (std::uint16_t i = 0; i < description.childCount; ++i) {
      const SchemaChild& edge = schema_.children[description.firstChild + i];
      if (seen_[seen + i] || (edge.occurrence != Occurrence::One && edge.occurrence != Occurrence::OneOrMore)) continue;
      if (requiredWithoutDefault(edge.node) && !reportedAt(e.where)) {  // e.g. the reader's <include> without <uri>
        // libsdformat's reader fills it with the placeholder "__default__" and its DOM refuses
        // that later (as for //material/script/uri): an error, but not a schema-reader failure.
        diagnostics_.error(ErrorCode::ELEMENT_MISSING,
                           "required element <" + std::string(edge.name) + "> of <" + e.name +
                               "> is missing (SDFormat " + version_ + " gives it no default)",
                           e.where);
      }
    }
    seen_.resize(seen);
    if (e.name == std::string_view("shader")) normalMapShader(e);
  }

  /// libsdformat's Material refuses a normal-map shader without its <normal_map> (a rule of the
  /// DOM, not of the description files).
  void normalMapShader(const XmlElement& shader) {
    const std::string type(trimmed(shader.attributeOr("type", "")));
    if (type.rfind("normal_map", 0) != 0) return;
    for (const XmlElement& child : shader.children) {
      if (child.name == "normal_map") return;
    }
    diagnostics_.error(ErrorCode::ELEMENT_MISSING,
                       "shader type '" + type + "' needs a <normal_map> (as libsdformat's Material requires)",
                       shader.where);
  }

  /// needsExplicitValue of a description from the top, remembered per description: every element
  /// of a kind asks it of the same required children (each <link> of a model, each <joint>).
  bool requiredWithoutDefault(std::uint16_t index) {
    if (index >= explicitValueNeeded_.size()) explicitValueNeeded_.resize(index + 1u, -1);
    if (explicitValueNeeded_[index] < 0) {
      std::vector<std::uint16_t> visiting;
      explicitValueNeeded_[index] = needsExplicitValue(index, visiting) ? 1 : 0;
    }
    return explicitValueNeeded_[index] == 1;
  }

  /// A required element may be left out when its description supplies a default (libsdformat
  /// then adds it); one without a default value, or holding such an element, must be written.
  bool needsExplicitValue(std::uint16_t index, std::vector<std::uint16_t>& visiting) const {
    const SchemaNode& description = node(index);
    if (description.type != ValueType::None) {
      return !description.defaultValue || std::string_view(description.defaultValue) == "__default__";
    }
    for (std::uint16_t v : visiting) {
      if (v == index) return false;
    }
    visiting.push_back(index);
    for (std::uint16_t i = 0; i < description.childCount; ++i) {
      const SchemaChild& edge = schema_.children[description.firstChild + i];
      if ((edge.occurrence == Occurrence::One || edge.occurrence == Occurrence::OneOrMore) &&
          needsExplicitValue(edge.node, visiting)) {
        return true;
      }
    }
    visiting.pop_back();
    return false;
  }

  void attributes(const XmlElement& e, const SchemaNode& description) {
    const SchemaAttribute* first = schema_.attributes + description.firstAttribute;
    for (const Attribute& attribute : e.attributes) {
      if (xml::isForeignName(attribute.name)) continue;
      const SchemaAttribute* known = nullptr;
      for (std::uint16_t i = 0; i < description.attributeCount; ++i) {
        if (xml::sameName(attribute.name, first[i].name)) known = &first[i];
      }
      if (!known) {
        std::vector<std::string> names;
        for (std::uint16_t i = 0; i < description.attributeCount; ++i) names.emplace_back(first[i].name);
        diagnostics_.warning(ErrorCode::ATTRIBUTE_INCORRECT_TYPE,
                             "attribute '" + attribute.name + "' is not defined for <" + e.name + "> in SDFormat " +
                                 version_ + "; ignored" + didYouMean(attribute.name, names),
                             attribute.where);
        continue;
      }
      const std::string_view text = trimmed(attribute.value);
      double scalar = 0;
      bool isScalar = false;
      const bool matches = text.empty() || valueMatches(known->type, text, nullptr, scalar, isScalar);
      const std::optional<long long> integer = matches ? std::nullopt : leadingInteger(known->type, text);
      if (integer) {
        diagnostics_.warning(ErrorCode::ATTRIBUTE_INVALID,
                             "attribute '" + attribute.name + "' of <" + e.name + "> is read as " +
                                 std::to_string(*integer) + ", the leading integer of '" + attribute.value +
                                 "', as libsdformat reads it",
                             attribute.where);
      } else if (!matches && !reportedAt(attribute.where)) {
        schemaError(ErrorCode::ATTRIBUTE_INVALID,
                    "attribute '" + attribute.name + "' of <" + e.name + "> must be " + typeName(known->type) +
                        ", got '" + attribute.value + "'",
                    attribute.where);
      } else if (known->values && !reportedAt(attribute.where)) {
        enumerated(e, attribute, *known);
      }
    }
    for (std::uint16_t i = 0; i < description.attributeCount; ++i) {
      if (first[i].required && !e.attribute(first[i].name)) {
        schemaError(ErrorCode::ATTRIBUTE_MISSING,
                    "required attribute '" + std::string(first[i].name) + "' of element <" + e.name + "> is missing",
                    e.where);
      }
    }
  }

  /// Values the description lists (//sensor/@type); libsdformat checks them when it builds the
  /// element, after its schema pass, so this is not a schema-reader error.
  void enumerated(const XmlElement& e, const Attribute& attribute, const SchemaAttribute& known) {
    const std::string value(trimmed(attribute.value));
    std::string expected;
    for (const char* const* v = known.values; *v; ++v) {
      if (value == *v) return;
      expected += expected.empty() ? "" : ", ";
      expected += *v;
    }
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                       "'" + attribute.value + "' is not a known value of attribute '" + attribute.name + "' of <" +
                           e.name + ">; expected one of " + expected,
                       attribute.where);
  }

  void value(const XmlElement& e, const SchemaNode& description) {
    if (description.type == ValueType::None || description.type == ValueType::String) return;
    const std::string_view text = trimmed(e.text);
    if (text.empty() || reportedAt(e.where)) return;  // empty: the default; reported: the reader said why
    double scalar = 0;
    bool isScalar = false;
    if (!valueMatches(description.type, text, &e, scalar, isScalar)) {
      if (const auto integer = leadingInteger(description.type, text)) {
        diagnostics_.warning(ErrorCode::VALUE_INVALID,
                             "value '" + std::string(text) + "' of <" + e.name + "> is read as " +
                                 std::to_string(*integer) + ", its leading integer, as libsdformat reads it",
                             e.where);
        return;
      }
      schemaError(ErrorCode::VALUE_INVALID,
                  "value '" + std::string(text) + "' of <" + e.name + "> must be " + typeName(description.type),
                  e.where);
      return;
    }
    if (!isScalar) return;
    double bound = 0;
    if (description.min && parseNumber(description.min, bound) && scalar < bound) {
      schemaError(ErrorCode::VALUE_INVALID,
                  "value " + std::string(text) + " of <" + e.name + "> is less than the minimum " + description.min +
                      " allowed by SDFormat " + version_,
                  e.where);
    } else if (description.max && parseNumber(description.max, bound) && scalar > bound) {
      schemaError(ErrorCode::VALUE_INVALID,
                  "value " + std::string(text) + " of <" + e.name + "> is greater than the maximum " +
                      description.max + " allowed by SDFormat " + version_,
                  e.where);
    }
  }

  const VersionSchema& schema_;
  Diagnostics& diagnostics_;
  std::string version_;
  std::set<std::tuple<int, int, ErrorCode>> reported_;
  int schemaErrors_ = 0;
  std::vector<char> seen_;  // per open element, which of its described children were seen
  std::vector<signed char> explicitValueNeeded_;  // per description: -1 not known yet, else 0 or 1
};

}  // namespace

ValidationResult validateDocument(const XmlElement& root, int major, int minor, Diagnostics& diagnostics) {
  ValidationResult result;
  const VersionSchema* schema = versionSchema(major, minor);
  if (!schema) return result;
  result.known = true;
  result.schemaErrors = Validator(*schema, diagnostics).run(root);
  return result;
}

bool hasSchema(int major, int minor) { return versionSchema(major, minor) != nullptr; }

const char* defaultValue(int major, int minor, std::initializer_list<const char*> path) {
  const VersionSchema* schema = versionSchema(major, minor);
  if (!schema) return nullptr;
  const SchemaNode* node = &schema->nodes[schema->root];
  for (const char* tag : path) {
    const SchemaNode* next = nullptr;
    for (std::uint16_t i = 0; i < node->childCount && !next; ++i) {
      const SchemaChild& child = schema->children[node->firstChild + i];
      if (child.name == tag) next = &schema->nodes[child.node];
    }
    if (!next) return nullptr;
    node = next;
  }
  return node->defaultValue;
}

}  // namespace interlink::sdformat::schema
