#pragma once
// Writers from the core model to other formats (the registry that picks them by name or
// extension and writes checked files: WriterRegistry.hpp): SDFormat 1.9, URDF, MJCF, JSON and Graphviz DOT.
// They take a loaded document (interlink::LoadResult: the composed document, its resolved frame
// graph and kinematic tree) so that poses are written from the resolved frames, whatever format
// the model came from. Mapping rules and deviations: docs/convert.md.
#include <optional>
#include <string>
#include <string_view>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/WriteOptions.hpp"

namespace interlink::convert {

/// SDFormat 1.9 text. Nested models, links, joints and explicit frames keep their names and
/// scopes; joint and frame poses are written relative to `__model__` (world frames relative to
/// `world`) from the resolved graph, and model frames relative to their parent model, so every
/// frame re-resolves to the same pose. Rotations are written as quaternions (rotation_format
/// quat_xyzw) so that nothing is lost to Euler angles. What SDFormat 1.9 cannot express (joint
/// types it lacks, shapes it lacks) gets a warning in `diagnostics`. Returns nothing (after
/// errors in `diagnostics`) when `loaded` has errors.
INTERLINK_API std::optional<std::string> writeSdformat(const LoadResult& loaded, const WriteOptions& options,
                                                     Diagnostics& diagnostics);
/// With the default WriteOptions (portable URIs relative to the working directory).
INTERLINK_API std::optional<std::string> writeSdformat(const LoadResult& loaded, Diagnostics& diagnostics);

/// URDF text: one <robot> (named after the model or world) with nested models flattened.
/// Names: a scoped name's "::" becomes "__" (see urdfName). Explicit frames become massless
/// links with a fixed joint "<frame>__frame_joint" to the link they are attached to. A joint
/// whose frame is not its child link's frame gets a massless link "<joint>__joint_frame".
/// Several root links (or joints to the world) hang from a link "world". A graph that is not a
/// tree (loop-closure joints) is refused with KINEMATIC_LOOP naming the loop joints.
INTERLINK_API std::optional<std::string> writeUrdf(const LoadResult& loaded, const WriteOptions& options,
                                                     Diagnostics& diagnostics);
/// With the default WriteOptions (portable URIs relative to the working directory).
INTERLINK_API std::optional<std::string> writeUrdf(const LoadResult& loaded, Diagnostics& diagnostics);

/// The complete core model as JSON (schema in docs/convert.md): the document as read and
/// composed, plus the resolved frames (pose in the root frame, kind, attachment) and the DOFs.
INTERLINK_API std::string writeJson(const LoadResult& loaded);

/// Graphviz DOT: models as clusters, links (boxes), joints (ellipses, between parent and child
/// link), explicit frames (notes); kinematic edges solid, attached-to edges dashed blue,
/// relative-to edges dotted grey; loop-closure joints drawn red with a "loop closure" label.
struct DotOptions {
  /// Draw the kinematic tree alone: links, joints and the root, without explicit frames, model
  /// frames, attached-to and relative-to edges.
  bool kinematicTreeOnly = false;
  /// Label each parent link -> joint edge with the joint's pose in the parent link
  /// ("xyz: x y z\nrpy: r p y", as urdf_to_graphviz does).
  bool poseLabels = true;
};
INTERLINK_API std::string writeDot(const LoadResult& loaded, const DotOptions& options = {});

/// MJCF text for MuJoCo 2.2.2: the kinematic tree as nested bodies under <worldbody> (the root
/// frame), each tree joint as the MuJoCo joints that move its child alike, loop closures as
/// <equality> weld/connect, explicit and nested-model frames as sites, masses as explicit
/// <inertial>s. Names follow urdfName. What MJCF cannot hold (cones, heightmaps, meshes MuJoCo
/// cannot read, screw coupling) gets a warning. Rules: docs/mjcf.md.
INTERLINK_API std::optional<std::string> writeMjcf(const LoadResult& loaded, const WriteOptions& options,
                                                     Diagnostics& diagnostics);
/// With the default WriteOptions (portable URIs relative to the working directory).
INTERLINK_API std::optional<std::string> writeMjcf(const LoadResult& loaded, Diagnostics& diagnostics);

/// The URDF name of a scoped frame name: every "::" becomes "__" ("arm::base" -> "arm__base").
INTERLINK_API std::string urdfName(const std::string& scopedName);

/// `text` as a JSON string literal, quotes included (for hosts writing JSON of their own).
INTERLINK_API std::string jsonQuoted(std::string_view text);

}  // namespace interlink::convert
