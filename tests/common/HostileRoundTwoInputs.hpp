#pragma once
// Generators of the second round of hostile inputs (issue 29): meshes (formats, header claims,
// nesting, files they name), MJCF includes that splice deep trees, long chains for the writers,
// overflowing poses, mimic cycles. Shared by tests/hostile, bench/hostile (--table) and the fuzz
// seeds; nothing here is committed as a file.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace interlink::test::hostile {

/// A binary STL of a unit cube (12 triangles).
inline std::string stlCube() {
  const float corners[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int faces[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                            {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  std::string out(80, ' ');
  const std::uint32_t count = 12;
  out.append(reinterpret_cast<const char*>(&count), 4);
  for (const auto& face : faces) {
    out.append(12, '\0');  // normal
    for (int k = 0; k < 3; ++k) out.append(reinterpret_cast<const char*>(corners[face[k]]), 12);
    out.append(2, '\0');
  }
  return out;
}

/// An OBJ unit cube of quads, with an optional first line (an mtllib, a group).
inline std::string objCube(const std::string& firstLine = "") {
  return firstLine + (firstLine.empty() ? "" : "\n") +
         "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
         "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
}

/// An OBJ with one face of n corners (a polygon DART's import triangulates).
inline std::string objPolygon(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    const double angle = 6.283185307179586 * i / n;
    text += "v " + std::to_string(std::cos(angle)) + " " + std::to_string(std::sin(angle)) + " 0\n";
  }
  text += "f";
  for (int i = 1; i <= n; ++i) text += " " + std::to_string(i);
  return text + "\n";
}

/// An MJCF model with `assets` mesh assets all naming `meshFile` and a geom on the first.
inline std::string mjcfMeshAssets(const std::string& meshFile, int assets = 1) {
  std::string text = "<mujoco model=\"m\">\n  <asset>\n";
  for (int i = 0; i < assets; ++i) text += "    <mesh name=\"m" + std::to_string(i) + "\" file=\"" + meshFile + "\"/>\n";
  return text + "  </asset>\n  <worldbody>\n    <body name=\"b\">\n      <freejoint/>\n"
                "      <geom type=\"mesh\" mesh=\"m0\"/>\n    </body>\n  </worldbody>\n</mujoco>\n";
}

/// A SKEL world with one body whose visual is the mesh `meshFile`.
inline std::string skelMesh(const std::string& meshFile) {
  return "<skel version=\"1.0\">\n<world name=\"w\">\n<skeleton name=\"s\">\n<body name=\"b\">\n"
         "<inertia><mass>1</mass></inertia>\n<visualization_shape><geometry><mesh><file_name>" +
         meshFile +
         "</file_name><scale>1 1 1</scale></mesh></geometry></visualization_shape>\n</body>\n"
         "<joint type=\"free\" name=\"j\"><parent>world</parent><child>b</child></joint>\n"
         "</skeleton>\n</world>\n</skel>\n";
}

/// A Shift model with one body whose geometry is the mesh `meshFile`.
inline std::string shiftMesh(const std::string& meshFile) {
  return R"({"model_parameters": {"version": "0.2"},
  "assemblies": [{"name": "arm", "bodies": [
    {"name": "b", "mass": 1.0, "geometry": {"type": "mesh", "filename": ")" +
         meshFile + R"("}}]}]})";
}

/// COLLADA with n nodes, each the child of the one before.
inline std::string colladaNestedNodes(int n) {
  std::string text = "<?xml version=\"1.0\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" "
                     "version=\"1.4.1\">\n<library_visual_scenes><visual_scene id=\"s\">\n";
  for (int i = 0; i < n; ++i) text += "<node id=\"n" + std::to_string(i) + "\">";
  for (int i = 0; i < n; ++i) text += "</node>";
  return text + "\n</visual_scene></library_visual_scenes>\n<scene><instance_visual_scene url=\"#s\"/></scene>\n</COLLADA>\n";
}

/// COLLADA with one triangle whose `<float_array>` says it holds `floats` values and whose
/// `<triangles>` says it has `triangles` triangles with inputs up to `offset` (the true numbers:
/// 9, 1 and 0). Assimp reserves what these claim before reading the values.
inline std::string colladaTriangleClaiming(const std::string& floats = "9", const std::string& triangles = "1",
                                           const std::string& offset = "0") {
  return "<?xml version=\"1.0\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
         "<library_geometries><geometry id=\"g\"><mesh>\n"
         "<source id=\"p\"><float_array id=\"pa\" count=\"" + floats + "\">0 0 0 1 0 0 0 1 0</float_array>\n"
         "<technique_common><accessor source=\"#pa\" count=\"3\" stride=\"3\"><param name=\"X\" type=\"float\"/>"
         "<param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common></source>\n"
         "<vertices id=\"v\"><input semantic=\"POSITION\" source=\"#p\"/></vertices>\n"
         "<triangles count=\"" + triangles + "\"><input semantic=\"VERTEX\" source=\"#v\" offset=\"" + offset +
         "\"/><p>0 1 2</p></triangles>\n"
         "</mesh></geometry></library_geometries>\n"
         "<library_visual_scenes><visual_scene id=\"s\"><node id=\"n\"><instance_geometry url=\"#g\"/></node>"
         "</visual_scene></library_visual_scenes>\n<scene><instance_visual_scene url=\"#s\"/></scene>\n</COLLADA>\n";
}

/// The triangle with its float_array's `count` attribute misspelt: Assimp 5.2 dereferences null.
inline std::string colladaMisspeltCount() {
  std::string text = colladaTriangleClaiming();
  return text.replace(text.find("count=\"9\""), 5, "cxnt");
}

/// A PLY tetrahedron whose second face names a fifth vertex of four.
inline std::string plyFaceNamingMissingVertex() {
  return "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
         "element face 2\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n"
         "3 0 1 2\n3 0 2 4\n";
}

/// glTF whose one triangle accessor is named by `primitives` primitives: Assimp decodes it once
/// for each.
inline std::string gltfPrimitivesNamingOneAccessor(int primitives) {
  std::string list;
  for (int i = 0; i < primitives; ++i) list += std::string(i ? "," : "") + "{\"attributes\":{\"POSITION\":0}}";
  const std::string data = "data:application/octet-stream;base64," + std::string(48, 'A');  // 36 zero bytes
  return "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
         "\"meshes\":[{\"primitives\":[" + list + "]}],"
         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
         "\"min\":[0,0,0],\"max\":[0,0,0]}],"
         "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
         "\"buffers\":[{\"uri\":\"" + data + "\",\"byteLength\":36}]}";
}

/// glTF with a chain of n nodes (node i the only child of node i - 1), or a cycle of two.
inline std::string gltfNodeChain(int n, bool cycle = false) {
  std::string nodes;
  for (int i = 0; i < n; ++i) {
    const int child = cycle ? (i + 1) % n : i + 1;
    nodes += std::string(i ? "," : "") + "{\"name\":\"n" + std::to_string(i) + "\"" +
             (cycle || i + 1 < n ? ",\"children\":[" + std::to_string(child) + "]" : std::string()) + "}";
  }
  return "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[" + nodes + "]}";
}

/// glTF whose one triangle's positions come from the buffer `uri` (byteLength bytes).
inline std::string gltfWithBuffer(const std::string& uri, int byteLength) {
  return "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
         "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
         "\"min\":[0,0,0],\"max\":[1,1,1]}],"
         "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
         "\"buffers\":[{\"uri\":\"" + uri + "\",\"byteLength\":" + std::to_string(byteLength) + "}]}";
}

/// A PLY header claiming `vertices` vertices, followed by a few bytes (113 bytes for 2e7).
inline std::string plyClaiming(long long vertices) {
  return "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(vertices) +
         "\nproperty float x\nproperty float y\nproperty float z\nend_header\n" + std::string(12, '\0');
}

/// An OFF header claiming 1e8 vertices (OFF is not a supported mesh format).
inline std::string offClaiming() { return "OFF\n100000000 1 0\n0 0 0\n"; }

using RoundTwoFileSet = std::vector<std::pair<std::string, std::string>>;

/// MJCF whose includes splice nested bodies: main.xml includes f1.xml inside <worldbody>, each fi
/// nests `levels` bodies and includes f(i+1) in the deepest (each file alone is shallow enough).
inline RoundTwoFileSet mjcfDeepIncludes(int files, int levels) {
  RoundTwoFileSet out;
  out.emplace_back("main.xml", "<mujoco model=\"deep\">\n  <worldbody>\n    <include file=\"f1.xml\"/>\n  </worldbody>\n</mujoco>\n");
  for (int f = 1; f <= files; ++f) {
    std::string text = "<mujoco>\n";
    for (int l = 0; l < levels; ++l) text += "<body name=\"b" + std::to_string(f) + "_" + std::to_string(l) + "\">";
    if (f < files) text += "<include file=\"f" + std::to_string(f + 1) + ".xml\"/>";
    for (int l = 0; l < levels; ++l) text += "</body>";
    out.emplace_back("f" + std::to_string(f) + ".xml", text + "\n</mujoco>\n");
  }
  return out;
}

/// A SKEL skeleton of n bodies in a chain of n revolute joints.
inline std::string skelJointChain(int n) {
  std::string text = "<skel version=\"1.0\">\n<world name=\"w\">\n<skeleton name=\"s\">\n";
  for (int i = 0; i < n; ++i) text += "<body name=\"b" + std::to_string(i) + "\"><inertia><mass>1</mass></inertia></body>\n";
  for (int i = 0; i < n; ++i) {
    text += "<joint type=\"revolute\" name=\"j" + std::to_string(i) + "\"><parent>" +
            (i ? "b" + std::to_string(i - 1) : std::string("world")) + "</parent><child>b" + std::to_string(i) +
            "</child><axis><xyz>0 0 1</xyz></axis></joint>\n";
  }
  return text + "</skeleton>\n</world>\n</skel>\n";
}

/// URDF: two joints whose offsets (1.5e308 each) overflow once composed.
inline std::string urdfOverflowingOffsets() {
  return "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n<link name=\"c\"/>\n"
         "<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/><origin xyz=\"1.5e308 0 0\"/></joint>\n"
         "<joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/><origin xyz=\"1.5e308 0 0\"/></joint>\n"
         "</robot>\n";
}

/// URDF chain of n revolute joints where joint i mimics joint i + 1 and the last mimics the first
/// (n == 1: a joint mimicking itself).
inline std::string urdfMimicCycle(int n) {
  std::string text = "<robot name=\"r\">\n<link name=\"l0\"/>\n";
  for (int i = 1; i <= n; ++i) text += "<link name=\"l" + std::to_string(i) + "\"/>\n";
  for (int i = 1; i <= n; ++i) {
    const int leader = i == n ? 1 : i + 1;
    text += "<joint name=\"j" + std::to_string(i) + "\" type=\"revolute\"><parent link=\"l" + std::to_string(i - 1) +
            "\"/><child link=\"l" + std::to_string(i) + "\"/><axis xyz=\"0 0 1\"/>"
            "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/><mimic joint=\"j" +
            std::to_string(leader) + "\"/></joint>\n";
  }
  return text + "</robot>\n";
}

/// MJCF of n hinge joints, `jointsPerBody` to each of sibling bodies, where <equality><joint>
/// couples joint i to joint i + 1 and the last to the first (n == 1: a joint coupled to itself).
inline std::string mjcfEqualityCycle(int n, int jointsPerBody = 1) {
  std::string text = "<mujoco model=\"m\">\n<worldbody>\n";
  for (int first = 1; first <= n; first += jointsPerBody) {
    text += "<body name=\"b" + std::to_string(first) + "\">";
    for (int i = first; i < first + jointsPerBody && i <= n; ++i) {
      text += "<joint name=\"j" + std::to_string(i) + "\" type=\"hinge\"/>";
    }
    text += "<geom size=\"0.1\" mass=\"1\"/></body>\n";
  }
  text += "</worldbody>\n<equality>\n";
  for (int i = 1; i <= n; ++i) {
    text += "<joint joint1=\"j" + std::to_string(i) + "\" joint2=\"j" + std::to_string(i == n ? 1 : i + 1) + "\"/>\n";
  }
  return text + "</equality>\n</mujoco>\n";
}

}  // namespace interlink::test::hostile
