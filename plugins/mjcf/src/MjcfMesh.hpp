#pragma once
// Mesh assets as MuJoCo 2.2.2 compiles them for mass: the triangles of a mesh file (binary STL,
// OBJ, MuJoCo's MSH) or of inline vertex/face data, and the mesh's "equivalent inertia box"
// (mjCMesh::Process): centre of volume, principal axes and the box whose inertia equals the
// mesh's. MuJoCo keeps vertices in single precision and so does this code, so that masses agree
// to 1e-9 and not only to float precision.
#include <optional>
#include <string>
#include <vector>

#include "MeshReader.hpp"
#include "interlink/Pose.hpp"

namespace interlink::mjcf {

/// Triangles with float vertices, as MuJoCo stores them.
struct MeshTriangles {
  std::vector<float> vertices;  // x, y, z per vertex
  std::vector<int> faces;       // three vertex indices per triangle
};

/// Reads a mesh file the way MuJoCo 2.2.2 accepts it: STL only binary (1..200000 triangles, exact
/// size), OBJ as Assimp reads it (triangles and quads, quads split as MuJoCo does), MSH as MuJoCo's
/// own binary layout, every file through the framework's mesh reader (its checks and limits).
/// Nothing on failure, with the reason in `error`.
std::optional<MeshTriangles> readMeshFile(mesh::MeshReader& meshes, const std::string& path, const Vector3& scale,
                                          mesh::MeshError& error);

/// Principal moments (decreasing) and axes of a symmetric 3x3 tensor exactly as MuJoCo 2.2.2's
/// mju_eig3 finds them: its Jacobi iteration stops early, so its axes (hence the box of a mesh and
/// the inertia MuJoCo compiles) differ from an exact decomposition by up to ~1e-6 rad.
struct PrincipalAxes {
  Vector3 moments;
  Matrix3 axes;            // columns: the principal axes
  Quaternion orientation;  // the same rotation, as MuJoCo's quaternion
};
PrincipalAxes principalAxesAsMujoco(const Matrix3& inertia);

/// The convex hull of the vertices by qhull ("Qt", as MuJoCo builds it for colliding geoms and for
/// meshes given without faces); a mesh without faces takes the hull's triangles, turned outward.
/// False when qhull fails (flat or too few vertices), which makes MuJoCo refuse the model.
bool convexHull(MeshTriangles& mesh);

/// The mesh's inertia as MuJoCo 2.2.2 derives a mesh geom's mass from it.
struct MeshInertia {
  Pose frame = Pose::Identity();   // centre of volume and principal axes, in the mesh file's frame
  Vector3 box = Vector3::Zero();   // half-sizes of the equivalent inertia box, along frame's axes
  double volume = 0;               // the volume MuJoCo weighs: the box's unless exactmeshinertia
};

/// mjCMesh::Process for the volume: refpos/refquat/scale, then the volume and inertia of the
/// pyramids from the centroid of the faces (absolute volumes unless `exact`). `density` is the geom
/// density of the mesh's default class: it cancels in the box, but MuJoCo's rounding goes through
/// it, and near-equal principal moments make the axes depend on the last bit. Nothing when MuJoCo
/// finds the mesh unusable for mass, with MuJoCo's reason in `problem`.
std::optional<MeshInertia> meshInertia(MeshTriangles mesh, const Vector3& scale, const Vector3& refPos,
                                       const Quaternion& refQuat, double density, bool exact, std::string& problem);

}  // namespace interlink::mjcf
