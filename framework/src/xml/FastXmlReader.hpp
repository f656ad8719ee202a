#pragma once
// The XML reader's fast path (docs/xml.md): it reads the plain documents, the ones expat would
// read without a word, into the same XmlElement tree expat's reader builds; everything else is
// left to expat (XmlParser.cpp).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "interlink/xml/XmlParser.hpp"

namespace interlink::xml::detail {

/// What the check of the bytes found out on the way, for the reading.
struct PlainXmlFacts {
  bool ascii = true;          // every byte is ASCII (columns are byte counts)
  std::size_t startTags = 0;  // the elements
  std::size_t prologStart = 0;  // the offset past the byte-order mark and the XML declaration
  std::size_t comments = 0;          // the comments
  std::size_t equalsInComments = 0;  // '=' signs inside comments (not attributes)
};

/// Whether the fast reader may read `content`: UTF-8 holding only characters XML allows and no CR,
/// a declaration only at the start and only as expat reads it as UTF-8, valid references, no
/// CDATA section, DOCTYPE or processing instruction, no "]]>".
bool isPlainXml(std::string_view content, PlainXmlFacts& facts);

/// The tree of a document isPlainXml() took, with the comments and text lengths `options` asks
/// for, exactly as expat's reader builds them; nothing when the document is not one it reads
/// (text around the root, a duplicate attribute, too deep...), and then expat reads it.
std::optional<XmlElement> readPlainXml(std::string_view content, const std::string& fileName,
                                       const ParseOptions& options, const PlainXmlFacts& facts);

}  // namespace interlink::xml::detail
