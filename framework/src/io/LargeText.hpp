#pragma once
// The bytes of a model file as the loader keeps them for one load: in large blocks
// (util/LargeBlocks), so that the text of a big model is read into huge pages. Internal.
#include <string>

#include "util/LargeBlocks.hpp"

namespace interlink::io {

using LargeText = std::basic_string<char, std::char_traits<char>, detail::LargeBlockAllocator<char>>;

}  // namespace interlink::io
