// Which actuator drives each DOF: joints are found by their frames, so a joint whose frame was
// renamed (SDFormat < 1.7) or that sits in a nested model binds like any other.
#include "interlink/hardware/DofBindings.hpp"

#include <unordered_map>

namespace interlink::hardware {
namespace {

void collectJoints(const FrameGraph& graph, const Model& model, std::unordered_map<std::size_t, const Joint*>& out) {
  for (const Joint& joint : model.joints) {
    if (auto frame = graph.frameOf(joint)) out.emplace(*frame, &joint);
  }
  for (const Model& nested : model.models) collectJoints(graph, nested, out);
}

}  // namespace

std::vector<DofBinding> bindDofs(const Document& document, const FrameGraph& graph, const Kinematics& kinematics,
                                 Diagnostics& diagnostics, const std::function<std::string(const std::string&)>& address) {
  std::unordered_map<std::size_t, const Joint*> jointOfFrame;
  if (document.model) collectJoints(graph, *document.model, jointOfFrame);
  for (const World& world : document.worlds) {
    for (const Model& model : world.models) collectJoints(graph, model, jointOfFrame);
    for (const Joint& joint : world.joints) {
      if (auto frame = graph.frameOf(joint)) jointOfFrame.emplace(*frame, &joint);
    }
  }
  std::vector<DofBinding> bindings;
  const auto& dofs = kinematics.dofs();
  for (const TreeJoint& tree : kinematics.joints()) {
    if (tree.firstDof < 0) continue;
    auto it = jointOfFrame.find(tree.frame);
    const Joint* joint = it == jointOfFrame.end() ? nullptr : it->second;
    const int count = dofCount(tree.type);
    for (int c = 0; c < count; ++c) {
      const Dof& dof = dofs[static_cast<std::size_t>(tree.firstDof + c)];
      if (!joint || joint->actuator.empty()) {
        diagnostics.error(ErrorCode::HARDWARE_UNKNOWN, "DOF '" + dof.name + "' is not driven by a named actuator",
                          joint ? joint->where : SourceLocation{});
        continue;
      }
      bindings.push_back(DofBinding{dof.name, joint->actuator, address ? address(dof.name) : "sim://" + dof.name});
    }
  }
  return bindings;
}

}  // namespace interlink::hardware
