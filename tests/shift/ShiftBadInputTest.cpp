// The Shift plugin on bad input (each error's code and position), frame paths, and the sniffer.
#include "ShiftTestSupport.hpp"

namespace {

using namespace shift_test;

// ---------------------------------------------------------------------------------------------
// Bad input: code and position.

void expectError(const LoadResult& result, ErrorCode code, int line, int column, const std::string& fragment) {
  EXPECT_FALSE(result.ok());
  bool found = false;
  for (const auto& d : result.diagnostics) {
    if (d.code != code || !d.isError()) continue;
    if (d.where.line != line || d.where.column != column) continue;
    found = true;
    EXPECT_NE(d.message.find(fragment), std::string::npos) << d.format();
    EXPECT_NE(d.where.file.str().find(".json"), std::string::npos);
  }
  EXPECT_TRUE(found) << "expected " << interlink::codeName(code) << " at " << line << ":" << column << "\n"
                     << interlink::test::dump(result.diagnostics);
}

TEST(ShiftBadInput, DuplicateBodyNamesInOneAssembly) {
  expectError(load(testData("duplicate_body.json")), ErrorCode::DUPLICATE_NAME, 8, 18, "body 'link' is defined twice");
}

TEST(ShiftBadInput, DuplicateJointNamesInOneAssembly) {
  // Joint names are unique (the document): renaming the second "hinge" left the restraint on
  // "hinge" to hit either joint.
  const LoadResult result = load(testData("duplicate_joint.json"));
  expectError(result, ErrorCode::DUPLICATE_NAME, 9, 18, "joint 'hinge' is defined twice in assembly 'arm' (first at line 8)");
  std::size_t duplicates = 0;
  for (const auto& d : result.diagnostics) duplicates += d.code == ErrorCode::DUPLICATE_NAME ? 1 : 0;
  EXPECT_EQ(duplicates, 1u) << interlink::test::dump(result.diagnostics);
}

TEST(ShiftPaths, APathEndingInAFrameNamesThatFrame) {
  // "factory:workcell1:robot2:body1:frame1" names frame1 on body1 (the document's example): as a
  // pair's body entry (then with "origin"), as a whole endpoint, in 2.0's list form and for a light.
  const LoadResult result = load(testData("frame_paths.json"));
  ASSERT_TRUE(result.ok()) << interlink::test::dump(result.diagnostics);
  const auto& world = result.document.worlds.front();
  ASSERT_EQ(world.lights.size(), 1u);
  const std::string& lamp = world.lights.front().attachedTo;
  EXPECT_NE(lamp.find("robot::tip:lens"), std::string::npos) << lamp;
  EXPECT_TRUE(result.graph.find(lamp).has_value()) << lamp;

  const auto q = result.kinematics.initialConfiguration();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_DOUBLE_EQ(q[0], 0.5);
  // base = dock (0, 0, 1); flange = base + (0, 0, 0.5); tip = flange * Rz(0.5); lens = tip * T(0.1, 0, 0).
  const Pose tip = makePose({0, 0, 1.5}, rotZ(0.5));
  const std::string robot = lamp.substr(0, lamp.find("tip:lens"));
  expectPoseNear(poseAt(result, robot + "tip", q), tip, 1e-12, "tip");
  expectPoseNear(poseAt(result, lamp, q), tip * Eigen::Translation3d(0.1, 0, 0), 1e-12, "lens");

  const interlink::Model* factory = nullptr;
  std::function<void(const interlink::Model&)> search = [&](const interlink::Model& model) {
    if (restraint(model, "tether")) factory = &model;
    for (const auto& nested : model.models) search(nested);
  };
  for (const auto& model : world.models) search(model);
  ASSERT_NE(factory, nullptr);
  const auto* tether = restraint(*factory, "tether");
  EXPECT_EQ(tether->firstFrame, lamp);
  EXPECT_EQ(tether->secondFrame, robot + "base:flange");
  EXPECT_TRUE(result.graph.find(tether->secondFrame).has_value()) << tether->secondFrame;
}

TEST(ShiftPaths, APathEndingInAFrameTakesNoOtherFrame) {
  const std::string text = R"({"model_parameters": {"version": "0.2"},
  "assemblies": [{"name": "arm", "bodies": [{"name": "b", "mass": 1.0, "frames": [{"name": "f", "T": [1, 0, 0]}]}],
    "joints": [{"name": "j", "type": "Rx", "body_frame_pairs": [["fixed", "origin"], ["arm:b:f", "g"]]}]}]})";
  const LoadResult result = loader().loadString(text, "paths.json");
  expectError(result, ErrorCode::JOINT_CHILD_LINK_INVALID, 3, 98, "'arm:b:f' already names frame 'f'");
}

TEST(ShiftBadInput, BodiesAndJointsInsideFixedAreErrors) {
  // The fixed frame holds frames, lights and terrain: bodies there used to vanish with a warning.
  const LoadResult result = load(testData("bodies_in_fixed.json"));
  expectError(result, ErrorCode::ELEMENT_INVALID, 5, 15, "'bodies' inside 'fixed'");
  expectError(result, ErrorCode::ELEMENT_INVALID, 6, 15, "'joints' inside 'fixed'");
}

TEST(ShiftBadInput, UnknownFrameAndUnknownBodyInPairsAreBothReported) {
  const LoadResult result = load(testData("unknown_reference.json"));
  expectError(result, ErrorCode::JOINT_PARENT_LINK_INVALID, 12, 72, "has no frame 'wrist'");
  expectError(result, ErrorCode::JOINT_CHILD_LINK_INVALID, 13, 84, "no body 'hand'");
}

TEST(ShiftBadInput, WrongCoefficientCount) {
  expectError(load(testData("bad_coefficients.json")), ErrorCode::ELEMENT_INVALID, 12, 26,
              "2 knot point(s) need 3 coefficient arrays");
}

TEST(ShiftBadInput, UnknownJointType) {
  expectError(load(testData("unknown_joint_type.json")), ErrorCode::ELEMENT_INVALID, 12, 19,
              "unknown joint type 'helical'");
}

TEST(ShiftBadInput, InvalidJsonReportsLineAndColumnOfTheFileAsWritten) {
  // Line 6 is `    {"name": "arm" "bodies": []}`: the comma is missing before "bodies" (column
  // 20..27); the comments above it must not shift the position. Jansson points at the end of
  // the offending token.
  const LoadResult result = load(testData("invalid_json.json"));
  EXPECT_FALSE(result.ok());
  const auto* error = findDiagnostic(result.diagnostics, ErrorCode::JSON_SYNTAX);
  ASSERT_NE(error, nullptr) << interlink::test::dump(result.diagnostics);
  EXPECT_EQ(error->where.line, 6);
  EXPECT_EQ(error->where.column, 27);
}

TEST(ShiftBadInput, UnterminatedCommentIsReportedWhereItStarts) {
  expectError(load(testData("unterminated_comment.json")), ErrorCode::JSON_SYNTAX, 3, 3, "never closed");
}

TEST(ShiftBadInput, ReservedAndInvalidNames) {
  const LoadResult result = load(testData("bad_names.json"));
  expectError(result, ErrorCode::RESERVED_NAME, 3, 33, "'origin' is reserved");
  expectError(result, ErrorCode::NAME_INVALID, 8, 18, "':' separates assembly paths");
  expectError(result, ErrorCode::RESERVED_NAME, 9, 60, "'origin' is reserved");
}

// ---------------------------------------------------------------------------------------------
// The sniffer claims .json files with Shift's shape only.

TEST(ShiftSniffer, ClaimsShiftShapeOnly) {
  const auto plugin = loader().plugins().findByName("shift");
  ASSERT_TRUE(static_cast<bool>(plugin));
  const auto* format = plugin.descriptor().format;
  ASSERT_NE(format, nullptr);
  ASSERT_NE(format->sniff, nullptr);
  const std::string shift = R"({"model_parameters": {"version": "0.2"}, "assemblies": [])";
  const std::string fiala = R"({"fixed": {"frames": [], "lights": []}, "assemblies": [{"bodies": []}]})";
  const std::string other = R"({"name": "robot", "links": [{"name": "base"}], "version": 3})";
  EXPECT_GE(format->sniff("a.json", shift.data(), shift.size()), 90);
  EXPECT_GE(format->sniff("a.json", fiala.data(), fiala.size()), 60);
  EXPECT_EQ(format->sniff("a.json", other.data(), other.size()), 0);
  EXPECT_EQ(format->sniff("a.json", "", 0), 0);
}

}  // namespace
