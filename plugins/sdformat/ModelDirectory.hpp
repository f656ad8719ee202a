#pragma once
// SDFormat's model directories: an include of a directory means the file its model.config names.
#include <string>

#include "interlink/Diagnostics.hpp"
#include "interlink/SourceLocation.hpp"

namespace interlink::sdformat {

/// The newest <sdf> file (version 1.9 at most) that `directory`/model.config names, relative to
/// the directory; an empty string after reporting URI_LOOKUP at `where` when there is none.
std::string modelFileInDirectory(const std::string& directory, const std::string& uri, const SourceLocation& where,
                                 Diagnostics& diagnostics);

}  // namespace interlink::sdformat
