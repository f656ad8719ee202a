#include "ResolutionCheck.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace interlink::detail {
namespace {

bool finite(const Pose& pose) { return pose.matrix().allFinite(); }

/// Every model of the document, nested ones included, without recursion.
std::vector<const Model*> allModels(const Document& document) {
  std::vector<const Model*> pending, out;
  if (document.model) pending.push_back(&*document.model);
  for (const World& world : document.worlds)
    for (const Model& model : world.models) pending.push_back(&model);
  while (!pending.empty()) {
    const Model* model = pending.back();
    pending.pop_back();
    out.push_back(model);
    for (const Model& nested : model->models) pending.push_back(&nested);
  }
  return out;
}

}  // namespace

void checkFinite(const Document& document, const FrameGraph& graph, const Kinematics& kinematics, Diagnostics& diagnostics) {
  const auto& frames = graph.frames();
  // A joint placed where the sum overflows moves its child link there too: the joint is the cause.
  std::vector<bool> followsJoint(frames.size(), false);
  for (const TreeJoint& joint : kinematics.joints()) {
    if (joint.frame < frames.size() && !finite(frames[joint.frame].pose) && joint.childLinkFrame < frames.size()) {
      followsJoint[joint.childLinkFrame] = true;
    }
  }
  for (std::size_t index = 0; index < frames.size(); ++index) {
    const FrameInfo& frame = frames[index];
    if (finite(frame.pose) || followsJoint[index]) continue;
    // Reported where the overflow starts: a frame placed from a finite one.
    const int from = frame.relativeTo >= 0 ? frame.relativeTo : frame.attachedTo;
    if (from >= 0 && static_cast<std::size_t>(from) < frames.size() && !finite(frames[static_cast<std::size_t>(from)].pose)) {
      continue;
    }
    diagnostics.error(ErrorCode::VALUE_INVALID,
                      "the pose of '" + frame.name +
                          "' is not finite once resolved: its values overflow when combined with the frames it is "
                          "placed from",
                      frame.where);
  }
  for (const TreeJoint& joint : kinematics.joints()) {
    for (const Vector3& axis : joint.axes) {
      if (axis.allFinite()) continue;
      diagnostics.error(ErrorCode::VALUE_INVALID, "the axis of joint '" + joint.name + "' is not finite once normalised",
                        joint.frame < frames.size() ? frames[joint.frame].where : SourceLocation{});
      break;
    }
  }
  for (const Model* model : allModels(document)) {
    for (const Link& link : model->links) {
      const Inertial& inertial = link.inertial;
      if (std::isfinite(inertial.mass) && inertial.inertia.allFinite() && finite(inertial.centerOfMass)) continue;
      diagnostics.error(ErrorCode::VALUE_INVALID, "the inertial of link '" + link.name + "' is not finite once resolved",
                        inertial.where.known() ? inertial.where : link.where);
    }
  }
}

void checkMimicCycles(const Document& document, Diagnostics& diagnostics) {
  std::vector<std::size_t> path;
  for (const Model* model : allModels(document)) {
    // Most models have no mimic joint: they cost a look at each joint, not a table of names.
    if (std::none_of(model->joints.begin(), model->joints.end(), [](const Joint& j) { return j.mimic.has_value(); })) {
      continue;
    }
    std::unordered_map<std::string_view, std::size_t> byName;  // views of the model's joint names
    byName.reserve(model->joints.size());
    for (std::size_t j = 0; j < model->joints.size(); ++j) byName.emplace(model->joints[j].name, j);
    // Each joint follows at most one other: walk each chain once, colouring as we go.
    enum : char { kUnseen, kOnPath, kDone };
    std::vector<char> state(model->joints.size(), kUnseen);
    for (std::size_t start = 0; start < model->joints.size(); ++start) {
      path.clear();
      std::size_t at = start;
      while (state[at] == kUnseen) {
        state[at] = kOnPath;
        path.push_back(at);
        const Joint& joint = model->joints[at];
        if (!joint.mimic) break;
        const auto leader = byName.find(joint.mimic->joint);
        if (leader == byName.end()) break;
        if (leader->second == at) {
          diagnostics.error(ErrorCode::JOINT_AXIS_MIMIC_INVALID, "joint '" + joint.name + "' mimics itself", joint.where);
          break;
        }
        if (state[leader->second] == kOnPath) {
          std::string cycle;
          std::size_t count = 0;
          for (auto it = path.rbegin(); it != path.rend(); ++it) {
            if (count++ < 5) cycle = model->joints[*it].name + (cycle.empty() ? "" : " -> ") + cycle;
            if (*it == leader->second) break;
          }
          if (count > 5) cycle = "... -> " + cycle;
          diagnostics.error(ErrorCode::JOINT_AXIS_MIMIC_INVALID,
                            "mimic joints form a cycle of " + std::to_string(count) + " (" + cycle + " -> " +
                                joint.mimic->joint + "): no joint of it has a leader to follow",
                            joint.where);
          break;
        }
        at = leader->second;
      }
      for (std::size_t j : path) state[j] = kDone;
    }
  }
}

}  // namespace interlink::detail
