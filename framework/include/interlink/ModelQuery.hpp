#pragma once
// What a host asks of a loaded model, by name: poses of frames (also relative to one another),
// joint information in DOF order, mass properties and Jacobians, at a configuration given as a
// vector (DOF order) or as values by joint name. Built on the public FrameGraph and Kinematics.
//
// Frames are expressed in the root frame R of the load (the world for a world file, the top model
// frame for a model file) unless a query names another. Errors (unknown names, a configuration
// of the wrong size) go to the caller's Diagnostics with KINEMATICS_INVALID and return nothing.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/Loader.hpp"
#include "interlink/Pose.hpp"
#include "interlink/model/JointType.hpp"

namespace interlink {

/// One joint that has DOFs, as the configuration vector sees it.
struct JointInfo {
  std::string name;  // scoped
  JointType type = JointType::Fixed;
  int firstDof = 0;  // index of its first coordinate in the configuration vector
  int dofCount = 0;
  /// Unit axes in the joint frame (expressed_in resolved), one per axis the file gives.
  std::vector<Vector3> axes;
  /// Limits of each axis (-inf / +inf when unlimited), parallel to `axes`.
  std::vector<double> lower, upper, effort, velocity;
  /// The file's initial position of each coordinate (dofCount values).
  std::vector<double> initial;
  std::string parentLink;  // scoped; empty for the root
  std::string childLink;
};

/// Mass, centre of mass and rotational inertia of a set of links, in the root frame.
struct MassProperties {
  double mass = 0;
  Vector3 centerOfMass = Vector3::Zero();  // p_RCm
  Matrix3 inertia = Matrix3::Zero();       // about the centre of mass, axes of the root frame
};

/// Geometric Jacobian: 6 rows (linear velocity of the frame origin, then angular velocity, both
/// in the root frame) by one column per DOF.
using Jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>;

class INTERLINK_API ModelQuery {
 public:
  /// Indexes `loaded` (linear in its size). `loaded` must outlive the query and stay unchanged.
  explicit ModelQuery(const LoadResult& loaded);
  ~ModelQuery();
  ModelQuery(ModelQuery&&) noexcept;
  ModelQuery& operator=(ModelQuery&&) noexcept;

  const LoadResult& loaded() const;
  /// Joints with DOFs in DOF order.
  const std::vector<JointInfo>& joints() const;
  /// DOF names in DOF order (a single-DOF joint's DOF is named after the joint).
  std::vector<std::string> dofNames() const;

  /// A configuration vector from values by DOF name (or joint name for a single-DOF joint);
  /// DOFs not named take `base` (zero when `base` is empty). Unknown names are errors.
  std::optional<std::vector<double>> configuration(const std::map<std::string, double>& values, Diagnostics& diagnostics,
                                                   const std::vector<double>& base = {}) const;

  /// A configuration written as text, as `interlink frames --positions` and Python take it:
  /// "zero", "initial", values in DOF order ("0.1,0.2,..."), or values by DOF name
  /// ("elbow=0.3,wrist=-1"; the DOFs not named at zero, or at their initial positions after a
  /// leading "initial," item). Errors (a bad number, an unknown name) go to `diagnostics`, all of them.
  std::optional<std::vector<double>> parseConfiguration(std::string_view text, Diagnostics& diagnostics) const;

  /// The index in loaded().graph.frames() of the frame `name` (empty: the root, 0).
  std::optional<std::size_t> frameIndex(const std::string& name, Diagnostics& diagnostics) const;

  /// Every frame of loaded().graph.frames() at q, relative to `relativeTo` (empty: the root).
  std::optional<std::vector<Pose>> framePoses(const std::vector<double>& q, const std::string& relativeTo,
                                              Diagnostics& diagnostics) const;
  /// The same poses, each made when it is read (FramePoses: one pose kept per link, not per
  /// frame); valid while loaded() lives where it is.
  std::optional<FramePoses> framePosesAt(const std::vector<double>& q, const std::string& relativeTo,
                                         Diagnostics& diagnostics) const;
  /// X_BA: frame A (`frame`) in frame B (`relativeTo`, empty: the root) at q.
  std::optional<Pose> pose(const std::string& frame, const std::vector<double>& q, const std::string& relativeTo,
                           Diagnostics& diagnostics) const;
  /// The same by frame index (frameIndex): walks only the tree path of each frame to the root.
  std::optional<Pose> pose(std::size_t frame, const std::vector<double>& q, std::size_t relativeTo, Diagnostics& diagnostics) const;

  /// Mass properties at q of every link (`subtree` empty), of the links of a model (`subtree`
  /// names a model frame) or of a link and every link below it in the kinematic tree.
  std::optional<MassProperties> massProperties(const std::vector<double>& q, const std::string& subtree,
                                               Diagnostics& diagnostics) const;

  /// Geometric Jacobian of `frame` at q: column k is the velocity of the frame (origin linear
  /// velocity, angular velocity; root-frame axes) for a unit rate of DOF k. Loop-closure joints
  /// are constraints, not tree edges, and contribute nothing.
  std::optional<Jacobian> jacobian(const std::string& frame, const std::vector<double>& q, Diagnostics& diagnostics) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace interlink
