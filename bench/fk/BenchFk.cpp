// bench_fk [ROUNDS]: the pose of one frame at many configurations, Interlink against KDL.
//
// For each robot (tests/data/example-robot-data: Panda to panda_hand_tcp, UR5 to tool0), the same
// 1000 random configurations go through
//   KDL           ChainFkSolverPos_recursive::JntToCart on the chain root -> tip (kdl_parser)
//   framePose     Kinematics::framePose(frame index, q): the tree path of the frame only
//   pose(index)   ModelQuery::pose(frame index, q, root index)
//   pose(name)    ModelQuery::pose("tip", q, ""): with the name lookup
//   framePoses    Kinematics::framePoses(q): every frame (what pose() did before issue 35)
// Rounds alternate the contenders so that load from others on a shared machine weighs on all
// alike; each figure is the least thread CPU time per call over the rounds. Results are checked
// to agree (1e-12) before timing. Prints one table per robot with the ratio to KDL; exits 1 when
// a one-frame query (framePose, pose by index, pose by name) is above 1.2x KDL (issue 35).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>

#include "interlink/Loader.hpp"
#include "interlink/ModelQuery.hpp"

namespace {

double threadCpuNanoseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

struct Robot {
  const char* file;
  const char* root;
  const char* tip;
};

volatile double sink = 0;  // keeps the results alive

int benchRobot(const Robot& robot, int rounds) {
  const std::string path = std::string(INTERLINK_TEST_DATA) + "/example-robot-data/" + robot.file;
  interlink::Loader loader;
  const interlink::LoadResult loaded = loader.loadFile(path);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s: load failed\n", path.c_str());
    return 1;
  }
  const interlink::ModelQuery query(loaded);
  interlink::Diagnostics diagnostics;
  const std::size_t tip = *query.frameIndex(robot.tip, diagnostics);

  std::ifstream in(path);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  KDL::Tree tree;
  KDL::Chain chain;
  if (!kdl_parser::treeFromString(xml, tree) || !tree.getChain(robot.root, robot.tip, chain)) {
    std::fprintf(stderr, "%s: KDL has no chain %s -> %s\n", robot.file, robot.root, robot.tip);
    return 1;
  }
  KDL::ChainFkSolverPos_recursive solver(chain);

  // The chain's joints by name give each KDL coordinate its Interlink DOF.
  const std::vector<std::string> dofs = query.dofNames();
  std::vector<std::size_t> dofOfChainJoint;
  for (const KDL::Segment& segment : chain.segments) {
    if (segment.getJoint().getType() == KDL::Joint::None) continue;
    auto it = std::find(dofs.begin(), dofs.end(), segment.getJoint().getName());
    dofOfChainJoint.push_back(static_cast<std::size_t>(it - dofs.begin()));
  }
  constexpr int kConfigurations = 1000;
  std::mt19937 random(35);
  std::uniform_real_distribution<double> angle(-2.0, 2.0);
  std::vector<std::vector<double>> qs(kConfigurations, std::vector<double>(dofs.size(), 0.0));
  std::vector<KDL::JntArray> kdlQs(kConfigurations, KDL::JntArray(chain.getNrOfJoints()));
  for (int c = 0; c < kConfigurations; ++c) {
    for (std::size_t j = 0; j < dofOfChainJoint.size(); ++j) {
      qs[c][dofOfChainJoint[j]] = kdlQs[c](static_cast<unsigned>(j)) = angle(random);
    }
  }
  for (int c = 0; c < kConfigurations; ++c) {  // same answer first
    KDL::Frame F;
    solver.JntToCart(kdlQs[c], F);
    const interlink::Pose X = *loaded.kinematics.framePose(tip, qs[c], diagnostics);
    for (int r = 0; r < 3; ++r) {
      if (std::abs(X.translation()[r] - F.p(r)) > 1e-12) {
        std::fprintf(stderr, "%s: Interlink and KDL disagree at configuration %d\n", robot.file, c);
        return 1;
      }
      for (int k = 0; k < 3; ++k) {
        if (std::abs(X.linear()(r, k) - F.M(r, k)) > 1e-12) {
          std::fprintf(stderr, "%s: Interlink and KDL disagree at configuration %d\n", robot.file, c);
          return 1;
        }
      }
    }
  }

  struct Contender {
    const char* name;
    std::function<void(int)> call;
    double best = 1e300;
  };
  const std::size_t root = 0;
  std::vector<Contender> contenders = {
      {"KDL JntToCart", [&](int c) { KDL::Frame F; solver.JntToCart(kdlQs[c], F); sink = sink + F.p(0); }},
      {"Kinematics::framePose", [&](int c) { sink = sink + loaded.kinematics.framePose(tip, qs[c], diagnostics)->translation().x(); }},
      {"ModelQuery::pose(index)", [&](int c) { sink = sink + query.pose(tip, qs[c], root, diagnostics)->translation().x(); }},
      {"ModelQuery::pose(name)", [&](int c) { sink = sink + query.pose(robot.tip, qs[c], "", diagnostics)->translation().x(); }},
      {"Kinematics::framePoses (all)", [&](int c) { sink = sink + (*loaded.kinematics.framePoses(qs[c], diagnostics))[tip].translation().x(); }},
  };
  for (int round = 0; round < rounds; ++round) {
    for (Contender& contender : contenders) {
      const double start = threadCpuNanoseconds();
      for (int repeat = 0; repeat < 10; ++repeat) {
        for (int c = 0; c < kConfigurations; ++c) contender.call(c);
      }
      contender.best = std::min(contender.best, (threadCpuNanoseconds() - start) / (10.0 * kConfigurations));
    }
  }
  std::printf("%s, %s -> %s (%u joints on the path), least CPU time per call over %d rounds:\n", robot.file, robot.root,
              robot.tip, chain.getNrOfJoints(), rounds);
  for (const Contender& contender : contenders) {
    std::printf("  %-30s %8.1f ns  %5.2fx KDL\n", contender.name, contender.best, contender.best / contenders.front().best);
  }
  // The one-frame queries (not framePoses, which computes every frame) against the target.
  int status = 0;
  for (std::size_t i = 1; i + 1 < contenders.size(); ++i) {
    if (contenders[i].best > 1.2 * contenders.front().best) {
      std::printf("  %s is above 1.2x KDL\n", contenders[i].name);
      status = 1;
    }
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  const Robot robots[] = {{"panda.urdf", "panda_link0", "panda_hand_tcp"}, {"ur5_robot.urdf", "base_link", "tool0"}};
  int status = 0;
  for (const Robot& robot : robots) status |= benchRobot(robot, rounds);
  return status;
}
