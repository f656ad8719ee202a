// The bridge under libsdformat 12.3 itself: sdf::Root::Load of worlds that include HRDF, SKEL,
// Shift and Juice files, compared frame by frame with Interlink's own load of the same world.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include <boost/filesystem.hpp>
#include <sdf/Console.hh>
#include <sdf/Frame.hh>
#include <sdf/InterfaceModel.hh>
#include <sdf/Joint.hh>
#include <sdf/Link.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#include <sdf/SemanticPose.hh>
#include <sdf/World.hh>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/sdformat/Bridge.hpp"

namespace interlink {
namespace {

namespace fs = boost::filesystem;

const std::string kDataDir = test::sourceDir() + "/tests/data/sdformat_bridge";
/// model:// roots of the test worlds, in the same order for libsdformat and Interlink.
// tests/shift/data: NestedAssembliesInAModelScope includes a file there by absolute path from a
// temporary directory, which the path policy allows only inside a resource path.
// tests/data holds the vendored HRDF, Shift and Juice files (hrdf/, shift/, juice/) and the bridge's own.
const std::vector<std::string> kModelRoots = {DART_DATA_DIR, test::sourceDir() + "/tests/data",
                                              test::sourceDir() + "/tests/shift/data"};

using sdformat::fromIgnition;

std::string describe(const sdf::Errors& errors) {
  std::string out;
  for (const auto& e : errors) {
    out += "[" + std::to_string(static_cast<int>(e.Code())) + "] " + e.FilePath().value_or("?") + ":" +
           std::to_string(e.LineNumber().value_or(0)) + " " + e.Message() + "\n";
  }
  return out;
}

/// The errors that concern the include: libsdformat 12.3 adds a generic "Failed to load a world."
/// after any error inside a world.
sdf::Errors withoutGeneric(const sdf::Errors& errors) {
  sdf::Errors out;
  for (const auto& e : errors) {
    if (e.Message() != "Failed to load a world.") out.push_back(e);
  }
  return out;
}

std::shared_ptr<const Loader> pluginLoader() {
  auto loader = std::make_shared<Loader>(false);
  loader->plugins().discoverDirectory(test::pluginDir());
  return loader;
}

/// A ParserConfig that finds model:// in the test roots, with the bridge registered.
struct BridgedConfig {
  sdf::ParserConfig config;
  std::vector<sdformat::RepostureEvent> events;
  std::vector<std::string> registered;

  explicit BridgedConfig(sdf::EnforcementPolicy warnings = sdf::EnforcementPolicy::WARN) {
    sdf::Console::Instance()->SetQuiet(true);
    for (const auto& root : kModelRoots) config.AddURIPath("model://", root);
    config.SetWarningsPolicy(warnings);
    sdformat::BridgeOptions options;
    options.load.resourcePaths = kModelRoots;
    options.onReposture = [this](const sdformat::RepostureEvent& event) { events.push_back(event); };
    registered = sdformat::registerCustomParsers(config, pluginLoader(), options);
  }
};

/// Every frame libsdformat knows in a world, by scoped name, in the world frame: SDFormat
/// elements through their SemanticPose, interface elements through the world frame graph
/// (SemanticPose::Resolve relative to them) and, separately, through the reposture callbacks.
struct LibsdformatWorld {
  std::map<std::string, Pose> bySemanticPose;
  std::map<std::string, Pose> byReposture;
  std::vector<std::string> resolveErrors;
};

class Collector {
 public:
  explicit Collector(LibsdformatWorld& out) : out_(out) {}

  void add(const std::string& name, const sdf::SemanticPose& semantic, const Pose& X_W_scope, const std::string& scopeFrame) {
    ignition::math::Pose3d local;
    const sdf::Errors errors = semantic.Resolve(local, scopeFrame);
    if (!errors.empty()) {
      out_.resolveErrors.push_back(name + ": " + describe(errors));
      return;
    }
    out_.bySemanticPose[name] = X_W_scope * fromIgnition(local);
  }

  /// X_WF of a frame inside an interface model: the world-level anchor frame resolved relative
  /// to it, X_FA, gives X_WF = X_WA * X_FA^-1.
  void addInterfaceFrame(const std::string& name, const sdf::Frame& anchor, const Pose& X_W_anchor) {
    ignition::math::Pose3d X_FA;
    const sdf::Errors errors = anchor.SemanticPose().Resolve(X_FA, name);
    if (!errors.empty()) {
      out_.resolveErrors.push_back(name + ": " + describe(errors));
      return;
    }
    out_.bySemanticPose[name] = X_W_anchor * fromIgnition(X_FA).inverse();
  }

  void interfaceModel(const sdf::InterfaceModel& model, const std::string& scoped, const sdf::Frame& anchor,
                      const Pose& X_W_anchor) {
    addInterfaceFrame(scoped, anchor, X_W_anchor);
    for (const auto& link : model.Links()) addInterfaceFrame(scoped + "::" + link.Name(), anchor, X_W_anchor);
    for (const auto& joint : model.Joints()) addInterfaceFrame(scoped + "::" + joint.Name(), anchor, X_W_anchor);
    for (const auto& frame : model.Frames()) addInterfaceFrame(scoped + "::" + frame.Name(), anchor, X_W_anchor);
    for (const auto& nested : model.NestedModels()) interfaceModel(*nested, scoped + "::" + nested->Name(), anchor, X_W_anchor);
  }

  void model(const sdf::Model& m, const std::string& prefix, const Pose& X_W_scope, const std::string& scopeFrame,
             const sdf::Frame& anchor, const Pose& X_W_anchor) {
    const std::string name = prefix + m.Name();
    add(name, m.SemanticPose(), X_W_scope, scopeFrame);
    const Pose X_WM = out_.bySemanticPose[name];
    for (uint64_t i = 0; i < m.LinkCount(); ++i) add(name + "::" + m.LinkByIndex(i)->Name(), m.LinkByIndex(i)->SemanticPose(), X_WM, "__model__");
    for (uint64_t i = 0; i < m.JointCount(); ++i) add(name + "::" + m.JointByIndex(i)->Name(), m.JointByIndex(i)->SemanticPose(), X_WM, "__model__");
    for (uint64_t i = 0; i < m.FrameCount(); ++i) add(name + "::" + m.FrameByIndex(i)->Name(), m.FrameByIndex(i)->SemanticPose(), X_WM, "__model__");
    for (uint64_t i = 0; i < m.ModelCount(); ++i) model(*m.ModelByIndex(i), name + "::", X_WM, "__model__", anchor, X_W_anchor);
    for (uint64_t i = 0; i < m.InterfaceModelCount(); ++i) {
      const auto im = m.InterfaceModelByIndex(i);
      interfaceModel(*im, name + "::" + im->Name(), anchor, X_W_anchor);
    }
  }

 private:
  LibsdformatWorld& out_;
};

/// Loads `path` with libsdformat and the bridge; every frame of the world, two ways.
LibsdformatWorld loadWithLibsdformat(const std::string& path, BridgedConfig& bridged, sdf::Errors& errors) {
  LibsdformatWorld out;
  sdf::Root root;
  errors = root.Load(path, bridged.config);
  if (root.WorldCount() == 0) return out;
  const sdf::World& world = *root.WorldByIndex(0);
  // The first world frame anchors the queries into interface models.
  const sdf::Frame* anchor = world.FrameByIndex(0);
  if (anchor == nullptr) return out;
  Collector collector(out);
  for (uint64_t i = 0; i < world.FrameCount(); ++i) {
    collector.add(world.FrameByIndex(i)->Name(), world.FrameByIndex(i)->SemanticPose(), Pose::Identity(), "world");
  }
  const Pose X_W_anchor = out.bySemanticPose[anchor->Name()];
  for (uint64_t i = 0; i < world.ModelCount(); ++i) {
    collector.model(*world.ModelByIndex(i), "", Pose::Identity(), "world", *anchor, X_W_anchor);
  }
  for (uint64_t i = 0; i < world.InterfaceModelCount(); ++i) {
    const auto im = world.InterfaceModelByIndex(i);
    collector.interfaceModel(*im, im->Name(), *anchor, X_W_anchor);
  }
  for (const auto& event : bridged.events) {
    out.byReposture[event.modelName] = event.modelPose;
    for (const auto& frame : event.frames) out.byReposture[event.modelName + "::" + frame.name] = frame.pose;
  }
  return out;
}

std::map<std::string, Pose> interlinkFrames(const std::string& path) {
  Loader loader(false);
  loader.plugins().discoverDirectory(test::pluginDir());
  LoadOptions options;
  options.resourcePaths = kModelRoots;
  LoadResult result = loader.loadFile(path, options);
  EXPECT_TRUE(result.ok()) << test::dump(result.diagnostics);
  std::map<std::string, Pose> frames;
  for (const auto& frame : result.graph.frames()) frames[frame.name] = frame.pose;
  return frames;
}

/// Position and rotation of two poses agree to `tolerance`.
::testing::AssertionResult samePose(const Pose& a, const Pose& b, double tolerance = 1e-9) {
  const double dp = (a.translation() - b.translation()).norm();
  const double dr = (a.linear() - b.linear()).norm();
  if (dp <= tolerance && dr <= tolerance) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "position differs by " << dp << ", rotation by " << dr << "\n  "
                                       << a.translation().transpose() << "\n  " << b.translation().transpose();
}

std::string writeFile(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::string worldIncluding(const std::string& uri, const std::string& extra = "") {
  return "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <world name=\"w\">\n    <frame name=\"anchor\"/>\n"
         "    <include>\n      <uri>" + uri + "</uri>\n" + extra + "    </include>\n  </world>\n</sdf>\n";
}

// ---------------------------------------------------------------------------------------------

TEST(SdformatBridge, RegistersEveryFormatButSdformat) {
  BridgedConfig bridged;
  const std::set<std::string> registered(bridged.registered.begin(), bridged.registered.end());
  for (const char* format : {"hrdf", "skel", "shift", "juice"}) EXPECT_EQ(registered.count(format), 1u) << format;
  EXPECT_EQ(registered.count("sdformat"), 0u);
  // One parser per format plus the last one that refuses what nobody claims.
  EXPECT_EQ(bridged.config.CustomModelParsers().size(), bridged.registered.size() + 1);
}

/// Every frame libsdformat resolves equals Interlink's, both through SemanticPose and through
/// the reposture callbacks, and libsdformat sees every frame Interlink has.
void expectSameFrames(const LibsdformatWorld& sdf, const std::map<std::string, Pose>& interlink) {
  EXPECT_TRUE(sdf.resolveErrors.empty()) << ::testing::PrintToString(sdf.resolveErrors);
  for (const auto& [name, pose] : sdf.bySemanticPose) {
    auto it = interlink.find(name);
    ASSERT_NE(it, interlink.end()) << name << " is not among Interlink's frames";
    EXPECT_TRUE(samePose(pose, it->second)) << name;
  }
  for (const auto& [name, pose] : sdf.byReposture) {
    auto it = interlink.find(name);
    ASSERT_NE(it, interlink.end()) << name << " (reposture) is not among Interlink's frames";
    EXPECT_TRUE(samePose(pose, it->second)) << name << " (reposture)";
  }
  // And libsdformat sees every frame Interlink has (the world frame aside).
  for (const auto& [name, pose] : interlink) {
    if (name == "world") continue;
    EXPECT_EQ(sdf.bySemanticPose.count(name), 1u) << name << " is missing from libsdformat's world";
  }
}

TEST(SdformatBridge, WorkCellFramesEqualInterlinkFrames) {
  const std::string world = kDataDir + "/workcell.sdf";
  BridgedConfig bridged;
  sdf::Errors errors;
  const LibsdformatWorld sdf = loadWithLibsdformat(world, bridged, errors);
  ASSERT_TRUE(errors.empty()) << describe(errors);
  ASSERT_GT(sdf.bySemanticPose.size(), 80u);
  ASSERT_GT(sdf.byReposture.size(), 70u);
  expectSameFrames(sdf, interlinkFrames(world));

  // Each included model reported once through its reposture callback, with its scoped name.
  std::set<std::string> reposted;
  for (const auto& event : bridged.events) reposted.insert(event.modelName);
  EXPECT_EQ(reposted, (std::set<std::string>{"cell::arm", "chain", "pendulum", "bug"}));

  // The placement frames sit where the include poses put them.
  const Pose table = sdf.bySemanticPose.at("table");
  EXPECT_TRUE(samePose(sdf.bySemanticPose.at("chain::link 2"),
                       table * Pose(Eigen::Translation3d(0.3, 0.1, 0.2)) *
                           Pose(Eigen::AngleAxisd(0.3, Vector3::UnitZ()) * Eigen::AngleAxisd(0.2, Vector3::UnitY()) *
                                Eigen::AngleAxisd(0.1, Vector3::UnitX()))));
  const Pose foot = table * Pose(Eigen::Translation3d(0, -0.5, 0)) * Pose(Eigen::AngleAxisd(-0.6, Vector3::UnitZ()));
  EXPECT_TRUE(samePose(sdf.bySemanticPose.at("bug::Left Foot_86218232"), foot));
  // The gripper is welded to the arm's end-effector frame, 1 cm out along its z axis.
  const Pose X_EG = sdf.bySemanticPose.at("cell::arm::end_effector_1/output").inverse() * sdf.bySemanticPose.at("cell::gripper::palm");
  EXPECT_TRUE(samePose(X_EG, Pose(Eigen::Translation3d(0, 0, 0.01)) * Pose(Eigen::AngleAxisd(M_PI / 4, Vector3::UnitZ()))));
}

TEST(SdformatBridge, NestedAssembliesInAModelScope) {
  // Three levels of Shift assemblies (nested interface models) and a world-level frame of the
  // Shift file, included inside an SDFormat model and placed by a link two levels down.
  const std::string dir = test::makeTempDir("interlink-bridge");
  const std::string path = writeFile(dir, "w.sdf",
                                     "<?xml version=\"1.0\"?>\n<sdf version=\"1.9\">\n  <world name=\"w\">\n"
                                     "    <frame name=\"anchor\"><pose>0.1 0.2 0.3 0 0 0</pose></frame>\n"
                                     "    <model name=\"site\">\n      <pose>1 1 0 0 0 0.5</pose>\n      <link name=\"ground\"/>\n"
                                     "      <include>\n        <uri>" + test::sourceDir() + "/tests/shift/data/deep_assemblies.json</uri>\n"
                                     "        <pose relative_to=\"ground\">0 0 1 0.2 0 0</pose>\n"
                                     "        <placement_frame>deep_assemblies::factory::workcell1::base</placement_frame>\n      </include>\n"
                                     "    </model>\n  </world>\n</sdf>\n");
  BridgedConfig bridged;
  sdf::Errors errors;
  const LibsdformatWorld sdf = loadWithLibsdformat(path, bridged, errors);
  ASSERT_TRUE(errors.empty()) << describe(errors);
  // The Shift world holds one assembly and a world frame, so it comes as a model named after
  // the file around the assembly.
  ASSERT_EQ(sdf.bySemanticPose.count("site::deep_assemblies::deep_assemblies::factory::workcell1::robot2::body2"), 1u);
  ASSERT_EQ(sdf.bySemanticPose.count("site::deep_assemblies::fixed:dock"), 1u);
  expectSameFrames(sdf, interlinkFrames(path));
  // The placement frame lands on the include pose: 1 m above the ground link, rolled by 0.2.
  const Pose X_W_site = Pose(Eigen::Translation3d(1, 1, 0)) * Pose(Eigen::AngleAxisd(0.5, Vector3::UnitZ()));
  EXPECT_TRUE(samePose(sdf.bySemanticPose.at("site::deep_assemblies::deep_assemblies::factory::workcell1::base"),
                       X_W_site * Pose(Eigen::Translation3d(0, 0, 1)) * Pose(Eigen::AngleAxisd(0.2, Vector3::UnitX()))));
  ASSERT_EQ(bridged.events.size(), 1u);
  EXPECT_EQ(bridged.events.front().modelName, "site::deep_assemblies");
  fs::remove_all(dir);
}

TEST(SdformatBridge, IncludeNameAndStaticAreHonoured) {
  const std::string world = kDataDir + "/workcell.sdf";
  BridgedConfig bridged;
  sdf::Root root;
  const sdf::Errors errors = root.Load(world, bridged.config);
  ASSERT_TRUE(errors.empty()) << describe(errors);
  const sdf::World* w = root.WorldByIndex(0);
  ASSERT_EQ(w->InterfaceModelCount(), 3u);
  std::map<std::string, std::shared_ptr<const sdf::InterfaceModel>> models;
  for (uint64_t i = 0; i < w->InterfaceModelCount(); ++i) models[w->InterfaceModelByIndex(i)->Name()] = w->InterfaceModelByIndex(i);
  ASSERT_EQ(models.count("chain"), 1u);
  ASSERT_EQ(models.count("bug"), 1u);
  ASSERT_EQ(models.count("pendulum"), 1u);
  EXPECT_TRUE(models["bug"]->Static());  // //include/static
  EXPECT_FALSE(models["chain"]->Static());
  EXPECT_EQ(models["chain"]->CanonicalLinkName(), "link 1");
  // The Shift file is a world whose one assembly (nothing else at the top) is its model.
  EXPECT_TRUE(models["pendulum"]->NestedModels().empty());
  EXPECT_EQ(models["pendulum"]->CanonicalLinkName(), "link1");
  ASSERT_EQ(models["pendulum"]->Links().size(), 1u);
  EXPECT_EQ(models["pendulum"]->Links().front().Name(), "link1");
  // Inside a model: the arm is an interface model of 'cell'.
  const sdf::Model* cell = w->ModelByName("cell");
  ASSERT_NE(cell, nullptr);
  ASSERT_EQ(cell->InterfaceModelCount(), 1u);
  const auto arm = cell->InterfaceModelByIndex(0);
  EXPECT_EQ(arm->Name(), "arm");
  EXPECT_EQ(arm->CanonicalLinkName(), "actuator_1");
  EXPECT_EQ(arm->Links().size(), 18u);
  EXPECT_EQ(arm->Joints().size(), 17u);
  EXPECT_EQ(cell->InterfaceModelNestedIncludeByIndex(0)->AbsoluteParentName(), "cell");
}

TEST(SdformatBridge, ModelWithoutIncludeNameKeepsItsOwnName) {
  const std::string dir = test::makeTempDir("interlink-bridge");
  const std::string path = writeFile(dir, "w.sdf", worldIncluding("model://juice/models/Bug.jm", "      <pose>1 2 3 0 0 0</pose>\n"));
  BridgedConfig bridged;
  sdf::Errors errors;
  const LibsdformatWorld sdf = loadWithLibsdformat(path, bridged, errors);
  ASSERT_TRUE(errors.empty()) << describe(errors);
  ASSERT_EQ(sdf.bySemanticPose.count("Bug"), 1u);
  EXPECT_TRUE(samePose(sdf.bySemanticPose.at("Bug"), Pose(Eigen::Translation3d(1, 2, 3))));
  const auto interlink = interlinkFrames(path);
  for (const auto& [name, pose] : sdf.bySemanticPose) {
    ASSERT_EQ(interlink.count(name), 1u) << name;
    EXPECT_TRUE(samePose(pose, interlink.at(name))) << name;
  }
  fs::remove_all(dir);
}

TEST(SdformatBridge, InvalidIncludedFileGivesInterlinkErrorsWithLocation) {
  const std::string dir = test::makeTempDir("interlink-bridge");
  // Two mistakes on lines 3 and 4: both are reported, each at its own line.
  const std::string bad = writeFile(dir, "bad.hrdf",
                                    "<?xml version=\"1.0\"?>\n<robot version=\"1.2.0\">\n"
                                    "  <actuator type=\"NoSuchActuator\"/>\n  <link type=\"X5\" extension=\"abc\" twist=\"0\"/>\n"
                                    "</robot>\n");
  const std::string path = writeFile(dir, "w.sdf", worldIncluding(bad, "      <name>broken</name>\n"));
  BridgedConfig bridged;
  sdf::Root root;
  const sdf::Errors errors = withoutGeneric(root.Load(path, bridged.config));
  ASSERT_GE(errors.size(), 2u) << describe(errors);
  std::set<int> lines;
  for (const auto& e : errors) {
    EXPECT_EQ(e.FilePath().value_or(""), bad) << describe(errors);
    EXPECT_NE(e.Message().find(bad + ":"), std::string::npos) << e.Message();  // Interlink's own diagnostic line
    EXPECT_NE(e.Message().find("error["), std::string::npos) << e.Message();
    lines.insert(e.LineNumber().value_or(0));
  }
  EXPECT_EQ(lines.count(3), 1u) << describe(errors);
  EXPECT_EQ(lines.count(4), 1u) << describe(errors);
  EXPECT_NE(describe(errors).find("NoSuchActuator"), std::string::npos) << describe(errors);
  fs::remove_all(dir);
}

TEST(SdformatBridge, MalformedXmlIsAFileReadErrorAtItsLine) {
  const std::string dir = test::makeTempDir("interlink-bridge");
  const std::string bad = writeFile(dir, "broken.jm", "<?xml version=\"1.0\"?>\n<model>\n  <body name=\"a\">\n</model>\n");
  const std::string path = writeFile(dir, "w.sdf", worldIncluding(bad));
  BridgedConfig bridged;
  sdf::Root root;
  const sdf::Errors errors = root.Load(path, bridged.config);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors.front().Code(), sdf::ErrorCode::FILE_READ) << describe(errors);
  EXPECT_EQ(errors.front().FilePath().value_or(""), bad);
  EXPECT_GT(errors.front().LineNumber().value_or(0), 1);
  EXPECT_NE(errors.front().Message().find("XML_SYNTAX"), std::string::npos) << describe(errors);
  fs::remove_all(dir);
}

TEST(SdformatBridge, UnknownExtensionIsStillRefused) {
  const std::string dir = test::makeTempDir("interlink-bridge");
  const std::string odd = writeFile(dir, "thing.xyz", "<robot name=\"r\"><link name=\"l\"/></robot>\n");
  const std::string path = writeFile(dir, "w.sdf", worldIncluding(odd, "      <name>thing</name>\n"));
  sdf::Console::Instance()->SetQuiet(true);
  // Without the bridge libsdformat refuses the file...
  sdf::Root plain;
  const sdf::Errors before = plain.Load(path);
  EXPECT_FALSE(before.empty());
  // ... and with it too (12.3 alone would drop the include silently once any parser is registered).
  BridgedConfig bridged;
  sdf::Root root;
  const sdf::Errors errors = withoutGeneric(root.Load(path, bridged.config));
  ASSERT_EQ(errors.size(), 1u) << describe(errors);
  EXPECT_EQ(errors.front().Code(), sdf::ErrorCode::URI_INVALID);
  EXPECT_EQ(errors.front().FilePath().value_or(""), path);
  EXPECT_EQ(errors.front().LineNumber().value_or(0), 5);
  EXPECT_NE(errors.front().Message().find("'.xyz'"), std::string::npos) << describe(errors);
  EXPECT_EQ(root.WorldByIndex(0)->InterfaceModelCount(), 0u);
  fs::remove_all(dir);
}

TEST(SdformatBridge, ParsersTheHostRegisteredEarlierAreStillAsked) {
  const std::string dir = test::makeTempDir("interlink-bridge");
  const std::string odd = writeFile(dir, "thing.xyz", "anything\n");
  const std::string path = writeFile(dir, "w.sdf", worldIncluding(odd));
  sdf::Console::Instance()->SetQuiet(true);
  sdf::ParserConfig config;
  int asked = 0;
  config.RegisterCustomModelParser([&asked](const sdf::NestedInclude& include, sdf::Errors&) -> sdf::InterfaceModelPtr {
    ++asked;
    if (include.ResolvedFileName().find(".xyz") == std::string::npos) return nullptr;
    auto model = std::make_shared<sdf::InterfaceModel>("host_model", nullptr, false, "body");
    model->AddLink(sdf::InterfaceLink("body", ignition::math::Pose3d(0, 0, 1, 0, 0, 0)));
    return model;
  });
  sdformat::registerCustomParsers(config, pluginLoader());
  sdf::Root root;
  const sdf::Errors errors = root.Load(path, config);
  EXPECT_TRUE(errors.empty()) << describe(errors);
  EXPECT_EQ(asked, 1);
  ASSERT_EQ(root.WorldByIndex(0)->InterfaceModelCount(), 1u);
  EXPECT_EQ(root.WorldByIndex(0)->InterfaceModelByIndex(0)->Name(), "host_model");
  fs::remove_all(dir);
}

TEST(SdformatBridge, HostLoaderAndFormatSelection) {
  auto loader = pluginLoader();
  sdf::ParserConfig config;
  for (const auto& root : kModelRoots) config.AddURIPath("model://", root);
  sdformat::BridgeOptions options;
  options.formats = {"juice"};
  options.load.resourcePaths = kModelRoots;  // the trees libsdformat finds the includes in (path policy)
  EXPECT_EQ(sdformat::registerCustomParsers(config, loader, options), std::vector<std::string>{"juice"});
  const std::string dir = test::makeTempDir("interlink-bridge");
  sdf::Console::Instance()->SetQuiet(true);
  // Juice is read; HRDF is not registered, so its include is refused with the reason.
  sdf::Root juice;
  EXPECT_TRUE(juice.Load(writeFile(dir, "j.sdf", worldIncluding("model://juice/models/Bug.jm")), config).empty());
  sdf::Root hrdf;
  const sdf::Errors errors =
      withoutGeneric(hrdf.Load(writeFile(dir, "h.sdf", worldIncluding("model://hrdf/hebi-hrdf/A-2085-06.hrdf")), config));
  ASSERT_EQ(errors.size(), 1u) << describe(errors);
  EXPECT_NE(errors.front().Message().find("'.hrdf'"), std::string::npos) << describe(errors);
  fs::remove_all(dir);
}

TEST(SdformatBridge, WarningsFollowTheWarningsPolicy) {
  // A Shift joint named like a body of its assembly (one scope in the model) is renamed, with a warning.
  const std::string dir = test::makeTempDir("interlink-bridge");
  const std::string shift = writeFile(dir, "arm.json",
                                      R"({"model_parameters": {"version": "0.2"}, "assemblies": [{"name": "arm",
  "bodies": [{"name": "link", "mass": 1.0}],
  "joints": [{"name": "link", "type": "Rx", "body_frame_pairs": [["fixed", "origin"], ["link", "origin"]]}]}]})");
  const std::string path = writeFile(dir, "w.sdf", worldIncluding(shift));
  {
    BridgedConfig warn(sdf::EnforcementPolicy::WARN);
    sdf::Root root;
    EXPECT_TRUE(root.Load(path, warn.config).empty());
  }
  BridgedConfig strict(sdf::EnforcementPolicy::ERR);
  sdf::Root root;
  const sdf::Errors errors = withoutGeneric(root.Load(path, strict.config));
  ASSERT_EQ(errors.size(), 1u) << describe(errors);
  EXPECT_EQ(errors.front().Code(), sdf::ErrorCode::DUPLICATE_NAME);
  EXPECT_NE(errors.front().Message().find("warning[DUPLICATE_NAME]"), std::string::npos) << describe(errors);
  fs::remove_all(dir);
}

TEST(SdformatBridge, ModelDirectoryWithModelConfig) {
  // A Gazebo-style model directory whose model.config names an HRDF file.
  const std::string dir = test::makeTempDir("interlink-bridge");
  fs::create_directories(dir + "/models/hebi_arm");
  writeFile(dir + "/models/hebi_arm", "model.config",
            "<?xml version=\"1.0\"?>\n<model><name>hebi_arm</name><sdf version=\"1.9\">arm.hrdf</sdf></model>\n");
  fs::copy_file(test::vendored("hrdf/hebi-hrdf/A-2085-06.hrdf"), dir + "/models/hebi_arm/arm.hrdf");
  const std::string path = writeFile(dir, "w.sdf", worldIncluding("model://hebi_arm", "      <pose>0 0 1 0 0 0</pose>\n"));
  BridgedConfig bridged;
  bridged.config.AddURIPath("model://", dir + "/models");
  sdf::Errors errors;
  const LibsdformatWorld sdf = loadWithLibsdformat(path, bridged, errors);
  ASSERT_TRUE(errors.empty()) << describe(errors);
  ASSERT_EQ(sdf.bySemanticPose.count("arm::end_effector_1"), 1u);
  EXPECT_NEAR(sdf.bySemanticPose.at("arm::actuator_1").translation().z(), 1.0, 1e-12);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace interlink
