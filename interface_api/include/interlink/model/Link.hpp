#pragma once
#include <string>
#include <vector>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/Inertial.hpp"
#include "interlink/model/SemanticPose.hpp"
#include "interlink/model/Shape.hpp"

namespace interlink {

struct Link {
  std::string name;
  SemanticPose pose;  // default relative to the enclosing model frame
  Inertial inertial;
  bool hasInertial = false;  // false: the defaults above stand in for an absent element
  bool gravity = true;
  bool selfCollide = false;
  std::vector<Shape> visuals;
  std::vector<Shape> collisions;
  SourceLocation where;
};

}  // namespace interlink
