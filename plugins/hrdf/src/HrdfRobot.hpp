#pragma once
// An HRDF file read and checked: every robot model element in depth-first document order (with
// included content where it is included), each with its physical description from the hardware
// registry and the output of its parent it is attached to.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Pose.hpp"
#include "interlink/hardware/Catalog.hpp"
#include "interlink/plugin/PluginAbi.hpp"

namespace interlink::hrdf {

enum class ElementKind { Actuator, Link, Bracket, RigidBody, Joint, EndEffector };

/// "actuator", "link", "bracket", "rigid_body", "joint", "end_effector": the stem of default names.
const char* kindStem(ElementKind kind);
/// The XML element name: "actuator", ..., "rigid-body", "end-effector".
const char* kindElementName(ElementKind kind);

struct Mesh {
  std::string path;          // as written (relative path or web URL)
  std::string resolvedPath;  // absolute path for local files that exist
  Pose pose = Pose::Identity();
  SourceLocation where;
};

struct Element {
  ElementKind kind = ElementKind::RigidBody;
  std::string name;  // the tag, else <kind>_<k>
  std::string type;  // canonical catalog type; "Custom" for custom end effectors
  hardware::InterfaceSpec input;                 // empty type: mates with anything
  std::vector<hardware::InterfaceSpec> outputInterfaces;
  hardware::ComponentModel body;                 // mass, CoM, inertia, outputs at q = 0
  hardware::Motion motion = hardware::Motion::None;  // actuators
  hardware::Limits limits;
  Vector3 jointAxis = Vector3::UnitZ();          // <joint>: unit axis in the input frame
  bool prismatic = false;                        // <joint axis="t*">
  double gearRatio = 1;                          // <joint gear_ratio>
  int parent = -1;                               // element index; -1: the robot's base frame
  int parentOutput = 0;                          // output index of the parent
  std::optional<Mesh> mesh;
  bool implicitEndEffector = false;              // added for files of version <= 1.1.0
  SourceLocation where;

  bool hasBody() const { return kind != ElementKind::Joint; }
  bool hasDof() const { return kind == ElementKind::Joint || motion != hardware::Motion::None; }
};

struct Robot {
  std::string version = "1.0.0";
  int minor = 0;  // 1.<minor>.0
  Pose base = Pose::Identity();
  std::string description;
  std::vector<Element> elements;
};

/// Reads an HRDF document; every problem goes to `diagnostics`. Returns false on errors. Parts
/// are looked up in the host's hardware catalogs and <include> files read through the host's
/// include service (both in `host`, which may be null: then neither is available).
bool readRobot(std::string_view content, const std::string& path, const plugin::HostServices* host, Robot& robot,
               Diagnostics& diagnostics);

}  // namespace interlink::hrdf
