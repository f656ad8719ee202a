#pragma once
// An XML element as the plugin contract carries it (interlink::KeptNode: a plain tree, no
// allocator, no locations) and back, so that a reader keeps an element once and the core hands
// it on (to a writer, to a host's custom model parser) without printing and parsing it again.
#include "interlink/Export.hpp"
#include "interlink/SourceLocation.hpp"
#include "interlink/model/KeptElement.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::xml {

/// `element` as a contract tree: names and attributes as written, text trimmed.
INTERLINK_API KeptNode keptNodeOf(const XmlElement& element);

/// `node` as an XML tree whose elements and attributes are all located at `where` (the node
/// keeps no locations of its own).
INTERLINK_API XmlElement elementOf(const KeptNode& node, const SourceLocation& where);

}  // namespace interlink::xml
