#pragma once
// Diagnostics name files as the host named the top-level file, as compilers do (issue 26).
#include <string>

#include "interlink/Diagnostics.hpp"

namespace interlink::detail {

/// Given a relative path, the top-level file (`absolute` in the diagnostics) is named as `given`
/// and every other file relative to the working directory; given an absolute one, nothing changes.
void nameFilesAsGiven(Diagnostics& diagnostics, const std::string& given, const std::string& absolute);

}  // namespace interlink::detail
