// The framework's mesh reader (framework/mesh) against Assimp 5.2 itself: its own OBJ and binary
// STL readers must give exactly the polygons Assimp's importers give without post-processing
// (MJCF's masses, compared with MuJoCo to 1e-9, depend on them), and its prechecks must refuse
// what they promise to.
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <algorithm>

#include "HostileRoundTwoInputs.hpp"
#include "MeasureCache.hpp"
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

/// A reader whose load has `limits` (and its own running totals).
struct LimitedReader {
  explicit LimitedReader(const MeshLimits& limits) : budget{limits, 0, 0}, host(keeping(&budget)), reader(&host) {}
  static plugin::HostServices keeping(MeshBudget* budget) {
    plugin::HostServices services;
    services.meshBudget = budget;
    return services;
  }
  MeshBudget budget;
  plugin::HostServices host;
  mesh::MeshReader reader;
};

TEST(MeshReader, AMeasurementIsDecodedOncePerProcessWhileTheBytesStayTheSame) {
  Scratch scratch;
  auto& kept = mesh::detail::MeasureCache::process();
  scratch.write("kept_cube.mtl", "newmtl red\nKd 1 0 0\n");
  const std::string cube = scratch.write("kept_cube.obj", hostile::objCube("mtllib kept_cube.mtl\nusemtl red"));
  mesh::MeshError error;
  const std::uint64_t hitsBefore = kept.hits();
  LimitedReader first{MeshLimits{}};
  const auto measured = first.reader.measure(cube, mesh::MeshMeasure::JoinedVertices, error);
  ASSERT_TRUE(measured) << error.message;
  EXPECT_EQ(kept.hits(), hitsBefore);
  EXPECT_GT(first.budget.decodedBytes, 0u);

  // Another load (another reader) gets it without decoding, counted against its budget alike.
  LimitedReader second{MeshLimits{}};
  const auto again = second.reader.measure(cube, mesh::MeshMeasure::JoinedVertices, error);
  ASSERT_TRUE(again) << error.message;
  EXPECT_EQ(kept.hits(), hitsBefore + 1);
  EXPECT_EQ(again->vertexCount, measured->vertexCount);
  EXPECT_EQ(again->faceCount, measured->faceCount);
  EXPECT_EQ(again->boundsMin, measured->boundsMin);
  EXPECT_EQ(again->boundsMax, measured->boundsMax);
  EXPECT_EQ(second.budget.decodedBytes, first.budget.decodedBytes);
  // The material library the decode read is read again: counted, and checked, as it was.
  EXPECT_EQ(first.budget.filesOpened, 2u);
  EXPECT_EQ(second.budget.filesOpened, 2u);

  // Measured another way: decoded for itself.
  LimitedReader asDart{MeshLimits{}};
  ASSERT_TRUE(asDart.reader.measure(cube, mesh::MeshMeasure::AsDart, error)) << error.message;
  EXPECT_EQ(kept.hits(), hitsBefore + 1);

  // The same path with other bytes: decoded again, and the new geometry is what comes back.
  scratch.write("kept_cube.obj", hostile::objCube("mtllib kept_cube.mtl\nusemtl red") + "v 5 6 7\nf 1 2 9\n");
  LimitedReader edited{MeshLimits{}};
  const auto changed = edited.reader.measure(cube, mesh::MeshMeasure::JoinedVertices, error);
  ASSERT_TRUE(changed) << error.message;
  EXPECT_EQ(kept.hits(), hitsBefore + 1);
  EXPECT_EQ(changed->boundsMax, Vector3(5, 6, 7));
  EXPECT_NE(changed->faceCount, measured->faceCount);
}

TEST(MeshReader, AKeptMeasurementDoesNotPassALoadsLimits) {
  Scratch scratch;
  auto& kept = mesh::detail::MeasureCache::process();
  const std::string cube = scratch.write("limited_cube.obj", hostile::objCube());
  mesh::MeshError error;
  LimitedReader loose{MeshLimits{}};
  ASSERT_TRUE(loose.reader.measure(cube, mesh::MeshMeasure::JoinedVertices, error)) << error.message;
  const std::uint64_t decoded = loose.budget.decodedBytes;
  ASSERT_GT(decoded, 1u);

  // Other limits are another key: this load decodes for itself and its limit holds.
  MeshLimits tight;
  tight.maxDecodedBytesPerMesh = decoded - 1;
  LimitedReader small{tight};
  const std::uint64_t hitsBefore = kept.hits();
  mesh::MeshError refused;
  EXPECT_FALSE(small.reader.measure(cube, mesh::MeshMeasure::JoinedVertices, refused));
  EXPECT_EQ(refused.code, ErrorCode::MESH_LIMIT) << refused.message;
  EXPECT_EQ(kept.hits(), hitsBefore);

  // The same limits, but a load that has already used most of its budget: the kept measurement
  // does not fit, so the decoder runs and refuses it as it would have.
  LimitedReader spent{MeshLimits{}};
  spent.budget.decodedBytes = spent.budget.limits.maxDecodedBytesPerLoad - decoded + 1;
  mesh::MeshError over;
  EXPECT_FALSE(spent.reader.measure(cube, mesh::MeshMeasure::JoinedVertices, over));
  EXPECT_EQ(over.code, ErrorCode::MESH_LIMIT) << over.message;
  EXPECT_NE(over.message.find("maxDecodedBytesPerLoad"), std::string::npos) << over.message;
  EXPECT_EQ(kept.hits(), hitsBefore);

  // A failed measurement is not kept: a broken file is decoded (and refused) every time.
  const std::string broken = scratch.write("broken.dae", "<?xml version=\"1.0\"?><COLLADA><library_geometries>");
  const std::size_t entries = kept.size();
  mesh::MeshError bad;
  LimitedReader one{MeshLimits{}};
  EXPECT_FALSE(one.reader.measure(broken, mesh::MeshMeasure::JoinedVertices, bad));
  EXPECT_NE(bad.code, ErrorCode::NONE);
  EXPECT_EQ(kept.size(), entries);
}

/// A tetrahedron's PLY header for `format`, then `body`.
std::string plyTetra(const std::string& format, const std::string& body) {
  return "ply\nformat " + format + " 1.0\ncomment four corners\nelement vertex 4\nproperty float x\nproperty float y\n"
         "property float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n" + body;
}

/// The binary body of the tetrahedron, little- or big-endian.
std::string plyTetraBinary(bool bigEndian) {
  std::string out;
  const auto put = [&](const void* data, std::size_t size) {
    std::string bytes(static_cast<const char*>(data), size);
    if (bigEndian) std::reverse(bytes.begin(), bytes.end());
    out += bytes;
  };
  const float corners[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1.5f}};
  for (const auto& corner : corners)
    for (const float value : corner) put(&value, 4);
  const std::int32_t faces[2][3] = {{0, 1, 2}, {0, 2, 3}};
  for (const auto& face : faces) {
    out += '\3';
    for (const std::int32_t index : face) put(&index, 4);
  }
  return out;
}

const char* const kPlyTetraAscii = "0 0 0\n1 0 0\n0 1 0\n0 0 1.5\n3 0 1 2\n3 0 2 3\n";

TEST(MeshReader, PlyAsAssimpReadsIt) {
  Scratch scratch;
  expectSamePolygons(scratch.write("ascii.ply", plyTetra("ascii", kPlyTetraAscii)));
  expectSamePolygons(scratch.write("little.ply", plyTetra("binary_little_endian", plyTetraBinary(false))));
  expectSamePolygons(scratch.write("big.ply", plyTetra("binary_big_endian", plyTetraBinary(true))));
  // CRLF lines, a blank line and a last line without a newline are read as Assimp reads them.
  expectSamePolygons(scratch.write("crlf.ply", "ply\r\nformat ascii 1.0\r\nelement vertex 3\r\nproperty float x\r\n"
                                               "property float y\r\nproperty float z\r\nelement face 1\r\n"
                                               "property list uchar int vertex_index\r\nend_header\r\n"
                                               "0 0 0\r\n\r\n1 0 0\r\n0 1 0\r\n3 0 1 2"));
}

// What fuzz_mesh found makes Assimp 5.2's PLY importer reserve gigabytes, loop or abort: each file
// is read against its header first and refused at the line or byte that breaks it.
TEST(MeshReader, PlyIsReadAgainstItsHeaderBeforeAssimpSeesIt) {
  Scratch scratch;
  std::string hugeList = plyTetra("binary_little_endian", plyTetraBinary(false));
  hugeList[hugeList.find("end_header\n") + 11 + 48] = '\xff';  // first face: 255 corners in 25 bytes
  std::string uintCount = plyTetra("binary_little_endian", std::string(48, '\0') + "\xff\xff\xff\xff");
  uintCount.replace(uintCount.find("list uchar"), 10, "list uint");
  const std::pair<std::string, std::string> broken[] = {
      {plyTetra("ascii", kPlyTetraAscii).replace(4, 0, "elementt ascii 1.0\n"), "header line 2: unknown keyword 'elementt'"},
      {plyTetra("ascii", "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2 vertex 4\n3 0 2 3\n"), "line 15 ('face' 0): 2 values more"},
      {plyTetra("ascii", "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 4\n3 0 2 3\n"), "vertex index 4 is not one of the 4 vertices"},
      {plyTetra("ascii", "0 0 0\n1 0 0\n0 1 0\n0 0 1\n9 0 1 2\n3 0 2 3\n"), "'9' is not the count of the values"},
      {plyTetra("ascii", "0 0 0\n1 0 0\n0 1 0\n0 0 1\n2 0 1\n3 0 2 3\n"), "a face needs at least 3 vertices"},
      {plyTetra("ascii", "0 0 0\n1 nan 0\n0 1 0\n0 0 1\n3 0 1 2\n3 0 2 3\n"), "'nan' is not a number"},
      {plyTetra("ascii", "0 0 0\n1 0 0\n"), "header claims 4 'vertex' elements; the data ends after 2"},
      {plyTetra("ascii", kPlyTetraAscii).replace(plyTetra("ascii", "").find("list uchar"), 10, "list float"),
       "a list count type must be an integer type"},
      {plyTetra("ascii", kPlyTetraAscii).replace(20, 1, "\x01"), "a control byte"},
      {plyTetra("ascii", kPlyTetraAscii).replace(plyTetra("ascii", "").find("end_header"), 10, "end_heade"),
       "header line 10: unknown keyword 'end_heade'"},
      {"ply\nformat ascii 1.0\nelement vertex 4\n", "no 'end_header'"},
      {hugeList, "a list of 255 values where the file has 25 bytes left"},
      {uintCount, "a list of 4294967295 values"},
      {plyTetra("binary_big_endian", plyTetraBinary(false)), "vertex index 16777216 is not one of the 4 vertices"},
      {plyTetra("binary_little_endian", std::string(40, '\0')), "-byte file ends inside element 3"},
  };
  int n = 0;
  for (const auto& [text, expected] : broken) {
    const std::string path = scratch.write("broken" + std::to_string(n++) + ".ply", text);
    mesh::MeshReader reader(nullptr);
    mesh::MeshError error;
    EXPECT_FALSE(reader.polygons(path, error)) << expected;
    EXPECT_EQ(error.code, ErrorCode::FILE_READ) << expected;
    EXPECT_NE(error.message.find(expected), std::string::npos) << "expected '" << expected << "' in: " << error.message;
  }
}

// Assimp 5.2 dereferences null on a COLLADA array whose count attribute is misspelt: it runs in
// the decoder's own process, and the host gets an error for the mesh and goes on. A '(' among a
// primitive's indices (seconds and gigabytes in Assimp) is refused before Assimp sees it.
TEST(MeshReader, AssimpFailuresStayInTheDecoderProcess) {
  Scratch scratch;
  const std::string crashing = scratch.write("misspelt.dae", hostile::colladaMisspeltCount());
  {
    mesh::MeshReader reader(nullptr);
    mesh::MeshError error;
    EXPECT_FALSE(reader.polygons(crashing, error));
    EXPECT_EQ(error.code, ErrorCode::FILE_READ) << error.message;
    EXPECT_NE(error.message.find("Assimp failed on this file (its decoder process"), std::string::npos) << error.message;
    error = {};
    EXPECT_FALSE(reader.measure(crashing, mesh::MeshMeasure::AsDart, error));
    EXPECT_NE(error.message.find("Assimp failed on this file (its decoder process"), std::string::npos) << error.message;
  }
  std::string parenthesis = hostile::colladaTriangleClaiming();
  parenthesis.replace(parenthesis.find("<p>0 1 2"), 8, "<p>0 1 (2");
  mesh::MeshReader reader(nullptr);
  mesh::MeshError error;
  EXPECT_FALSE(reader.polygons(scratch.write("parenthesis.dae", parenthesis), error));
  EXPECT_NE(error.message.find("a COLLADA <p> index list holds '('"), std::string::npos) << error.message;

  // The same file with its attribute spelt right still decodes, through the same process boundary.
  const std::string valid = scratch.write("valid.dae", hostile::colladaTriangleClaiming());
  error = {};
  const auto polygons = reader.polygons(valid, error);
  ASSERT_TRUE(polygons) << error.message;
  EXPECT_EQ(polygons->vertices.size(), 9u);
  const auto info = reader.measure(valid, mesh::MeshMeasure::AsDart, error);
  ASSERT_TRUE(info) << error.message;
  EXPECT_EQ(info->faceCount, 1u);
  EXPECT_DOUBLE_EQ(info->boundsMax.y(), 1.0);
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
