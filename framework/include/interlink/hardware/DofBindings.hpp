#pragma once
// Which actuator drives each DOF of a loaded model: the bridge between a model and a DriverGroup.
#include <functional>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/FrameGraph.hpp"
#include "interlink/Kinematics.hpp"
#include "interlink/hardware/DriverGroup.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::hardware {

/// The bindings of every DOF of a loaded model whose joint names an actuator, in DOF order;
/// `address` chooses each driver's address (default: "sim://<dof>"). A DOF whose joint names no
/// actuator is reported (HARDWARE_UNKNOWN) and left out. Joints are matched to DOFs by identity
/// (their frames in `graph`), not by name.
INTERLINK_API std::vector<DofBinding> bindDofs(const Document& document, const FrameGraph& graph,
                                               const Kinematics& kinematics, Diagnostics& diagnostics,
                                               const std::function<std::string(const std::string& dof)>& address = {});

}  // namespace interlink::hardware
