#pragma once
// Reads one SDFormat document (already parsed into an XmlElement tree) into the format-neutral
// model. Only parse and schema problems are reported here; names, references and graphs are
// checked by the framework's frame-graph phases.
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::sdformat {

/// Reads `content` (the bytes of `path`) into `document`, appending every problem to `diagnostics`.
/// Never throws for bad input.
void readSdformat(std::string_view content, const std::string& path, Document& document, Diagnostics& diagnostics);

}  // namespace interlink::sdformat
