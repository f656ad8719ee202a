#pragma once
// The resolved frame graph of a loaded document: every named frame (links, joints, explicit
// frames, model frames, the world) with its pose, computed once in a single linear pass.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/Pose.hpp"
#include "interlink/model/Document.hpp"

namespace interlink {

enum class FrameKind { World, Model, Link, Joint, Frame };
INTERLINK_API const char* frameKindName(FrameKind kind);

/// The one place scoped names are made: "arm::forearm" from scope "arm" and "forearm" (an empty
/// scope gives the name itself).
INTERLINK_API std::string scopedName(const std::string& scope, const std::string& localName);

struct FrameInfo {
  /// The frame's name, unique in the graph: what find(), --frame and --relative-to take. Scoped
  /// with "::" from the root ("arm::forearm"); "world" for the world.
  std::string name;
  /// The element's own scoped name where the frame's differs, else empty. Where joints have their
  /// own namespace (URDF, SDFormat < 1.7), a joint named like a link keeps its name here ("LF_HAA")
  /// while its frame, in the graph's one namespace, is "LF_HAA_joint" (libsdformat's rule).
  std::string ownName;
  /// The name to show beside the kind (frame listings, JSON, drawings): the element's own name.
  const std::string& shownName() const { return ownName.empty() ? name : ownName; }
  /// X_RF: this frame in the root frame (the world for a world file, the top model frame for a
  /// model file), at the zero configuration.
  Pose pose = Pose::Identity();
  /// The link this frame is rigidly attached to (empty for the world and frames fixed to it).
  std::string attachedLink;
  /// Index of that link's frame (-1 when attachedLink is empty).
  int attachedLinkFrame = -1;
  /// Index of the frame its pose was written relative to (-1 for the root).
  int relativeTo = -1;
  /// Index of the frame it is attached to (-1 for links, static model frames and the root).
  int attachedTo = -1;
  FrameKind kind = FrameKind::Frame;  // here, beside the indexes, it fills their padding
  SourceLocation where;
};

class INTERLINK_API FrameGraph {
 public:
  FrameGraph();
  ~FrameGraph();
  FrameGraph(FrameGraph&&) noexcept;
  FrameGraph& operator=(FrameGraph&&) noexcept;

  /// Builds and checks the graphs of `document` (all model and world phases) and resolves every
  /// pose. Errors go to `diagnostics`; frames that could not be resolved are left out. A file may
  /// hold several worlds: `world` is the index of the one to build (ignored for a model file).
  static FrameGraph build(const Document& document, Diagnostics& diagnostics, std::size_t world = 0);

  /// Frames in document order, root first.
  const std::vector<FrameInfo>& frames() const;
  /// The frame of a scoped name. "world" always names a frame: the world of a world file, and in a
  /// model file the root (the model frame, which a model file is resolved in, at the world's
  /// origin) unless the model has a frame of that name.
  std::optional<std::size_t> find(const std::string& scopedName) const;
  /// "no frame named 'X'; did you mean 'Y'?" for a name find() does not know.
  std::string unknownFrameMessage(const std::string& scopedName) const;
  /// The frame of an element of the document the graph was built from (that very element, not a
  /// copy), whatever it was renamed to (SDFormat < 1.7 names a joint's frame "<name>_joint" when
  /// a link has its name); nothing when the element was left out.
  std::optional<std::size_t> frameOf(const Link& link) const;
  std::optional<std::size_t> frameOf(const Joint& joint) const;
  std::optional<std::size_t> frameOf(const Frame& frame) const;
  std::optional<std::size_t> frameOf(const Model& model) const;
  /// Scoped name of the scope frame `frame` is declared in ("" for the root scope): with
  /// scopedName() it names any element of that scope.
  const std::string& scopeOf(std::size_t frame) const;
  /// X_BA for frame A relative to frame B (scoped names); nothing if either is unknown.
  std::optional<Pose> pose(const std::string& frame, const std::string& relativeTo) const;
  /// Resolves `reference` as it would be read inside the scope where frame `from` is declared
  /// (e.g. a joint's parent or an axis' expressed_in). "__model__" and "world" are understood.
  std::optional<std::size_t> resolveReference(std::size_t from, const std::string& reference) const;
  /// Name of the root frame ("world" or the top model's name).
  const std::string& rootName() const;
  bool isWorld() const;
  /// Index in Document::worlds of the world this graph resolves (0 for a model file).
  std::size_t worldIndex() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace interlink
