// Frame-graph phases on documents built in code (no plugin involved).
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <algorithm>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/Kinematics.hpp"
#include "interlink/FrameGraph.hpp"
#include "interlink/PoseMath.hpp"

namespace interlink {
namespace {

Link makeLink(const std::string& name, const Pose& pose = Pose::Identity(), const std::string& relativeTo = "") {
  Link link;
  link.name = name;
  link.pose.pose = pose;
  link.pose.relativeTo = relativeTo;
  link.where = {"test.sdf", 1, 1};
  return link;
}

Frame makeFrame(const std::string& name, const std::string& attachedTo, const Pose& pose = Pose::Identity(),
                const std::string& relativeTo = "") {
  Frame frame;
  frame.name = name;
  frame.attachedTo = attachedTo;
  frame.pose.pose = pose;
  frame.pose.relativeTo = relativeTo;
  return frame;
}

Pose translation(double x, double y, double z) { return poseFromXyzRpy(x, y, z, 0, 0, 0); }

Document modelDocument(Model model) {
  Document document;
  document.formatVersion = "1.9";
  document.model = std::move(model);
  return document;
}

TEST(FrameGraph, ResolvesChainedRelativePoses) {
  Model model;
  model.name = "m";
  model.links.push_back(makeLink("a", translation(1, 0, 0)));
  model.links.push_back(makeLink("b", translation(0, 2, 0), "a"));
  model.frames.push_back(makeFrame("f", "b", translation(0, 0, 3)));
  Diagnostics diagnostics;
  FrameGraph graph = FrameGraph::build(modelDocument(model), diagnostics);
  ASSERT_FALSE(diagnostics.hasErrors()) << test::dump(diagnostics);
  auto f = graph.pose("f", "__model__");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->translation().isApprox(Vector3(1, 2, 3)));
  EXPECT_EQ(graph.frames()[*graph.find("f")].attachedLink, "b");
  EXPECT_TRUE(graph.pose("a", "b")->translation().isApprox(Vector3(0, -2, 0)));
}

TEST(FrameGraph, RotatedParentComposesRotationThenTranslation) {
  Model model;
  model.name = "m";
  model.links.push_back(makeLink("a", poseFromXyzRpy(0, 0, 0, 0, 0, M_PI / 2)));
  model.links.push_back(makeLink("b", translation(1, 0, 0), "a"));
  Diagnostics diagnostics;
  FrameGraph graph = FrameGraph::build(modelDocument(model), diagnostics);
  ASSERT_FALSE(diagnostics.hasErrors()) << test::dump(diagnostics);
  EXPECT_TRUE(graph.pose("b", "__model__")->translation().isApprox(Vector3(0, 1, 0)));
}

TEST(FrameGraph, CycleErrorNamesEveryFrameOnTheCycle) {
  Model model;
  model.name = "m";
  model.links.push_back(makeLink("base"));
  model.frames.push_back(makeFrame("f1", "", Pose::Identity(), "f3"));
  model.frames.push_back(makeFrame("f2", "", Pose::Identity(), "f1"));
  model.frames.push_back(makeFrame("f3", "", Pose::Identity(), "f2"));
  Diagnostics diagnostics;
  FrameGraph::build(modelDocument(model), diagnostics);
  ASSERT_TRUE(diagnostics.contains(ErrorCode::POSE_RELATIVE_TO_CYCLE)) << test::dump(diagnostics);
  for (const auto& d : diagnostics) {
    if (d.code != ErrorCode::POSE_RELATIVE_TO_CYCLE) continue;
    EXPECT_NE(d.message.find("f1"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("f2"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("f3"), std::string::npos) << d.message;
  }
}

TEST(FrameGraph, AttachedToCycleIsReported) {
  Model model;
  model.name = "m";
  model.links.push_back(makeLink("base"));
  model.frames.push_back(makeFrame("f1", "f2"));
  model.frames.push_back(makeFrame("f2", "f1"));
  Diagnostics diagnostics;
  FrameGraph::build(modelDocument(model), diagnostics);
  EXPECT_TRUE(diagnostics.contains(ErrorCode::FRAME_ATTACHED_TO_CYCLE)) << test::dump(diagnostics);
}

TEST(FrameGraph, NameRulesReportEveryViolation) {
  Model model;
  model.name = "m";
  model.links.push_back(makeLink("base"));
  model.links.push_back(makeLink("base"));          // duplicate
  model.links.push_back(makeLink("__reserved__"));  // reserved
  model.links.push_back(makeLink("a::b"));          // scope delimiter
  model.frames.push_back(makeFrame("world", ""));   // reserved
  Diagnostics diagnostics;
  FrameGraph::build(modelDocument(model), diagnostics);
  int duplicates = 0, reserved = 0;
  for (const auto& d : diagnostics) {
    duplicates += d.code == ErrorCode::DUPLICATE_NAME;
    reserved += d.code == ErrorCode::RESERVED_NAME;
  }
  EXPECT_EQ(duplicates, 1) << test::dump(diagnostics);
  EXPECT_EQ(reserved, 3) << test::dump(diagnostics);  // __reserved__, a::b, world
}

TEST(FrameGraph, ReferencesGoDownIntoNestedModelsButNotUp) {
  Model inner;
  inner.name = "inner";
  inner.pose.pose = translation(0, 0, 1);
  inner.links.push_back(makeLink("l", translation(1, 0, 0)));
  inner.frames.push_back(makeFrame("up", "", Pose::Identity(), "top_link"));  // not visible inside
  Model model;
  model.name = "m";
  model.links.push_back(makeLink("top_link"));
  model.frames.push_back(makeFrame("down", "inner::l", translation(0, 1, 0)));
  model.models.push_back(inner);
  Diagnostics diagnostics;
  FrameGraph graph = FrameGraph::build(modelDocument(model), diagnostics);
  EXPECT_TRUE(diagnostics.contains(ErrorCode::POSE_RELATIVE_TO_INVALID)) << test::dump(diagnostics);
  ASSERT_TRUE(graph.find("down"));
  EXPECT_TRUE(graph.pose("down", "__model__")->translation().isApprox(Vector3(1, 1, 1)));
  EXPECT_EQ(graph.frames()[*graph.find("down")].attachedLink, "inner::l");
  EXPECT_TRUE(graph.pose("inner", "__model__")->translation().isApprox(Vector3(0, 0, 1)));
}

TEST(FrameGraph, CanonicalLinkAndModelWithoutLink) {
  Model model;
  model.name = "m";
  model.canonicalLink = "missing";
  model.links.push_back(makeLink("a"));
  Diagnostics diagnostics;
  FrameGraph::build(modelDocument(model), diagnostics);
  EXPECT_TRUE(diagnostics.contains(ErrorCode::MODEL_CANONICAL_LINK_INVALID)) << test::dump(diagnostics);

  Model empty;
  empty.name = "e";
  empty.frames.push_back(makeFrame("f", ""));
  Diagnostics second;
  FrameGraph::build(modelDocument(empty), second);
  EXPECT_TRUE(second.contains(ErrorCode::MODEL_WITHOUT_LINK)) << test::dump(second);

  empty.isStatic = true;  // a static model may have no link
  Diagnostics third;
  FrameGraph::build(modelDocument(empty), third);
  EXPECT_FALSE(third.hasErrors()) << test::dump(third);
}

TEST(FrameGraph, PlacementFramePlacesTheNamedFrame) {
  Model inner;
  inner.name = "inner";
  inner.links.push_back(makeLink("l", translation(0, 0, 1)));
  inner.placementFrame = "l";
  inner.pose.pose = translation(5, 0, 0);  // puts l at (5,0,0), so the model frame at (5,0,-1)
  World world;
  world.name = "w";
  world.models.push_back(inner);
  Document document;
  document.formatVersion = "1.9";
  document.worlds.push_back(world);
  Diagnostics diagnostics;
  FrameGraph graph = FrameGraph::build(document, diagnostics);
  ASSERT_FALSE(diagnostics.hasErrors()) << test::dump(diagnostics);
  EXPECT_TRUE(graph.pose("inner", "world")->translation().isApprox(Vector3(5, 0, -1)));
  EXPECT_TRUE(graph.pose("inner::l", "world")->translation().isApprox(Vector3(5, 0, 0)));
}

TEST(FrameGraph, WorldFramesAttachToModelsAndTheWorld) {
  Model robot;
  robot.name = "robot";
  robot.pose.pose = translation(1, 0, 0);
  robot.links.push_back(makeLink("base"));
  World world;
  world.name = "w";
  world.models.push_back(robot);
  world.frames.push_back(makeFrame("on_robot", "robot", translation(0, 1, 0)));
  world.frames.push_back(makeFrame("fixed", "", translation(0, 0, 2)));
  world.frames.push_back(makeFrame("bad", "nobody"));
  Document document;
  document.worlds.push_back(world);
  Diagnostics diagnostics;
  FrameGraph graph = FrameGraph::build(document, diagnostics);
  EXPECT_TRUE(diagnostics.contains(ErrorCode::FRAME_ATTACHED_TO_INVALID)) << test::dump(diagnostics);
  EXPECT_TRUE(graph.pose("on_robot", "world")->translation().isApprox(Vector3(1, 1, 0)));
  EXPECT_EQ(graph.frames()[*graph.find("on_robot")].attachedLink, "robot::base");
  EXPECT_TRUE(graph.frames()[*graph.find("fixed")].attachedLink.empty());
}

/// A chain of n links, each posed relative to the previous one, with a joint between each pair.
Document chainDocument(int n) {
  Model model;
  model.name = "chain";
  model.links.push_back(makeLink("l0"));
  for (int i = 1; i < n; ++i) {
    model.links.push_back(makeLink("l" + std::to_string(i), translation(0.5, 0, 0), "l" + std::to_string(i - 1)));
    Joint joint;
    joint.name = "j" + std::to_string(i);
    joint.type = JointType::Revolute;
    joint.parent = "l" + std::to_string(i - 1);
    joint.child = "l" + std::to_string(i);
    model.joints.push_back(joint);
  }
  return modelDocument(model);
}

/// User CPU seconds of this thread (page faults are kernel time and do not count: they are linear
/// in the memory touched, and the allocator decides how often they recur).
double userSeconds() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return double(usage.ru_utime.tv_sec) + 1e-6 * double(usage.ru_utime.tv_usec);
}

/// User time of building the frame graph and kinematic tree of each document in `documents`, best
/// of three (a busy machine only ever adds time).
double buildSeconds(const std::vector<Document>& documents) {
  double best = 1e9;
  for (int run = 0; run < 3; ++run) {
    const double start = userSeconds();
    for (const Document& document : documents) {
      Diagnostics diagnostics;
      FrameGraph graph = FrameGraph::build(document, diagnostics);
      Kinematics kinematics = Kinematics::build(document, graph, diagnostics);
      EXPECT_FALSE(diagnostics.hasErrors());
      EXPECT_EQ(kinematics.dofs().size() * 2 + 2, graph.frames().size());  // model frame, n links, n - 1 joints
    }
    best = std::min(best, userSeconds() - start);
  }
  return best;
}

TEST(FrameGraph, ResolutionIsLinearOnALongChain) {
  // Exact on a long chain: each pose is relative to the previous link.
  Diagnostics diagnostics;
  const Document longChain = chainDocument(20000);
  FrameGraph graph = FrameGraph::build(longChain, diagnostics);
  ASSERT_FALSE(diagnostics.hasErrors());
  EXPECT_NEAR(graph.pose("l19999", "__model__")->translation().x(), 0.5 * 19999, 1e-6);
  // Not a speed target: one chain of 8N links must cost about what 8 chains of N links cost
  // (ratio 1), not 8 times as much (quadratic). Sizes stay small enough for the caches (a long
  // chain's tables outgrow them, which costs per element but is not quadratic); each side is
  // built 4 times so that the coarse user-time clock has something to measure.
  const int n = 1000;
  const double small = buildSeconds(std::vector<Document>(8 * 4, chainDocument(n)));
  const double large = buildSeconds(std::vector<Document>(4, chainDocument(8 * n)));
  EXPECT_LT(large / std::max(small, 1e-3), 4.0) << "32 chains of " << n << ": " << small << " s, 4 chains of " << 8 * n
                                                 << ": " << large << " s (user time)";
}

}  // namespace
}  // namespace interlink
