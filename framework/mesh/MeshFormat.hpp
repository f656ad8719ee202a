#pragma once
// The mesh formats the project supports, by file extension: the only ones ever offered to Assimp.
// Formats nobody uses for robot models (3MF, X3D, DirectX, OFF, ...) are refused before decoding:
// each is a decoder of its own to trust, and several amplify memory or recurse without bound.
#include <optional>
#include <string>

namespace interlink::mesh::detail {

enum class MeshFormat { Stl, Obj, Collada, Gltf, GltfBinary, Ply };

/// The format of `path` by its extension (case-insensitive), or nothing when it is not supported.
std::optional<MeshFormat> formatOf(const std::string& path);

/// "STL, OBJ, COLLADA (.dae), glTF (.gltf, .glb), PLY" for diagnostics.
const char* supportedFormats();

/// Whether a mesh of `format` may open the file `path` as part of itself (an OBJ's material
/// library, a glTF's buffers): only files of those kinds, so that a mesh cannot name an arbitrary
/// file and have its bytes decoded as vertices.
bool mayOpenAsPart(MeshFormat format, const std::string& path);

/// `path` absolute and lexically normal: how the mesh gate compares and counts files.
std::string normalisedPath(const std::string& path);

/// `text` made safe to quote in a diagnostic: printable ASCII kept, other bytes as \xNN, at most
/// 200 characters (Assimp's messages may quote what it read).
std::string quotable(const std::string& text);

}  // namespace interlink::mesh::detail
