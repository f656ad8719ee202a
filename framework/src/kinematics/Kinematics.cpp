// Kinematic tree and forward kinematics over the resolved frame graph.
//
// Every frame is rigidly attached to one link (or fixed in the root), so forward kinematics only
// moves links: X_RC(q) = X_RP(q) · X_PJ · M_J(q) · X_JC along the tree, with X_PJ and X_JC taken
// from the zero-configuration graph; every other frame follows its link with a constant offset.
#include "interlink/Kinematics.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "interlink/PoseMath.hpp"
#include "util/LargeBlocks.hpp"

namespace interlink {

namespace {

/// A rigid transform kept as its 3x4 rows (96 bytes, not Pose's 128): for the constants the
/// kinematics keep per frame and per joint, which are alive at a big model's peak of memory.
/// Products turn it into a Pose first, so that every result is computed as before, bit for bit.
using CompactPose = Eigen::Transform<double, 3, Eigen::AffineCompact>;

Pose full(const CompactPose& compact) {
  Pose pose;
  pose.matrix().topRows<3>() = compact.matrix();
  pose.matrix().row(3) << 0, 0, 0, 1;
  return pose;
}

struct JointData {
  std::size_t tree = 0;  // index of the public TreeJoint
  JointType type = JointType::Fixed;
  int firstDof = -1;
  JointMotionParameters motion;  // unit axes in the joint frame, pitch, transmission
  int parentFrame = -1;  // frame index of the parent link (-1: the root)
  int childFrame = -1;   // frame index of the child link
  CompactPose X_PJ = CompactPose::Identity();
  CompactPose X_JC = CompactPose::Identity();
  // For framePose's walk up one path (issue 35: within 1.2x of KDL per call): the joint's motion
  // pre-digested, so that the walk composes rotations and translations in place instead of three
  // 4x4 products per joint. Anything but a single-axis revolute or prismatic joint takes jointMotion.
  enum class Walk : unsigned char { Motion, AxisRotation, Rotation, Translation, Rigid } walk = Walk::Motion;
  bool childAtJoint = false;  // X_JC is exactly the identity (a URDF child link's frame is its joint's)
  int rotationAxis = 2;       // AxisRotation: about the joint frame's x (0), y (1) or z (2) axis ...
  double rotationSign = 1;    // ... or the opposite one (-1)
};

/// What framePose's walk needs of `j`, from its type, axes and frames (as jointMotion reads them).
void prepareWalk(JointData& j) {
  j.childAtJoint = j.X_JC.linear() == Matrix3::Identity() && j.X_JC.translation() == Vector3::Zero();
  const bool single = j.firstDof >= 0 && j.motion.transmissionRatio != 0.0;
  if (j.firstDof < 0) {
    j.walk = JointData::Walk::Rigid;
  } else if (single && (j.type == JointType::Revolute || j.type == JointType::Continuous || j.type == JointType::Gearbox)) {
    j.walk = JointData::Walk::Rotation;
    const Vector3 axis = j.motion.axes.empty() ? Vector3::UnitZ() : j.motion.axes[0];
    for (int a = 0; a < 3; ++a) {
      for (double sign : {1.0, -1.0}) {
        if (axis == sign * Vector3::Unit(a)) {
          j.walk = JointData::Walk::AxisRotation;
          j.rotationAxis = a;
          j.rotationSign = sign;
        }
      }
    }
  } else if (single && j.type == JointType::Prismatic) {
    j.walk = JointData::Walk::Translation;
  }
}

}  // namespace

struct Kinematics::Impl {
  std::vector<Dof> dofs;
  std::vector<TreeJoint> treeJoints;  // public copy
  std::vector<JointData> joints;      // tree joints in topological order (loop closures excluded)
  std::vector<int> frameLink;  // frame index of the link each frame rides on (-1: fixed)
  // X_L_F for a frame riding on link L, X_R_F (its zero pose) for a frame fixed in the root: one
  // pose per frame, not two (a 4000-link chain has 12 000 frames; memory is a large part of the
  // load's time).
  std::vector<CompactPose, detail::LargeBlockAllocator<CompactPose>> offset;
  // Links that no tree joint moves (the roots of the tree) and their zero poses X_R_L.
  std::vector<std::pair<int, Pose>> rootLinks;
  // Per frame, for the walk of framePose from a link to the root: the index in `joints` of the
  // joint that moves this link frame, or -2 - r for the root link rootLinks[r] (-1 elsewhere).
  std::vector<int> linkStep;
  // Whether every frame that others ride on rides on itself (links always do): then a link
  // frame's pose is its link pose, unmultiplied, as framePoses has always given it.
  bool linksRideOnThemselves = true;
  // For describeTree(), which is built on demand (a deep chain makes a large text): the links that
  // no joint moves, which start its trees, with their names.
  struct RootLink {
    std::string name;
    int frame;
  };
  std::vector<RootLink> treeRoots;
  std::string rootName;
};

Kinematics::Kinematics() : impl_(std::make_unique<Impl>()) {}
Kinematics::~Kinematics() = default;
Kinematics::Kinematics(Kinematics&&) noexcept = default;
Kinematics& Kinematics::operator=(Kinematics&&) noexcept = default;

namespace {

/// A joint of the document, its frame (by identity) and its scoped name, in DOF order.
struct OrderedJoint {
  std::string scopedName;
  const Joint* joint;
  std::size_t frame;
};

}  // namespace

/// Builds a Kinematics in four steps: joints in DOF order, frames onto links, joints onto links
/// (with their DOFs), then the tree order from the roots outward. (`Data` is Kinematics::Impl,
/// a template parameter so that this helper may fill the private type.)
template <class Data>
class KinematicsBuilder {
 public:
  KinematicsBuilder(const Document& document, const FrameGraph& graph, Diagnostics& diagnostics, Data& k)
      : document_(document), graph_(graph), frames_(graph.frames()), diagnostics_(diagnostics), k_(k) {}

  void run() {
    if (frames_.empty()) return;
    collectJointsInDofOrder();
    attachFramesToLinks();
    parentJointOfLink_.assign(frames_.size(), -1);
    all_.reserve(ordered_.size());
    // The per-joint tables of a big model, filled front to back once.
    detail::adviseHugePages(all_.data(), all_.capacity() * sizeof(JointData));
    source_.reserve(ordered_.size());
    k_.treeJoints.reserve(ordered_.size());
    detail::adviseHugePages(k_.treeJoints.data(), k_.treeJoints.capacity() * sizeof(TreeJoint));
    std::size_t dofs = 0;
    for (const OrderedJoint& joint : ordered_) dofs += static_cast<std::size_t>(std::max(dofCount(joint.joint->type), 0));
    k_.dofs.reserve(dofs);
    for (OrderedJoint& joint : ordered_) addJoint(joint);
    orderFromRoots();
    collectRootLinks();
    indexLinkSteps();
    k_.rootName = graph_.rootName();
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      if (frames_[i].kind == FrameKind::Link && parentJointOfLink_[i] < 0) k_.treeRoots.push_back({frames_[i].name, static_cast<int>(i)});
    }
  }

 private:
  // Joints in DOF order: a model's own joints, then its nested models, depth first; world joints
  // last. Each is paired with its frame by identity (never by rebuilding its name: SDFormat < 1.7
  // may have renamed the frame) and named from the scope the graph declared it in.
  void collectJointsInDofOrder() {
    ordered_.reserve(64);
    auto add = [&](const Joint& joint) {
      auto frame = graph_.frameOf(joint);
      if (!frame) return;  // unresolved: already reported by the frame graph
      ordered_.push_back({scopedName(graph_.scopeOf(*frame), joint.name), &joint, *frame});
    };
    std::function<void(const Model&)> collect = [&](const Model& model) {
      for (const Joint& joint : model.joints) add(joint);
      for (const Model& nested : model.models) collect(nested);
    };
    if (document_.isWorld() && graph_.worldIndex() < document_.worlds.size()) {
      const World& world = document_.worlds[graph_.worldIndex()];  // the world the graph resolves
      for (const Model& model : world.models) collect(model);
      for (const Joint& joint : world.joints) add(joint);
    } else if (document_.model) {
      collect(*document_.model);
    }
  }

  // Every frame rides on one link (or is fixed in the root) with a constant offset.
  void attachFramesToLinks() {
    k_.frameLink.assign(frames_.size(), -1);
    k_.offset.reserve(frames_.size());
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      const int link = frames_[i].attachedLinkFrame;
      if (link < 0) {
        k_.offset.push_back(frames_[i].pose);
        continue;
      }
      k_.frameLink[i] = link;
      if (static_cast<std::size_t>(link) == i) {
        k_.offset.push_back(Pose::Identity());
      } else {
        k_.offset.push_back(frames_[static_cast<std::size_t>(link)].pose.inverse() * frames_[i].pose);
      }
    }
  }

  // The links no tree joint moves keep their zero pose in every configuration.
  void collectRootLinks() {
    std::vector<char> moved(frames_.size(), 0);
    for (const JointData& j : k_.joints) moved[static_cast<std::size_t>(j.childFrame)] = 1;
    std::vector<char> listed(frames_.size(), 0);
    for (int link : k_.frameLink) {
      if (link < 0 || moved[static_cast<std::size_t>(link)] || listed[static_cast<std::size_t>(link)]) continue;
      listed[static_cast<std::size_t>(link)] = 1;
      k_.rootLinks.emplace_back(link, frames_[static_cast<std::size_t>(link)].pose);
    }
  }

  void indexLinkSteps() {
    k_.linkStep.assign(frames_.size(), -1);
    for (std::size_t j = 0; j < k_.joints.size(); ++j) k_.linkStep[static_cast<std::size_t>(k_.joints[j].childFrame)] = static_cast<int>(j);
    for (std::size_t r = 0; r < k_.rootLinks.size(); ++r) k_.linkStep[static_cast<std::size_t>(k_.rootLinks[r].first)] = -2 - static_cast<int>(r);
    for (const int link : k_.frameLink) {
      if (link >= 0 && k_.frameLink[static_cast<std::size_t>(link)] != link) k_.linksRideOnThemselves = false;
    }
  }

  /// The link a joint's parent or child reference rides on (-1: fixed in the root).
  std::optional<int> linkOf(std::size_t jointFrame, const std::string& reference) const {
    if (reference == "world") return -1;
    auto f = graph_.resolveReference(jointFrame, reference);
    if (!f) return std::nullopt;
    return k_.frameLink[*f];
  }

  /// Unit axes in the joint frame (axes may be expressed in another frame of the scope).
  std::vector<Vector3> axesInJointFrame(const OrderedJoint& ordered) {
    const Joint& joint = *ordered.joint;
    const Pose& X_RJ = frames_[ordered.frame].pose;
    std::vector<Vector3> axes;
    axes.reserve(joint.axes.size());
    for (const JointAxis& axis : joint.axes) {
      Vector3 a = axis.xyz;
      if (!axis.expressedIn.empty() && axis.expressedIn != joint.name) {
        auto e = graph_.resolveReference(ordered.frame, axis.expressedIn);
        if (!e) {
          diagnostics_.error(ErrorCode::JOINT_AXIS_EXPRESSED_IN_INVALID,
                             "axis of joint '" + ordered.scopedName + "' is expressed in unknown frame '" + axis.expressedIn + "'",
                             axis.where.line ? axis.where : joint.where);
        } else {
          a = X_RJ.linear().transpose() * frames_[*e].pose.linear() * a;
        }
      }
      axes.push_back(a.norm() > 0 ? Vector3(a.normalized()) : a);
    }
    return axes;
  }

  // One joint onto its parent and child links, with its DOFs.
  void addJoint(OrderedJoint& ordered) {
    const Joint* joint = ordered.joint;
    const std::string& scopedName = ordered.scopedName;
    if (joint->parent.empty()) return;  // an InterfaceJoint: a frame, not a tree edge
    auto parent = linkOf(ordered.frame, joint->parent);
    // A joint's frame is attached to its child: the frame graph has looked the child up already.
    const int childFrame = frames_[ordered.frame].attachedTo;
    auto child = childFrame >= 0 ? std::optional<int>(k_.frameLink[static_cast<std::size_t>(childFrame)])
                                 : linkOf(ordered.frame, joint->child);
    if (!parent || !child) return;  // reported by the frame graph phases
    if (*child < 0) {
      diagnostics_.error(ErrorCode::JOINT_CHILD_LINK_INVALID,
                         "child '" + joint->child + "' of joint '" + scopedName + "' is not attached to a movable link",
                         joint->where);
      return;
    }
    if (*parent == *child) {
      if (joint->parent == joint->child) return;  // the frame graph said it: "the same parent and child"
      diagnostics_.error(ErrorCode::JOINT_PARENT_SAME_AS_CHILD,
                         "parent '" + joint->parent + "' and child '" + joint->child + "' of joint '" + scopedName +
                             "' are attached to the same link '" + frames_[static_cast<std::size_t>(*child)].name + "'",
                         joint->where);
      return;
    }
    JointData j;
    j.type = joint->type;
    j.motion.screwThreadPitch = joint->screwThreadPitch;
    j.motion.transmissionRatio = joint->transmissionRatio;
    j.parentFrame = *parent;
    j.childFrame = *child;
    const Pose& X_RJ = frames_[ordered.frame].pose;
    const Pose X_RP = *parent < 0 ? Pose::Identity() : frames_[static_cast<std::size_t>(*parent)].pose;
    j.X_PJ = X_RP.inverse() * X_RJ;
    j.X_JC = X_RJ.inverse() * frames_[static_cast<std::size_t>(*child)].pose;
    j.motion.axes = axesInJointFrame(ordered);

    TreeJoint tree;
    tree.type = joint->type;
    tree.loopClosure = joint->loopClosure;
    tree.parentLink = *parent < 0 ? std::string() : frames_[static_cast<std::size_t>(*parent)].name;
    tree.childLink = frames_[static_cast<std::size_t>(*child)].name;
    tree.parentLinkFrame = *parent;
    tree.childLinkFrame = static_cast<std::size_t>(*child);
    tree.frame = ordered.frame;
    tree.axes = j.motion.axes;
    if (!joint->loopClosure) {
      int& parentJoint = parentJointOfLink_[static_cast<std::size_t>(*child)];
      if (parentJoint >= 0) {
        diagnostics_.warning(ErrorCode::KINEMATIC_LOOP,
                             "link '" + tree.childLink + "' is the child of joints '" +
                                 k_.treeJoints[all_[static_cast<std::size_t>(parentJoint)].tree].name + "' and '" +
                                 scopedName + "'; '" + scopedName + "' is treated as a loop closure",
                             joint->where);
        tree.loopClosure = true;
      } else {
        parentJoint = static_cast<int>(all_.size());
      }
    }
    const int count = dofCount(joint->type);
    if (count > 0) {
      j.firstDof = tree.firstDof = nextDof_;
      for (int c = 0; c < count; ++c) {
        Dof dof;
        dof.joint = scopedName;
        dof.index = c;
        dof.name = count == 1 ? scopedName : scopedName + "[" + std::to_string(c) + "]";
        dof.initial = static_cast<std::size_t>(c) < joint->initialPositions.size() ? joint->initialPositions[c] : 0.0;
        k_.dofs.push_back(std::move(dof));
      }
      nextDof_ += count;
    }
    tree.name = std::move(ordered.scopedName);
    j.tree = k_.treeJoints.size();
    k_.treeJoints.push_back(std::move(tree));
    source_.push_back(joint);
    all_.push_back(std::move(j));
  }

  // Tree joints from the roots outward (breadth first over child links). A loop with no root
  // (every link of it the child of a joint of it) is broken at its first joint in document order,
  // which becomes a loop closure: formats such as SDFormat allow loops.
  void orderFromRoots() {
    // Joints grouped by parent link in one flat array (slot 0 is the root, link frame f is f + 1).
    std::vector<std::size_t> firstChild(frames_.size() + 2, 0);
    for (const JointData& j : all_) ++firstChild[static_cast<std::size_t>(j.parentFrame + 2)];
    for (std::size_t i = 1; i < firstChild.size(); ++i) firstChild[i] += firstChild[i - 1];
    std::vector<std::size_t> childJoints(all_.size());
    {
      std::vector<std::size_t> fill(firstChild.begin(), firstChild.end() - 1);
      for (std::size_t i = 0; i < all_.size(); ++i) childJoints[fill[static_cast<std::size_t>(all_[i].parentFrame + 1)]++] = i;
    }
    auto isLoopClosure = [&](std::size_t j) { return k_.treeJoints[all_[j].tree].loopClosure; };
    std::vector<char> placed(all_.size(), 0);
    std::vector<std::size_t> order;
    order.reserve(all_.size());
    std::deque<int> queue;
    queue.push_back(-1);
    for (std::size_t i = 0; i < frames_.size(); ++i) {  // roots in document order
      if (frames_[i].kind == FrameKind::Link && parentJointOfLink_[i] < 0) queue.push_back(static_cast<int>(i));
    }
    std::size_t next = 0;
    for (;;) {
      while (!queue.empty()) {
        const auto slot = static_cast<std::size_t>(queue.front() + 1);
        queue.pop_front();
        for (std::size_t c = firstChild[slot]; c < firstChild[slot + 1]; ++c) {
          const std::size_t j = childJoints[c];
          if (placed[j] || isLoopClosure(j)) continue;
          placed[j] = 1;
          order.push_back(j);
          queue.push_back(all_[j].childFrame);
        }
      }
      while (next < all_.size() && (placed[next] || isLoopClosure(next))) ++next;
      if (next == all_.size()) break;
      TreeJoint& loop = k_.treeJoints[all_[next].tree];
      loop.loopClosure = true;
      diagnostics_.warning(ErrorCode::KINEMATIC_LOOP,
                           "joint '" + loop.name + "' closes a kinematic loop; it is kept as a loop closure and link '" +
                               loop.childLink + "' is taken as a root of the tree",
                           source_[next]->where);
      parentJointOfLink_[static_cast<std::size_t>(all_[next].childFrame)] = -1;
      queue.push_back(all_[next].childFrame);
    }
    // all_ becomes k_.joints in `order`, permuted in place rather than copied (a second array
    // of every joint's data was the largest block of the load's peak memory); joints left out
    // of the order (loop closures) go to the end and are dropped.
    std::vector<std::size_t> destination(all_.size(), 0);
    std::size_t end = order.size();
    for (std::size_t p = 0; p < order.size(); ++p) destination[order[p]] = p;
    for (std::size_t j = 0; j < all_.size(); ++j) {
      if (!placed[j]) destination[j] = end++;
    }
    for (std::size_t i = 0; i < all_.size(); ++i) {
      while (destination[i] != i) {
        const std::size_t d = destination[i];
        std::swap(all_[i], all_[d]);
        std::swap(destination[i], destination[d]);
      }
    }
    all_.resize(order.size());
    k_.joints = std::move(all_);
    for (JointData& j : k_.joints) prepareWalk(j);
  }

  const Document& document_;
  const FrameGraph& graph_;
  const std::vector<FrameInfo>& frames_;
  Diagnostics& diagnostics_;
  Data& k_;
  std::vector<OrderedJoint> ordered_;
  std::vector<JointData> all_;          // resolved joints in DOF order
  std::vector<const Joint*> source_;    // the document's joint behind each entry of all_
  std::vector<int> parentJointOfLink_;  // child link frame -> index in all_ (tree joints only)
  int nextDof_ = 0;
};

Kinematics Kinematics::build(const Document& document, const FrameGraph& graph, Diagnostics& diagnostics) {
  Kinematics result;
  KinematicsBuilder<Impl>(document, graph, diagnostics, *result.impl_).run();
  return result;
}

const std::vector<Dof>& Kinematics::dofs() const { return impl_->dofs; }
const std::vector<TreeJoint>& Kinematics::joints() const { return impl_->treeJoints; }

std::vector<double> Kinematics::zeroConfiguration() const { return std::vector<double>(impl_->dofs.size(), 0.0); }

std::vector<double> Kinematics::initialConfiguration() const {
  std::vector<double> q;
  q.reserve(impl_->dofs.size());
  for (const auto& d : impl_->dofs) q.push_back(d.initial);
  return q;
}

namespace {

/// A configuration fits when it has one finite value per DOF.
bool checkConfiguration(const std::vector<double>& q, std::size_t dofs, Diagnostics& diagnostics) {
  if (q.size() != dofs) {
    diagnostics.error(ErrorCode::KINEMATICS_INVALID, "configuration has " + std::to_string(q.size()) +
                                                         " values; expected " + std::to_string(dofs) +
                                                         " (one per DOF, in DOF order)");
    return false;
  }
  for (double v : q) {
    if (!std::isfinite(v)) {
      diagnostics.error(ErrorCode::KINEMATICS_INVALID, "configuration contains a non-finite value");
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<FramePoses> Kinematics::posesAt(const std::vector<double>& q, Diagnostics& diagnostics) const {
  const Impl& k = *impl_;
  if (!checkConfiguration(q, k.dofs.size(), diagnostics)) return std::nullopt;
  FramePoses poses;
  poses.kinematics_ = this;
  // X_R_L of every link, in the order linkStep numbers them: the roots, then each joint's child.
  std::vector<Pose>& links = poses.linkPoses_;
  links.reserve(k.rootLinks.size() + k.joints.size());
  detail::adviseHugePages(links.data(), links.capacity() * sizeof(Pose));  // all written, front to back
  for (const auto& rootLink : k.rootLinks) links.push_back(rootLink.second);
  for (const JointData& j : k.joints) {
    const Pose X_RP = poses.linkPose(j.parentFrame);
    const Pose motion = j.firstDof >= 0 ? jointMotion(j.type, j.motion, &q[static_cast<std::size_t>(j.firstDof)]) : Pose::Identity();
    links.push_back(X_RP * full(j.X_PJ) * motion * full(j.X_JC));
  }
  return poses;
}

std::size_t FramePoses::size() const { return kinematics_->impl_->offset.size(); }

const Pose& FramePoses::linkPose(int frame) const {
  static const Pose identity = Pose::Identity();
  if (frame < 0) return identity;
  const Kinematics::Impl& k = *kinematics_->impl_;
  const int step = k.linkStep[static_cast<std::size_t>(frame)];
  const std::size_t slot = step >= 0    ? k.rootLinks.size() + static_cast<std::size_t>(step)
                           : step <= -2 ? static_cast<std::size_t>(-2 - step)
                                        : linkPoses_.size();
  // A frame no joint moves and no root is (none in a built tree), or a link read before its
  // joint (none, in topological order): the identity.
  return slot < linkPoses_.size() ? linkPoses_[slot] : identity;
}

Pose FramePoses::operator[](std::size_t frame) const {
  const Kinematics::Impl& k = *kinematics_->impl_;
  const int link = k.frameLink[frame];
  // A link frame rides on itself with the identity offset: its kept pose is its pose.
  const Pose X_RF = link < 0                                                        ? full(k.offset[frame])
                    : k.linksRideOnThemselves && link == static_cast<int>(frame) ? linkPose(link)
                                                                                 : Pose(linkPose(link) * full(k.offset[frame]));
  return relative_ ? Pose(X_BR_ * X_RF) : X_RF;
}

std::vector<Pose> FramePoses::all() const {
  std::vector<Pose> out;
  out.reserve(size());
  for (std::size_t i = 0; i < size(); ++i) out.push_back((*this)[i]);
  return out;
}

std::optional<std::vector<Pose>> Kinematics::framePoses(const std::vector<double>& q, Diagnostics& diagnostics) const {
  std::optional<FramePoses> poses = posesAt(q, diagnostics);
  if (!poses) return std::nullopt;
  return poses->all();
}

std::optional<Pose> Kinematics::framePose(std::size_t frame, const std::vector<double>& q, Diagnostics& diagnostics) const {
  const Impl& k = *impl_;
  if (!checkConfiguration(q, k.dofs.size(), diagnostics)) return std::nullopt;
  if (frame >= k.offset.size()) {
    diagnostics.error(ErrorCode::KINEMATICS_INVALID, "no frame " + std::to_string(frame) + " (the graph has " +
                                                         std::to_string(k.offset.size()) + ")");
    return std::nullopt;
  }
  int link = k.frameLink[frame];
  if (link < 0) return full(k.offset[frame]);  // fixed in the root
  // From the frame up to the root, composing on the left: X_RF = X_RL0 ... X_PJ M(q) X_JC ... X_LF,
  // kept as its rotation R and translation t: X <- A X is R <- A.R R, t <- A.R t + A.t.
  Matrix3 R = k.offset[frame].linear();
  Vector3 t = k.offset[frame].translation();
  auto pose = [&] {
    Pose X = Pose::Identity();
    X.linear() = R;
    X.translation() = t;
    return X;
  };
  for (std::size_t steps = 0; steps <= k.joints.size(); ++steps) {  // a tree path has at most one step per joint
    const int step = k.linkStep[static_cast<std::size_t>(link)];
    if (step < 0) return step <= -2 ? Pose(k.rootLinks[static_cast<std::size_t>(-2 - step)].second * pose()) : pose();
    const JointData& j = k.joints[static_cast<std::size_t>(step)];
    if (!j.childAtJoint) {
      R = j.X_JC.linear() * R;
      t = j.X_JC.linear() * t + j.X_JC.translation();
    }
    const double* coordinates = j.firstDof >= 0 ? &q[static_cast<std::size_t>(j.firstDof)] : nullptr;
    switch (j.walk) {
      case JointData::Walk::Rigid: break;
      case JointData::Walk::AxisRotation: {  // rows a and b turn in their plane; the axis row stays
        const double angle = j.rotationSign * coordinates[0] / j.motion.transmissionRatio;
        const double c = std::cos(angle), s = std::sin(angle);
        const int a = (j.rotationAxis + 1) % 3, b = (j.rotationAxis + 2) % 3;
        const Eigen::RowVector3d Ra = R.row(a), Rb = R.row(b);
        R.row(a) = c * Ra - s * Rb;
        R.row(b) = s * Ra + c * Rb;
        const double ta = t[a], tb = t[b];
        t[a] = c * ta - s * tb;
        t[b] = s * ta + c * tb;
        break;
      }
      case JointData::Walk::Rotation: {
        const Matrix3 M(Eigen::AngleAxisd(coordinates[0] / j.motion.transmissionRatio, j.motion.axes[0]));
        R = M * R;
        t = M * t;
        break;
      }
      case JointData::Walk::Translation:
        t += (j.motion.axes.empty() ? Vector3::UnitZ() : j.motion.axes[0]) * (coordinates[0] / j.motion.transmissionRatio);
        break;
      case JointData::Walk::Motion: {
        const Pose M = jointMotion(j.type, j.motion, coordinates);
        R = M.linear() * R;
        t = M.linear() * t + M.translation();
        break;
      }
    }
    R = j.X_PJ.linear() * R;
    t = j.X_PJ.linear() * t + j.X_PJ.translation();
    if (j.parentFrame < 0) return pose();
    link = j.parentFrame;
  }
  return pose();  // not reached: the joints form a tree
}

std::string Kinematics::describeTree() const {
  const Impl& k = *impl_;
  std::unordered_map<int, std::vector<const TreeJoint*>> childrenOf;  // parent link frame (-1: root)
  for (const JointData& j : k.joints) childrenOf[j.parentFrame].push_back(&k.treeJoints[j.tree]);
  // Preserve document order among siblings.
  std::string out = (k.rootName.empty() ? std::string("(root)") : k.rootName) + "\n";
  // Iterative depth-first print, drawn as a tree: "├─" for a child with siblings after it, "└─"
  // for the last, and "│" continuing an ancestor's line down to its next child. Past a depth of
  // 24 the indent stops growing and shows the depth, so that a chain of thousands of links prints
  // in linear time (each prefix is at most 24 steps long).
  constexpr int kDrawnDepth = 24;
  struct Item {
    const TreeJoint* joint;
    int depth;
    bool last;           // the last child of its parent
    std::string prefix;  // the ancestors' continuation lines
  };
  auto printBelow = [&](int link, int depth) {
    std::vector<Item> stack;
    auto push = [&](int parent, int d, const std::string& prefix) {
      auto it = childrenOf.find(parent);
      if (it == childrenOf.end()) return;
      for (auto c = it->second.rbegin(); c != it->second.rend(); ++c) {
        stack.push_back({*c, d, c == it->second.rbegin(), prefix});
      }
    };
    push(link, depth, "");
    while (!stack.empty()) {
      const Item item = std::move(stack.back());
      stack.pop_back();
      const TreeJoint& t = *item.joint;
      out += item.prefix;
      if (item.depth > kDrawnDepth) out += "[depth " + std::to_string(item.depth) + "] ";
      out += (item.last ? "└─ " : "├─ ") + t.childLink + "  (" + std::string(jointTypeName(t.type)) + " joint '" +
             t.name + "'";
      if (t.firstDof >= 0) out += ", dof " + std::to_string(t.firstDof);
      out += ")\n";
      const std::string below = item.depth < kDrawnDepth ? item.prefix + (item.last ? "   " : "│  ") : item.prefix;
      push(static_cast<int>(t.childLinkFrame), item.depth + 1, below);
    }
  };
  printBelow(-1, 0);
  for (const auto& link : k.treeRoots) {
    out += link.name + (childrenOf.count(link.frame) ? "" : "  (no joint)") + "\n";
    printBelow(link.frame, 0);
  }
  std::size_t loops = 0;
  for (const auto& t : k.treeJoints) {
    if (!t.loopClosure) continue;
    if (loops++ == 0) out += "loop closures:\n";
    out += "  " + t.name + " (" + std::string(jointTypeName(t.type)) + "): " + (t.parentLink.empty() ? k.rootName : t.parentLink) +
           " -> " + t.childLink + "\n";
  }
  return out;
}

}  // namespace interlink
