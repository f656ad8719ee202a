#pragma once
// Reads a URDF document into the core model: one top-level Model named after the robot.
#include <cstddef>
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/PluginAbi.hpp"
#include "interlink/xml/XmlElement.hpp"

namespace interlink::urdf {

/// Step 1: the located XML tree of the file of `request`, checked to have a <robot> root.
/// False when there is nothing to map.
bool readUrdfXml(const plugin::LoadRequest& request, xml::XmlElement& robot, Diagnostics& diagnostics);

/// Step 2: the <robot> tree onto the model; every problem goes to `diagnostics`.
void mapUrdf(const xml::XmlElement& robot, const plugin::LoadRequest& request, Document& document,
             Diagnostics& diagnostics);

/// A URDF file has a <robot> root element.
int sniffUrdf(const char* path, const char* head, std::size_t size);

}  // namespace interlink::urdf
