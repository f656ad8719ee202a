#pragma once
// What a writer needs to know beyond the model: where its output goes and how to write the URIs
// of the files the model names (meshes). Rules: docs/convert.md, "Mesh URIs".
#include <optional>
#include <string>
#include <string_view>

#include "interlink/Export.hpp"

namespace interlink::convert {

/// How a writer writes the URI of a mesh (or any other file a model names).
enum class MeshUriStyle {
  /// As the source wrote it when the target resolves it the same way (package://, model://),
  /// else relative to the output file's directory. The default: the output can be shared.
  Portable,
  /// The absolute path of the file found on this machine.
  Absolute,
  /// Relative to the output file's directory, whatever the source wrote.
  Relative,
  /// Exactly as the source wrote it.
  AsWritten,
};

/// "portable", "absolute", "relative", "as-written" (the CLI's --mesh-uris values).
INTERLINK_API std::optional<MeshUriStyle> meshUriStyleNamed(std::string_view name);

/// What a writer needs to know beyond the model.
struct WriteOptions {
  MeshUriStyle meshUris = MeshUriStyle::Portable;
  /// Where the text goes: relative URIs are written relative to its directory ("-", standard
  /// output: the working directory). Empty (a string whose place is unknown): the files found
  /// are written by absolute path, package:// and model:// URIs still as written when portable.
  std::string outputPath;
  /// URDF: write a floating base (a free joint from the world) as a `floating` joint from `world`.
  /// Off: its child link is the URDF root, which Gazebo leaves free (docs/convert.md).
  bool urdfFloatingJoint = false;
};

}  // namespace interlink::convert
