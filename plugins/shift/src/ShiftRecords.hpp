#pragma once
// A Shift file as it is written, read and checked (step 1 of the plugin): assemblies, bodies,
// joints, restraints, fixed frames and lights, every name reference resolved to an index and
// every value in SI units. The mapping (step 2, ShiftMapping.hpp) turns it into the core model.
#include <map>
#include <string>
#include <vector>

#include "interlink/Pose.hpp"
#include "interlink/SourceLocation.hpp"
#include "interlink/model/KeptElement.hpp"
#include "interlink/model/Light.hpp"
#include "interlink/model/Link.hpp"
#include "interlink/model/JointType.hpp"
#include "interlink/model/Physics.hpp"
#include "interlink/shift/ShiftAssembly.hpp"

namespace interlink::shift::detail {

constexpr const char* kFixed = "fixed";
constexpr const char* kOrigin = "origin";
constexpr int kFixedBody = -1;

/// Factors from the file's units to SI.
struct Units {
  double length = 1, angle = 1, mass = 1, time = 1;
};

struct FrameRecord {
  std::string name;
  Pose pose = Pose::Identity();  // X_BF: the frame in its body (or in the fixed frame)
  SourceLocation where;
};

struct BodyRecord {
  std::string name;
  int assembly = 0;
  bool active = true;  // own flag and its assembly's
  Link link;           // inertial and visuals (mesh measured) in SI units
  std::vector<FrameRecord> frames;
  std::string collisionGeometry;  // as written; empty when absent
  SourceLocation where;
};

struct AssemblyRecord {
  std::string name;  // the top level (index 0) is named after the file
  int parent = -1;
  bool active = true;  // own flag and every parent's
  std::vector<int> children;
  std::vector<int> bodies;
  std::vector<int> joints;
  std::vector<int> restraints;
  std::vector<KeptElement> kept;  // unknown keys and switched-off entries, as written
  SourceLocation where;
};

/// One end of a joint, restraint or light: a body (or the fixed frame) and a frame on it.
struct EndPoint {
  int body = kFixedBody;
  std::string frame = kOrigin;
  Pose frameInBody = Pose::Identity();  // X_BF
  SourceLocation where;
};

struct JointRecord {
  std::string name;      // as written
  std::string typeName;  // as written ("Rz", "rigid", ...)
  int assembly = 0;
  JointType type = JointType::Fixed;
  Vector3 axis = Vector3::UnitX();
  EndPoint parent;
  EndPoint child;
  Pose offset = Pose::Identity();  // X_PC of a rigid joint, initial X_PC of float/spherical
  std::vector<double> initialPositions;
  std::vector<double> initialVelocities;
  std::vector<double> stiffness;             // as written
  std::vector<double> damping;               // as written
  std::vector<double> dampingCoefficients;   // as written
  SourceLocation where;
};

/// A spring, damper or friction law on one joint variable or on a distance between two frames.
struct RestraintRecord {
  std::string name;
  int assembly = 0;
  RestraintType type = RestraintType::Spring;
  int joint = -1;          // index in ShiftFile::joints; -1: between two frames
  EndPoint first;          // the frames of a body_frame_pair
  EndPoint second;
  Distance distance = Distance::Euclidean;  // frame pairs
  PiecewisePolynomial function;
  SourceLocation where;
};

struct LightRecord {
  Light light;
  EndPoint at;
};

struct ShiftFile {
  std::string version;
  Units units;
  Vector3 gravity{0, 0, 9.81};
  std::vector<std::string> includeDirectories;
  /// model_parameters flattened as written ("units.length" -> "meters"), for the host.
  std::map<std::string, std::string> parameters;
  Physics physics;
  std::vector<FrameRecord> fixedFrames;
  std::vector<LightRecord> lights;
  std::vector<KeptElement> kept;  // top level and fixed
  std::vector<AssemblyRecord> assemblies;  // [0] is the top level of the file
  std::vector<BodyRecord> bodies;
  std::vector<JointRecord> joints;
  std::vector<RestraintRecord> restraints;
  SourceLocation where;

  /// "the top level" or "assembly 'arm:wrist'", for messages.
  std::string assemblyPath(int assembly) const;
};

std::string joinPath(const std::vector<std::string>& parts, const char* separator);
std::string joinNumbers(const std::vector<double>& values);

}  // namespace interlink::shift::detail
