// Reference side of the differential test: loads one .skel file with DART 6.12's SkelParser and
// prints what DART built, one line per fact. Runs as its own process because DART crashes on
// some corpus files, and a crash must not take the test binary down with it.
//
//   skeleton\t<name>\t<bodyCount>
//   body\t<skeleton>::<body>\t<joint type>\t<12 numbers: world rotation (row-major), translation>
//   inertia\t<skeleton>::<body>\t<10 numbers: mass, centre of mass (3), Ixx Iyy Izz Ixy Ixz Iyz>
// Fields are separated by tabs because SKEL names may contain spaces.
//
// With --perturb, every joint is first moved away from its initial positions to deterministic
// values, printed in DART's coordinate order before the bodies:
//   q\t<skeleton>::<child body>\t<values>
#include <cmath>
#include <cstdio>
#include <string>

#include <dart/dart.hpp>
#include <dart/utils/utils.hpp>

namespace {

std::string jointTypeName(const dart::dynamics::Joint& joint) {
  const std::string& type = joint.getType();
  if (type == dart::dynamics::WeldJoint::getStaticType()) return "fixed";
  if (type == dart::dynamics::RevoluteJoint::getStaticType()) return "revolute";
  if (type == dart::dynamics::PrismaticJoint::getStaticType()) return "prismatic";
  if (type == dart::dynamics::ScrewJoint::getStaticType()) return "screw";
  if (type == dart::dynamics::UniversalJoint::getStaticType()) return "universal";
  if (type == dart::dynamics::BallJoint::getStaticType()) return "ball";
  if (type == dart::dynamics::EulerJoint::getStaticType()) return "euler";
  if (type == dart::dynamics::TranslationalJoint::getStaticType()) return "translational";
  if (type == dart::dynamics::TranslationalJoint2D::getStaticType()) return "translational2d";
  if (type == dart::dynamics::PlanarJoint::getStaticType()) return "planar";
  if (type == dart::dynamics::FreeJoint::getStaticType()) return "free";
  return "unknown:" + type;
}

}  // namespace

int main(int argc, char** argv) {
  const bool perturb = argc == 3 && std::string(argv[2]) == "--perturb";
  if (argc != 2 && !perturb) {
    std::fprintf(stderr, "usage: %s file.skel [--perturb]\n", argv[0]);
    return 2;
  }
  const auto world = dart::utils::SkelParser::readWorld(dart::common::Uri::createFromPath(argv[1]));
  if (!world) {
    std::printf("null-world\n");
    return 0;
  }
  for (std::size_t s = 0; s < world->getNumSkeletons(); ++s) {
    const auto skeleton = world->getSkeleton(s);
    std::printf("skeleton\t%s\t%zu\n", skeleton->getName().c_str(), skeleton->getNumBodyNodes());
    if (perturb) {
      for (std::size_t b = 0; b < skeleton->getNumBodyNodes(); ++b) {
        auto* joint = skeleton->getBodyNode(b)->getParentJoint();
        Eigen::VectorXd q(joint->getNumDofs());
        for (Eigen::Index k = 0; k < q.size(); ++k) q[k] = 0.2 + 0.3 * std::sin(1.7 * static_cast<double>(b * 7 + k + 1));
        joint->setPositions(q);
        std::printf("q\t%s::%s\t", skeleton->getName().c_str(), skeleton->getBodyNode(b)->getName().c_str());
        for (Eigen::Index k = 0; k < q.size(); ++k) std::printf(" %.17g", q[k]);
        std::printf("\n");
      }
    }
    for (std::size_t b = 0; b < skeleton->getNumBodyNodes(); ++b) {
      const auto* body = skeleton->getBodyNode(b);
      const Eigen::Isometry3d pose = body->getWorldTransform();
      std::printf("body\t%s::%s\t%s\t", skeleton->getName().c_str(), body->getName().c_str(),
                  jointTypeName(*body->getParentJoint()).c_str());
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) std::printf(" %.17g", pose.linear()(r, c));
      for (int r = 0; r < 3; ++r) std::printf(" %.17g", pose.translation()(r));
      std::printf("\n");
      const auto& inertia = body->getInertia();
      const Eigen::Vector3d com = inertia.getLocalCOM();
      const Eigen::Matrix3d moment = inertia.getMoment();
      std::printf("inertia\t%s::%s\t%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                  skeleton->getName().c_str(), body->getName().c_str(), inertia.getMass(), com.x(), com.y(),
                  com.z(), moment(0, 0), moment(1, 1), moment(2, 2), moment(0, 1), moment(0, 2), moment(1, 2));
    }
  }
  return 0;
}
