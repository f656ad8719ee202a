// The core's checks that apply to every format, through the real plugins: mesh URIs (looked up,
// missing ones grouped into one warning, refused ones outside the path policy) and inertia
// validity with the severity of each format's reference tool. Format details are tested per
// format (tests/urdf, tests/skel, tests/shift, ...).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink {
namespace {

std::size_t countCode(const Diagnostics& diagnostics, ErrorCode code) {
  std::size_t n = 0;
  for (const auto& d : diagnostics) n += d.code == code ? 1 : 0;
  return n;
}

TEST(MeshCheck, SdformatMeshesAreResolvedAndMissingOnesGroupedIntoOneWarning) {
  const std::string directory = test::makeTempDir("interlink-mesh-check");
  ASSERT_FALSE(directory.empty());
  std::ofstream(directory + "/present.stl") << "solid empty\nendsolid empty\n";
  std::string links;
  for (int i = 0; i < 6; ++i) {
    links += "<link name=\"l" + std::to_string(i) + "\"><visual name=\"v\"><geometry><mesh><uri>missing_" +
             std::to_string(i) + ".dae</uri></mesh></geometry></visual></link>\n";
  }
  const std::string sdf = "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<model name=\"m\">\n" + links +
                          "<link name=\"here\"><collision name=\"c\"><geometry><mesh><uri>present.stl</uri></mesh>"
                          "</geometry></collision>\n<visual name=\"remote\"><geometry><mesh>"
                          "<uri>https://fuel.gazebosim.org/1.0/x/models/y/files/meshes/z.dae</uri></mesh></geometry>"
                          "</visual></link>\n</model>\n</sdf>\n";
  const std::string file = directory + "/model.sdf";
  std::ofstream(file) << sdf;
  Loader loader;
  const LoadResult result = loader.loadFile(file);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(countCode(result.diagnostics, ErrorCode::URI_LOOKUP), 1u) << test::dump(result.diagnostics);
  const std::string dump = test::dump(result.diagnostics);
  EXPECT_NE(dump.find(":4:"), std::string::npos) << dump;  // at the first missing mesh's visual
  EXPECT_NE(dump.find("mesh 'missing_0.dae' was not found"), std::string::npos) << dump;
  EXPECT_NE(dump.find("5 more like it"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("fuel.gazebosim.org"), std::string::npos) << dump;  // remote: never fetched, not reported
  const Model& model = *result.document.model;
  const Link& here = model.links.back();
  ASSERT_EQ(here.collisions.size(), 1u);
  EXPECT_EQ(here.collisions[0].geometry.meshResolvedPath, directory + "/present.stl");

  LoadOptions verbose;
  verbose.listEveryWarning = true;
  EXPECT_EQ(countCode(loader.loadFile(file, verbose).diagnostics, ErrorCode::URI_LOOKUP), 6u);
}

TEST(MeshCheck, AMeshMissingFromAPackageThatWasFoundSaysWhereThePackageIs) {
  // ROS layouts: the package is on the path but the file is not in it (a misspelt name, meshes
  // not installed). Advice to set ROS_PACKAGE_PATH would send the user the wrong way.
  const std::string directory = test::makeTempDir("interlink-mesh-package");
  ASSERT_FALSE(directory.empty());
  std::filesystem::create_directories(directory + "/src/arm_description/meshes");
  std::ofstream(directory + "/src/arm_description/meshes/base.stl") << "solid empty\nendsolid empty\n";
  const std::string file = directory + "/robot.urdf";
  std::ofstream(file) << "<robot name=\"r\">\n"
                         "<link name=\"a\"><visual><geometry><mesh filename=\"package://arm_description/meshes/base.stl\"/>"
                         "</geometry></visual></link>\n"
                         "<link name=\"b\"><visual><geometry><mesh filename=\"package://arm_description/meshes/Base.STL\"/>"
                         "</geometry></visual></link>\n"
                         "<link name=\"c\"><visual><geometry><mesh filename=\"package://gripper_description/meshes/f.stl\"/>"
                         "</geometry></visual></link>\n"
                         "<joint name=\"ab\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
                         "<joint name=\"bc\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint>\n"
                         "</robot>\n";
  LoadOptions options;
  options.packagePaths = {directory + "/src"};
  options.listEveryWarning = true;
  const LoadResult result = Loader().loadFile(file, options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const std::string dump = test::dump(result.diagnostics);
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::URI_LOOKUP), 2u) << dump;
  EXPECT_NE(dump.find("mesh 'package://arm_description/meshes/Base.STL' was not found: package 'arm_description' is at " +
                      directory + "/src/arm_description, which has no 'meshes/Base.STL'"),
            std::string::npos)
      << dump;
  EXPECT_NE(dump.find("mesh 'package://gripper_description/meshes/f.stl' was not found in ROS_PACKAGE_PATH"), std::string::npos)
      << dump;
  EXPECT_EQ(result.document.model->links[0].visuals[0].geometry.meshResolvedPath,
            directory + "/src/arm_description/meshes/base.stl");
}

/// A file of one format with `n` mesh references missing_0 .. missing_<n-1> and one to present.obj.
struct MeshCase {
  std::string format;
  std::string fileName;
  std::function<std::string(int)> text;
};

std::string numbered(int n, const std::function<std::string(const std::string&)>& entry) {
  std::string out;
  for (int i = 0; i < n; ++i) out += entry("missing_" + std::to_string(i) + ".obj");
  return out + entry("present.obj");
}

std::vector<MeshCase> meshCases() {
  return {
      {"urdf", "robot.urdf",
       [](int n) {
         return "<robot name=\"r\">\n<link name=\"l\">\n" + numbered(n, [](const std::string& file) {
                  return "<visual><geometry><mesh filename=\"" + file + "\"/></geometry></visual>\n";
                }) + "</link>\n</robot>\n";
       }},
      {"skel", "world.skel",
       [](int n) {
         return "<?xml version=\"1.0\"?>\n<skel version=\"1.0\">\n<world name=\"w\">\n<skeleton name=\"s\">\n"
                "<body name=\"b\">\n" +
                numbered(n, [](const std::string& file) {
                  return "<visualization_shape><geometry><mesh><file_name>" + file +
                         "</file_name><scale>1 1 1</scale></mesh></geometry></visualization_shape>\n";
                }) +
                "</body>\n<joint type=\"free\" name=\"j\"><parent>world</parent><child>b</child></joint>\n"
                "</skeleton>\n</world>\n</skel>\n";
       }},
      {"shift", "robot.json",
       [](int n) {
         std::string list = numbered(n, [](const std::string& file) {
           return "{\"type\": \"mesh\", \"filename\": \"" + file + "\"},\n";
         });
         list.erase(list.size() - 2);  // the last comma
         return "{\"model_parameters\": {\"version\": \"2.0.0\"}, \"assemblies\": [{\"name\": \"arm\", \"bodies\": "
                "[{\"name\": \"b\", \"mass\": 1.0,\n\"geometry\": [\n" +
                list + "]}],\n\"joints\": [{\"name\": \"j\", \"type\": \"Rx\", \"parent\": [\"fixed\", \"origin\"], "
                "\"child\": [\"b\", \"origin\"]}]}]}\n";
       }},
      {"hrdf", "robot.hrdf",
       [](int n) {
         return "<robot version=\"1.4.0\">\n" + numbered(n, [](const std::string& file) {
                  return "<rigid-body mass=\"1\" mesh_path=\"" + file + "\"/>\n";
                }) + "</robot>\n";
       }},
  };
}

TEST(MeshCheck, EveryFormatGroupsItsMissingMeshesIntoOneWarning) {
  constexpr int kMissing = 5;
  Loader loader;
  for (const MeshCase& c : meshCases()) {
    const std::string directory = test::makeTempDir("interlink-mesh-" + c.format);
    ASSERT_FALSE(directory.empty());
    std::ofstream(directory + "/present.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    const std::string file = directory + "/" + c.fileName;
    std::ofstream(file) << c.text(kMissing);
    const LoadResult result = loader.loadFile(file);
    const std::string dump = test::dump(result.diagnostics);
    EXPECT_TRUE(result.ok()) << c.format << "\n" << dump;
    EXPECT_EQ(result.document.format, c.format) << dump;
    EXPECT_EQ(countCode(result.diagnostics, ErrorCode::URI_LOOKUP), 1u) << c.format << "\n" << dump;
    EXPECT_NE(dump.find("warning[URI_LOOKUP]: mesh 'missing_0.obj' was not found"), std::string::npos) << dump;
    EXPECT_NE(dump.find(std::to_string(kMissing - 1) + " more like it"), std::string::npos) << dump;
    EXPECT_EQ(dump.find("present.obj"), std::string::npos) << dump;

    LoadOptions verbose;
    verbose.listEveryWarning = true;
    const LoadResult all = loader.loadFile(file, verbose);
    EXPECT_EQ(countCode(all.diagnostics, ErrorCode::URI_LOOKUP), static_cast<std::size_t>(kMissing))
        << c.format << "\n" << test::dump(all.diagnostics);
    std::size_t resolved = 0;
    const std::function<void(const Model&)> count = [&](const Model& model) {
      for (const Link& link : model.links)
        for (const Shape& shape : link.visuals)
          resolved += shape.geometry.meshResolvedPath == directory + "/present.obj" ? 1 : 0;
      for (const Model& nested : model.models) count(nested);
    };
    if (result.document.model) count(*result.document.model);
    for (const World& world : result.document.worlds)
      for (const Model& model : world.models) count(model);
    EXPECT_EQ(resolved, 1u) << c.format;
  }
}

TEST(MeshCheck, EveryFormatRefusesAMeshOutsideAConfinedLoad) {
  // The mesh lies beside the model directory, not in it: a confined load refuses it, by the core,
  // for every format (the readers that measure meshes do not open it); by default it is read.
  Loader loader;
  LoadOptions confined;
  confined.confineToRoots = true;
  for (const MeshCase& c : meshCases()) {
    const std::string directory = test::makeTempDir("interlink-mesh-policy-" + c.format);
    ASSERT_FALSE(directory.empty());
    std::ofstream(directory + "/present.obj") << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    std::filesystem::create_directories(directory + "/model");
    std::string text = c.text(0);
    const std::string present = "present.obj";
    text.replace(text.find(present), present.size(), "../present.obj");
    const std::string file = directory + "/model/" + c.fileName;
    std::ofstream(file) << text;
    const LoadResult refused = loader.loadFile(file, confined);
    EXPECT_EQ(countCode(refused.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS), 1u) << c.format << "\n"
                                                                                << test::dump(refused.diagnostics);
    const LoadResult followed = loader.loadFile(file);  // the default follows `..` as every peer does
    EXPECT_TRUE(followed.ok()) << c.format << "\n" << test::dump(followed.diagnostics);
    EXPECT_EQ(countCode(followed.diagnostics, ErrorCode::PATH_OUTSIDE_ROOTS), 0u) << c.format;
  }
}

TEST(MeshCheck, MjcfMissingMeshAssetStaysTheReadersError) {
  // MuJoCo refuses the model; its mesh directory comes from <compiler meshdir>: the MJCF reader
  // reports it once, at the asset, and the core adds nothing.
  const std::string directory = test::makeTempDir("interlink-mesh-mjcf");
  ASSERT_FALSE(directory.empty());
  const std::string file = directory + "/model.xml";
  std::ofstream(file) << "<mujoco model=\"m\">\n<asset><mesh name=\"hull\" file=\"missing.stl\"/></asset>\n"
                         "<worldbody><body name=\"b\"><geom type=\"mesh\" mesh=\"hull\"/></body></worldbody>\n</mujoco>\n";
  Loader loader;
  LoadOptions verbose;
  verbose.listEveryWarning = true;
  const LoadResult result = loader.loadFile(file, verbose);
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::URI_LOOKUP), 1u) << test::dump(result.diagnostics);
}

/// One link whose inertia breaks the triangle inequality (1, 1, 3), in each format; the expected
/// severity is the reference tool's.
struct InertiaCase {
  std::string fileName;
  std::string text;
  Severity severity;
  std::string tool;
};

TEST(InertiaCheck, OneCheckWithTheSeverityOfEachFormatsReferenceTool) {
  const std::vector<InertiaCase> cases = {
      {"model.sdf",
       "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<model name=\"m\">\n<link name=\"l\">\n<inertial><mass>1</mass>"
       "<inertia><ixx>1</ixx><iyy>1</iyy><izz>3</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>\n"
       "</link>\n</model>\n</sdf>\n",
       Severity::Error, "libsdformat refuses it"},
      {"robot.urdf",
       "<robot name=\"r\">\n<link name=\"l\">\n<inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"3\" ixy=\"0\" "
       "ixz=\"0\" iyz=\"0\"/></inertial>\n</link>\n</robot>\n",
       Severity::Warning, "urdfdom loads it"},
      {"world.skel",
       "<?xml version=\"1.0\"?>\n<skel version=\"1.0\">\n<world name=\"w\">\n<skeleton name=\"s\">\n<body name=\"l\">\n"
       "<inertia><mass>1</mass><moment_of_inertia><ixx>1</ixx><iyy>1</iyy><izz>3</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz>"
       "</moment_of_inertia></inertia>\n</body>\n<joint type=\"free\" name=\"j\"><parent>world</parent><child>l</child>"
       "</joint>\n</skeleton>\n</world>\n</skel>\n",
       Severity::Warning, "DART loads it"},
      {"robot.json",
       "{\"model_parameters\": {\"version\": \"0.2\"}, \"assemblies\": [{\"name\": \"arm\", \"bodies\": [{\"name\": \"l\", "
       "\"mass\": 1.0,\n\"moment_of_inertia\": {\"Ixx\": 1, \"Iyy\": 1, \"Izz\": 3, \"Ixy\": 0, \"Iyz\": 0, \"Izx\": 0}}],\n"
       "\"joints\": [{\"name\": \"j\", \"type\": \"Rx\", \"body_frame_pairs\": [[\"fixed\", \"origin\"], [\"l\", \"origin\"]]}]}]}\n",
       Severity::Warning, "Shift loads it"},
      {"robot.hrdf",
       "<robot version=\"1.4.0\">\n<rigid-body mass=\"1\" ixx=\"1\" iyy=\"1\" izz=\"3\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>\n"
       "</robot>\n",
       Severity::Warning, "HEBI's loader takes it"},
      {"model.xml",
       "<mujoco>\n<worldbody>\n<body>\n<joint/>\n<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 3\"/>\n</body>\n"
       "</worldbody>\n</mujoco>\n",
       Severity::Error, "MuJoCo 2.2.2 refuses it"},
  };
  Loader loader;
  const std::string directory = test::makeTempDir("interlink-inertia");
  ASSERT_FALSE(directory.empty());
  for (const InertiaCase& c : cases) {
    const std::string file = directory + "/" + c.fileName;
    std::ofstream(file) << c.text;
    const LoadResult result = loader.loadFile(file);
    const std::string dump = test::dump(result.diagnostics);
    // Exactly one finding: the readers no longer check on their own.
    ASSERT_EQ(countCode(result.diagnostics, ErrorCode::LINK_INERTIA_INVALID), 1u) << c.fileName << "\n" << dump;
    for (const Diagnostic& d : result.diagnostics) {
      if (d.code != ErrorCode::LINK_INERTIA_INVALID) continue;
      EXPECT_EQ(d.severity, c.severity) << d.format();
      EXPECT_NE(d.message.find("triangle inequality"), std::string::npos) << d.format();
      EXPECT_NE(d.message.find(c.tool), std::string::npos) << d.format();
      EXPECT_GT(d.where.line, 1) << d.format();
    }
    EXPECT_EQ(result.ok(), c.severity != Severity::Error) << dump;
  }
}

TEST(InertiaCheck, SdformatFollowsGzMathAtTheEdge) {
  // libsdformat (gz-math MassMatrix3::IsValid): zero mass and moments are valid, moments on the
  // triangle's edge are valid, a tensor just past it is not; a negative mass is refused.
  const auto link = [](const std::string& mass, const std::string& moments) {
    return "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n<model name=\"m\">\n<link name=\"l\">\n<inertial><mass>" +
           mass + "</mass><inertia>" + moments + "<ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial>\n</link>\n"
           "</model>\n</sdf>\n";
  };
  Loader loader;
  EXPECT_TRUE(loader.loadString(link("0", "<ixx>0</ixx><iyy>0</iyy><izz>0</izz>"), "zero.sdf").ok());
  EXPECT_TRUE(loader.loadString(link("1", "<ixx>1</ixx><iyy>1</iyy><izz>2</izz>"), "edge.sdf").ok());
  EXPECT_FALSE(loader.loadString(link("1", "<ixx>1</ixx><iyy>1</iyy><izz>2.000001</izz>"), "past.sdf").ok());
  EXPECT_FALSE(loader.loadString(link("-1", "<ixx>1</ixx><iyy>1</iyy><izz>1</izz>"), "negative.sdf").ok());
}

}  // namespace
}  // namespace interlink
