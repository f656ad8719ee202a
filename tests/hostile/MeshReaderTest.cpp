// The framework's mesh reader (framework/mesh) against Assimp 5.2 itself: its own OBJ and binary
// STL readers must give exactly the polygons Assimp's importers give without post-processing
// (MJCF's masses, compared with MuJoCo to 1e-9, depend on them), and its prechecks must refuse
// what they promise to.
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include "HostileRoundTwoInputs.hpp"
#include "MeshPrecheck.hpp"
#include "MeshReader.hpp"
#include "Scratch.hpp"

namespace interlink::test {
namespace {

/// Assimp's raw import of `path` as MeshPolygons (meshes in scene order).
mesh::MeshPolygons assimpPolygons(const std::string& path) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(path, 0);
  mesh::MeshPolygons out;
  if (!scene) return out;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    const auto first = static_cast<std::uint32_t>(out.vertices.size() / 3);
    for (unsigned v = 0; v < mesh->mNumVertices; ++v)
      out.vertices.insert(out.vertices.end(), {mesh->mVertices[v].x, mesh->mVertices[v].y, mesh->mVertices[v].z});
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      out.cornerCounts.push_back(mesh->mFaces[f].mNumIndices);
      for (unsigned k = 0; k < mesh->mFaces[f].mNumIndices; ++k) out.corners.push_back(first + mesh->mFaces[f].mIndices[k]);
    }
  }
  return out;
}

void expectSamePolygons(const std::string& path) {
  mesh::MeshReader reader(nullptr);
  mesh::MeshError error;
  const auto ours = reader.polygons(path, error);
  ASSERT_TRUE(ours) << path << ": " << error.message;
  const mesh::MeshPolygons theirs = assimpPolygons(path);
  EXPECT_EQ(ours->vertices, theirs.vertices) << path;
  EXPECT_EQ(ours->cornerCounts, theirs.cornerCounts) << path;
  EXPECT_EQ(ours->corners, theirs.corners) << path;
}

TEST(MeshReader, ObjAsAssimpReadsIt) {
  Scratch scratch;
  expectSamePolygons(scratch.write("cube.obj", hostile::objCube()));
  // Objects, groups and materials split Assimp's meshes; negative indices, v/vt/vn corners,
  // homogeneous and coloured vertices, lines (points: Assimp writes past its faces), comments and
  // a material library.
  expectSamePolygons(scratch.write("features.obj",
                                   "# features\nmtllib missing.mtl\nv 0 0 0\nv 1.5e-3 0 0 1\nv 1 1 0 0.5 0.5 0.5\n"
                                   "v -1 2 3 2\nvt 0 0\nvt 1 0\nvn 0 0 1\n"
                                   "o first\nusemtl red\nf 1/1/1 2/2/1 3/1/1\nf -1 -2 -3\n"
                                   "usemtl blue\nf 1//1 3//1 4//1 2//1\ng part\nl 1 2 3 4\nl 4 1\n"
                                   "o second\nf 4 3 2\no first\nf 2 3 4\n"));
  expectSamePolygons(scratch.write("crlf.obj", "v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nv 0 0 1\r\nf 1 2 3\r\nf 1 3 4\r\n"));
  // Digit runs that overflow fast_atof's 64-bit reading (Assimp reads the integer part as 0 and
  // the exponent as 0), without Assimp's logger, which the reader does not load.
  expectSamePolygons(scratch.write("overflow.obj",
                                   "v 123456789012345678901234.5 -98765432109876543210987 1\n"
                                   "v 1.5e123456789012345678901234 2E-99999999999999999999 0.25e+18446744073709551616\n"
                                   "v 18446744073709551615 1e18446744073709551615 -0\n"
                                   "v 1,5 -2.e3 3.14159265358979323846264\nv +1.e-3 1e+2 -.5\nv -0.0 INF -Infinity\n"
                                   "v 0.000001234567890123456789 123.456e-7 7E38\nf 1 2 3\nf 4 5 6 7\n"));
}

TEST(MeshReader, BinaryStlAsAssimpReadsIt) {
  Scratch scratch;
  expectSamePolygons(scratch.write("cube.stl", hostile::stlCube()));
}

TEST(MeshReader, EachFileIsReadOncePerReader) {
  Scratch scratch;
  const std::string cube = scratch.write("cube.obj", hostile::objCube());
  mesh::MeshReader reader(nullptr);
  mesh::MeshError error;
  const auto first = reader.polygons(cube, error);
  const auto second = reader.polygons(cube, error);
  ASSERT_TRUE(first);
  EXPECT_EQ(first.get(), second.get());
}

TEST(MeshReader, DepthScansSeeThroughCommentsAndStrings) {
  EXPECT_EQ(mesh::detail::xmlDepth("<a><!-- <b><c> --><b/><c><d x=\"<e>\"/></c></a>"), 3u);
  EXPECT_EQ(mesh::detail::xmlDepth(hostile::colladaNestedNodes(100)), 103u);
  EXPECT_EQ(mesh::detail::jsonDepth(R"({"a": [1, {"b": "[[[["}]})"), 3u);
}

TEST(MeshReader, NonRegularFilesAreRefusedWithoutOpening) {
  mesh::MeshReader reader(nullptr);
  mesh::MeshError error;
  EXPECT_FALSE(reader.polygons("/dev/zero.stl", error));
  EXPECT_FALSE(reader.readBytes("/dev/zero", error));
  EXPECT_EQ(error.code, ErrorCode::FILE_READ);
  EXPECT_NE(error.message.find("character device"), std::string::npos) << error.message;
}

}  // namespace
}  // namespace interlink::test
