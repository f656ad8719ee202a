#include "MjcfMesh.hpp"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>

namespace interlink::mjcf {
namespace {

constexpr double kMinValue = 1e-15;  // MuJoCo's mjMINVAL

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

template <typename T>
T readScalar(const std::string& bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

/// MuJoCo reads only binary STL and refuses anything whose size does not match the header's count.
bool checkBinaryStl(const std::string& bytes, std::string& error) {
  if (bytes.size() < 84) {
    error = "invalid header in STL file (MuJoCo reads binary STL only)";
    return false;
  }
  std::uint32_t count;
  std::memcpy(&count, bytes.data() + 80, sizeof count);
  if (count < 1 || count > 200000) {
    error = "STL file has " + std::to_string(count) + " triangles; MuJoCo 2.2.2 needs 1 to 200000 (an ASCII STL?)";
    return false;
  }
  if (bytes.size() != 84 + 50ull * count) {
    error = "STL file has the wrong size for its triangle count (an ASCII STL?)";
    return false;
  }
  return true;
}

/// The triangles of a mesh's polygons of 3 or 4 corners (quads split along their first diagonal,
/// as MuJoCo's OBJ loader does).
bool trianglesFromPolygons(const mesh::MeshPolygons& polygons, MeshTriangles& out, std::string& error) {
  out.vertices = polygons.vertices;
  std::size_t at = 0;
  for (const std::uint32_t corners : polygons.cornerCounts) {
    const std::uint32_t* index = polygons.corners.data() + at;
    at += corners;
    if (corners < 3) continue;  // points and lines carry no volume
    if (corners > 4) {
      error = "a face has " + std::to_string(corners) + " corners; MuJoCo reads triangles and quads only";
      return false;
    }
    const auto corner = [&](unsigned i) { return static_cast<int>(index[i]); };
    out.faces.insert(out.faces.end(), {corner(0), corner(1), corner(2)});
    if (corners == 4) out.faces.insert(out.faces.end(), {corner(0), corner(2), corner(3)});
  }
  return true;
}

std::optional<MeshTriangles> readMsh(const std::optional<std::string>& bytes, std::string& error) {
  if (!bytes) return std::nullopt;
  if (bytes->size() < 4 * sizeof(std::int32_t)) {
    error = "missing header in MSH file";
    return std::nullopt;
  }
  const auto vertices = readScalar<std::int32_t>(*bytes, 0), normals = readScalar<std::int32_t>(*bytes, 4),
             texcoords = readScalar<std::int32_t>(*bytes, 8), faces = readScalar<std::int32_t>(*bytes, 12);
  if (vertices < 4 || faces < 0 || normals < 0 || texcoords < 0 || (normals > 0 && normals != vertices) ||
      (texcoords > 0 && texcoords != vertices)) {
    error = "invalid sizes in MSH file";
    return std::nullopt;
  }
  const std::uint64_t expected = 16 + 4ull * (3ull * vertices + 3ull * normals + 2ull * texcoords + 3ull * faces);
  if (bytes->size() != expected) {
    error = "unexpected file size in MSH file";
    return std::nullopt;
  }
  MeshTriangles mesh;
  mesh.vertices.resize(3 * static_cast<std::size_t>(vertices));
  std::memcpy(mesh.vertices.data(), bytes->data() + 16, mesh.vertices.size() * sizeof(float));
  mesh.faces.resize(3 * static_cast<std::size_t>(faces));
  const std::size_t faceOffset = 16 + 4ull * (3ull * vertices + 3ull * normals + 2ull * texcoords);
  std::memcpy(mesh.faces.data(), bytes->data() + faceOffset, mesh.faces.size() * sizeof(int));
  return mesh;
}

/// MuJoCo's _areaNrmCen with its float sums: area, unit normal and centre of a triangle.
double areaNormalCentre(const float* a, const float* b, const float* c, double normal[3], double centre[3]) {
  for (int i = 0; i < 3; ++i) centre[i] = (a[i] + b[i] + c[i]) / 3;
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  normal[0] = u[1] * v[2] - u[2] * v[1];
  normal[1] = u[2] * v[0] - u[0] * v[2];
  normal[2] = u[0] * v[1] - u[1] * v[0];
  const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
  if (length < kMinValue) return 0;
  for (int i = 0; i < 3; ++i) normal[i] /= length;
  return length / 2;
}

/// MuJoCo's quaternion arithmetic (mju_normalize4, mju_mulQuat, mju_quat2Mat), operation for
/// operation, so that results agree to the last bits that the float vertices can amplify.
void normalise(Eigen::Vector4d& q) {
  const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (norm < kMinValue) {
    q = Eigen::Vector4d(1, 0, 0, 0);
  } else {
    const double inverse = 1 / norm;
    q *= inverse;
  }
}

Eigen::Vector4d multiply(const Eigen::Vector4d& a, const Eigen::Vector4d& b) {
  return Eigen::Vector4d(a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                         a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                         a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                         a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]);
}

Matrix3 rotation(const Eigen::Vector4d& q) {
  Matrix3 m = Matrix3::Identity();
  if (q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0) return m;
  const double q00 = q[0] * q[0], q01 = q[0] * q[1], q02 = q[0] * q[2], q03 = q[0] * q[3], q11 = q[1] * q[1],
               q12 = q[1] * q[2], q13 = q[1] * q[3], q22 = q[2] * q[2], q23 = q[2] * q[3], q33 = q[3] * q[3];
  m << q00 + q11 - q22 - q33, 2 * (q12 - q03), 2 * (q13 + q02),  //
      2 * (q12 + q03), q00 - q11 + q22 - q33, 2 * (q23 - q01),    //
      2 * (q13 - q02), 2 * (q23 + q01), q00 - q11 - q22 + q33;
  return m;
}

}  // namespace

PrincipalAxes principalAxesAsMujoco(const Matrix3& inertia) {
  // Jacobi rotations accumulated in a quaternion, stopped when the largest off-diagonal term is
  // below 1e-12 or the rotation's cosine is within 1e-12 of 1 (so axes can be off by ~1e-6 rad),
  // then the moments sorted decreasingly by quarter turns.
  constexpr double kEps = 1e-12;
  Eigen::Vector4d q(1, 0, 0, 0);
  Vector3 moments;
  for (int iteration = 0; iteration < 500; ++iteration) {
    const Matrix3 axes = rotation(q);
    // D = axes' * inertia * axes, summed in MuJoCo's order (near-equal moments make the
    // iteration sensitive to the last bit).
    Matrix3 left = Matrix3::Zero(), D = Matrix3::Zero();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) left(j, k) += axes(i, j) * inertia(i, k);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k)
        for (int j = 0; j < 3; ++j) D(i, j) += left(i, k) * axes(k, j);
    moments = D.diagonal();
    int row = 1, column = 2, about = 0;
    if (std::fabs(D(0, 1)) > std::fabs(D(0, 2)) && std::fabs(D(0, 1)) > std::fabs(D(1, 2))) {
      row = 0, column = 1, about = 2;
    } else if (std::fabs(D(0, 2)) > std::fabs(D(1, 2))) {
      row = 0, column = 2, about = 1;
    }
    if (std::fabs(D(row, column)) < kEps) break;
    const double tau = (D(column, column) - D(row, row)) / (2 * D(row, column));
    const double t = tau >= 0 ? 1.0 / (tau + std::sqrt(1 + tau * tau)) : -1.0 / (-tau + std::sqrt(1 + tau * tau));
    const double c = 1.0 / std::sqrt(1 + t * t);
    if (c > 1.0 - kEps) break;
    Eigen::Vector4d turn(0, 0, 0, 0);
    turn[about + 1] = tau >= 0 ? -std::sqrt(0.5 - 0.5 * c) : std::sqrt(0.5 - 0.5 * c);
    if (about == 1) turn[about + 1] = -turn[about + 1];
    turn[0] = std::sqrt(1.0 - turn[about + 1] * turn[about + 1]);
    normalise(turn);
    q = multiply(q, turn);
    normalise(q);
  }
  for (int j = 0; j < 3; ++j) {
    const int lead = j % 2;
    if (moments[lead] < moments[lead + 1]) {
      std::swap(moments[lead], moments[lead + 1]);
      Eigen::Vector4d turn(0.707106781186548, 0, 0, 0);
      turn[(lead + 2) % 3 + 1] = turn[0];
      q = multiply(q, turn);
      normalise(q);
    }
  }
  return PrincipalAxes{moments, rotation(q), Quaternion(q[0], q[1], q[2], q[3])};
}

bool convexHull(MeshTriangles& mesh) {
  const int count = static_cast<int>(mesh.vertices.size() / 3);
  if (count < 4) return false;
  std::vector<coordT> points(mesh.vertices.begin(), mesh.vertices.end());
  qhT state;
  qhT* qh = &state;
  // qhull reports its failures as text; the caller words the diagnostic.
  FILE* quiet = std::fopen("/dev/null", "w");
  qh_zero(qh, quiet ? quiet : stderr);
  char options[] = "qhull Qt";  // triangulated output, as MuJoCo asks for
  const int failed = qh_new_qhull(qh, 3, count, points.data(), False, options, nullptr, quiet ? quiet : stderr);
  std::vector<int> faces;
  if (!failed) {
    // Corners in qhull's order, the first two swapped on facets of top orientation (as MuJoCo
    // does): the order matters to the last bit of MuJoCo's float sums.
    facetT* facet;
    FORALLfacets {
      int corner[3] = {0, 0, 0}, k = 0;
      const int slot[3] = {facet->toporient ? 1 : 0, facet->toporient ? 0 : 1, 2};
      vertexT* vertex;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) {
        if (k < 3) corner[slot[k]] = qh_pointid(qh, vertex->point);
        ++k;
      }
      if (k == 3) faces.insert(faces.end(), corner, corner + 3);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int longMemory = 0, totalMemory = 0;
  qh_memfreeshort(qh, &longMemory, &totalMemory);
  if (quiet) std::fclose(quiet);
  if (failed || faces.empty()) return false;
  if (mesh.faces.empty()) mesh.faces = std::move(faces);
  return true;
}


std::optional<MeshTriangles> readMeshFile(mesh::MeshReader& meshes, const std::string& path, const Vector3& scale,
                                          mesh::MeshError& failure) {
  const std::string ext = lowerExtension(path);
  std::optional<MeshTriangles> mesh;
  std::string error;
  const auto fail = [&](const std::string& message) {
    failure = {ErrorCode::FILE_READ, message};
    return std::nullopt;
  };
  if (ext == ".msh") {
    mesh = readMsh(meshes.readBytes(path, failure), error);
    if (!mesh && failure.code != ErrorCode::NONE) return std::nullopt;
  } else if (ext == ".stl" || ext == ".obj") {
    if (ext == ".stl") {
      const auto bytes = meshes.readBytes(path, failure);
      if (!bytes) return std::nullopt;
      if (!checkBinaryStl(*bytes, error)) return fail(error);
    }
    const auto polygons = meshes.polygons(path, failure);  // as written: no welding, no triangulation
    if (!polygons) return std::nullopt;
    mesh.emplace();
    if (!trianglesFromPolygons(*polygons, *mesh, error)) return fail(error);
  } else {
    return fail("unknown mesh file type '" + ext + "' (MuJoCo 2.2.2 reads STL, OBJ and MSH)");
  }
  if (!mesh) return fail(error);
  if (mesh->vertices.empty()) return fail("the mesh has no vertices");
  const int count = static_cast<int>(mesh->vertices.size() / 3);
  for (int index : mesh->faces) {
    if (index < 0 || index >= count) return fail("a face names vertex " + std::to_string(index) + " of " + std::to_string(count));
  }
  // A mirroring scale turns the faces over; MuJoCo swaps two corners to keep them outward.
  if (scale[0] * scale[1] * scale[2] < 0) {
    for (std::size_t f = 0; f + 2 < mesh->faces.size(); f += 3) std::swap(mesh->faces[f + 1], mesh->faces[f + 2]);
  }
  return mesh;
}

std::optional<MeshInertia> meshInertia(MeshTriangles mesh, const Vector3& scale, const Vector3& refPos,
                                       const Quaternion& refQuat, double density, bool exact, std::string& problem) {
  std::vector<float>& vertex = mesh.vertices;
  const std::vector<int>& face = mesh.faces;
  const std::size_t vertexCount = vertex.size() / 3, faceCount = face.size() / 3;
  if (faceCount == 0) {
    problem = "the mesh has no faces and no convex hull";
    return std::nullopt;
  }
  // The mesh's own frame: refpos, refquat, then scale, in MuJoCo's order and precision.
  if (!refPos.isZero(0)) {
    const float shift[3] = {static_cast<float>(refPos[0]), static_cast<float>(refPos[1]), static_cast<float>(refPos[2])};
    for (std::size_t i = 0; i < vertexCount; ++i)
      for (int j = 0; j < 3; ++j) vertex[3 * i + j] -= shift[j];
  }
  if (refQuat.w() != 1 || refQuat.x() != 0 || refQuat.y() != 0 || refQuat.z() != 0) {
    Eigen::Vector4d q(refQuat.w(), refQuat.x(), refQuat.y(), refQuat.z());
    normalise(q);
    const Matrix3 R = rotation(q);
    for (std::size_t i = 0; i < vertexCount; ++i) {
      const double p[3] = {vertex[3 * i], vertex[3 * i + 1], vertex[3 * i + 2]};
      for (int j = 0; j < 3; ++j) vertex[3 * i + j] = static_cast<float>(R(0, j) * p[0] + R(1, j) * p[1] + R(2, j) * p[2]);
    }
  }
  if (scale != Vector3::Ones()) {
    for (std::size_t i = 0; i < vertexCount; ++i)
      for (int j = 0; j < 3; ++j) vertex[3 * i + j] = static_cast<float>(vertex[3 * i + j] * scale[j]);
  }
  const auto corner = [&](std::size_t f, int k) { return vertex.data() + 3 * face[3 * f + k]; };

  // Centroid of the faces (area-weighted), the apex of every pyramid.
  double normal[3], centre[3], faceCentre[3] = {0, 0, 0}, area = 0;
  for (std::size_t f = 0; f < faceCount; ++f) {
    const double a = areaNormalCentre(corner(f, 0), corner(f, 1), corner(f, 2), normal, centre);
    for (int j = 0; j < 3; ++j) faceCentre[j] += a * centre[j];
    area += a;
  }
  if (area < kMinValue) {
    problem = "mesh surface area is too small";
    return std::nullopt;
  }
  for (double& c : faceCentre) c /= area;

  // Volume and centre of volume from the pyramids (each counted positive unless exact).
  double volume = 0, centreOfVolume[3] = {0, 0, 0};
  for (std::size_t f = 0; f < faceCount; ++f) {
    const double a = areaNormalCentre(corner(f, 0), corner(f, 1), corner(f, 2), normal, centre);
    const double arm[3] = {centre[0] - faceCentre[0], centre[1] - faceCentre[1], centre[2] - faceCentre[2]};
    double v = (arm[0] * normal[0] + arm[1] * normal[1] + arm[2] * normal[2]) * a / 3;
    if (!exact) v = std::fabs(v);
    volume += v;
    for (int j = 0; j < 3; ++j) centreOfVolume[j] += v * (centre[j] * 3.0 / 4.0 + faceCentre[j] / 4.0);
  }
  if (volume < kMinValue) {
    problem = "mesh volume is too small";
    return std::nullopt;
  }
  for (double& c : centreOfVolume) c /= volume;
  for (std::size_t i = 0; i < vertexCount; ++i)
    for (int j = 0; j < 3; ++j) vertex[3 * i + j] = static_cast<float>(vertex[3 * i + j] - centreOfVolume[j]);

  // Second moments of the pyramids from the (now centred) origin, in MuJoCo's float arithmetic.
  static const int pair[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  double products[6] = {0, 0, 0, 0, 0, 0};
  volume = 0;
  for (std::size_t f = 0; f < faceCount; ++f) {
    const float* D = corner(f, 0);
    const float* E = corner(f, 1);
    const float* F = corner(f, 2);
    const double a = areaNormalCentre(D, E, F, normal, centre);
    double v = (centre[0] * normal[0] + centre[1] * normal[1] + centre[2] * normal[2]) * a / 3;
    if (!exact) v = std::fabs(v);
    volume += v;
    for (int j = 0; j < 6; ++j) {
      const int p = pair[j][0], q = pair[j][1];
      const float sum = 2 * (D[p] * D[q] + E[p] * E[q] + F[p] * F[q]) + D[p] * E[q] + D[q] * E[p] + D[p] * F[q] +
                        D[q] * F[p] + E[p] * F[q] + E[q] * F[p];
      products[j] += density * v / 20 * sum;
    }
  }
  Matrix3 inertia;
  inertia << products[1] + products[2], -products[3], -products[4],  //
      -products[3], products[0] + products[2], -products[5],         //
      -products[4], -products[5], products[0] + products[1];
  // The box's axes are MuJoCo's principal axes, moments decreasing.
  const PrincipalAxes principal = principalAxesAsMujoco(inertia);
  const Vector3& moments = principal.moments;
  if (moments[2] <= 0) {
    problem = "eigenvalue of mesh inertia must be positive";
    return std::nullopt;
  }
  if (moments[0] + moments[1] < moments[2] || moments[0] + moments[2] < moments[1] ||
      moments[1] + moments[2] < moments[0]) {
    problem = "eigenvalues of mesh inertia violate A + B >= C";
    return std::nullopt;
  }
  MeshInertia result;
  const double mass = volume * density;
  result.box[0] = std::sqrt(6 * (moments[1] + moments[2] - moments[0]) / mass) / 2;
  result.box[1] = std::sqrt(6 * (moments[0] + moments[2] - moments[1]) / mass) / 2;
  result.box[2] = std::sqrt(6 * (moments[0] + moments[1] - moments[2]) / mass) / 2;
  result.frame.translation() = Vector3(centreOfVolume[0], centreOfVolume[1], centreOfVolume[2]);
  result.frame.linear() = principal.orientation.toRotationMatrix();
  result.volume = exact ? volume : 8 * result.box[0] * result.box[1] * result.box[2];
  return result;
}

}  // namespace interlink::mjcf
