#pragma once
// A PLY file read through once against its own header before Assimp sees it. Assimp 5.2's PLY
// importer trusts the file: an unknown header line, a list count larger than the data, a face index
// past the vertices or extra values on a line make it reserve gigabytes, loop for seconds or abort
// in post-processing (fuzz_mesh found each). A file that passes holds every value its header
// declares, in the declared types, and faces that name existing vertices.
#include <string_view>

#include "MeshReader.hpp"

namespace interlink::mesh::detail {

/// True when `bytes` is a well-formed PLY file (ASCII or binary, either byte order); else false
/// with `error` naming the header line, data line or byte offset and what was expected there.
bool checkPlyFile(std::string_view bytes, MeshError& error);

}  // namespace interlink::mesh::detail
