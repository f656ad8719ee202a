// Mesh-geom mass against MuJoCo 2.2.2: meshes written here (binary STL, OBJ, MSH, inline vertex
// and face data), used as mesh geoms and as primitive geoms fitted to a mesh, with scale, mirroring,
// refpos/refquat, given mass or density, several geoms per body, exactmeshinertia, non-convex
// shapes; every body's mass, centre of mass and inertia, and every pose at random configurations,
// equal MuJoCo's. Meshes MuJoCo cannot load or weigh are refused by both.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "MeshFiles.hpp"
#include "MujocoOracle.hpp"
#include "Scratch.hpp"
#include "TestSupport.hpp"

namespace interlink {
namespace {

namespace fs = std::filesystem;

class MeshInertia : public ::testing::Test {
 protected:
  void SetUp() override {
    const test::TriangleMesh box = test::skewedBox(Vector3(0.3, 0.2, 0.1), 0.07);
    test::writeBinaryStl(dir_ + "/box.stl", box);
    test::writeObj(dir_ + "/box.obj", box);
    test::writeMsh(dir_ + "/box.msh", box);
    test::writeBinaryStl(dir_ + "/octahedron.stl", test::octahedron(0.25));
    test::writeBinaryStl(dir_ + "/dented.stl", test::octahedron(0.25, 0.4));
    test::writeAsciiStl(dir_ + "/ascii.stl", box);
    test::TriangleMesh flat = box;
    for (auto& v : flat.vertices) v[2] = 0;
    test::writeBinaryStl(dir_ + "/flat.stl", flat);
  }
  std::string write(const std::string& name, const std::string& text) { return scratch_.write(name, text); }

  test::Scratch scratch_;
  const std::string dir_ = scratch_.dir().string();
};

const char* kAssets = R"(
  <asset>
    <mesh name="box" file="box.stl"/>
    <mesh name="box_obj" file="box.obj"/>
    <mesh name="box_msh" file="box.msh"/>
    <mesh name="octahedron" file="octahedron.stl"/>
    <mesh name="dented" file="dented.stl"/>
    <mesh name="scaled" file="box.stl" scale="1.5 0.5 2"/>
    <mesh name="mirrored" file="box.stl" scale="-1 1 1"/>
    <mesh name="moved" file="octahedron.stl" refpos="0.1 -0.05 0.2" refquat="0.9 0.1 0.3 -0.2"/>
    <mesh name="inline" vertex="0 0 0  0.4 0 0  0 0.3 0  0 0 0.2  0.3 0.3 0.2" face="0 2 1  0 1 3  0 3 2  1 2 4  1 4 3  2 3 4"/>
  </asset>)";

const char* kBodies = R"(
  <worldbody>
    <geom type="mesh" mesh="box"/>
    <body name="stl" pos="0 0 1">
      <joint name="j1" type="hinge" axis="0 1 0"/>
      <geom type="mesh" mesh="box" pos="0.1 0.2 0.3" euler="10 20 30"/>
      <body name="obj" pos="0.5 0 0">
        <joint name="j2" type="slide" axis="1 0 0"/>
        <geom type="mesh" mesh="box_obj" density="700"/>
        <body name="msh" pos="0 0.5 0">
          <joint name="j3" type="ball"/>
          <geom type="mesh" mesh="box_msh" mass="3"/>
          <geom type="sphere" size="0.05" pos="0 0 0.3"/>
        </body>
      </body>
      <body name="two_meshes" pos="0 0 -0.5" euler="0 90 0">
        <joint name="j4" type="hinge" axis="1 0 0"/>
        <geom type="mesh" mesh="octahedron" pos="0.2 0 0"/>
        <geom type="mesh" mesh="scaled" pos="-0.2 0 0" quat="0.7 0.1 0.7 0"/>
        <site name="tip" pos="0 0 0.4"/>
      </body>
      <body name="mirrored" pos="1 0 0">
        <geom type="mesh" mesh="mirrored"/>
        <body name="moved" pos="0 1 0"><joint name="j5" type="hinge"/><geom type="mesh" mesh="moved"/></body>
        <body name="dented" pos="0 -1 0"><joint name="j6" type="hinge"/><geom type="mesh" mesh="dented"/></body>
        <body name="inline" pos="0 0 1"><joint name="j7" type="slide"/><geom type="mesh" mesh="inline"/></body>
        <body name="explicit" pos="0 0 -1">
          <joint name="j8" type="hinge" axis="1 1 0"/>
          <inertial pos="0 0 0.1" mass="2" diaginertia="0.1 0.2 0.25"/>
          <geom type="mesh" mesh="dented"/>
        </body>
      </body>
      <body name="fitted" pos="-1 0 0">
        <joint name="j9" type="hinge" axis="0 0 1"/>
        <geom type="box" mesh="box" pos="0 0 0.2"/>
        <geom type="capsule" mesh="box" fitscale="1.2"/>
        <geom type="cylinder" mesh="octahedron" pos="0.3 0 0"/>
        <geom type="sphere" mesh="box"/>
        <geom type="ellipsoid" mesh="scaled" euler="0 0 45"/>
      </body>
    </body>
  </worldbody>)";

test::Comparison compareWithMujoco(const std::string& path) {
  std::string error;
  test::MujocoModel reference = test::loadMujoco(path, error);
  EXPECT_TRUE(reference) << "MuJoCo refuses the test model: " << error;
  Loader loader;
  LoadResult loaded = loader.loadFile(path);
  EXPECT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  if (!reference || !loaded.ok()) return {};
  test::MujocoDifferential differential(reference.get(), loaded);
  return differential.compare(8, 1e-9);
}

TEST_F(MeshInertia, MeshMassesEqualMujocos) {
  for (const char* compiler : {"<compiler/>", "<compiler exactmeshinertia=\"true\"/>",
                               "<compiler inertiafromgeom=\"true\"/>"}) {
    SCOPED_TRACE(compiler);
    const std::string path =
        write("meshes.xml", std::string("<mujoco>") + compiler + kAssets + kBodies + "</mujoco>");
    const test::Comparison result = compareWithMujoco(path);
    for (const std::string& failure : result.failures) ADD_FAILURE() << failure;
    std::cout << "[mesh inertia] " << compiler << ": " << result.framesCompared << " body/site poses over "
              << result.configurations << " configurations, " << result.bodiesWeighed << " bodies weighed ("
              << result.meshBodiesWeighed << " with mesh geoms)\n";
    EXPECT_GE(result.bodiesWeighed, 10);
    EXPECT_GE(result.meshBodiesWeighed, 9);
    EXPECT_EQ(result.configurations, 9);
  }
}

TEST_F(MeshInertia, MeshesMujocoRefusesAreRefused) {
  const std::map<std::string, std::string> broken = {
      {"ascii_stl", R"(<asset><mesh file="ascii.stl"/></asset><worldbody><body><geom type="mesh" mesh="ascii"/></body></worldbody>)"},
      {"flat_mesh_weighed",
       R"(<asset><mesh file="flat.stl"/></asset><worldbody><body><geom type="mesh" mesh="flat"/></body></worldbody>)"},
      {"flat_mesh_colliding", R"(<asset><mesh file="flat.stl"/></asset><worldbody><geom type="mesh" mesh="flat"/></worldbody>)"},
      {"flat_mesh_fitted",
       R"(<asset><mesh file="flat.stl"/></asset><worldbody><body><geom type="box" mesh="flat"/></body></worldbody>)"},
      {"unknown_mesh_type", R"(<asset><mesh file="box.ply"/></asset><worldbody/>)"},
      {"too_few_vertices", R"(<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0"/></asset><worldbody/>)"},
      {"face_out_of_range",
       R"(<asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 7"/></asset><worldbody/>)"},
  };
  std::ofstream(dir_ + "/box.ply") << "ply\n";
  Loader loader;
  for (const auto& [name, body] : broken) {
    SCOPED_TRACE(name);
    const std::string path = write(name + ".xml", "<mujoco>" + body + "</mujoco>");
    test::expectBothRefuse(loader, path);
  }
  // The listed exception (docs/mjcf.md): a mesh file no geom needs is not read, so a broken one that
  // MuJoCo refuses (it compiles every asset) loads in Interlink.
  const std::string unread = write("ascii_unused.xml", R"(<mujoco><asset><mesh file="ascii.stl"/></asset><worldbody/></mujoco>)");
  std::string refusal;
  EXPECT_TRUE(test::mujocoRefuses(unread, refusal));
  EXPECT_TRUE(loader.loadFile(unread).ok());
  // A flat mesh is fine where nothing collides with it and no mass is taken from it (MuJoCo checks the
  // hull for colliding geoms and the volume when weighing).
  const std::string unweighed = write("flat_unweighed.xml", R"(<mujoco><asset><mesh file="flat.stl"/></asset>
    <default><geom contype="0" conaffinity="0"/></default>
    <worldbody><geom type="mesh" mesh="flat"/><body><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
    <geom type="mesh" mesh="flat"/></body></worldbody></mujoco>)");
  std::string error;
  EXPECT_TRUE(test::loadMujoco(unweighed, error)) << error;
  EXPECT_TRUE(loader.loadFile(unweighed).ok());
}

}  // namespace
}  // namespace interlink
