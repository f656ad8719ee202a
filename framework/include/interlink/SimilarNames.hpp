#pragma once
// "Did you mean": the names closest to one that names nothing (an unknown frame, element or
// attribute), by edit distance, as compilers suggest a misspelt identifier. One helper for the
// core and every plugin, so that every suggestion reads the same.
#include <string>
#include <vector>

#include "interlink/Export.hpp"

namespace interlink {

/// Up to `most` of `candidates` close to `written` (edit distance with transpositions of at most a
/// third of the longer name, ignoring case; or `written` as the last "::" part of a scoped name),
/// closest first.
INTERLINK_API std::vector<std::string> similarNames(const std::string& written, const std::vector<std::string>& candidates,
                                                    std::size_t most = 3);

/// "; did you mean 'a' or 'b'?" for the names similarNames finds, or "" when none is close.
INTERLINK_API std::string didYouMean(const std::string& written, const std::vector<std::string>& candidates);

}  // namespace interlink
