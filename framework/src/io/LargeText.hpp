#pragma once
// The bytes of a model file as the loader keeps them for one load: in large blocks
// (util/LargeBlocks), so that the text of a big model is read into huge pages. Internal.
#include <cstdint>
#include <optional>
#include <string>

#include "interlink/Diagnostics.hpp"
#include "util/LargeBlocks.hpp"

namespace interlink::io {

using LargeText = std::basic_string<char, std::char_traits<char>, detail::LargeBlockAllocator<char>>;

/// readRegularFile (interlink/io/ModelFile.hpp), into a LargeText: the same checks and errors.
std::optional<LargeText> readLargeRegularFile(const std::string& path, std::uint64_t maxFileBytes,
                                              const SourceLocation& requestedAt, Diagnostics& diagnostics);

}  // namespace interlink::io
