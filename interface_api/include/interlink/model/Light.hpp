#pragma once
#include <string>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/SemanticPose.hpp"

namespace interlink {

enum class LightType { Point, Directional, Spot };

struct Light {
  std::string name;
  LightType type = LightType::Point;
  SemanticPose pose;
  std::string attachedTo;  // frame the light rides on (empty: the world / enclosing model)
  Vector3 direction = -Vector3::UnitZ();
  Eigen::Vector4d diffuse{1, 1, 1, 1};
  bool castShadows = false;
  SourceLocation where;
};

}  // namespace interlink
