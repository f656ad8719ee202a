#pragma once
// A visual or collision element of a link.
#include <optional>
#include <string>

#include "interlink/SourceLocation.hpp"
#include "interlink/model/Geometry.hpp"
#include "interlink/model/SemanticPose.hpp"

namespace interlink {

struct Shape {
  std::string name;
  SemanticPose pose;  // relative to the link unless relativeTo says otherwise
  Geometry geometry;
  std::optional<Eigen::Vector4d> color;  // rgba, when the format gives one
  std::string material;                  // material name or script, as written
  SourceLocation where;
};

}  // namespace interlink
