#pragma once
// Assimp behind the module's gate: files only through a MeshPartSource (MeshFileAccess); every
// decoding in a forked child process bounded in CPU time and memory (IsolatedRun.hpp), so that a
// file Assimp crashes or loops on costs the mesh, not the host; inside it, Assimp's import,
// post-processing and scene walk (all recursive per node) on a thread whose large stack the
// node-depth limit of MeshPrecheck keeps far from full.
//
// The decoder is a library of its own, libinterlink_mesh_assimp.so in <libdir>/interlink/ beside
// the plugins' folder (AssimpDecode.cpp), loaded the first time a mesh needs Assimp
// (AssimpModule.cpp): a load whose meshes are all OBJ and STL, or that has none, never loads
// Assimp, which costs a process about 6 ms of CPU to load.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "MeshFileAccess.hpp"

namespace interlink::mesh::detail {

/// The decoder library's entry points.
struct AssimpDecoder {
  /// Polygons as Assimp imports the file without post-processing, meshes in scene order.
  std::optional<MeshPolygons> (*polygons)(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                          std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                          MeshError& error);
  /// Counts and bounds after the import steps of `how`; `decodedBytes` is what the import took.
  std::optional<MeshInfo> (*measure)(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                     std::shared_ptr<const std::string> bytes, MeshMeasure how,
                                     std::uint64_t maxDecodedBytes, std::uint64_t& decodedBytes, MeshError& error);
  /// The mesh as one glTF binary for drawing (triangles, metres, node transforms baked in).
  std::optional<std::string> (*displayGlb)(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                           std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                           MeshError& error);
};

/// The name the decoder library exports its AssimpDecoder by.
inline constexpr const char* kAssimpDecoderEntryPoint = "interlink_mesh_assimp_decoder";

/// Polygons as Assimp imports the file without post-processing, meshes in scene order (through
/// the decoder library; FILE_READ when it cannot be loaded).
std::optional<MeshPolygons> assimpPolygons(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                           std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                           MeshError& error);

/// Counts and bounds after the import steps of `how`; `decodedBytes` is what the import took.
std::optional<MeshInfo> assimpMeasure(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                      std::shared_ptr<const std::string> bytes, MeshMeasure how,
                                      std::uint64_t maxDecodedBytes, std::uint64_t& decodedBytes, MeshError& error);

/// The mesh as one glTF binary for drawing, through the decoder library.
std::optional<std::string> assimpDisplayGlb(MeshPartSource& parts, const std::string& path, MeshFormat format,
                                            std::shared_ptr<const std::string> bytes, std::uint64_t maxDecodedBytes,
                                            MeshError& error);

}  // namespace interlink::mesh::detail
