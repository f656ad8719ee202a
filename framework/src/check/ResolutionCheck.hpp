#pragma once
// Checks on what resolution made of a model, for every format (issue 29): a pose, inertia or axis
// that became non-finite (values that each parse but overflow once added or rotated, such as two
// joint offsets of 1.5e308) is an error at the element that caused it; mimic joints that follow
// themselves, directly or through a cycle, are refused.
#include "interlink/Diagnostics.hpp"
#include "interlink/FrameGraph.hpp"
#include "interlink/Kinematics.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::detail {

/// VALUE_INVALID for each frame whose resolved pose is not finite while the frame it is placed
/// from is (its descendants are not reported again), each joint axis and each link inertial that
/// is not finite.
void checkFinite(const Document& document, const FrameGraph& graph, const Kinematics& kinematics, Diagnostics& diagnostics);

/// JOINT_AXIS_MIMIC_INVALID for every joint that mimics itself and once for every cycle of mimic
/// joints within a model (linear in the number of joints).
void checkMimicCycles(const Document& document, Diagnostics& diagnostics);

}  // namespace interlink::detail
