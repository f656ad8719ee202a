#pragma once
// Checks on a mesh file's bytes before any decoder sees them: a PLY file read through against its
// header (PlyCheck.hpp), COLLADA count claims against the file's size, nesting depth (COLLADA's XML, glTF's JSON and node chains, refused
// deeper than MeshLimits::maxNodeDepth so that no decoder recurses without bound), glTF node
// cycles, and glTF buffer and accessor sizes against the bytes there are.
#include <optional>
#include <string>
#include <string_view>

#include "MeshFormat.hpp"
#include "MeshReader.hpp"

namespace interlink::mesh::detail {

/// True when `bytes` of the file `path` (format `format`) may be handed to Assimp; else `error`.
bool precheckMesh(MeshFormat format, const std::string& path, std::string_view bytes, const MeshLimits& limits,
                  MeshError& error);

/// The deepest element nesting of XML text (a conservative scan: comments, CDATA, processing
/// instructions and declarations skipped, attribute values quoted).
std::size_t xmlDepth(std::string_view text);

/// The deepest nesting of JSON arrays and objects (strings skipped).
std::size_t jsonDepth(std::string_view text);

}  // namespace interlink::mesh::detail
