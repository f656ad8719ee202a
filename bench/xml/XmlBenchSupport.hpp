#pragma once
// Inputs and the measured operations shared by bench_xml and bench_xml_parse_file.
#include <cstddef>
#include <string>

namespace interlink::bench {

/// An SDFormat chain of `links` links, each with a frame and (but the first) a revolute joint;
/// 4000 links make about 1.9 MB.
std::string chainSdf(int links);

/// interlink::xml::parse on `content`, and the destruction of its tree. Returns the element count
/// (0 on a parse failure) so the work cannot be optimised away.
std::size_t parseAndDestroy(const std::string& content, const std::string& fileName);

/// Expat (the parser under interlink::xml::parse) with a handler that only counts start tags: what
/// parsing costs before any tree is built. Returns the number of start tags seen.
std::size_t expatFloor(const std::string& content, const std::string& fileName);

}  // namespace interlink::bench
