// Reference side of the forward-kinematics differential test: loads one SDFormat file with DART
// 6.12's dart::utils::SdfParser (its own reader, independent of libsdformat and of Interlink),
// moves every joint to a random configuration drawn from a given seed and prints, one line each:
//
//   skeleton\t<name>
//   q\t<skeleton>::<joint>\t<joint type>\t<values in DART's coordinate order>
//   body\t<skeleton>::<body>\t<12 numbers: world rotation (row-major), translation>
//
// Runs as its own process so that a DART crash ends the child, not the test binary. Root free
// joints stay at zero: Interlink gives a model without a world joint no floating-base coordinates.
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <dart/dart.hpp>
#include <dart/utils/sdf/SdfParser.hpp>

namespace {

void printSkeleton(dart::dynamics::Skeleton& skeleton, std::mt19937& random) {
  std::uniform_real_distribution<double> angle(-1.2, 1.2);
  std::printf("skeleton\t%s\n", skeleton.getName().c_str());
  for (std::size_t j = 0; j < skeleton.getNumJoints(); ++j) {
    dart::dynamics::Joint* joint = skeleton.getJoint(j);
    const std::string& type = joint->getType();  // DART's own name, e.g. "RevoluteJoint"
    Eigen::VectorXd q = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(joint->getNumDofs()));
    if (type != dart::dynamics::FreeJoint::getStaticType()) {
      for (Eigen::Index k = 0; k < q.size(); ++k) q[k] = angle(random);
    }
    joint->setPositions(q);
    std::printf("q\t%s::%s\t%s\t", skeleton.getName().c_str(), joint->getName().c_str(), type.c_str());
    for (Eigen::Index k = 0; k < q.size(); ++k) std::printf(" %.17g", q[k]);
    std::printf("\n");
  }
  for (std::size_t b = 0; b < skeleton.getNumBodyNodes(); ++b) {
    const auto* body = skeleton.getBodyNode(b);
    const Eigen::Isometry3d pose = body->getWorldTransform();
    std::printf("body\t%s::%s\t", skeleton.getName().c_str(), body->getName().c_str());
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) std::printf(" %.17g", pose.linear()(r, c));
    for (int r = 0; r < 3; ++r) std::printf(" %.17g", pose.translation()(r));
    std::printf("\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s FILE.sdf|FILE.world SEED\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream content;
  content << in.rdbuf();
  std::mt19937 random(static_cast<std::mt19937::result_type>(std::stoul(argv[2])));
  const auto uri = dart::common::Uri::createFromPath(argv[1]);
  if (content.str().find("<world") != std::string::npos) {
    const auto world = dart::utils::SdfParser::readWorld(uri);
    if (!world) {
      std::printf("null-world\n");
      return 0;
    }
    for (std::size_t s = 0; s < world->getNumSkeletons(); ++s) printSkeleton(*world->getSkeleton(s), random);
  } else {
    const auto skeleton = dart::utils::SdfParser::readSkeleton(uri);
    if (!skeleton) {
      std::printf("null-skeleton\n");
      return 0;
    }
    printSkeleton(*skeleton, random);
  }
  return 0;
}
