#pragma once
// Small meshes written by the tests (never committed): binary STL, OBJ and MuJoCo's MSH of the same
// triangles, for the mesh-inertia differential and as placeholders for the Menagerie's meshes.
#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "interlink/Pose.hpp"

namespace interlink::test {

struct TriangleMesh {
  std::vector<std::array<float, 3>> vertices;
  std::vector<std::array<int, 3>> faces;  // counter-clockwise seen from outside
};

/// Turns every face outward, judged from the centroid of the vertices (right for convex shapes;
/// call it before denting one).
inline void orientOutward(TriangleMesh& mesh) {
  Vector3 centre = Vector3::Zero();
  auto at = [&](int i) { return Vector3(mesh.vertices[i][0], mesh.vertices[i][1], mesh.vertices[i][2]); };
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) centre += at(static_cast<int>(i));
  centre /= static_cast<double>(mesh.vertices.size());
  for (auto& f : mesh.faces) {
    const Vector3 normal = (at(f[1]) - at(f[0])).cross(at(f[2]) - at(f[0]));
    if (normal.dot(at(f[0]) - centre) < 0) std::swap(f[1], f[2]);
  }
}

/// A box of half-sizes `half` whose corners are moved by `skew` (deterministic), 12 triangles: a
/// convex hexahedron without symmetry, so that its principal axes are not the file's axes.
inline TriangleMesh skewedBox(const Vector3& half, double skew) {
  TriangleMesh mesh;
  for (int i = 0; i < 8; ++i) {
    const double sx = (i & 4) ? 1 : -1, sy = (i & 2) ? 1 : -1, sz = (i & 1) ? 1 : -1;
    const double wobble = skew * ((i * 37 % 11) / 10.0 - 0.5);
    mesh.vertices.push_back({static_cast<float>(sx * half[0] + wobble), static_cast<float>(sy * half[1] - wobble / 2),
                             static_cast<float>(sz * half[2] + wobble / 3)});
  }
  const int quads[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
  for (const auto& q : quads) {
    mesh.faces.push_back({q[0], q[1], q[2]});
    mesh.faces.push_back({q[0], q[2], q[3]});
  }
  orientOutward(mesh);
  return mesh;
}

/// An octahedron of radius `radius`; `dent` pushes its top vertex inward (non-convex when > radius).
inline TriangleMesh octahedron(double radius, double dent = 0) {
  TriangleMesh mesh;
  const float r = static_cast<float>(radius);
  mesh.vertices = {{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}, {0, 0, -r}};
  const int ring[4][2] = {{0, 2}, {2, 1}, {1, 3}, {3, 0}};
  for (int top : {4, 5})
    for (const auto& edge : ring) mesh.faces.push_back({edge[0], edge[1], top});
  orientOutward(mesh);
  mesh.vertices[4][2] = static_cast<float>(radius - dent);
  return mesh;
}

inline void writeBinaryStl(const std::string& path, const TriangleMesh& mesh) {
  std::ofstream out(path, std::ios::binary);
  const char header[80] = "interlink test mesh";
  out.write(header, sizeof header);
  const auto count = static_cast<std::uint32_t>(mesh.faces.size());
  out.write(reinterpret_cast<const char*>(&count), sizeof count);
  for (const auto& f : mesh.faces) {
    const float normal[3] = {0, 0, 0};
    out.write(reinterpret_cast<const char*>(normal), sizeof normal);
    for (int k : f) out.write(reinterpret_cast<const char*>(mesh.vertices[k].data()), 3 * sizeof(float));
    const std::uint16_t attribute = 0;
    out.write(reinterpret_cast<const char*>(&attribute), sizeof attribute);
  }
}

inline void writeAsciiStl(const std::string& path, const TriangleMesh& mesh) {
  std::ofstream out(path);
  out << "solid test\n";
  for (const auto& f : mesh.faces) {
    out << " facet normal 0 0 0\n  outer loop\n";
    for (int k : f) out << "   vertex " << mesh.vertices[k][0] << ' ' << mesh.vertices[k][1] << ' ' << mesh.vertices[k][2] << '\n';
    out << "  endloop\n endfacet\n";
  }
  out << "endsolid test\n";
}

/// OBJ with "%.9g" coordinates (a float read back exactly) and 1-based faces.
inline void writeObj(const std::string& path, const TriangleMesh& mesh) {
  std::ofstream out(path);
  out.precision(9);
  for (const auto& v : mesh.vertices) out << "v " << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
  for (const auto& f : mesh.faces) out << "f " << f[0] + 1 << ' ' << f[1] + 1 << ' ' << f[2] + 1 << '\n';
}

/// MuJoCo's MSH: vertex, normal, texcoord and face counts, then the arrays.
inline void writeMsh(const std::string& path, const TriangleMesh& mesh) {
  std::ofstream out(path, std::ios::binary);
  const std::int32_t header[4] = {static_cast<std::int32_t>(mesh.vertices.size()), 0, 0,
                                  static_cast<std::int32_t>(mesh.faces.size())};
  out.write(reinterpret_cast<const char*>(header), sizeof header);
  for (const auto& v : mesh.vertices) out.write(reinterpret_cast<const char*>(v.data()), 3 * sizeof(float));
  for (const auto& f : mesh.faces) out.write(reinterpret_cast<const char*>(f.data()), 3 * sizeof(int));
}

}  // namespace interlink::test
