// Typed values out of XML text (see interlink/xml/XmlValues.hpp).
#include "interlink/xml/XmlValues.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "interlink/TextNumbers.hpp"
#include "xml/TextCursor.hpp"

namespace interlink::xml {

std::optional<double> parseLimit(std::string_view text, const SourceLocation& where, std::string_view what,
                                 Diagnostics& diagnostics) {
  std::string token = toLower(trim(text));
  const bool negative = !token.empty() && token[0] == '-';
  if (!token.empty() && (token[0] == '-' || token[0] == '+')) token.erase(0, 1);
  if (token == "inf" || token == "infinity") {
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  }
  return parseDouble(text, where, what, diagnostics);
}

std::optional<Vector3> parseVector3(std::string_view text, const SourceLocation& where, std::string_view what,
                                    Diagnostics& diagnostics, ErrorCode countError) {
  double v[3];
  if (!parseFixedDoubles(text, where, what, diagnostics, v, 3, countError)) return std::nullopt;
  return Vector3(v[0], v[1], v[2]);
}

std::optional<long long> parseInteger(std::string_view text, const SourceLocation& where, std::string_view what,
                                      Diagnostics& diagnostics, ErrorCode fractionError) {
  const auto value = parseDouble(text, where, what, diagnostics);
  if (!value) return std::nullopt;
  // Beyond 2^63 a double has no fraction but is no integer a reader can hold either.
  if (*value != std::floor(*value) || std::fabs(*value) >= 9.2e18) {
    diagnostics.error(fractionError, std::string(what) + " must be an integer", where);
    return std::nullopt;
  }
  return static_cast<long long>(*value);
}

SourceLocation attributeLocation(const XmlElement& element, const Attribute* attribute) {
  return attribute && attribute->where.line > 0 ? attribute->where : element.where;
}

SourceLocation attributeLocation(const XmlElement& element, std::string_view name) {
  return attributeLocation(element, element.attribute(name));
}

std::optional<double> attributeNumber(const XmlElement& element, std::string_view name, std::string_view what,
                                      Diagnostics& diagnostics) {
  const Attribute* a = element.attribute(name);
  if (!a) return std::nullopt;
  return parseDouble(a->value, attributeLocation(element, name), what, diagnostics);
}

std::optional<Vector3> attributeVector3(const XmlElement& element, std::string_view name, std::string_view what,
                                        Diagnostics& diagnostics) {
  const Attribute* a = element.attribute(name);
  if (!a) return std::nullopt;
  return parseVector3(a->value, attributeLocation(element, name), what, diagnostics);
}

std::optional<RootElement> sniffRootElement(std::string_view head) {
  using detail::isSpace;
  std::size_t at = byteOrderMarkLength(head);
  for (;;) {
    while (at < head.size() && isSpace(head[at])) ++at;
    if (at >= head.size() || head[at] != '<') return std::nullopt;
    const std::string_view rest = head.substr(at);
    std::size_t end = std::string_view::npos;
    if (rest.substr(0, 2) == "<?") {
      end = head.find("?>", at);
      if (end != std::string_view::npos) end += 2;
    } else if (rest.substr(0, 4) == "<!--") {
      end = head.find("-->", at);
      if (end != std::string_view::npos) end += 3;
    } else if (rest.substr(0, 2) == "<!") {
      end = head.find('>', at);
      if (end != std::string_view::npos) end += 1;
    } else {
      std::size_t nameEnd = 1;
      while (nameEnd < rest.size() && !isSpace(rest[nameEnd]) && rest[nameEnd] != '>' && rest[nameEnd] != '/') ++nameEnd;
      const std::size_t tagEnd = rest.find('>', nameEnd);
      return RootElement{rest.substr(1, nameEnd - 1),
                         rest.substr(nameEnd, tagEnd == std::string_view::npos ? std::string_view::npos : tagEnd - nameEnd)};
    }
    if (end == std::string_view::npos) return std::nullopt;
    at = end;
  }
}

bool headRootIs(const char* head, std::size_t size, std::string_view name) {
  const auto root = sniffRootElement(std::string_view(head ? head : "", head ? size : 0));
  return root && root->name == name;
}

}  // namespace interlink::xml
