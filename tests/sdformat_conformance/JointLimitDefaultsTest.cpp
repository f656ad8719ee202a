// SDFormat joint limits a file does not give take its own version's default (issue 12, class 4):
// ±1e16 up to 1.9, as libsdformat 12.3 reports them, and ±inf from 1.10 on (the joint.sdf of each
// version). Both mean "no limit" to the writers: JSON writes the values (an infinite one as null),
// URDF and MJCF write an unlimited joint.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sdf/Joint.hh>
#include <sdf/JointAxis.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#include <string>

#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string dataFile(const std::string& name) { return test::sourceDir() + "/tests/data/sdformat_limits/" + name; }

const Loader& loader() { return test::sharedLoader(); }

const JointAxis& axisOf(const LoadResult& loaded, const std::string& joint) {
  for (const Joint& j : loaded.document.model->joints) {
    if (j.name == joint) return j.axes.at(0);
  }
  throw std::runtime_error("no joint " + joint);
}

struct Bounds {
  double lower, upper;
};

void expectBounds(const LoadResult& loaded, const std::string& joint, Bounds expected) {
  const JointAxis& axis = axisOf(loaded, joint);
  EXPECT_EQ(axis.lower, expected.lower) << joint;
  EXPECT_EQ(axis.upper, expected.upper) << joint;
}

TEST(JointLimitDefaults, Sdformat1_9DefaultsAreLibsdformats) {
  const std::string path = dataFile("limits_1_9.sdf");
  const LoadResult loaded = loader().loadFile(path);
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  expectBounds(loaded, "hinge", {-1e16, 1e16});
  expectBounds(loaded, "rail", {-1e16, 1e16});
  expectBounds(loaded, "stop", {-0.5, 1e16});
  EXPECT_EQ(axisOf(loaded, "rail").effort, 5);

  sdf::Root root;
  const sdf::Errors errors = root.Load(path);
  ASSERT_TRUE(errors.empty()) << errors.front().Message();
  const sdf::Model* model = root.Model();
  ASSERT_NE(model, nullptr);
  for (const char* name : {"hinge", "rail", "stop"}) {
    const sdf::JointAxis* theirs = model->JointByName(name)->Axis(0);
    ASSERT_NE(theirs, nullptr) << name;
    EXPECT_EQ(axisOf(loaded, name).lower, theirs->Lower()) << name;
    EXPECT_EQ(axisOf(loaded, name).upper, theirs->Upper()) << name;
  }
}

TEST(JointLimitDefaults, Sdformat1_10DefaultsAreInfinite) {
  const LoadResult loaded = loader().loadFile(dataFile("limits_1_10.sdf"));
  ASSERT_TRUE(loaded.ok()) << test::dump(loaded.diagnostics);
  expectBounds(loaded, "hinge", {-kInf, kInf});
  expectBounds(loaded, "rail", {-kInf, kInf});
  expectBounds(loaded, "stop", {-0.5, kInf});
}

TEST(JointLimitDefaults, JsonWritesEachVersionsValues) {
  const LoadResult v9 = loader().loadFile(dataFile("limits_1_9.sdf"));
  const LoadResult v10 = loader().loadFile(dataFile("limits_1_10.sdf"));
  ASSERT_TRUE(v9.ok() && v10.ok());
  const std::string json9 = convert::writeJson(v9);
  const std::string json10 = convert::writeJson(v10);
  EXPECT_NE(json9.find("\"lower\": -1e+16"), std::string::npos) << json9;
  EXPECT_EQ(json9.find("\"lower\": null"), std::string::npos) << json9;
  EXPECT_NE(json10.find("\"lower\": null"), std::string::npos) << json10;
  EXPECT_NE(json10.find("\"upper\": null"), std::string::npos) << json10;
  EXPECT_NE(json10.find("\"lower\": -0.5"), std::string::npos) << json10;
  EXPECT_EQ(json10.find("1e+16"), std::string::npos) << json10;
}

/// The text without its "converted by interlink from FILE" comment line.
std::string withoutSourceComment(std::string text) {
  const auto at = text.find("converted by interlink from");
  if (at == std::string::npos) return text;
  const auto begin = text.rfind('\n', at);
  const auto end = text.find('\n', at);
  text.erase(begin == std::string::npos ? 0 : begin, end == std::string::npos ? std::string::npos : end - begin);
  return text;
}

/// Converted to URDF and to MJCF, both versions give the same file: the hinge without limits is
/// continuous (URDF) or unlimited (MJCF), the rail a prismatic joint without range, and the
/// one-sided stop has no finite range either. Each output loads again.
TEST(JointLimitDefaults, UrdfAndMjcfWriteNoLimitForBothVersionsDefaults) {
  std::string urdf[2], mjcf[2];
  int k = 0;
  for (const char* file : {"limits_1_9.sdf", "limits_1_10.sdf"}) {
    const LoadResult loaded = loader().loadFile(dataFile(file));
    ASSERT_TRUE(loaded.ok()) << file;
    Diagnostics diagnostics;
    const auto urdfText = convert::writeUrdf(loaded, diagnostics);
    const auto mjcfText = convert::writeMjcf(loaded, diagnostics);
    ASSERT_TRUE(urdfText && mjcfText) << test::dump(diagnostics);
    urdf[k] = withoutSourceComment(*urdfText);
    mjcf[k] = withoutSourceComment(*mjcfText);
    ++k;
    EXPECT_NE(urdfText->find("name=\"hinge\" type=\"continuous\""), std::string::npos) << *urdfText;
    EXPECT_EQ(mjcfText->find("range="), std::string::npos) << *mjcfText;
    const LoadResult fromUrdf = loader().loadString(*urdfText, "limits.urdf");
    EXPECT_TRUE(fromUrdf.ok()) << test::dump(fromUrdf.diagnostics);
    const LoadResult fromMjcf = loader().loadString(*mjcfText, "limits.xml");
    EXPECT_TRUE(fromMjcf.ok()) << test::dump(fromMjcf.diagnostics);
    for (const LoadResult* back : {&fromUrdf, &fromMjcf}) {
      if (!back->ok()) continue;
      for (const Joint& joint : back->document.model->joints) {
        for (const JointAxis& axis : joint.axes) {
          EXPECT_FALSE(std::isfinite(axis.lower) && std::isfinite(axis.upper) && axis.upper < 1e16)
              << file << ": joint '" << joint.name << "' came back limited";
        }
      }
    }
  }
  EXPECT_EQ(urdf[0], urdf[1]);
  EXPECT_EQ(mjcf[0], mjcf[1]);
}

}  // namespace
}  // namespace interlink
