// Mesh files as an attacker writes them (issue 29): every file a mesh opens goes through
// Interlink's own I/O (regular files only, the path policy, the size and count limits), only the
// supported formats are decoded, header claims are checked against the file, scene graphs deeper
// than the limit are refused before Assimp recurses, and decoded sizes are capped. Each case runs
// through the real plugins (MJCF, Shift, SKEL); those that once hung or crashed run through the CLI
// in a bounded process.
#include <sys/stat.h>
#include <unistd.h>

#include "HostileRoundTwoInputs.hpp"
#include "HostileSupport.hpp"

namespace interlink::test {
namespace {

namespace fs = std::filesystem;

/// `interlink check` on `file`, bounded: a hang or a crash shows in the exit code.
CommandResult boundedCheck(const std::string& file, const std::string& options = "") {
  return boundedCli("check " + options + " '" + file + "'", 20);
}

bool hasCode(const LoadResult& result, ErrorCode code) { return result.diagnostics.contains(code); }

TEST(MeshFiles, FifoNamedAsObjMaterialLibraryDoesNotBlock) {
  Scratch scratch;
  ASSERT_EQ(::mkfifo(scratch.path("pipe.mtl").c_str(), 0600), 0);
  scratch.write("cube.obj", hostile::objCube("mtllib pipe.mtl"));
  for (const auto& [name, text] : {std::pair<std::string, std::string>{"robot.skel", hostile::skelMesh("cube.obj")},
                                   {"robot.json", hostile::shiftMesh("cube.obj")}}) {
    const CommandResult result = boundedCheck(scratch.write(name, text));
    ASSERT_NE(result.exitCode, kStoppedByBound) << name << ": blocked on the FIFO" << result.output;
    EXPECT_NE(result.output.find("FIFO"), std::string::npos) << name << result.output;
  }
}

TEST(MeshFiles, GltfBufferThatIsNotABinFileIsNeverDecoded) {
  Scratch scratch;
  // A "secret" whose bytes would otherwise come back as vertex bounds.
  scratch.write("secret.txt", std::string(64, 'A'));
  scratch.write("leak.gltf", hostile::gltfWithBuffer("secret.txt", 36));
  const LoadResult result = hostileLoader().loadFile(scratch.write("robot.skel", hostile::skelMesh("leak.gltf")));
  const Diagnostic* d = findCode(result.diagnostics, ErrorCode::FILE_READ);
  ASSERT_NE(d, nullptr) << dump(result.diagnostics);
  EXPECT_TRUE(mentions(d, "may not open")) << d->message;
  EXPECT_EQ(d->message.find("AAAA"), std::string::npos) << d->message;
}

TEST(MeshFiles, ObjMaterialLibraryOutsideTheRootsIsRefused) {
  Scratch scratch;
  scratch.write("outside/secret.mtl", "newmtl secret\nKd 1 0 0\n");
  scratch.write("project/cube.obj", hostile::objCube("mtllib ../outside/secret.mtl"));
  const std::string model = scratch.write("project/robot.skel", hostile::skelMesh("cube.obj"));
  EXPECT_TRUE(loadReports(model, confined(), ErrorCode::PATH_OUTSIDE_ROOTS, "outside"));
}

TEST(MeshFiles, MjcfMeshOutsideTheRootsIsRefusedAtTheAsset) {
  Scratch scratch;
  scratch.write("outside/cube.stl", hostile::stlCube());
  const std::string model = scratch.write("project/robot.xml", hostile::mjcfMeshAssets("../outside/cube.stl"));
  const LoadResult result = hostileLoader().loadFile(model, confined());
  bool atAsset = false;
  for (const Diagnostic& d : result.diagnostics) atAsset |= d.code == ErrorCode::PATH_OUTSIDE_ROOTS && d.where.line == 3;
  EXPECT_TRUE(atAsset) << dump(result.diagnostics);
}

TEST(MeshFiles, UnsupportedFormatsAreNotOfferedToAssimp) {
  Scratch scratch;
  for (const auto& [name, bytes] : {std::pair<std::string, std::string>{"bomb.off", hostile::offClaiming()},
                                    {"scene.x3d", "<X3D><Scene><Transform><Transform/></Transform></Scene></X3D>"},
                                    {"scene.3mf", "PK\x03\x04 not really a zip"},
                                    {"scene.x", "xof 0303txt 0032\nFrame { Frame { } }\n"}}) {
    scratch.write(name, bytes);
    const LoadResult result = hostileLoader().loadFile(scratch.write("robot.skel", hostile::skelMesh(name)));
    const Diagnostic* d = findCode(result.diagnostics, ErrorCode::FILE_READ);
    ASSERT_NE(d, nullptr) << name << dump(result.diagnostics);
    EXPECT_TRUE(mentions(d, "not a mesh format Interlink reads")) << d->message;
  }
}

TEST(MeshFiles, PlyHeaderClaimingMoreThanTheFileHoldsIsRefusedAtOnce) {
  Scratch scratch;
  const std::string ply = hostile::plyClaiming(20000000);
  EXPECT_LT(ply.size(), 200u);
  scratch.write("claim.ply", ply);
  const std::string model = scratch.write("robot.skel", hostile::skelMesh("claim.ply"));
  const CommandResult timed = boundedCheck(model);
  EXPECT_NE(timed.exitCode, kStoppedByBound) << timed.output;
  EXPECT_NE(timed.exitCode, 0) << "a PLY claiming 2e7 vertices in 113 bytes loaded as valid" << timed.output;
  EXPECT_TRUE(loadReports(model, {}, ErrorCode::FILE_READ, "claims 20000000"));
}

TEST(MeshFiles, DeeplyNestedColladaIsRefusedBeforeAssimpRecurses) {
  Scratch scratch;
  scratch.write("deep.dae", hostile::colladaNestedNodes(10000));
  const std::string model = scratch.write("robot.skel", hostile::skelMesh("deep.dae"));
  const CommandResult result = boundedCheck(model);
  EXPECT_TRUE(result.exitCode == 0 || result.exitCode == 1) << "crashed or hung: " << result.exitCode << result.output;
  EXPECT_NE(result.output.find("MESH_LIMIT"), std::string::npos) << result.output;
}

TEST(MeshFiles, GltfNodeChainsAndCyclesAreRefused) {
  Scratch scratch;
  scratch.write("chain.gltf", hostile::gltfNodeChain(20000));
  scratch.write("cycle.gltf", hostile::gltfNodeChain(2, true));
  const CommandResult chain = boundedCheck(scratch.write("chain.skel", hostile::skelMesh("chain.gltf")));
  EXPECT_TRUE(chain.exitCode == 0 || chain.exitCode == 1) << "crashed or hung: " << chain.exitCode << chain.output;
  EXPECT_NE(chain.output.find("MESH_LIMIT"), std::string::npos) << chain.output;
  const CommandResult cycle = boundedCheck(scratch.write("cycle.skel", hostile::skelMesh("cycle.gltf")));
  EXPECT_TRUE(cycle.exitCode == 0 || cycle.exitCode == 1) << "crashed or hung: " << cycle.exitCode << cycle.output;
  EXPECT_NE(cycle.output.find("cycle"), std::string::npos) << cycle.output;
}

TEST(MeshFiles, DecodedSizeIsCappedPerMeshAndPerLoad) {
  Scratch scratch;
  scratch.write("cube.stl", hostile::stlCube());
  scratch.write("other.stl", hostile::stlCube());
  const std::string one = scratch.write("one.xml", hostile::mjcfMeshAssets("cube.stl"));
  LoadOptions tight;
  tight.meshLimits.maxDecodedBytesPerMesh = 100;  // a 12-triangle cube takes 12 * (36 + 4 + 12) bytes
  EXPECT_TRUE(loadReports(one, tight, ErrorCode::MESH_LIMIT, "maxDecodedBytesPerMesh"));

  // 100 assets naming one file decode it once: a load allowance of 1.5 cubes suffices.
  LoadOptions load;
  load.meshLimits.maxDecodedBytesPerLoad = 12 * 52 * 3 / 2;
  const LoadResult hundred = hostileLoader().loadFile(scratch.write("hundred.xml", hostile::mjcfMeshAssets("cube.stl", 100)), load);
  EXPECT_FALSE(hasCode(hundred, ErrorCode::MESH_LIMIT)) << dump(hundred.diagnostics);
  // Two distinct files exceed it.
  std::string two = hostile::mjcfMeshAssets("cube.stl");
  two.replace(two.find("  </asset>"), 0, "    <mesh name=\"other\" file=\"other.stl\"/>\n");
  // A mesh is read only when a geom needs its data (issue 27): a second geom uses the other file.
  two.replace(two.find("    </body>"), 0, "      <geom type=\"mesh\" mesh=\"other\"/>\n");
  EXPECT_TRUE(loadReports(scratch.write("two.xml", two), load, ErrorCode::MESH_LIMIT, "maxDecodedBytesPerLoad"));
}

TEST(MeshFiles, FilesPerLoadAreCounted) {
  Scratch scratch;
  std::string model = "<mujoco model=\"m\">\n  <asset>\n";
  for (int i = 0; i < 3; ++i) {
    scratch.write("m" + std::to_string(i) + ".stl", hostile::stlCube());
    model += "    <mesh name=\"m" + std::to_string(i) + "\" file=\"m" + std::to_string(i) + ".stl\"/>\n";
  }
  // Each mesh is read only when a geom needs its data: one (weighed, colliding) geom per mesh.
  model += "  </asset>\n  <worldbody>\n    <body name=\"b\">\n      <freejoint/>\n";
  for (int i = 0; i < 3; ++i) model += "      <geom type=\"mesh\" mesh=\"m" + std::to_string(i) + "\"/>\n";
  model += "    </body>\n  </worldbody>\n</mujoco>\n";
  LoadOptions options;
  options.meshLimits.maxFiles = 2;
  EXPECT_TRUE(loadReports(scratch.write("many.xml", model), options, ErrorCode::MESH_LIMIT, "maxFiles"));
}

TEST(MeshFiles, HugePolygonIsNotTriangulatedQuadratically) {
  Scratch scratch;
  scratch.write("polygon.obj", hostile::objPolygon(25000));
  const CommandResult result = boundedCli("check '" + scratch.write("robot.skel", hostile::skelMesh("polygon.obj")) + "'", 1);
  EXPECT_NE(result.exitCode, kStoppedByBound) << "over a second of CPU time" << result.output;
}

TEST(MeshFiles, ColladaClaimsAreCheckedAgainstTheFileBeforeAssimpReserves) {
  Scratch scratch;
  // What the fuzzer found: a float_array claiming 9e8 values made Assimp reserve 3.6 GB.
  const std::pair<std::string, std::string> claims[] = {
      {"floats.dae", hostile::colladaTriangleClaiming("900000000")},
      {"negative.dae", hostile::colladaTriangleClaiming("-1")},
      {"triangles.dae", hostile::colladaTriangleClaiming("9", "0x7fffffff")},
      {"offset.dae", hostile::colladaTriangleClaiming("9", "1", "1000000000")}};
  for (const auto& [name, text] : claims) {
    scratch.write(name, text);
    const std::string model = scratch.write(name + ".skel", hostile::skelMesh(name));
    EXPECT_TRUE(loadReports(model, {}, ErrorCode::FILE_READ, "can hold")) << name;
  }
  // The true claims load, with the triangle's bounds.
  scratch.write("true.dae", hostile::colladaTriangleClaiming());
  const LoadResult valid = hostileLoader().loadFile(scratch.write("true.skel", hostile::skelMesh("true.dae")));
  EXPECT_TRUE(valid.ok()) << dump(valid.diagnostics);
}

TEST(MeshFiles, GltfAccessorNamedByManyPrimitivesIsCappedBeforeDecoding) {
  Scratch scratch;
  scratch.write("few.gltf", hostile::gltfPrimitivesNamingOneAccessor(3));
  scratch.write("many.gltf", hostile::gltfPrimitivesNamingOneAccessor(40));
  LoadOptions tight;
  tight.meshLimits.maxDecodedBytesPerMesh = 300;  // 4 x 300 bytes: 33 primitives of 36 bytes
  const LoadResult few = hostileLoader().loadFile(scratch.write("few.skel", hostile::skelMesh("few.gltf")), tight);
  EXPECT_FALSE(hasCode(few, ErrorCode::MESH_LIMIT)) << dump(few.diagnostics);
  EXPECT_TRUE(loadReports(scratch.write("many.skel", hostile::skelMesh("many.gltf")), tight, ErrorCode::MESH_LIMIT,
                          "many primitives"));
}

TEST(MeshFiles, AssimpCrashingOnAFileIsTheMeshsErrorNotTheHosts) {
  Scratch scratch;
  scratch.write("misspelt.dae", hostile::colladaMisspeltCount());
  const CommandResult result = boundedCheck(scratch.write("robot.skel", hostile::skelMesh("misspelt.dae")));
  EXPECT_EQ(result.exitCode, 1) << "expected a verdict (invalid: the body's inertia needs the mesh)" << result.output;
  EXPECT_NE(result.output.find("Assimp failed on this file (its decoder process"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find("robot.skel: invalid"), std::string::npos) << result.output;
}

TEST(MeshFiles, PlyFaceNamingAMissingVertexIsRefusedAtItsLine) {
  Scratch scratch;
  scratch.write("tetra.ply", hostile::plyFaceNamingMissingVertex());
  EXPECT_TRUE(loadReports(scratch.write("robot.skel", hostile::skelMesh("tetra.ply")), {}, ErrorCode::FILE_READ,
                          "line 15 ('face' 1): vertex index 4 is not one of the 4 vertices"));
}

TEST(MeshFiles, ValidMeshesStillLoadWithTheirMeasurements) {
  Scratch scratch;
  scratch.write("cube.obj", hostile::objCube("# a cube"));
  scratch.write("cube.stl", hostile::stlCube());
  const LoadResult skel = hostileLoader().loadFile(scratch.write("robot.skel", hostile::skelMesh("cube.obj")));
  EXPECT_TRUE(skel.ok()) << dump(skel.diagnostics);
  const LoadResult mjcf = hostileLoader().loadFile(scratch.write("robot.xml", hostile::mjcfMeshAssets("cube.stl")));
  EXPECT_TRUE(mjcf.ok()) << dump(mjcf.diagnostics);
  const LoadResult shift = hostileLoader().loadFile(scratch.write("robot.json", hostile::shiftMesh("cube.obj")));
  EXPECT_TRUE(shift.ok()) << dump(shift.diagnostics);
}

}  // namespace
}  // namespace interlink::test
