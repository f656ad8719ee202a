#pragma once
// MuJoCo's qpos layout of a configuration, so that a qpos vector from MuJoCo (data.qpos, a
// <key qpos>) can be used as it is (docs/mjcf.md).
#include <optional>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/FrameGraph.hpp"
#include "interlink/Kinematics.hpp"

namespace interlink {

/// The configuration (Kinematics' DOF order) for a vector in MuJoCo's qpos layout: the joints that
/// have coordinates, in DOF order (loop closures take no values); a free joint takes 7 values (the
/// position and orientation quaternion w x y z of its child link relative to its parent link: for
/// an MJCF model, MuJoCo's world pose of the body), a ball joint 4 (the quaternion w x y z of its
/// rotation), every other joint its own coordinates. Quaternions are normalised, as MuJoCo
/// normalises them. A vector of the wrong size, a zero quaternion or a non-finite value goes to
/// diagnostics and returns nothing. `graph` is the one `kinematics` was built from.
INTERLINK_API std::optional<std::vector<double>> configurationFromQpos(const Kinematics& kinematics, const FrameGraph& graph,
                                                                       const std::vector<double>& qpos,
                                                                       Diagnostics& diagnostics);

}  // namespace interlink
