// URDF forward kinematics against two independent references at random configurations:
// KDL through kdl_parser (1e-9) and MuJoCo 2.2.2's own URDF reader (1e-6). The references run in
// the urdf_fk_oracle process (see UrdfFkOracle.cpp). Files: tests/data/example-robot-data
// (origins and licences in its README.md), and tests/urdf/data/quadruped_shared_names.urdf (ours:
// joints named like links; configurations are given by the file's joint names).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "TestSupport.hpp"
#include "interlink/Loader.hpp"

namespace interlink {
namespace {

const std::string kDataDir = test::sourceDir() + "/tests/data/example-robot-data";

using Configuration = std::map<std::string, double>;

struct ReferencePoses {
  std::vector<std::map<std::string, Pose>> byConfiguration;  // link -> pose, per configuration
  std::vector<std::string> errors;
};

ReferencePoses runOracle(const std::string& reference, const std::string& urdf, const std::string& configurations,
                         std::size_t configurationCount) {
  ReferencePoses poses;
  poses.byConfiguration.resize(configurationCount);
  const test::CommandResult run =
      test::run("'" URDF_FK_ORACLE "' " + reference + " '" + urdf + "' '" + configurations + "'");
  if (run.exitCode != 0) poses.errors.push_back("oracle exit code " + std::to_string(run.exitCode));
  std::istringstream lines(run.output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string kind;
    std::getline(fields, kind, '\t');
    if (kind == "error") {
      poses.errors.push_back(line);
      continue;
    }
    if (kind != "pose") continue;  // reference chatter (MuJoCo and ROS warnings)
    std::string index;
    std::string link;
    std::string numbers;
    std::getline(fields, index, '\t');
    std::getline(fields, link, '\t');
    std::getline(fields, numbers);
    std::istringstream values(numbers);
    Pose pose = Pose::Identity();
    Matrix3 rotation;
    for (int k = 0; k < 9; ++k) values >> rotation(k / 3, k % 3);
    Vector3 translation;
    for (int k = 0; k < 3; ++k) values >> translation(k);
    pose.linear() = rotation;
    pose.translation() = translation;
    const std::size_t c = std::stoul(index);
    if (c < configurationCount) poses.byConfiguration[c][link] = pose;
  }
  return poses;
}

/// MuJoCo opens every mesh a URDF names, and refuses massless moving bodies; kinematics needs
/// neither, so its copy has no <visual>/<collision>, and bounds and balances mass and inertia
/// (only the dynamics would see those).
std::string mujocoCopy(const std::string& urdf, const std::string& directory) {
  std::string text = test::readFile(urdf);
  for (const std::string element : {"visual", "collision"}) {
    for (std::size_t start = text.find("<" + element); start != std::string::npos;
         start = text.find("<" + element, start)) {
      const char next = text[start + element.size() + 1];
      if (next != '>' && next != ' ' && next != '\n' && next != '\t' && next != '\r' && next != '/') {
        ++start;
        continue;
      }
      const std::size_t selfClosing = text.find("/>", start);
      const std::size_t tagEnd = text.find('>', start);
      std::size_t end;
      if (selfClosing != std::string::npos && selfClosing + 1 == tagEnd) {
        end = tagEnd + 1;
      } else {
        const std::size_t close = text.find("</" + element + ">", start);
        if (close == std::string::npos) break;
        end = close + element.size() + 3;
      }
      text.erase(start, end - start);
    }
  }
  const std::size_t robot = text.find('>', text.find("<robot"));
  text.insert(robot + 1, R"(<mujoco><compiler boundmass="1e-6" boundinertia="1e-9" balanceinertia="true"/></mujoco>)");
  const std::string path = directory + "/mujoco.urdf";
  std::ofstream(path) << text;
  return path;
}

double poseDistance(const Pose& a, const Pose& b) {
  return std::max((a.linear() - b.linear()).cwiseAbs().maxCoeff(),
                  (a.translation() - b.translation()).cwiseAbs().maxCoeff());
}

const Joint* jointNamed(const Model& model, const std::string& name) {
  for (const Joint& joint : model.joints) {
    if (joint.name == name) return &joint;
  }
  return nullptr;
}

class UrdfFkDifferential : public ::testing::TestWithParam<const char*> {};

TEST_P(UrdfFkDifferential, AgreesWithKdlAndMujoco) {
  // A bare name is a file of example-robot-data; a path is relative to the source tree.
  const std::string param = GetParam();
  const std::string file = param.find('/') == std::string::npos ? kDataDir + "/" + param : test::sourceDir() + "/" + param;
  Loader loader;
  const LoadResult result = loader.loadFile(file);
  ASSERT_TRUE(result.ok()) << test::dump(result.diagnostics);
  const Model& model = *result.document.model;

  // Configurations: zero, then random values inside each joint's limits (continuous: [-pi, pi]).
  const std::vector<Dof>& dofs = result.kinematics.dofs();
  ASSERT_FALSE(dofs.empty());
  constexpr std::size_t kConfigurations = 6;
  std::mt19937 random(20261122);
  std::vector<std::vector<double>> qs(kConfigurations, std::vector<double>(dofs.size(), 0.0));
  for (std::size_t c = 1; c < kConfigurations; ++c) {
    for (std::size_t d = 0; d < dofs.size(); ++d) {
      const Joint* joint = jointNamed(model, dofs[d].name);
      ASSERT_NE(joint, nullptr) << "the DOF '" << dofs[d].name << "' is not named after a joint of the file";
      ASSERT_EQ(joint->axes.size(), 1u) << dofs[d].name;
      double lower = joint->axes[0].lower;
      double upper = joint->axes[0].upper;
      if (!std::isfinite(lower) || !std::isfinite(upper)) {
        lower = -M_PI;
        upper = M_PI;
      }
      qs[c][d] = std::uniform_real_distribution<double>(lower, upper)(random);
    }
  }
  const std::string directory = test::makeTempDir("interlink-urdf-fk");
  ASSERT_FALSE(directory.empty());
  const std::string configurations = directory + "/configurations.txt";
  {
    std::ofstream out(configurations);
    out.precision(17);
    for (const auto& q : qs) {
      for (std::size_t d = 0; d < dofs.size(); ++d) out << (d ? "\t" : "") << dofs[d].name << "\t" << q[d];
      out << "\n";
    }
  }
  std::vector<std::vector<Pose>> ours;
  for (const auto& q : qs) {
    Diagnostics diagnostics;
    auto poses = result.kinematics.framePoses(q, diagnostics);
    ASSERT_TRUE(poses.has_value()) << test::dump(diagnostics);
    ours.push_back(*poses);
  }

  struct Reference {
    const char* name;
    std::string urdf;
    double tolerance;
    bool reportsEveryLink;
  };
  const Reference references[] = {{"kdl", file, 1e-9, true}, {"mujoco", mujocoCopy(file, directory), 1e-6, false}};
  for (const Reference& reference : references) {
    const ReferencePoses theirs = runOracle(reference.name, reference.urdf, configurations, kConfigurations);
    ASSERT_TRUE(theirs.errors.empty()) << reference.name << ": " << (theirs.errors.empty() ? "" : theirs.errors.front());
    std::size_t compared = 0;
    double worst = 0;
    for (std::size_t c = 0; c < kConfigurations; ++c) {
      const auto& poses = theirs.byConfiguration[c];
      // A root link named 'world' is the model frame (docs/urdf.md): the identity at every q.
      const bool worldLink = poses.count("world") > 0;
      if (reference.reportsEveryLink) {
        EXPECT_EQ(poses.size(), model.links.size() + (worldLink ? 1 : 0)) << reference.name;
      }
      for (const auto& [link, pose] : poses) {
        auto index = result.graph.find(link);
        ASSERT_TRUE(index.has_value() || link == "world")
            << reference.name << " reports the link '" << link << "', which Interlink lacks";
        const Pose& interlinkPose = index ? ours[c][*index] : Pose::Identity();
        const double distance = poseDistance(interlinkPose, pose);
        worst = std::max(worst, distance);
        EXPECT_LE(distance, reference.tolerance)
            << reference.name << ", configuration " << c << ", link '" << link << "'\nInterlink:\n"
            << interlinkPose.matrix() << "\n" << reference.name << ":\n" << pose.matrix();
        ++compared;
      }
    }
    EXPECT_GE(compared, kConfigurations) << reference.name;
    // The agreement count for the record (the closing note of issue 13 quotes these lines).
    std::cout << GetParam() << ": " << reference.name << " agrees on " << compared << " link poses (" << dofs.size()
              << " DOFs, " << kConfigurations << " configurations), worst difference " << worst << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(PublicRobots, UrdfFkDifferential,
                         ::testing::Values("panda.urdf", "ur5_robot.urdf", "allegro_right_hand.urdf",
                                           "simple_humanoid.urdf", "baxter.urdf", "anymal_kinova.urdf"),
                         [](const ::testing::TestParamInfo<const char*>& robot) {
                           std::string name = robot.param;
                           name = name.substr(0, name.find('.'));
                           return name;
                         });

INSTANTIATE_TEST_SUITE_P(JointsNamedLikeLinks, UrdfFkDifferential,
                         ::testing::Values("tests/urdf/data/quadruped_shared_names.urdf"),
                         [](const ::testing::TestParamInfo<const char*>&) { return std::string("quadruped_shared_names"); });

// Issue 26: ANYmal C names each hip joint like its parent link (joint LF_HAA joins link LF_HAA to
// LF_HIP); urdfdom, KDL and MuJoCo load it (tests/data/anymal_c_simple_description, BSD-3-Clause).
INSTANTIATE_TEST_SUITE_P(JointsNamedLikeParentLinks, UrdfFkDifferential,
                         ::testing::Values("tests/data/anymal_c_simple_description/urdf/anymal.urdf"),
                         [](const ::testing::TestParamInfo<const char*>&) { return std::string("anymal_c"); });

// pybullet's minitaur and quadruped (fixed joints named like the links they hold) and Kinova's
// Gen3 lite (joint END_EFFECTOR on link END_EFFECTOR), as their projects ship them
// (tests/data/bullet3, tests/data/ros_kortex: origins and licences in their README.md).
INSTANTIATE_TEST_SUITE_P(PublicJointsNamedLikeLinks, UrdfFkDifferential,
                         ::testing::Values("tests/data/bullet3/quadruped/minitaur.urdf",
                                           "tests/data/bullet3/quadruped/quadruped.urdf",
                                           "tests/data/ros_kortex/kortex_description/arms/gen3_lite/6dof/urdf/GEN3-LITE.urdf"),
                         [](const ::testing::TestParamInfo<const char*>& robot) {
                           std::string name = robot.param;
                           name = name.substr(name.rfind('/') + 1);
                           name = name.substr(0, name.find('.'));
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace interlink
