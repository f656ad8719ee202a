#pragma once
// Reads one Juice model file (<Model FileVersion="1">) into the format-neutral Document, in two steps.
#include <cstddef>
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::juice {

/// Step 1: the located XML tree of the file of `request`, checked to have a <Model> root. False when
/// there is nothing to map.
bool readJuiceXml(const plugin::LoadRequest& request, xml::XmlElement& model, Diagnostics& diagnostics);

/// Step 2: the components read and checked (IDs, twins, symmetry), then one model (links per body,
/// joints per joint); appends every finding.
void mapJuice(const xml::XmlElement& model, const plugin::LoadRequest& request, Document& document,
              Diagnostics& diagnostics);

/// The plugin's sniffer: .jm files are Juice's own; a .xml file only with a <Model FileVersion=...> root.
int sniffJuice(const char* path, const char* head, std::size_t headSize);

/// 0..100: how sure we are that `head` (the first bytes of a file) is a Juice model. High only
/// when the root element is <Model ...> carrying a FileVersion (or FileVersionAttribute).
int sniffJuiceHead(std::string_view head);

}  // namespace interlink::juice
