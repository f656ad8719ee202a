#pragma once
// A SKEL file as DART 6.12 reads it (step 1 of the plugin): the world's physics and its
// skeletons, each with bodies, joints and markers as written and checked value by value. Names
// are as written; making them unique in the core's one namespace per model, the kinematic
// structure (one parent joint per body, cycles, root joints) and the frames of markers are the
// mapping's work (step 2, SkelMapping.hpp).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "interlink/Pose.hpp"
#include "interlink/SourceLocation.hpp"
#include "interlink/model/Joint.hpp"
#include "interlink/model/KeptElement.hpp"
#include "interlink/model/Link.hpp"
#include "interlink/model/SemanticPose.hpp"
#include "interlink/model/World.hpp"

namespace interlink::skel::detail {

/// A <body>: its inertia and shapes already in the core's terms (a SKEL body is one link).
struct BodyRecord {
  Link link;
  SourceLocation where;
};

/// A <joint> whose parent and child name bodies of its skeleton (or the world).
struct JointRecord {
  Joint joint;           // name as written (may be empty), coordinates in the core's order
  std::string dartType;  // "weld", "revolute", ...
  std::size_t documentIndex = 0;
};

/// A <marker> of a body: a point on it.
struct MarkerRecord {
  std::string name;
  std::string body;
  Vector3 offset = Vector3::Zero();
  SourceLocation where;
};

struct SkeletonRecord {
  std::string name;  // as written ("skeleton" when absent)
  SemanticPose pose;
  bool isStatic = false;
  std::vector<BodyRecord> bodies;  // names unique within the skeleton
  std::vector<JointRecord> joints;
  std::vector<MarkerRecord> markers;
  std::vector<KeptElement> kept;
  SourceLocation where;
};

struct WorldRecord {
  World settings;  // name, gravity, physics and kept elements; no models
  std::vector<SkeletonRecord> skeletons;
};

struct SkelFile {
  std::string version = "1.0";
  std::optional<WorldRecord> world;  // the first <world>; DART reads no other
  std::vector<KeptElement> kept;     // what <skel> holds besides it
};

}  // namespace interlink::skel::detail
