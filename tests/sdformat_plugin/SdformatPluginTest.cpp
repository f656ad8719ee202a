// The SDFormat plugin's document: structure, values, locations, kept elements, includes and the
// version conversions, through the real Loader (frames not resolved unless the test needs them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "SdfTestSupport.hpp"
#include "interlink/PoseMath.hpp"

namespace interlink::test {
namespace {

constexpr double kTolerance = 1e-12;

const Link* linkNamed(const Model& model, const std::string& name) {
  for (const Link& link : model.links) {
    if (link.name == name) return &link;
  }
  return nullptr;
}

const Joint* jointNamed(const Model& model, const std::string& name) {
  for (const Joint& joint : model.joints) {
    if (joint.name == name) return &joint;
  }
  return nullptr;
}

const Model* modelNamed(const std::vector<Model>& models, const std::string& name) {
  for (const Model& model : models) {
    if (model.name == name) return &model;
  }
  return nullptr;
}

bool posesNear(const Pose& a, const Pose& b, double tolerance = kTolerance) {
  return a.isApprox(b, tolerance) || (a.matrix() - b.matrix()).cwiseAbs().maxCoeff() < tolerance;
}

TEST(SdformatPlugin, IsDiscoveredForItsExtensions) {
  const PluginHandle plugin = sdfLoader().plugins().findByName("sdformat");
  ASSERT_TRUE(plugin) << sdfLoader().plugins().describeFormats();
  EXPECT_EQ(plugin.info().extensions, (std::vector<std::string>{".sdf", ".world"}));
  EXPECT_TRUE(sdfLoader().plugins().formatFor("/x/y.world"));
}

TEST(SdformatPlugin, JointCompleteCorpusFile) {
  const LoadResult result = loadSdf(vendored("sdformat/test/sdf/joint_complete.sdf"), false);
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  const Document& document = result.document;
  EXPECT_EQ(document.format, "sdformat");
  EXPECT_EQ(document.formatVersion, "1.6");
  ASSERT_TRUE(document.model);
  const Model& model = *document.model;
  EXPECT_EQ(model.name, "test");
  EXPECT_EQ(model.links.size(), 10u);
  ASSERT_EQ(model.joints.size(), 9u);

  const Joint* revolute = jointNamed(model, "revolute_joint");
  ASSERT_NE(revolute, nullptr);
  EXPECT_EQ(revolute->type, JointType::Revolute);
  EXPECT_EQ(revolute->parent, "link2");
  EXPECT_EQ(revolute->child, "link1");
  EXPECT_TRUE(posesNear(revolute->pose.pose, poseFromXyzRpy(1, 0, 0, 0, 0, 0)));
  EXPECT_TRUE(revolute->pose.relativeTo.empty());
  ASSERT_EQ(revolute->axes.size(), 2u);
  const JointAxis& axis = revolute->axes[0];
  EXPECT_TRUE(axis.xyz.isApprox(Vector3::UnitZ()));
  EXPECT_EQ(axis.expressedIn, "__model__");  // use_parent_model_frame true (SDFormat 1.6)
  EXPECT_DOUBLE_EQ(axis.lower, -0.5);
  EXPECT_DOUBLE_EQ(axis.upper, 0.5);
  EXPECT_DOUBLE_EQ(axis.effort, 123.4);
  EXPECT_DOUBLE_EQ(axis.velocity, 12);
  EXPECT_DOUBLE_EQ(axis.damping, 0.1);
  EXPECT_DOUBLE_EQ(axis.friction, 0.2);
  EXPECT_DOUBLE_EQ(axis.springReference, 1.3);
  EXPECT_DOUBLE_EQ(axis.springStiffness, 10.6);
  EXPECT_TRUE(revolute->axes[1].xyz.isApprox(Vector3::UnitY()));
  EXPECT_TRUE(revolute->axes[1].expressedIn.empty());  // use_parent_model_frame false
  EXPECT_DOUBLE_EQ(revolute->axes[1].effort, 0.5);
  EXPECT_EQ(revolute->initialPositions, std::vector<double>{0.5});
  EXPECT_EQ(revolute->where.line, 25);
  EXPECT_EQ(revolute->where.column, 5);
  EXPECT_EQ(revolute->where.file, vendored("sdformat/test/sdf/joint_complete.sdf"));
  EXPECT_EQ(revolute->pose.where.line, 26);

  const Joint* screw = jointNamed(model, "screw_joint");
  ASSERT_NE(screw, nullptr);
  EXPECT_EQ(screw->type, JointType::Screw);
  EXPECT_DOUBLE_EQ(screw->screwThreadPitch, 20);
  ASSERT_NE(jointNamed(model, "universal_joint"), nullptr);
  EXPECT_EQ(jointNamed(model, "universal_joint")->axes.size(), 2u);
  EXPECT_EQ(jointNamed(model, "ball_joint")->type, JointType::Ball);
  EXPECT_EQ(jointNamed(model, "gearbox_joint")->type, JointType::Gearbox);
  EXPECT_EQ(jointNamed(model, "revolute2_joint")->type, JointType::Revolute2);
  EXPECT_EQ(jointNamed(model, "fixed_joint")->axes.size(), 0u);
  EXPECT_TRUE(posesNear(jointNamed(model, "fixed_joint")->pose.pose, poseFromXyzRpy(0, 0, 0, 1, 0, 0)));

  // <physics> of the joint is outside the subset: kept once, warned once.
  ASSERT_EQ(model.kept.size(), 1u);
  EXPECT_EQ(model.kept[0].path, "model/joint/physics");
  EXPECT_NE(model.kept[0].text.find("<cfm_damping>1</cfm_damping>"), std::string::npos) << model.kept[0].text;
  EXPECT_EQ(model.kept[0].where.line, 57);
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED), 1u);
}

TEST(SdformatPlugin, NestedModelsWithRelativeTo) {
  const LoadResult result = loadSdf(vendored("sdformat/test/sdf/model_nested_model_relative_to.sdf"), false);
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  ASSERT_TRUE(result.document.model);
  const Model& model = *result.document.model;
  EXPECT_EQ(model.name, "model_nested_model_relative_to");
  ASSERT_EQ(model.links.size(), 1u);
  ASSERT_EQ(model.models.size(), 3u);
  EXPECT_EQ(model.models[0].name, "M1");
  EXPECT_EQ(model.models[1].name, "M2");
  EXPECT_EQ(model.models[2].name, "M3");
  EXPECT_TRUE(posesNear(model.models[0].pose.pose, poseFromXyzRpy(1, 0, 0, 0, 1.5707963267948966, 0)));
  EXPECT_TRUE(model.models[1].pose.relativeTo.empty());
  EXPECT_EQ(model.models[2].pose.relativeTo, "M1");
  EXPECT_TRUE(posesNear(model.models[2].pose.pose, poseFromXyzRpy(3, 0, 0, 0, 0, 0)));
  EXPECT_EQ(model.models[2].links.at(0).name, "L");
  EXPECT_EQ(model.models[2].where.line, 13);
  EXPECT_EQ(model.models[2].pose.where.line, 14);
  EXPECT_EQ(model.models[2].source.format, "sdformat");
}

TEST(SdformatPlugin, DegreesAndQuaternionPoses) {
  const LoadResult result = loadSdf(vendored("sdformat/test/sdf/pose_1_9.sdf"), false);
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  ASSERT_EQ(result.document.worlds.size(), 1u);
  const auto& models = result.document.worlds[0].models;

  const Model* degrees = modelNamed(models, "model_with_pose_with_degrees_true");
  ASSERT_NE(degrees, nullptr);
  EXPECT_TRUE(posesNear(degrees->pose.pose, poseFromXyzRpy(1, 2, 3, M_PI / 2, M_PI, 3 * M_PI / 2), 1e-12));

  const Model* radians = modelNamed(models, "model_with_pose_no_attribute");
  ASSERT_NE(radians, nullptr);
  EXPECT_TRUE(posesNear(radians->pose.pose, poseFromXyzRpy(1, 2, 3, 0.4, 0.5, 0.6)));
  EXPECT_TRUE(posesNear(modelNamed(models, "model_with_messy_delimiters")->pose.pose, radians->pose.pose));

  const Model* quaternion = modelNamed(models, "model_quat_xyzw");
  ASSERT_NE(quaternion, nullptr);
  // x y z = 1 2 3; (qx qy qz qw) = (0.7071068, 0, 0, 0.7071068): a quarter turn about x.
  EXPECT_TRUE(quaternion->pose.pose.translation().isApprox(Vector3(1, 2, 3)));
  EXPECT_TRUE(quaternion->pose.pose.linear().isApprox(rotationFromRpy(M_PI / 2, 0, 0), 1e-7));
  EXPECT_NEAR(quaternion->pose.pose.linear().determinant(), 1.0, 1e-12);  // normalised

  const Model* empty = modelNamed(models, "model_with_empty_pose_euler_rpy_degrees_true");
  ASSERT_NE(empty, nullptr);
  EXPECT_TRUE(empty->pose.pose.isApprox(Pose::Identity()));

  const Model* inertia = modelNamed(models, "model_with_inertia_pose");
  ASSERT_NE(inertia, nullptr);
  const Link* link = linkNamed(*inertia, "link_quat_xyzw");
  ASSERT_NE(link, nullptr);
  EXPECT_TRUE(link->hasInertial);
  EXPECT_DOUBLE_EQ(link->inertial.mass, 10);
  EXPECT_TRUE(link->inertial.centerOfMass.linear().isApprox(rotationFromRpy(M_PI / 2, 0, 0), 1e-7));
}

TEST(SdformatPlugin, CustomAndUnsupportedElementsAreKeptAndWarnedOncePerPath) {
  const auto path = writeFile(scratchDirectory() / "custom.sdf",
                              "<sdf version='1.9' xmlns:acme='http://acme.example'>\n"
                              "<model name='m'>\n"
                              "  <link name='a'><sensor name='s1' type='imu'/><acme:tag value='1'><link/></acme:tag></link>\n"
                              "  <link name='b'><sensor name='s2' type='imu'/><acme:tag value='2'/></link>\n"
                              "  <plugin name='p' filename='libp.so'><link name='inside_plugin'/></plugin>\n"
                              "  <acme:extra>text &amp; more</acme:extra>\n"
                              "</model>\n"
                              "</sdf>\n");
  const LoadResult result = loadSdf(path, false);
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  const Model& model = *result.document.model;
  // Nothing inside <plugin> or a custom element is read as SDFormat.
  EXPECT_EQ(model.links.size(), 2u);
  ASSERT_EQ(model.kept.size(), 6u);
  EXPECT_EQ(model.kept[0].path, "model/link/sensor");
  EXPECT_EQ(model.kept[0].where.line, 3);
  EXPECT_EQ(model.kept[0].where.column, 18);
  EXPECT_EQ(model.kept[1].path, "model/link/acme:tag");
  EXPECT_EQ(model.kept[1].text, "<acme:tag value=\"1\"><link/></acme:tag>");
  EXPECT_EQ(model.kept[4].path, "model/plugin");
  EXPECT_EQ(model.kept[5].text, "<acme:extra>text &amp; more</acme:extra>");

  // One note per distinct path: sensor, acme:tag, plugin, acme:extra. Valid elements of the format
  // are not warnings (issue 26: `check --explain` and --verbose list them).
  EXPECT_EQ(countCode(result.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED), 4u) << dump(result.diagnostics);
  for (const auto& d : result.diagnostics) {
    EXPECT_EQ(d.severity, Severity::Note) << d.format();
  }
  const Diagnostic* sensor = findCode(result.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED);
  ASSERT_NE(sensor, nullptr);
  EXPECT_NE(sensor->message.find("model/link/sensor"), std::string::npos);
  EXPECT_NE(sensor->message.find("2 occurrences"), std::string::npos) << sensor->message;
}

TEST(SdformatPlugin, CorpusFilesWithIgnoredContentAreValid) {
  for (const char* file : {"ignore_sdf_in_plugin.sdf", "ignore_sdf_in_namespaced_elements.sdf",
                           "unrecognized_elements_with_namespace.sdf", "custom_and_unknown_elements.sdf"}) {
    const LoadResult result = loadSdf(vendored(std::string("sdformat/test/sdf/") + file), false);
    EXPECT_TRUE(result.ok()) << file << "\n" << dump(result.diagnostics);
    EXPECT_GT(countCode(result.diagnostics, ErrorCode::ELEMENT_UNSUPPORTED), 0u) << file;
  }
}

TEST(SdformatPlugin, IncludesAreRecordedInDocumentOrder) {
  // The plugin itself (the loader would go on to resolve the include, which does not exist here).
  Document document;
  const Diagnostics diagnostics = loadWithPluginOnly(
                              "<sdf version='1.9'>\n<world name='w'>\n"
                              "  <model name='first'><link name='l'/></model>\n"
                              "  <include merge='false'>\n"
                              "    <uri>model://box</uri>\n    <name>box_a</name>\n    <static>true</static>\n"
                              "    <pose relative_to='first' degrees='true'>1 0 0 0 0 90</pose>\n"
                              "    <placement_frame>corner</placement_frame>\n"
                              "    <acme:note xmlns:acme='x'>kept</acme:note>\n"
                              "  </include>\n"
                              "  <model name='last'><link name='l'/></model>\n"
                              "</world>\n</sdf>\n", document);
  EXPECT_FALSE(diagnostics.hasErrors()) << dump(diagnostics);
  ASSERT_EQ(document.worlds.size(), 1u) << dump(diagnostics);
  const auto& models = document.worlds[0].models;
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].name, "first");
  EXPECT_EQ(models[1].name, "last");
  ASSERT_EQ(document.worlds[0].includes.size(), 1u);
  const Include& include = document.worlds[0].includes[0];
  EXPECT_EQ(include.position, 1u);  // between "first" and "last"
  EXPECT_EQ(include.uri, "model://box");
  EXPECT_EQ(include.name, std::optional<std::string>("box_a"));
  EXPECT_EQ(include.isStatic, std::optional<bool>(true));
  ASSERT_TRUE(include.pose);
  EXPECT_EQ(include.pose->relativeTo, "first");
  EXPECT_TRUE(posesNear(include.pose->pose, poseFromXyzRpy(1, 0, 0, 0, 0, M_PI / 2)));
  EXPECT_EQ(include.placementFrame, std::optional<std::string>("corner"));
  EXPECT_FALSE(include.merge);
  // The whole element travels as a tree, custom elements with their attributes and text.
  EXPECT_EQ(include.element.name, "include");
  const auto note = std::find_if(include.element.children.begin(), include.element.children.end(),
                                 [](const KeptNode& child) { return child.name == "acme:note"; });
  ASSERT_NE(note, include.element.children.end());
  EXPECT_EQ(note->text, "kept");
  EXPECT_EQ(note->attributes, (std::vector<std::pair<std::string, std::string>>{{"xmlns:acme", "x"}}));
  EXPECT_EQ(include.where.line, 4);
}

TEST(SdformatPlugin, IncludeWithoutUri) {
  const LoadResult result = loadSdf(vendored("sdformat/test/sdf/includes_missing_uri.sdf"), false);
  const Diagnostic* error = findCode(result.diagnostics, ErrorCode::ATTRIBUTE_MISSING);
  ASSERT_NE(error, nullptr) << dump(result.diagnostics);
  EXPECT_EQ(error->where.line, 5);
}

TEST(SdformatPlugin, OldVersionsAreConvertedAsLibsdformatDoes) {
  // 1.4: axes of top-level model joints are in the model frame; @frame is @relative_to before 1.7.
  const auto old = writeFile(scratchDirectory() / "old.sdf",
                             "<sdf version='1.4'>\n<model name='m'>\n<link name='a'/>\n"
                             "<link name='b'><pose frame='a'>1 0 0 0 0 0</pose></link>\n"
                             "<joint name='j' type='revolute'><parent>a</parent><child>b</child>"
                             "<axis><xyz>1 0 0</xyz></axis></joint>\n</model>\n</sdf>\n");
  const LoadResult result = loadSdf(old, false);
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  const Model& model = *result.document.model;
  EXPECT_EQ(linkNamed(model, "b")->pose.relativeTo, "a");
  EXPECT_EQ(model.joints.at(0).axes.at(0).expressedIn, "__model__");

  // 1.7 and later: @frame means nothing, @relative_to does.
  const auto newer = writeFile(scratchDirectory() / "new.sdf",
                               "<sdf version='1.7'>\n<model name='m'>\n<link name='a'/>\n"
                               "<link name='b'><pose frame='a'>1 0 0 0 0 0</pose></link>\n"
                               "<joint name='j' type='revolute'><parent>a</parent><child>b</child>"
                               "<axis><xyz expressed_in='a'>1 0 0</xyz></axis></joint>\n</model>\n</sdf>\n");
  const LoadResult newResult = loadSdf(newer, false);
  ASSERT_TRUE(newResult.ok()) << dump(newResult.diagnostics);
  EXPECT_TRUE(linkNamed(*newResult.document.model, "b")->pose.relativeTo.empty());
  EXPECT_EQ(newResult.document.model->joints.at(0).axes.at(0).expressedIn, "a");
}

TEST(SdformatPlugin, GravityOfSdformat15IsInPhysics) {
  Document document;
  const Diagnostics diagnostics = loadWithPluginOnly(
      "<sdf version='1.5'><world name='w'><physics type='ode'><gravity>0 0 -3.7</gravity>"
      "<max_step_size>0.002</max_step_size><ode><solver><iters>50</iters><type>quick</type></solver></ode>"
      "</physics></world></sdf>",
      document);
  EXPECT_FALSE(diagnostics.hasErrors()) << dump(diagnostics);
  ASSERT_EQ(document.worlds.size(), 1u);
  const World& world = document.worlds[0];
  EXPECT_TRUE(world.gravity.isApprox(Vector3(0, 0, -3.7)));
  EXPECT_DOUBLE_EQ(world.physics.maxStepSize, 0.002);
  EXPECT_EQ(world.physics.type, "ode");
  EXPECT_EQ(world.physics.values.at("ode/solver/iters"), 50);
  // A solver name is not a number: it is kept, not lost.
  ASSERT_EQ(world.kept.size(), 1u);
  EXPECT_EQ(world.kept[0].path, "world/physics/ode/solver/type");
}

TEST(SdformatPlugin, FlattenedWorldModelsAreUnflattened) {
  const LoadResult result = loadSdf(vendored("sdformat/test/sdf/flattened_test_nested_model_with_frames.sdf"), false);
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  const Model& outer = result.document.worlds.at(0).models.at(0);
  EXPECT_EQ(outer.name, "test_nested_model_with_frames");
  const Model* nested = modelNamed(outer.models, "test_model_with_frames");
  ASSERT_NE(nested, nullptr);
  EXPECT_EQ(nested->canonicalLink, "L1");
  EXPECT_EQ(nested->pose.relativeTo, "__model__");
  EXPECT_TRUE(nested->pose.pose.translation().isApprox(Vector3(0, 10, 0)));
  EXPECT_NE(linkNamed(*nested, "L1"), nullptr);
  EXPECT_EQ(linkNamed(*nested, "L1")->pose.relativeTo, "F1");
  const Joint* j1 = jointNamed(*nested, "J1");
  ASSERT_NE(j1, nullptr);
  EXPECT_EQ(j1->parent, "L1");
  EXPECT_EQ(j1->child, "L2");
  EXPECT_EQ(j1->axes.at(0).expressedIn, "F2");
  ASSERT_NE(modelNamed(nested->models, "M2"), nullptr);
  for (const Frame& frame : nested->frames) EXPECT_NE(frame.name, "__model__");
}

TEST(SdformatPlugin, WorldContents) {
  const LoadResult result = loadSdf(vendored("sdformat/test/sdf/world_complete.sdf"), false);
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  ASSERT_EQ(result.document.worlds.size(), 1u);
  const World& world = result.document.worlds[0];
  EXPECT_FALSE(world.name.empty());
  EXPECT_TRUE(world.gravity.allFinite());
  EXPECT_GT(world.where.line, 0);
}

TEST(SdformatPlugin, ShapesAndInertia) {
  const LoadResult result = loadSdf(vendored("sdformat/test/sdf/shapes.sdf"), false);
  ASSERT_TRUE(result.ok()) << dump(result.diagnostics);
  const Model& model = *result.document.model;
  std::map<GeometryType, int> seen;
  for (const Link& link : model.links) {
    for (const Shape& shape : link.collisions) ++seen[shape.geometry.type];
    for (const Shape& shape : link.visuals) ++seen[shape.geometry.type];
  }
  for (GeometryType type : {GeometryType::Box, GeometryType::Sphere, GeometryType::Cylinder, GeometryType::Plane,
                            GeometryType::Mesh, GeometryType::Capsule, GeometryType::Ellipsoid}) {
    EXPECT_GT(seen[type], 0) << geometryTypeName(type);
  }

  const LoadResult inertial = loadSdf(vendored("sdformat/test/sdf/inertial_complete.sdf"), false);
  ASSERT_TRUE(inertial.ok()) << dump(inertial.diagnostics);
  const Link& link = inertial.document.model->links.at(0);
  EXPECT_TRUE(link.hasInertial);
  EXPECT_TRUE(link.inertial.inertia.isApprox(link.inertial.inertia.transpose()));
  EXPECT_GT(link.inertial.mass, 0);
}

}  // namespace
}  // namespace interlink::test
