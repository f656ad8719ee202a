// Issue 12 class 9 (and issue 15 item 3): elements outside the kinematic model (sensors, plugins,
// materials, lights, custom elements) are kept as typed trees and written back by the SDFormat
// writer where they were read; libsdformat 12.3 reads them from the converted file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <fstream>
#include <string>
#include <vector>

#include <sdf/Light.hh>
#include <sdf/Link.hh>
#include <sdf/Material.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#include <sdf/Sensor.hh>
#include <sdf/Visual.hh>
#include <sdf/World.hh>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink {
namespace {

constexpr const char* kModel = R"(<?xml version='1.0'?>
<sdf version='1.9' xmlns:gz='http://gazebosim.org/schema'>
<model name='robot'>
  <plugin name='controller' filename='libcontroller.so'><gain>2.5</gain><topic>/cmd</topic></plugin>
  <gz:note level='2'>made by hand</gz:note>
  <link name='base'>
    <visual name='shell'>
      <geometry><box><size>1 1 1</size></box></geometry>
      <material>
        <script><uri>file://media/materials/scripts/gazebo.material</uri><name>Gazebo/Grey</name></script>
        <ambient>0.3 0.3 0.3 1</ambient>
      </material>
    </visual>
    <collision name='hull'>
      <geometry><box><size>1 1 1</size></box></geometry>
      <surface><friction><ode><mu>0.8</mu></ode></friction></surface>
    </collision>
    <sensor name='eye' type='camera'>
      <update_rate>30</update_rate>
      <camera><horizontal_fov>1.2</horizontal_fov><image><width>320</width><height>240</height></image></camera>
      <plugin name='cam' filename='libcam.so'/>
    </sensor>
    <light name='lamp' type='spot'>
      <attenuation><range>12</range></attenuation>
      <spot><inner_angle>0.3</inner_angle><outer_angle>0.6</outer_angle><falloff>1</falloff></spot>
    </light>
  </link>
  <link name='arm'><pose>0 0 1 0 0 0</pose></link>
  <joint name='elbow' type='revolute'>
    <parent>base</parent><child>arm</child>
    <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>
    <sensor name='torque' type='force_torque'><force_torque><frame>child</frame></force_torque></sensor>
  </joint>
</model>
</sdf>
)";

std::filesystem::path scratch(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "interlink_kept_roundtrip";
  std::filesystem::create_directories(dir);
  return dir / name;
}

std::string write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

/// A file read, converted to SDFormat and the result read again.
struct RoundTrip {
  LoadResult original;
  std::string text;       // the converted file
  std::string converted;  // its path
  LoadResult again;
};

/// Loads `content` (saved as `name`), converts it to SDFormat and loads the output; fails the
/// running test (and returns nullopt) when a step fails.
std::optional<RoundTrip> roundTrip(const std::string& name, const std::string& content) {
  static const Loader loader;
  RoundTrip trip;
  trip.original = loader.loadFile(write(scratch(name + ".sdf"), content));
  if (!trip.original.ok()) {
    ADD_FAILURE() << test::dump(trip.original.diagnostics);
    return std::nullopt;
  }
  Diagnostics diagnostics;
  const auto text = convert::writeSdformat(trip.original, diagnostics);
  if (!text) {
    ADD_FAILURE() << test::dump(diagnostics);
    return std::nullopt;
  }
  trip.text = *text;
  trip.converted = write(scratch(name + "_converted.sdf"), trip.text);
  trip.again = loader.loadFile(trip.converted);
  if (!trip.again.ok()) {
    ADD_FAILURE() << test::dump(trip.again.diagnostics) << trip.text;
    return std::nullopt;
  }
  return trip;
}

/// The kept elements of a model as comparable text: where they belong and their trees.
std::vector<std::string> keptSummary(const Model& model) {
  std::vector<std::string> out;
  std::function<std::string(const KeptNode&)> tree = [&](const KeptNode& node) {
    std::string s = "<" + node.name;
    for (const auto& [name, value] : node.attributes) s += " " + name + "=" + value;
    s += ">" + node.text;
    for (const KeptNode& child : node.children) s += tree(child);
    return s + "</>";
  };
  for (const KeptElement& kept : model.kept) {
    std::string owners;
    for (const std::string& owner : kept.owners) owners += owner + "/";
    out.push_back(kept.within + " [" + owners + "] " + tree(kept.element));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(KeptRoundTrip, SdformatToSdformatKeepsWhatItRead) {
  const auto trip = roundTrip("robot", kModel);
  ASSERT_TRUE(trip.has_value());
  const LoadResult& again = trip->again;
  const std::string* text = &trip->text;
  const std::string& converted = trip->converted;
  const std::vector<std::string> before = keptSummary(*trip->original.document.model);
  // The plugin, the custom element, the material, the surface, the sensors and the light's extras.
  ASSERT_GE(before.size(), 8u) << ::testing::PrintToString(before);
  EXPECT_EQ(keptSummary(*again.document.model), before) << *text;
  // Written once: the colour-derived material does not duplicate the kept one.
  EXPECT_EQ(again.document.model->links.at(0).visuals.at(0).material, "Gazebo/Grey");

  // libsdformat reads the written-back elements as the elements they are.
  sdf::Root root;
  const sdf::Errors errors = root.Load(converted);
  ASSERT_TRUE(errors.empty()) << errors.front().Message() << "\n" << *text;
  const sdf::Model* model = root.Model();
  ASSERT_NE(model, nullptr);
  const sdf::Link* base = model->LinkByName("base");
  ASSERT_NE(base, nullptr);
  ASSERT_EQ(base->SensorCount(), 1u) << *text;
  EXPECT_EQ(base->SensorByIndex(0)->Type(), sdf::SensorType::CAMERA);
  EXPECT_DOUBLE_EQ(base->SensorByIndex(0)->UpdateRate(), 30);
  ASSERT_EQ(base->LightCount(), 1u) << *text;
  EXPECT_DOUBLE_EQ(base->LightByIndex(0)->AttenuationRange(), 12);
  EXPECT_DOUBLE_EQ(base->LightByIndex(0)->SpotOuterAngle().Radian(), 0.6);
  const sdf::Visual* shell = base->VisualByName("shell");
  ASSERT_NE(shell, nullptr);
  ASSERT_NE(shell->Material(), nullptr);
  EXPECT_EQ(shell->Material()->ScriptName(), "Gazebo/Grey");
  EXPECT_EQ(shell->Material()->ScriptUri(), "file://media/materials/scripts/gazebo.material");
  EXPECT_TRUE(model->Element()->HasElement("plugin")) << *text;
  EXPECT_EQ(model->Element()->GetElement("plugin")->Get<std::string>("filename"), "libcontroller.so");
}

constexpr const char* kWorld = R"(<?xml version='1.0'?>
<sdf version='1.6'>
<world name='lab'>
  <physics name='fast' type='ode'>
    <max_step_size>0.002</max_step_size>
    <real_time_update_rate>500</real_time_update_rate>
    <ode><solver><type>quick</type><iters>50</iters><sor>1.3</sor></solver><constraints><cfm>0</cfm></constraints></ode>
  </physics>
  <scene><ambient>0.4 0.4 0.4 1</ambient><shadows>false</shadows></scene>
  <plugin name='world_plugin' filename='libworld.so'><rate>10</rate></plugin>
  <light name='sun' type='directional'><specular>0.2 0.2 0.2 1</specular><direction>-0.5 0.1 -0.9</direction></light>
  <model name='box'>
    <static>true</static>
    <link name='l'><sensor name='touch' type='contact'><contact><collision>c</collision></contact></sensor></link>
  </model>
</world>
</sdf>
)";

std::vector<std::string> keptSummary(const std::vector<KeptElement>& kept) {
  Model holder;
  holder.kept = kept;
  return keptSummary(holder);
}

TEST(KeptRoundTrip, WorldSettingsPhysicsParametersAndModelSensorsSurviveConvert) {
  const auto trip = roundTrip("lab", kWorld);
  ASSERT_TRUE(trip.has_value());
  const std::string* text = &trip->text;
  const std::string& converted = trip->converted;
  const World& before = trip->original.document.worlds.at(0);
  const World& after = trip->again.document.worlds.at(0);
  EXPECT_EQ(after.physics.values, before.physics.values) << *text;
  EXPECT_EQ(after.physics.values.at("ode/solver/iters"), 50);
  EXPECT_EQ(keptSummary(after.kept), keptSummary(before.kept)) << *text;
  EXPECT_EQ(keptSummary(after.models.at(0)), keptSummary(before.models.at(0))) << *text;

  sdf::Root root;
  const sdf::Errors errors = root.Load(converted);
  ASSERT_TRUE(errors.empty()) << errors.front().Message() << "\n" << *text;
  const sdf::ElementPtr world = root.WorldByIndex(0)->Element();
  EXPECT_EQ(world->GetElement("physics")->GetElement("ode")->GetElement("solver")->Get<std::string>("type"), "quick");
  EXPECT_EQ(world->GetElement("physics")->GetElement("ode")->GetElement("solver")->Get<int>("iters"), 50);
  EXPECT_FALSE(world->GetElement("scene")->Get<bool>("shadows"));
  EXPECT_EQ(world->GetElement("plugin")->Get<std::string>("filename"), "libworld.so");
  ASSERT_EQ(root.WorldByIndex(0)->ModelByIndex(0)->LinkByIndex(0)->SensorCount(), 1u) << *text;
}

}  // namespace
}  // namespace interlink
