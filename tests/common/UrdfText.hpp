#pragma once
// URDF text for tests that write their own small models: the one-axis joint most of them need,
// written once.
#include <string>

namespace interlink::test {

/// Where a URDF joint sits and moves: its origin in the parent link and its axis.
struct UrdfJointPlacement {
  std::string xyz = "0 0 0";
  std::string rpy = "0 0 0";
  std::string axis = "0 0 1";
};

/// A URDF revolute joint (limit +-1 rad, effort 10, velocity 1), indented as a child of <robot>,
/// ending in a newline.
inline std::string urdfRevoluteJoint(const std::string& name, const std::string& parent, const std::string& child,
                                     const UrdfJointPlacement& placement) {
  return "  <joint name=\"" + name + "\" type=\"revolute\">\n    <parent link=\"" + parent + "\"/><child link=\"" +
         child + "\"/>\n    <origin xyz=\"" + placement.xyz + "\" rpy=\"" + placement.rpy + "\"/>\n    <axis xyz=\"" +
         placement.axis + "\"/>\n    <limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/>\n  </joint>\n";
}

}  // namespace interlink::test
