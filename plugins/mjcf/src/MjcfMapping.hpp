#pragma once
// Step two of the MJCF plugin: MJCF records onto the core model (rules in docs/mjcf.md).
#include <string>

#include "MjcfRecords.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::mjcf {

void mapModel(const MjcfModel& mjcf, const std::string& path, Document& document, Diagnostics& diagnostics);

}  // namespace interlink::mjcf
