#pragma once
// Escaping text for XML output, as XmlElement::toXml writes it (the xacro output shares it).
#include <string>
#include <string_view>

#include "interlink/Export.hpp"

namespace interlink::xml {

/// `text` escaped for XML: &, <, > and \r always; ", line feeds and tabs in attribute values
/// (which readers normalise), kept as they are in element text.
INTERLINK_API std::string escapedXml(std::string_view text, bool inAttribute);

/// The same, appended to `out` (writers that build one large text).
INTERLINK_API void appendEscapedXml(std::string& out, std::string_view text, bool inAttribute);

}  // namespace interlink::xml
