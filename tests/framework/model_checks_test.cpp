// The core's checks that apply to every format: mesh URIs (resolved in the core for SDFormat, whose
// reader does not look meshes up) and the grouping of repeated warnings. Inertia checks are
// tested per format (tests/urdf, tests/skel).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

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

}  // namespace
}  // namespace interlink
