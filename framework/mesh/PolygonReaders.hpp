#pragma once
// OBJ and binary STL without Assimp: the polygons Assimp 5.2's importers give without
// post-processing (one vertex per face corner, faces grouped by OBJ object and mesh as Assimp
// groups them, numbers parsed by Assimp's own fast_atof), without its fixed cost per file (the OBJ
// importer clears a 16 MiB line buffer for every file: 1.5 ms, 97% of reading a small mesh).
#include <cstdint>
#include <optional>
#include <string_view>

#include "MeshReader.hpp"

namespace interlink::mesh::detail {

/// Nothing with `error` set when the file is malformed or would decode to more than
/// `maxDecodedBytes`.
std::optional<MeshPolygons> readObj(std::string_view bytes, std::uint64_t maxDecodedBytes, MeshError& error);

/// Nothing, and `error` untouched, when the size does not match the triangle count of a binary
/// STL (an ASCII STL: Assimp reads those).
std::optional<MeshPolygons> readBinaryStl(std::string_view bytes, std::uint64_t maxDecodedBytes, MeshError& error);

}  // namespace interlink::mesh::detail
