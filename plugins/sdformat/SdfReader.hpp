#pragma once
// Reads one SDFormat document (already parsed into an XmlElement tree) into the format-neutral
// model. Only parse and schema problems are reported here; names, references and graphs are
// checked by the framework's frame-graph phases.
#include <cstddef>
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::sdformat {

/// Step 1: the file's located XML tree, checked to be an <sdf> document of version 1.4 to 1.9.
struct SdfXml {
  xml::XmlElement root;
  std::string version;  // as written
};

/// Parses the file of `request`; XML syntax, a wrong root and an unsupported version are reported.
/// False when there is nothing to map.
bool readSdformatXml(const plugin::LoadRequest& request, SdfXml& records, Diagnostics& diagnostics);

/// Step 2: the tree onto the format-neutral model, appending every problem. Never throws for bad
/// input.
void mapSdformat(const SdfXml& records, const plugin::LoadRequest& request, Document& document,
                 Diagnostics& diagnostics);

/// An SDFormat file has an <sdf> root element; anything else with our extension is unlikely ours.
int sniffSdformat(const char* path, const char* head, std::size_t size);

}  // namespace interlink::sdformat
