#pragma once
// Reads one Juice model file (<Model FileVersion="1">) into the format-neutral Document.
#include <cstddef>
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::juice {

/// Fills `document` with one model (links per body, joints per joint) and appends every finding.
void readJuiceFile(const std::string& path, std::string_view content, Document& document, Diagnostics& diagnostics);

/// 0..100: how sure we are that `head` (the first bytes of a file) is a Juice model. High only
/// when the root element is <Model ...> carrying a FileVersion (or FileVersionAttribute).
int sniffJuiceHead(std::string_view head);

}  // namespace interlink::juice
