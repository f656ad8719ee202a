// Reference side of the URDF forward-kinematics differential: one process per reference, so that
// KDL's ROS dependencies and MuJoCo stay out of the test binary and a reference crash ends only
// this process. Usage:
//
//   urdf_fk_oracle kdl|mujoco file.urdf configurations.txt
//
// configurations.txt has one configuration per line: tab-separated pairs "joint<TAB>value".
// Joints a line does not name stay at 0. Output, one fact per line, tab-separated:
//
//   pose <configuration index> <link> <12 numbers: rotation (row-major), translation>
//   error <message>
//
// KDL (kdl_parser over urdfdom) reports every link of the tree. MuJoCo reads the URDF itself and
// fuses links joined by fixed joints into their parent, so it reports the bodies it keeps.
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl_parser/kdl_parser.hpp>
#include <mujoco/mujoco.h>

namespace {

using Configuration = std::map<std::string, double>;

std::vector<Configuration> readConfigurations(const std::string& path) {
  std::vector<Configuration> configurations;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    Configuration q;
    std::istringstream fields(line);
    std::string name;
    std::string value;
    while (std::getline(fields, name, '\t') && std::getline(fields, value, '\t')) q[name] = std::stod(value);
    configurations.push_back(std::move(q));
  }
  return configurations;
}

void printPose(std::size_t configuration, const std::string& link, const double rotation[9], const double translation[3]) {
  std::printf("pose\t%zu\t%s\t", configuration, link.c_str());
  for (int k = 0; k < 9; ++k) std::printf(" %.17g", rotation[k]);
  for (int k = 0; k < 3; ++k) std::printf(" %.17g", translation[k]);
  std::printf("\n");
}

int runKdl(const std::string& urdfPath, const std::vector<Configuration>& configurations) {
  std::ifstream in(urdfPath);
  const std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  KDL::Tree tree;
  if (!kdl_parser::treeFromString(xml, tree)) {
    std::printf("error\tkdl_parser refused the file\n");
    return 0;
  }
  KDL::TreeFkSolverPos_recursive solver(tree);
  for (std::size_t c = 0; c < configurations.size(); ++c) {
    KDL::JntArray q(tree.getNrOfJoints());
    for (const auto& [name, element] : tree.getSegments()) {
      const KDL::Segment& segment = GetTreeElementSegment(element);
      if (segment.getJoint().getType() == KDL::Joint::None) continue;
      auto value = configurations[c].find(segment.getJoint().getName());
      if (value != configurations[c].end()) q(GetTreeElementQNr(element)) = value->second;
    }
    for (const auto& [name, element] : tree.getSegments()) {
      KDL::Frame frame;  // the root segment stays the identity
      if (name != tree.getRootSegment()->first && solver.JntToCart(q, frame, name) < 0) {
        std::printf("error\tKDL could not solve for '%s'\n", name.c_str());
        continue;
      }
      double rotation[9];
      for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) rotation[r * 3 + k] = frame.M(r, k);
      const double translation[3] = {frame.p.x(), frame.p.y(), frame.p.z()};
      printPose(c, name, rotation, translation);
    }
  }
  return 0;
}

int runMujoco(const std::string& urdfPath, const std::vector<Configuration>& configurations) {
  char error[1000] = "";
  mjModel* model = mj_loadXML(urdfPath.c_str(), nullptr, error, sizeof error);
  if (!model) {
    std::printf("error\tMuJoCo refused the file: %s\n", error);
    return 0;
  }
  mjData* data = mj_makeData(model);
  for (std::size_t c = 0; c < configurations.size(); ++c) {
    mj_resetData(model, data);
    for (int j = 0; j < model->njnt; ++j) {
      const char* name = mj_id2name(model, mjOBJ_JOINT, j);
      auto value = name ? configurations[c].find(name) : configurations[c].end();
      if (value == configurations[c].end()) continue;
      if (model->jnt_type[j] != mjJNT_HINGE && model->jnt_type[j] != mjJNT_SLIDE) {
        std::printf("error\tMuJoCo joint '%s' is not single-DOF\n", name);
        continue;
      }
      data->qpos[model->jnt_qposadr[j]] = value->second;
    }
    mj_kinematics(model, data);
    for (int b = 1; b < model->nbody; ++b) {  // body 0 is MuJoCo's world
      const char* name = mj_id2name(model, mjOBJ_BODY, b);
      if (name) printPose(c, name, data->xmat + 9 * b, data->xpos + 3 * b);
    }
  }
  mj_deleteData(data);
  mj_deleteModel(model);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s kdl|mujoco file.urdf configurations.txt\n", argv[0]);
    return 2;
  }
  const std::string reference = argv[1];
  const auto configurations = readConfigurations(argv[3]);
  if (reference == "kdl") return runKdl(argv[2], configurations);
  if (reference == "mujoco") return runMujoco(argv[2], configurations);
  std::fprintf(stderr, "unknown reference '%s'\n", argv[1]);
  return 2;
}
