#pragma once
// MJCF as MuJoCo compiles it (the current XML reference, and MuJoCo 2.2.2 where it differs), before any mapping: every body with its joints, geoms, sites,
// cameras and explicit inertial, with <default> classes, <compiler> settings, orientation forms
// and angle units already applied. Names are as written (empty when the file gave none); ids are
// MuJoCo's (depth-first document order, the world body 0).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "interlink/Pose.hpp"
#include "interlink/SourceLocation.hpp"
#include "interlink/model/Geometry.hpp"
#include "interlink/model/KeptElement.hpp"
#include "MjcfMesh.hpp"

namespace interlink::mjcf {

enum class InertiaFromGeom { False, True, Auto };

struct Compiler {
  bool degrees = true;                  // <compiler angle>
  std::string eulerSequence = "xyz";    // <compiler eulerseq>
  InertiaFromGeom inertiaFromGeom = InertiaFromGeom::Auto;
  int inertiaGroupLow = 0, inertiaGroupHigh = 5;  // <compiler inertiagrouprange>
  double boundMass = 0, boundInertia = 0;
  double setTotalMass = -1;
  bool balanceInertia = false;
  bool autoLimits = true;               // MuJoCo 3.0.0's default (2.2.2: false)
  bool autoLimitsGiven = false;         // the file sets <compiler autolimits>
  bool exactMeshInertia = false;        // <compiler exactmeshinertia>
  bool fitAabb = false;                 // <compiler fitaabb>
  bool convexHull = true;               // <compiler convexhull>
  bool globalCoordinates = false;       // <compiler coordinate="global">: frames read in world coordinates
  std::string meshDir, textureDir;      // as resolved against the model file's directory
};

enum class JointKind { Hinge, Slide, Ball, Free };

struct JointRecord {
  std::string name;
  int id = 0;
  JointKind kind = JointKind::Hinge;
  Vector3 pos = Vector3::Zero();       // in the body frame
  Vector3 axis = Vector3::UnitZ();     // unit, in the body frame
  bool limited = false;
  double lower = 0, upper = 0;         // radians or metres
  double ref = 0, springRef = 0;       // radians or metres
  double stiffness = 0, damping = 0, armature = 0, frictionLoss = 0;
  bool forceLimited = false;           // actuatorfrclimited (MuJoCo 3.0.0)
  double forceLower = 0, forceUpper = 0;  // actuatorfrcrange: the actuator force the joint takes
  /// MuJoCo's own joint parameters (armature, solver settings, ...) as read, classes applied.
  std::vector<std::pair<std::string, std::string>> mujoco;
  SourceLocation where;
};

struct GeomRecord {
  std::string name;
  int id = 0;
  std::string typeName;                // as written: sphere, capsule, ..., mesh
  Geometry geometry;                   // core shape (sizes converted to full lengths)
  Vector3 size = Vector3::Zero();      // MuJoCo's half-sizes after fromto
  Pose pose = Pose::Identity();        // in the body frame
  std::optional<double> mass;          // explicit <geom mass>
  double density = 1000;
  int group = 0;
  int contype = 1, conaffinity = 1;
  std::optional<Eigen::Vector4d> rgba;
  std::string material;
  std::string meshAsset;               // mesh geoms: the asset's name, and where the geom names it
  SourceLocation meshWhere;
  std::optional<MeshInertia> meshInertia;  // mesh geoms: the mesh's inertia box (MjcfMesh.hpp)
  std::string meshProblem;             // mesh geoms: why MuJoCo cannot take a mass from the mesh
  /// MuJoCo's own geom parameters (friction, condim, solref, material, ...) as read, classes applied.
  std::vector<std::pair<std::string, std::string>> mujoco;
  SourceLocation where;
};

/// A site or a camera: a named frame on a body.
struct FrameRecord {
  std::string name;
  int id = 0;
  Pose pose = Pose::Identity();
  SourceLocation where;
  std::string element;  // a camera as written, kept for an MJCF writer; empty for a site
  /// A site's own appearance (type, size, rgba, group, ...) as read, classes applied.
  std::vector<std::pair<std::string, std::string>> mujoco;
};

struct InertialRecord {
  Pose frame = Pose::Identity();       // inertial frame in the body frame
  double mass = 0;
  Matrix3 inertia = Matrix3::Zero();   // in `frame`
  bool fromGeoms = false;              // weighed from the geoms already (coordinate="global")
  SourceLocation where;
};

struct BodyRecord {
  std::string name;
  int id = 0;
  Pose pose = Pose::Identity();        // in the parent body frame
  std::optional<InertialRecord> inertial;
  std::vector<JointRecord> joints;
  std::vector<GeomRecord> geoms;
  std::vector<FrameRecord> sites;
  std::vector<FrameRecord> cameras;
  std::vector<BodyRecord> children;
  std::vector<KeptElement> kept;       // lights and other elements kept as data
  std::vector<std::pair<std::string, std::string>> mujoco;  // mocap, gravcomp, user as read
  SourceLocation where;
};

enum class EqualityKind { Weld, Connect };

struct EqualityRecord {
  std::string name;
  int id = 0;
  EqualityKind kind = EqualityKind::Weld;
  std::string body1, body2;            // body2 empty: the world
  Vector3 anchor = Vector3::Zero();    // in body1's frame
  SourceLocation where;
};

struct MjcfModel {
  std::string name;                    // <mujoco model>
  Compiler compiler;
  BodyRecord world;                    // the world body (id 0) with everything under <worldbody>
  std::vector<EqualityRecord> equalities;
  std::vector<KeptElement> kept;       // sections kept as data (actuators, tendons, sensors, ...)
  int bodyCount = 1, jointCount = 0, geomCount = 0, siteCount = 0, cameraCount = 0, equalityCount = 0;
};

}  // namespace interlink::mjcf
