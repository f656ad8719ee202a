// libsdformat's Interface API scenarios (test/integration/interface_api.cc upstream), reproduced
// over the same corpus files with the sample TOML plugin and with host CustomModelParsers.
#include <gtest/gtest.h>

#include <map>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/PoseMath.hpp"

namespace interlink {
namespace {

const std::string kModelDir = test::vendored("sdformat/test/integration/model");
const std::string kSdfDir = test::vendored("sdformat/test/sdf");

Pose P(double x, double y, double z, double r, double p, double yaw) { return poseFromXyzRpy(x, y, z, r, p, yaw); }

::testing::AssertionResult samePose(const Pose& expected, const Pose& actual, double tolerance = 1e-9) {
  if (expected.isApprox(actual, tolerance) || (expected.matrix() - actual.matrix()).cwiseAbs().maxCoeff() < tolerance)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << formatXyzRpy(expected) << "\n  actual " << formatXyzRpy(actual);
}

class InterfaceApi : public ::testing::Test {
 protected:
  InterfaceApi() : loader(true) {
    loader.plugins().addDirectory(TOML_PLUGIN_DIR);
    loader.plugins().discover();
    options.findFile = [](const std::string& uri) { return kModelDir + "/" + uri; };
  }
  Loader loader;
  LoadOptions options;
};

TEST_F(InterfaceApi, NestedIncludeCarriesEveryField) {
  const std::string sdf = R"(<sdf version="1.8">
  <world name="default">
    <frame name="F1"/>
    <include>
      <uri>test_file.yaml</uri>
      <name>box</name>
      <pose relative_to="F1">1 0 0 0 0 0</pose>
      <extra>
        <info1>value1</info1>
        <info2>value2</info2>
      </extra>
      <static>1</static>
      <placement_frame>corner</placement_frame>
    </include>
    <model name="holder">
      <link name="l"/>
      <include>
        <uri>test_file.toml</uri>
      </include>
    </model>
  </world>
</sdf>)";
  int yamlCalls = 0, tomlCalls = 0;
  loader.registerCustomModelParser([&](const NestedInclude& include, Diagnostics& errors) -> InterfaceModelPtr {
    if (include.Uri().find(".yaml") == std::string::npos) return nullptr;
    ++yamlCalls;
    EXPECT_EQ(include.Uri(), "test_file.yaml");
    EXPECT_EQ(include.ResolvedFileName(), kModelDir + "/test_file.yaml");
    EXPECT_EQ(include.AbsoluteParentName(), "");
    EXPECT_EQ(include.LocalModelName().value_or(""), "box");
    EXPECT_TRUE(include.IsStatic().value_or(false));
    EXPECT_TRUE(include.IncludeRawPose().has_value());
    EXPECT_TRUE(samePose(P(1, 0, 0, 0, 0, 0), include.IncludeRawPose().value_or(Pose::Identity())));
    EXPECT_EQ(include.IncludePoseRelativeTo().value_or(""), "F1");
    EXPECT_EQ(include.PlacementFrame().value_or(""), "corner");
    const xml::XmlElement* element = include.IncludeElement();
    EXPECT_NE(element, nullptr);
    if (element) {
      const xml::XmlElement* extra = element->child("extra");
      EXPECT_NE(extra, nullptr);
      if (extra) {
        EXPECT_EQ(extra->child("info1")->trimmedText(), "value1");
        EXPECT_EQ(extra->child("info2")->trimmedText(), "value2");
      }
    }
    errors.error(ErrorCode::URI_INVALID, "Test YAML error message");
    return nullptr;
  });
  loader.registerCustomModelParser([&](const NestedInclude& include, Diagnostics& errors) -> InterfaceModelPtr {
    if (include.Uri().find(".toml") == std::string::npos) return nullptr;
    ++tomlCalls;
    EXPECT_EQ(include.ResolvedFileName(), kModelDir + "/test_file.toml");
    EXPECT_EQ(include.AbsoluteParentName(), "holder");
    EXPECT_FALSE(include.LocalModelName().has_value());
    EXPECT_FALSE(include.IsStatic().has_value());
    EXPECT_FALSE(include.IncludeRawPose().has_value());
    EXPECT_FALSE(include.PlacementFrame().has_value());
    errors.error(ErrorCode::URI_INVALID, "Test TOML error message");
    return nullptr;
  });
  auto result = loader.loadString(sdf, kSdfDir + "/nested_include_data.sdf", options);
  EXPECT_EQ(yamlCalls, 1);
  EXPECT_EQ(tomlCalls, 1);
  std::vector<std::string> messages;
  for (const auto& d : result.diagnostics) {
    if (d.code == ErrorCode::URI_INVALID) messages.push_back(d.message);
  }
  ASSERT_EQ(messages.size(), 2u) << test::dump(result.diagnostics);
  EXPECT_EQ(messages[0], "Test YAML error message");
  EXPECT_EQ(messages[1], "Test TOML error message");
  // A parser's error keeps the model out and locates itself at the <include>.
  EXPECT_FALSE(result.graph.find("box"));
  EXPECT_GT(result.diagnostics.items().front().where.line, 0);
}

TEST_F(InterfaceApi, CustomParsersAreAskedNewestFirstAndAnUnclaimedIncludeIsAnError) {
  std::vector<int> called;
  for (int id = 0; id < 3; ++id) {
    loader.registerCustomModelParser([&called, id](const NestedInclude&, Diagnostics&) -> InterfaceModelPtr {
      called.push_back(id);
      return nullptr;
    });
  }
  auto result = loader.loadString(R"(<sdf version="1.8"><world name="default">
      <include><uri>test_file.yaml</uri><name>box</name></include></world></sdf>)",
                                  kSdfDir + "/precedence.sdf", options);
  EXPECT_EQ(called, (std::vector<int>{2, 1, 0}));
  // libsdformat 12 drops such an include silently; Interlink reports it.
  ASSERT_TRUE(result.diagnostics.contains(ErrorCode::NO_PARSER)) << test::dump(result.diagnostics);
  EXPECT_NE(test::dump(result.diagnostics).find("no parser for '.yaml'; loaded plugins:"), std::string::npos);
}

TEST_F(InterfaceApi, FirstParserToAnswerWins) {
  std::vector<int> called;
  loader.registerCustomModelParser([&](const NestedInclude& include, Diagnostics&) -> InterfaceModelPtr {
    called.push_back(0);
    auto model = std::make_shared<InterfaceModel>(include.LocalModelName().value_or("m"), nullptr, false, "l");
    model->AddLink({"l", Pose::Identity()});
    return model;
  });
  loader.registerCustomModelParser([&](const NestedInclude&, Diagnostics&) -> InterfaceModelPtr {
    called.push_back(1);
    auto model = std::make_shared<InterfaceModel>("newest", nullptr, false, "base");
    model->AddLink({"base", P(0, 0, 1, 0, 0, 0)});
    return model;
  });
  auto result = loader.loadString(R"(<sdf version="1.8"><world name="w">
      <include><uri>thing.yaml</uri><pose>1 0 0 0 0 0</pose></include></world></sdf>)",
                                  kSdfDir + "/first.sdf", options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_EQ(called, (std::vector<int>{1}));
  ASSERT_TRUE(result.graph.find("newest::base"));
  EXPECT_TRUE(samePose(P(1, 0, 1, 0, 0, 0), *result.graph.pose("newest::base", "world")));
}

/// The double pendulum as upstream's TomlParserTest expects it, read through the sample plugin.
void expectDoublePendulum(const LoadResult& result, const std::string& prefix, const std::string& root) {
  const auto pose = [&](const std::string& name, const std::string& relativeTo) {
    auto p = result.graph.pose(prefix + name, relativeTo.empty() ? root : prefix + relativeTo);
    EXPECT_TRUE(p) << "no frame " << prefix + name;
    return p.value_or(Pose::Identity());
  };
  EXPECT_TRUE(samePose(P(1, 0, 0, 0, 0, 0), pose("double_pendulum", "")));
  EXPECT_TRUE(samePose(P(1, 0, 0.5, 0, 0, 0), pose("double_pendulum::base", "double_pendulum")));
  EXPECT_TRUE(samePose(P(0, 0, 2.1, -1.5708, 0, 0), pose("double_pendulum::upper_link", "double_pendulum")));
  EXPECT_TRUE(samePose(P(0.25, 1.0, 2.1, -2, 0, 0), pose("double_pendulum::lower_link", "double_pendulum")));
  EXPECT_TRUE(samePose(P(0, 1, 0, 0, 0, 0), pose("double_pendulum::frame_1", "double_pendulum")));
  EXPECT_TRUE(samePose(P(0, 0, 1, 0, 0, 0), pose("double_pendulum::frame_2", "double_pendulum::lower_link")));
  EXPECT_TRUE(samePose(P(0.001, 0, 0, 0, 0, 0), pose("double_pendulum::upper_joint", "double_pendulum::upper_link")));
  EXPECT_TRUE(samePose(P(0, 0.001, 0, 0, 0, 0), pose("double_pendulum::lower_joint", "double_pendulum::lower_link")));
  EXPECT_TRUE(samePose(P(2, 0, 0, 0, 0, 0), pose("double_pendulum::child_model", "double_pendulum")));
  EXPECT_TRUE(samePose(P(3, 0, 0, 0, 0, 0), pose("double_pendulum::child_dp", "double_pendulum")));
  // The full model stays reachable, not only its interface: joints with parents, DOFs, inertia.
  std::size_t dofs = 0;
  for (const auto& dof : result.kinematics.dofs()) dofs += dof.name.find("double_pendulum::") != std::string::npos;
  EXPECT_EQ(dofs, 4u);  // upper/lower joints of the pendulum and of child_dp
}

TEST_F(InterfaceApi, WorldIncludeThroughTheSamplePlugin) {
  auto result = loader.loadFile(kSdfDir + "/world_include_with_interface_api.sdf", options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_TRUE(result.document.isWorld());
  const Model& included = result.document.worlds.front().models.at(0);
  EXPECT_EQ(included.name, "double_pendulum");
  EXPECT_EQ(included.source.format, "toml_sample");
  // The sample plugin declares its rules as the built-in ones do (FormatRules), and they are its own.
  EXPECT_FALSE(included.source.rules.jointsShareLinkNamespace);
  EXPECT_TRUE(included.source.rules.inertia.checked);
  EXPECT_STREQ(included.source.rules.inertia.verdict, "the TOML sample loads it");
  EXPECT_EQ(included.source.rules.versionMajor, 1u);
  EXPECT_EQ(included.canonicalLink, "base");
  EXPECT_EQ(included.links.size(), 3u);
  EXPECT_EQ(included.joints.size(), 2u);
  EXPECT_EQ(included.frames.size(), 2u);
  EXPECT_EQ(included.models.size(), 2u);
  expectDoublePendulum(result, "", "world");
}

TEST_F(InterfaceApi, ModelIncludeThroughTheSamplePlugin) {
  auto result = loader.loadFile(kSdfDir + "/model_include_with_interface_api.sdf", options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_TRUE(result.document.model);
  EXPECT_EQ(result.document.model->name, "parent_model");
  expectDoublePendulum(result, "", "__model__");
}

TEST_F(InterfaceApi, FrameSemanticsOfF1ToF9) {
  auto result = loader.loadFile(kSdfDir + "/include_with_interface_api_frame_semantics.sdf", options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const auto& g = result.graph;
  EXPECT_TRUE(samePose(P(-1, 0, 0, 0, 0, 0), *g.pose("F0", "double_pendulum")));
  const Pose dp = P(1, 2, 0, 0, 0, 0);
  const Pose upperLink = P(0, 0, 2.1, -1.5708, 0, 0);
  const Pose lowerLink = P(0.25, 1.0, 2.1, -2, 0, 0);
  struct Expectation {
    std::string frame;
    Pose pose;
    std::string link;
  };
  const std::vector<Expectation> expected = {
      {"F1", dp, "double_pendulum::base"},
      {"F2", dp * upperLink, "double_pendulum::upper_link"},
      {"F3", dp * upperLink * P(0.001, 0, 0, 0, 0, 0), "double_pendulum::upper_link"},
      {"F4", dp * P(0, 1, 0, 0, 0, 0), "double_pendulum::base"},
      {"F5", dp * P(2, 0, 0, 0, 0, 0), "double_pendulum::child_model::base_link"},
      {"F6", dp * P(2, 0, 0, 0, 0, 0) * P(1, 0, 0, 0, 0, 0), "double_pendulum::child_model::base_link"},
      {"F7", dp * P(3, 0, 0, 0, 0, 0), "double_pendulum::child_dp::model_1::lower_link"},
      {"F8", dp * P(3, 0, 0, 0, 0, 0) * lowerLink, "double_pendulum::child_dp::model_1::lower_link"},
      {"F9", dp * P(3, 0, 0, 0, 0, 0) * lowerLink * P(0, 0.001, 0, 0, 0, 0), "double_pendulum::child_dp::model_1::lower_link"},
  };
  for (const auto& e : expected) {
    SCOPED_TRACE(e.frame);
    EXPECT_TRUE(samePose(e.pose, *g.pose(e.frame, "world")));
    EXPECT_TRUE(samePose(e.pose, *g.pose(e.frame + "_attach", "world")));
    EXPECT_EQ(g.frames()[*g.find(e.frame + "_attach")].attachedLink, e.link);
  }
}

/// A host parser like upstream's reposture test parser: one link, a reposture callback.
CustomModelParser repostureParser(std::map<std::string, Pose>& seen, bool withFrame) {
  return [&seen, withFrame](const NestedInclude& include, Diagnostics&) -> InterfaceModelPtr {
    const std::string name = include.AbsoluteParentName().empty()
                                 ? include.LocalModelName().value_or("")
                                 : include.AbsoluteParentName() + "::" + include.LocalModelName().value_or("");
    auto reposture = [name, &seen](const InterfaceModelPoseGraph& graph) {
      Pose pose;
      Diagnostics errors = graph.ResolveNestedModelFramePoseInWorldFrame(pose);
      EXPECT_TRUE(errors.empty()) << test::dump(errors);
      seen[name] = pose;
    };
    auto model = std::make_shared<InterfaceModel>(include.LocalModelName().value_or("m"), reposture, false, "base_link",
                                                  include.IncludeRawPose().value_or(Pose::Identity()));
    model->AddLink({"base_link", withFrame ? P(0, 1, 0, 0, 0, 0) : Pose::Identity()});
    if (withFrame) model->AddFrame({"frame_1", "__model__", P(0, 0, 1, 0, 0, 0)});
    return model;
  };
}

TEST_F(InterfaceApi, RepostureCallbacksSeeResolvedPosesParentFirst) {
  std::map<std::string, Pose> seen;
  loader.registerCustomModelParser(repostureParser(seen, false));
  options.findFile = [](const std::string& uri) { return uri; };
  auto result = loader.loadFile(kSdfDir + "/include_with_interface_api_reposture.sdf", options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(samePose(P(1, 2, 0, 0, 0, 0), seen["M0"]));
  EXPECT_TRUE(samePose(P(1, 2, 3, 0.1, 0, 0), seen["parent_model::M1"]));
}

// Reposture callbacks run parent scope first: an interface model's callback before those of the
// interface models nested in it, each seeing its own resolved pose.
TEST_F(InterfaceApi, RepostureRunsParentBeforeNestedChild) {
  std::vector<std::pair<std::string, Pose>> calls;
  loader.registerCustomModelParser([&calls](const NestedInclude& include, Diagnostics&) -> InterfaceModelPtr {
    auto record = [&calls](const std::string& name) {
      return [&calls, name](const InterfaceModelPoseGraph& graph) {
        Pose pose;
        Diagnostics errors = graph.ResolveNestedModelFramePoseInWorldFrame(pose);
        EXPECT_TRUE(errors.empty()) << test::dump(errors);
        calls.emplace_back(name, pose);
      };
    };
    auto outer = std::make_shared<InterfaceModel>(include.LocalModelName().value_or("outer"), record("outer"), false,
                                                  "base", include.IncludeRawPose().value_or(Pose::Identity()));
    outer->AddLink({"base", Pose::Identity()});
    auto inner = std::make_shared<InterfaceModel>("inner", record("inner"), false, "tip", P(0, 0, 2, 0, 0, 0));
    inner->AddLink({"tip", Pose::Identity()});
    outer->AddNestedModel(inner);
    return outer;
  });
  options.findFile = [](const std::string& uri) { return uri; };
  auto result = loader.loadString(R"(<sdf version="1.9"><world name="w"><include><uri>robot.test</uri>
      <name>outer</name><pose>1 0 0 0 0 0</pose></include></world></sdf>)",
                                  kSdfDir + "/reposture_order.sdf", options);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].first, "outer");  // the parent first
  EXPECT_EQ(calls[1].first, "inner");
  EXPECT_TRUE(samePose(P(1, 0, 0, 0, 0, 0), calls[0].second));
  EXPECT_TRUE(samePose(P(1, 0, 2, 0, 0, 0), calls[1].second));
}

TEST_F(InterfaceApi, PlacementFrameOfAnInterfaceModel) {
  std::map<std::string, Pose> seen;
  loader.registerCustomModelParser(repostureParser(seen, true));
  options.findFile = [](const std::string& uri) { return uri; };
  const std::string include = R"(<include><uri>non_existent_file.test</uri><name>test_model</name>
      <pose>1 0 0 0 0 0</pose><placement_frame>frame_1</placement_frame></include><frame name="test_frame"/>)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"world", "<sdf version=\"1.8\"><world name=\"default\">" + include + "</world></sdf>"},
      {"model", "<sdf version=\"1.8\"><model name=\"parent_model\">" + include + "</model></sdf>"},
      {"world model", "<sdf version=\"1.8\"><world name=\"default\"><model name=\"parent_model\">" + include +
                          "</model></world></sdf>"},
  };
  for (const auto& [label, sdf] : cases) {
    SCOPED_TRACE(label);
    auto result = loader.loadString(sdf, kSdfDir + "/placement.sdf", options);
    ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
    const std::string prefix = label == "world model" ? "parent_model::" : "";
    auto modelInFrame = result.graph.pose(prefix + "test_frame", prefix + "test_model");
    ASSERT_TRUE(modelInFrame);
    EXPECT_TRUE(samePose(P(1, 0, -1, 0, 0, 0), modelInFrame->inverse()));
    auto placed = result.graph.pose(prefix + "test_frame", prefix + "test_model::frame_1");
    ASSERT_TRUE(placed);
    EXPECT_TRUE(samePose(P(1, 0, 0, 0, 0, 0), placed->inverse()));
  }
}

TEST_F(InterfaceApi, PlacementFrameRequiresAPose) {
  std::map<std::string, Pose> seen;
  loader.registerCustomModelParser(repostureParser(seen, true));
  options.findFile = [](const std::string& uri) { return uri; };
  auto result = loader.loadString(R"(<sdf version="1.8"><world name="w"><include><uri>x.test</uri>
      <name>m</name><placement_frame>frame_1</placement_frame></include></world></sdf>)",
                                  kSdfDir + "/placement_without_pose.sdf", options);
  EXPECT_TRUE(result.diagnostics.contains(ErrorCode::MODEL_PLACEMENT_FRAME_INVALID)) << test::dump(result.diagnostics);
}

TEST_F(InterfaceApi, NameCollisionIsADuplicateName) {
  for (const std::string& root : {std::string("world name=\"default\""), std::string("model name=\"parent_model\"")}) {
    const std::string tag = root.substr(0, root.find(' '));
    auto result = loader.loadString("<sdf version=\"1.8\"><" + root +
                                        "><include><uri>double_pendulum.toml</uri><name>test_name</name></include>"
                                        "<model name=\"test_name\"><static>true</static></model></" + tag + "></sdf>",
                                    kSdfDir + "/collision.sdf", options);
    EXPECT_TRUE(result.diagnostics.contains(ErrorCode::DUPLICATE_NAME)) << tag << "\n" << test::dump(result.diagnostics);
  }
}

TEST_F(InterfaceApi, InterfaceNamesMayNotBeReservedOrScoped) {
  loader.registerCustomModelParser([](const NestedInclude&, Diagnostics&) -> InterfaceModelPtr {
    auto model = std::make_shared<InterfaceModel>("m", nullptr, false, "base");
    model->AddLink({"base", Pose::Identity()});
    model->AddLink({"a::b", Pose::Identity()});
    model->AddFrame({"__hidden__", "__model__", Pose::Identity()});
    return model;
  });
  options.findFile = [](const std::string& uri) { return uri; };
  auto result = loader.loadString(R"(<sdf version="1.8"><world name="w"><include><uri>x.custom</uri></include></world></sdf>)",
                                  kSdfDir + "/reserved.sdf", options);
  int reserved = 0;
  for (const auto& d : result.diagnostics) reserved += d.code == ErrorCode::RESERVED_NAME;
  EXPECT_EQ(reserved, 2) << test::dump(result.diagnostics);
}

TEST_F(InterfaceApi, ParserThatThrowsOrReportsErrorsIsContained) {
  loader.registerCustomModelParser([](const NestedInclude& include, Diagnostics&) -> InterfaceModelPtr {
    if (include.Uri() == "throws.custom") throw std::runtime_error("host parser failure");
    return nullptr;
  });
  loader.registerCustomModelParser([](const NestedInclude& include, Diagnostics& errors) -> InterfaceModelPtr {
    if (include.Uri() != "errs.custom") return nullptr;
    errors.error(ErrorCode::ELEMENT_INVALID, "bad content");
    auto model = std::make_shared<InterfaceModel>("ignored", nullptr, false, "base");
    model->AddLink({"base", Pose::Identity()});
    return model;  // returned with an error: must be discarded
  });
  options.findFile = [](const std::string& uri) { return uri; };
  auto result = loader.loadString(R"(<sdf version="1.8"><world name="w">
      <include><uri>throws.custom</uri></include><include><uri>errs.custom</uri></include></world></sdf>)",
                                  kSdfDir + "/contained.sdf", options);
  EXPECT_TRUE(result.diagnostics.contains(ErrorCode::PLUGIN_EXCEPTION)) << test::dump(result.diagnostics);
  EXPECT_TRUE(result.diagnostics.contains(ErrorCode::ELEMENT_INVALID)) << test::dump(result.diagnostics);
  EXPECT_FALSE(result.graph.find("ignored"));
}

TEST_F(InterfaceApi, CliChecksAWorldIncludingATomlModel) {
  auto run = test::run("INTERLINK_PLUGIN_PATH=" + std::string(TOML_PLUGIN_DIR) + " INTERLINK_RESOURCE_PATH=" + kModelDir +
                       " " + test::cliPath() + " frames " + kSdfDir + "/include_with_interface_api_frame_semantics.sdf --json");
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("\"name\":\"double_pendulum::child_dp::model_1::lower_link\""), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("\"double_pendulum::upper_joint\""), std::string::npos) << run.output;
}

TEST_F(InterfaceApi, TopLevelTomlFileGoesStraightToItsPlugin) {
  auto result = loader.loadFile(kModelDir + "/double_pendulum.toml");
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  EXPECT_EQ(result.document.format, "toml_sample");
  EXPECT_EQ(result.kinematics.dofs().size(), 4u);
}

}  // namespace
}  // namespace interlink
