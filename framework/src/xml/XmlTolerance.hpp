#pragma once
// The flaws that TinyXML2 (the reader of libsdformat and urdfdom) accepts and expat refuses, made
// readable for expat without moving any line or column: "--" inside a comment, white space or
// comments before the XML declaration, text before the root element (a damaged declaration such
// as `?xml version="1.0"?>`). Each flaw becomes an XML_SYNTAX warning at its place; everything
// else, DTDs and entities included, is left to the hardened parser.
#include <optional>
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::xml::detail {

/// A copy of `content` with the tolerated flaws blanked (the same bytes count, line breaks kept),
/// or nothing when there is none. Only the flaws `tolerance` (not None) reads; one forward pass.
std::optional<std::string> blankToleratedFlaws(std::string_view content, const std::string& fileName,
                                               Tolerance tolerance, Diagnostics& diagnostics);

}  // namespace interlink::xml::detail
