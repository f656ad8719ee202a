#pragma once
// Checks an SDFormat document against the schema of its own version (SchemaData, generated from
// the published description files), as `gz sdf -k` does: unknown elements and attributes
// (warnings, as libsdformat logs them), required elements and attributes, value types, ranges and
// the values a description enumerates (//sensor/@type).
#include <functional>
#include <initializer_list>

#include "interlink/Diagnostics.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::sdformat::schema {

struct ValidationResult {
  bool known = false;   // the version has a schema
  int schemaErrors = 0; // errors libsdformat's schema reader would find (for its summary error)
};

/// Reports every schema problem of `root` (an <sdf> element of version major.minor). Findings at a
/// location where `diagnostics` already holds an error of the same kind are not repeated: the
/// reader reports the elements it interprets itself.
ValidationResult validateDocument(const xml::XmlElement& root, int major, int minor, Diagnostics& diagnostics);

/// True when SDFormat major.minor has a published description (1.0, 1.2-1.12).
bool hasSchema(int major, int minor);

/// The default value SDFormat major.minor's description gives the element at `path` (tags below
/// the root, e.g. {"model", "joint", "axis", "limit", "lower"}); null when the version, an element
/// of the path or its default is not described. Defaults change between versions (1.10 made joint
/// limits infinite), so the reader takes them from here rather than from constants of its own.
const char* defaultValue(int major, int minor, std::initializer_list<const char*> path);

}  // namespace interlink::sdformat::schema
