#pragma once
// Typed values out of XML text, shared by every XML-based plugin: limits that may be infinite,
// 3-vectors, integers, attribute values located where they were written, and the root element
// of a file's head for the sniffers. Numbers and booleans come from interlink/TextNumbers.hpp;
// these build on them so that every format reports a bad value the same way.
#include <optional>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/Pose.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::xml {

/// A joint bound: "inf" or "infinity" with an optional sign, in any case, means no bound (as
/// libsdformat and DART's std::stod read them); anything else is read as parseDouble reads it
/// (NaN stays an error).
INTERLINK_API std::optional<double> parseLimit(std::string_view text, const SourceLocation& where,
                                               std::string_view what, Diagnostics& diagnostics);

/// Three white-space separated finite numbers; a wrong count is `countError`.
INTERLINK_API std::optional<Vector3> parseVector3(std::string_view text, const SourceLocation& where,
                                                  std::string_view what, Diagnostics& diagnostics,
                                                  ErrorCode countError = ErrorCode::VALUE_INVALID);

/// A finite number with no fractional part; a fraction is `fractionError` ("<what> must be an
/// integer").
INTERLINK_API std::optional<long long> parseInteger(std::string_view text, const SourceLocation& where,
                                                    std::string_view what, Diagnostics& diagnostics,
                                                    ErrorCode fractionError = ErrorCode::VALUE_INVALID);

/// Where attribute `name` of `element` was written, or the element when the parser did not
/// record it (or there is no such attribute).
INTERLINK_API SourceLocation attributeLocation(const XmlElement& element, std::string_view name);
/// The same for an attribute already looked up (may be null).
INTERLINK_API SourceLocation attributeLocation(const XmlElement& element, const Attribute* attribute);

/// Attribute `name` as a number / a 3-vector; nothing, silently, when it is absent.
INTERLINK_API std::optional<double> attributeNumber(const XmlElement& element, std::string_view name,
                                                    std::string_view what, Diagnostics& diagnostics);
INTERLINK_API std::optional<Vector3> attributeVector3(const XmlElement& element, std::string_view name,
                                                      std::string_view what, Diagnostics& diagnostics);

/// The first element of an XML file's head (after a byte order mark, the XML declaration,
/// processing instructions, comments, a document type and white space): its name and the rest
/// of its start tag up to '>' or the head's end. Nothing when the head has no element start or
/// text stands before it.
struct RootElement {
  std::string_view name;
  std::string_view startTag;  // the attributes, as written
};
INTERLINK_API std::optional<RootElement> sniffRootElement(std::string_view head);

/// Whether the head's root element is `name` (a sniffer's question; head may be null).
INTERLINK_API bool headRootIs(const char* head, std::size_t size, std::string_view name);

}  // namespace interlink::xml
