#pragma once
// A kinematic tree built from the joints of a resolved document, and forward kinematics over it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/FrameGraph.hpp"
#include "interlink/FramePoses.hpp"
#include "interlink/model/Document.hpp"

namespace interlink {

/// One coordinate of the configuration vector.
struct Dof {
  std::string joint;  // scoped joint name
  int index = 0;      // coordinate within the joint (0 for single-DOF joints)
  std::string name;   // joint name, with "[k]" appended for multi-DOF joints
  double initial = 0; // the file's initial position
};

struct TreeJoint {
  std::string name;      // scoped
  std::size_t frame = 0;   // the joint's frame in the graph (FrameGraph::frameOf(joint))
  JointType type = JointType::Fixed;
  std::string parentLink;  // scoped; empty for the world
  std::string childLink;
  int parentLinkFrame = -1;  // frame index of the parent link (-1: the world / root)
  std::size_t childLinkFrame = 0;
  int firstDof = -1;       // index into dofs(), -1 for fixed joints
  bool loopClosure = false;
  std::vector<Vector3> axes;  // unit axes in the joint frame, as written (expressed_in resolved)
};

class INTERLINK_API Kinematics {
 public:
  Kinematics();
  ~Kinematics();
  Kinematics(Kinematics&&) noexcept;
  Kinematics& operator=(Kinematics&&) noexcept;

  /// Builds the tree. A link that is the child of two joints, or a loop, is reported (KINEMATIC_LOOP)
  /// unless the format marked the extra joint as a loop closure.
  static Kinematics build(const Document& document, const FrameGraph& graph, Diagnostics& diagnostics);

  /// DOF order: joints in depth-first document order (a model's own joints, then its nested
  /// models in order), each contributing dofCount(type) coordinates.
  const std::vector<Dof>& dofs() const;
  const std::vector<TreeJoint>& joints() const;
  std::vector<double> zeroConfiguration() const;
  std::vector<double> initialConfiguration() const;

  /// Poses of every frame of the graph (same order as graph.frames()) relative to the root at
  /// configuration q. Errors (wrong size) go to diagnostics and return nothing.
  std::optional<std::vector<Pose>> framePoses(const std::vector<double>& q, Diagnostics& diagnostics) const;
  /// The same poses, each made when it is read (FramePoses: one pose kept per link, not per frame).
  std::optional<FramePoses> posesAt(const std::vector<double>& q, Diagnostics& diagnostics) const;

  /// The pose of one frame (an index into graph.frames()) relative to the root at q, computed
  /// along the path from its link to the root only (framePoses computes every frame).
  std::optional<Pose> framePose(std::size_t frame, const std::vector<double>& q, Diagnostics& diagnostics) const;

  /// Human-readable tree ("base --revolute(j1)--> upper ...").
  std::string describeTree() const;

 private:
  friend class FramePoses;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace interlink
