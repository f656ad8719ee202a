#pragma once
// Maps a read HRDF robot onto the format-neutral model (docs/hrdf.md, "Mapping").
#include <string>

#include "HrdfRobot.hpp"
#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::hrdf {

/// Name of output `j` (0-based) of an element: "<name>/output", or "<name>/output_<j+1>" when the
/// element has several outputs.
std::string outputFrameName(const Element& element, std::size_t j);

void mapRobot(const Robot& robot, const std::string& path, Document& document, Diagnostics& diagnostics);

}  // namespace interlink::hrdf
