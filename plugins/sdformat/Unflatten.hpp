#pragma once
// SDFormat 1.7 -> 1.8 conversion of "flattened" world models: elements named "child::name" (as
// written by the old include flattening) become a nested model "child", as libsdformat's
// converter does before it reads a 1.7 file.
#include "interlink/xml/XmlElement.hpp"

namespace interlink::sdformat {

/// True when `model` or one of its nested models has flattened children (names with "::").
bool hasFlattenedContent(const xml::XmlElement& model);

/// Rebuilds the nested models of `model` (a //world/model of an SDFormat 1.7 or older file).
void unflattenModel(xml::XmlElement& model);

}  // namespace interlink::sdformat
