#pragma once
// What the Shift plugin's tests share: the loader, the corpus and test data, and the poses,
// counts and diagnostics they compare.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "SharedLoader.hpp"
#include "TestSupport.hpp"
#include "interlink/Loader.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/shift/ShiftAssembly.hpp"

namespace shift_test {

using interlink::ErrorCode;
using interlink::FrameKind;
using interlink::LoadResult;
using interlink::Pose;
using interlink::Severity;
using interlink::Vector3;
namespace fs = std::filesystem;

constexpr double kPi = 3.14159265358979323846;

inline const interlink::Loader& loader() { return interlink::test::sharedLoader(); }

inline LoadResult load(const std::string& path) { return loader().loadFile(path); }

/// The Shift record of a joint of `model` (a default record, which fails the checks, if absent).
inline interlink::shift::ShiftJoint shiftJoint(const interlink::Model& model, const std::string& name) {
  const auto* record = model.extensions.find<interlink::shift::ShiftAssembly>();
  EXPECT_NE(record, nullptr) << model.name;
  if (record == nullptr) return {};
  for (const auto& joint : record->joints)
    if (joint.name == name) return joint;
  ADD_FAILURE() << "no Shift record of joint " << name << " in " << model.name;
  return {};
}

/// The restraint `name` of `model` (nullptr if absent).
inline const interlink::shift::Restraint* restraint(const interlink::Model& model, const std::string& name) {
  const auto* record = model.extensions.find<interlink::shift::ShiftAssembly>();
  if (record == nullptr) return nullptr;
  for (const auto& r : record->restraints)
    if (r.name == name) return &r;
  return nullptr;
}

/// A file of shift-dynamics/shift-models: the copy in tests/data/shift when the repository carries
/// one, else the external corpus's (a test of such a file is skipped without the corpus).
inline std::string shiftCorpus(const std::string& relative) {
  const std::string vendored = interlink::test::vendored("shift/" + relative);
  return fs::exists(vendored) ? vendored : interlink::test::corpus("shift/" + relative);
}
inline std::string testData(const std::string& name) { return interlink::test::sourceDir() + "/tests/shift/data/" + name; }

struct Counts {
  std::size_t bodies = 0;
  std::size_t joints = 0;
  std::size_t loops = 0;
};

inline Counts countsOf(const LoadResult& result) {
  Counts c;
  for (const auto& frame : result.graph.frames())
    if (frame.kind == FrameKind::Link) ++c.bodies;
  c.joints = result.kinematics.joints().size();
  for (const auto& joint : result.kinematics.joints())
    if (joint.loopClosure) ++c.loops;
  return c;
}

/// Pose of a frame (scoped name) at a configuration; fails the test when it is unknown.
inline Pose poseAt(const LoadResult& result, const std::string& frame, const std::vector<double>& q) {
  interlink::Diagnostics diagnostics;
  auto poses = result.kinematics.framePoses(q, diagnostics);
  auto index = result.graph.find(frame);
  EXPECT_TRUE(poses.has_value()) << interlink::test::dump(diagnostics);
  EXPECT_TRUE(index.has_value()) << "no frame '" << frame << "'";
  if (!poses || !index) return Pose::Identity();
  return (*poses)[*index];
}

inline Pose makePose(const Vector3& translation, const interlink::Matrix3& rotation) {
  Pose pose = Pose::Identity();
  pose.translation() = translation;
  pose.linear() = rotation;
  return pose;
}

inline interlink::Matrix3 rotX(double a) { return Eigen::AngleAxisd(a, Vector3::UnitX()).toRotationMatrix(); }
inline interlink::Matrix3 rotY(double a) { return Eigen::AngleAxisd(a, Vector3::UnitY()).toRotationMatrix(); }
inline interlink::Matrix3 rotZ(double a) { return Eigen::AngleAxisd(a, Vector3::UnitZ()).toRotationMatrix(); }

inline void expectPoseNear(const Pose& actual, const Pose& expected, double tolerance, const std::string& what) {
  EXPECT_TRUE(actual.translation().isApprox(expected.translation(), tolerance) ||
              (actual.translation() - expected.translation()).norm() < tolerance)
      << what << ": position " << actual.translation().transpose() << ", expected "
      << expected.translation().transpose();
  EXPECT_LT((actual.linear() - expected.linear()).cwiseAbs().maxCoeff(), tolerance)
      << what << ": rotation\n"
      << actual.linear() << "\nexpected\n"
      << expected.linear();
}

inline const interlink::Model* findModel(const std::vector<interlink::Model>& models, const std::string& path) {
  const auto split = path.find("::");
  const std::string head = path.substr(0, split);
  for (const auto& model : models) {
    if (model.name != head) continue;
    if (split == std::string::npos) return &model;
    return findModel(model.models, path.substr(split + 2));
  }
  return nullptr;
}

inline const interlink::Diagnostic* findDiagnostic(const interlink::Diagnostics& diagnostics, ErrorCode code,
                                            Severity severity = Severity::Error) {
  for (const auto& d : diagnostics)
    if (d.code == code && d.severity == severity) return &d;
  return nullptr;
}

}  // namespace shift_test
