#pragma once
// Older SDFormat versions rewritten into the next one, driven by libsdformat's published .convert
// rules (generated into SchemaData), before the reader maps the document.
#include "interlink/xml/XmlElement.hpp"

namespace interlink::sdformat::schema {

/// SDFormat 1.0 wrote values as attributes (<origin pose="..."/>, <mass value="..."/>); rewrites
/// them as the elements of 1.2, keeping each value's location.
void upgradeFrom1_0(xml::XmlElement& root);

}  // namespace interlink::sdformat::schema
