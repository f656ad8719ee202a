// Kinematic tree and forward kinematics over the resolved frame graph.
//
// Every frame is rigidly attached to one link (or fixed in the root), so forward kinematics only
// moves links: X_RC(q) = X_RP(q) · X_PJ · M_J(q) · X_JC along the tree, with X_PJ and X_JC taken
// from the zero-configuration graph; every other frame follows its link with a constant offset.
#include "interlink/Kinematics.hpp"

#include <cmath>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "interlink/PoseMath.hpp"

namespace interlink {

namespace {

constexpr double kTwoPi = 6.283185307179586;

struct JointData {
  std::size_t tree = 0;  // index of the public TreeJoint
  JointType type = JointType::Fixed;
  int firstDof = -1;
  double screwThreadPitch = 0;
  double transmissionRatio = 1;
  int parentFrame = -1;  // frame index of the parent link (-1: the root)
  int childFrame = -1;   // frame index of the child link
  Pose X_PJ = Pose::Identity();
  Pose X_JC = Pose::Identity();
  std::vector<Vector3> axes;  // unit axes in the joint frame
};

/// Motion of a joint's child side in the joint frame for the joint's coordinates.
Pose jointMotion(const JointData& j, const double* coordinates) {
  Pose m = Pose::Identity();
  // A geared single-axis joint (HRDF actuators) turns its output by q / transmission ratio.
  double geared[1];
  const double* q = coordinates;
  if ((j.type == JointType::Revolute || j.type == JointType::Continuous || j.type == JointType::Prismatic) &&
      j.transmissionRatio != 1.0 && j.transmissionRatio != 0.0) {
    geared[0] = coordinates[0] / j.transmissionRatio;
    q = geared;
  }
  auto axis = [&](std::size_t i, const Vector3& fallback) { return i < j.axes.size() ? j.axes[i] : fallback; };
  auto rotation = [](const Vector3& a, double angle) { return Matrix3(Eigen::AngleAxisd(angle, a)); };
  switch (j.type) {
    case JointType::Fixed: break;
    case JointType::Revolute:
    case JointType::Continuous:
    case JointType::Gearbox: m.linear() = rotation(axis(0, Vector3::UnitZ()), q[0]); break;
    case JointType::Prismatic: m.translation() = axis(0, Vector3::UnitZ()) * q[0]; break;
    case JointType::Screw: {
      const Vector3 a = axis(0, Vector3::UnitZ());
      m.linear() = rotation(a, q[0]);
      m.translation() = a * (q[0] / kTwoPi * j.screwThreadPitch);
      break;
    }
    case JointType::Universal:
    case JointType::Revolute2:
      m.linear() = rotation(axis(0, Vector3::UnitX()), q[0]) * rotation(axis(1, Vector3::UnitY()), q[1]);
      break;
    case JointType::Ball: m.linear() = rotationFromRotationVector(Vector3(q[0], q[1], q[2])); break;
    case JointType::Planar: {
      Vector3 t1 = Vector3::UnitX(), t2 = Vector3::UnitY();
      if (j.axes.size() >= 2) {
        t1 = j.axes[0];
        t2 = j.axes[1];
      } else if (j.axes.size() == 1) {  // SDFormat gives the plane normal
        const Vector3 normal = j.axes[0];
        t1 = normal.unitOrthogonal();
        t2 = normal.cross(t1);
      }
      m.translation() = t1 * q[0] + t2 * q[1];
      m.linear() = rotation(t1.cross(t2).normalized(), q[2]);
      break;
    }
    case JointType::Free:
      m.translation() = Vector3(q[0], q[1], q[2]);
      m.linear() = rotationFromRotationVector(Vector3(q[3], q[4], q[5]));
      break;
    case JointType::Translational:
      m.translation() = axis(0, Vector3::UnitX()) * q[0] + axis(1, Vector3::UnitY()) * q[1] + axis(2, Vector3::UnitZ()) * q[2];
      break;
    case JointType::Translational2D:
      m.translation() = axis(0, Vector3::UnitX()) * q[0] + axis(1, Vector3::UnitY()) * q[1];
      break;
    case JointType::Euler:
      m.linear() = rotation(axis(0, Vector3::UnitX()), q[0]) * rotation(axis(1, Vector3::UnitY()), q[1]) *
                   rotation(axis(2, Vector3::UnitZ()), q[2]);
      break;
  }
  return m;
}

}  // namespace

struct Kinematics::Impl {
  std::vector<Dof> dofs;
  std::vector<TreeJoint> treeJoints;  // public copy
  std::vector<JointData> joints;      // tree joints in topological order (loop closures excluded)
  std::vector<Pose> zeroPoses;        // X_R_F at zero for every frame of the graph
  std::vector<int> frameLink;         // frame index of the link each frame rides on (-1: fixed)
  std::vector<Pose> linkOffset;       // X_L_F
  // For describeTree(), which is built on demand: a deep chain makes a large text.
  struct LinkEntry {
    std::string name;
    int frame;
    bool hasParentJoint;
  };
  std::vector<LinkEntry> links;
  std::string rootName;
};

Kinematics::Kinematics() : impl_(std::make_unique<Impl>()) {}
Kinematics::~Kinematics() = default;
Kinematics::Kinematics(Kinematics&&) noexcept = default;
Kinematics& Kinematics::operator=(Kinematics&&) noexcept = default;

Kinematics Kinematics::build(const Document& document, const FrameGraph& graph, Diagnostics& diagnostics) {
  Kinematics result;
  Impl& k = *result.impl_;
  const auto& frames = graph.frames();
  if (frames.empty()) return result;

  // Joints in DOF order: a model's own joints, then its nested models, depth first; world joints last.
  std::vector<std::pair<std::string, const Joint*>> ordered;
  ordered.reserve(64);
  std::function<void(const Model&, const std::string&)> collect = [&](const Model& model, const std::string& prefix) {
    for (const Joint& joint : model.joints) ordered.emplace_back(prefix + joint.name, &joint);
    for (const Model& nested : model.models) {
      if (!nested.include) collect(nested, prefix + nested.name + "::");
    }
  };
  if (document.isWorld() && graph.worldIndex() < document.worlds.size()) {
    const World& world = document.worlds[graph.worldIndex()];  // the world the graph resolves
    for (const Model& model : world.models) {
      if (!model.include) collect(model, model.name + "::");
    }
    for (const Joint& joint : world.joints) ordered.emplace_back(joint.name, &joint);
  } else if (document.model) {
    collect(*document.model, "");
  }

  k.zeroPoses.reserve(frames.size());
  for (const auto& f : frames) k.zeroPoses.push_back(f.pose);

  // Frame index of the link every frame rides on, and its constant offset.
  std::unordered_map<std::string_view, int> linkIndex;  // views of the graph's frame names
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].kind == FrameKind::Link) linkIndex.emplace(std::string_view(frames[i].name), static_cast<int>(i));
  }
  k.frameLink.assign(frames.size(), -1);
  k.linkOffset.assign(frames.size(), Pose::Identity());
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].attachedLink.empty()) continue;
    auto it = linkIndex.find(std::string_view(frames[i].attachedLink));
    if (it == linkIndex.end()) continue;
    k.frameLink[i] = it->second;
    k.linkOffset[i] = frames[static_cast<std::size_t>(it->second)].pose.inverse() * frames[i].pose;
  }

  // Resolve every joint to its parent and child links.
  std::vector<JointData> all;
  std::vector<const Joint*> source;  // the document's joint behind each entry of `all`
  all.reserve(ordered.size());
  source.reserve(ordered.size());
  k.treeJoints.reserve(ordered.size());
  std::vector<int> parentJointOfLink(frames.size(), -1);  // child link frame -> index in `all` (tree joints only)
  int nextDof = 0;
  for (auto& [scopedName, joint] : ordered) {
    auto index = graph.find(scopedName);
    if (!index) continue;  // unresolved: already reported by the frame graph
    if (joint->parent.empty()) continue;  // an InterfaceJoint: a frame, not a tree edge
    auto linkOf = [&](const std::string& reference) -> std::optional<int> {
      if (reference == "world") return -1;
      auto f = graph.resolveReference(*index, reference);
      if (!f) return std::nullopt;
      return k.frameLink[*f];  // -1 when the frame is fixed in the root (world frames, static models)
    };
    auto parent = linkOf(joint->parent);
    auto child = linkOf(joint->child);
    if (!parent || !child) continue;  // reported by the frame graph phases
    if (*child < 0) {
      diagnostics.error(ErrorCode::JOINT_CHILD_LINK_INVALID,
                        "child '" + joint->child + "' of joint '" + scopedName + "' is not attached to a movable link",
                        joint->where);
      continue;
    }
    if (*parent == *child) {
      diagnostics.error(ErrorCode::JOINT_PARENT_SAME_AS_CHILD,
                        "parent '" + joint->parent + "' and child '" + joint->child + "' of joint '" + scopedName +
                            "' are attached to the same link '" + frames[static_cast<std::size_t>(*child)].name + "'",
                        joint->where);
      continue;
    }
    JointData j;
    j.type = joint->type;
    j.screwThreadPitch = joint->screwThreadPitch;
    j.transmissionRatio = joint->transmissionRatio;
    j.parentFrame = *parent;
    j.childFrame = *child;
    const Pose& X_RJ = frames[*index].pose;
    const Pose X_RP = *parent < 0 ? Pose::Identity() : frames[static_cast<std::size_t>(*parent)].pose;
    j.X_PJ = X_RP.inverse() * X_RJ;
    j.X_JC = X_RJ.inverse() * frames[static_cast<std::size_t>(*child)].pose;
    j.axes.reserve(joint->axes.size());
    for (const JointAxis& axis : joint->axes) {
      Vector3 a = axis.xyz;
      if (!axis.expressedIn.empty() && axis.expressedIn != joint->name) {
        auto e = graph.resolveReference(*index, axis.expressedIn);
        if (!e) {
          diagnostics.error(ErrorCode::JOINT_AXIS_EXPRESSED_IN_INVALID,
                            "axis of joint '" + scopedName + "' is expressed in unknown frame '" + axis.expressedIn + "'",
                            axis.where.line ? axis.where : joint->where);
        } else {
          a = X_RJ.linear().transpose() * frames[*e].pose.linear() * a;
        }
      }
      j.axes.push_back(a.norm() > 0 ? Vector3(a.normalized()) : a);
    }

    TreeJoint tree;
    tree.type = joint->type;
    tree.loopClosure = joint->loopClosure;
    tree.parentLink = *parent < 0 ? std::string() : frames[static_cast<std::size_t>(*parent)].name;
    tree.childLink = frames[static_cast<std::size_t>(*child)].name;
    tree.axes = j.axes;
    if (!joint->loopClosure) {
      int& parentJoint = parentJointOfLink[static_cast<std::size_t>(*child)];
      if (parentJoint >= 0) {
        diagnostics.warning(ErrorCode::KINEMATIC_LOOP,
                            "link '" + tree.childLink + "' is the child of joints '" + k.treeJoints[all[static_cast<std::size_t>(parentJoint)].tree].name +
                                "' and '" + scopedName + "'; '" + scopedName + "' is treated as a loop closure",
                            joint->where);
        tree.loopClosure = true;
      } else {
        parentJoint = static_cast<int>(all.size());
      }
    }
    const int count = dofCount(joint->type);
    if (count > 0) {
      j.firstDof = tree.firstDof = nextDof;
      for (int c = 0; c < count; ++c) {
        Dof dof;
        dof.joint = scopedName;
        dof.index = c;
        dof.name = count == 1 ? scopedName : scopedName + "[" + std::to_string(c) + "]";
        dof.initial = static_cast<std::size_t>(c) < joint->initialPositions.size() ? joint->initialPositions[c] : 0.0;
        k.dofs.push_back(std::move(dof));
      }
      nextDof += count;
    }
    tree.name = std::move(scopedName);
    j.tree = k.treeJoints.size();
    k.treeJoints.push_back(std::move(tree));
    source.push_back(joint);
    all.push_back(std::move(j));
  }

  // Joints grouped by parent link in one flat array (slot 0 is the root, link frame f is f + 1).
  std::vector<std::size_t> firstChild(frames.size() + 2, 0);
  for (const JointData& j : all) ++firstChild[static_cast<std::size_t>(j.parentFrame + 2)];
  for (std::size_t i = 1; i < firstChild.size(); ++i) firstChild[i] += firstChild[i - 1];
  std::vector<std::size_t> childJoints(all.size());
  {
    std::vector<std::size_t> fill(firstChild.begin(), firstChild.end() - 1);
    for (std::size_t i = 0; i < all.size(); ++i) childJoints[fill[static_cast<std::size_t>(all[i].parentFrame + 1)]++] = i;
  }
  auto isLoopClosure = [&](std::size_t j) { return k.treeJoints[all[j].tree].loopClosure; };

  // Order tree joints from the roots outward (breadth first over child links). A loop with no
  // root (every link of it the child of a joint of it) is broken at its first joint in document
  // order, which becomes a loop closure: formats such as SDFormat allow loops.
  std::vector<char> placed(all.size(), 0);
  std::vector<std::size_t> order;  // tree joints from the roots outward
  order.reserve(all.size());
  std::deque<int> queue;
  queue.push_back(-1);
  for (std::size_t i = 0; i < frames.size(); ++i) {  // roots in document order
    if (frames[i].kind == FrameKind::Link && parentJointOfLink[i] < 0) queue.push_back(static_cast<int>(i));
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
        queue.push_back(all[j].childFrame);
      }
    }
    while (next < all.size() && (placed[next] || isLoopClosure(next))) ++next;
    if (next == all.size()) break;
    TreeJoint& loop = k.treeJoints[all[next].tree];
    loop.loopClosure = true;
    diagnostics.warning(ErrorCode::KINEMATIC_LOOP,
                        "joint '" + loop.name + "' closes a kinematic loop; it is kept as a loop closure and link '" +
                            loop.childLink + "' is taken as a root of the tree",
                        source[next]->where);
    parentJointOfLink[static_cast<std::size_t>(all[next].childFrame)] = -1;
    queue.push_back(all[next].childFrame);
  }
  k.joints.reserve(order.size());
  for (std::size_t j : order) k.joints.push_back(std::move(all[j]));

  k.rootName = graph.rootName();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].kind == FrameKind::Link) k.links.push_back({frames[i].name, static_cast<int>(i), parentJointOfLink[i] >= 0});
  }
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

std::optional<std::vector<Pose>> Kinematics::framePoses(const std::vector<double>& q, Diagnostics& diagnostics) const {
  const Impl& k = *impl_;
  if (q.size() != k.dofs.size()) {
    diagnostics.error(ErrorCode::KINEMATICS_INVALID, "configuration has " + std::to_string(q.size()) +
                                                         " values; expected " + std::to_string(k.dofs.size()) +
                                                         " (one per DOF, in DOF order)");
    return std::nullopt;
  }
  for (double v : q) {
    if (!std::isfinite(v)) {
      diagnostics.error(ErrorCode::KINEMATICS_INVALID, "configuration contains a non-finite value");
      return std::nullopt;
    }
  }
  std::vector<Pose> links = k.zeroPoses;  // only link entries are updated
  for (const JointData& j : k.joints) {
    const Pose X_RP = j.parentFrame < 0 ? Pose::Identity() : links[static_cast<std::size_t>(j.parentFrame)];
    const Pose motion = j.firstDof >= 0 ? jointMotion(j, &q[static_cast<std::size_t>(j.firstDof)]) : Pose::Identity();
    links[static_cast<std::size_t>(j.childFrame)] = X_RP * j.X_PJ * motion * j.X_JC;
  }
  std::vector<Pose> out(k.zeroPoses.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int link = k.frameLink[i];
    out[i] = link < 0 ? k.zeroPoses[i] : links[static_cast<std::size_t>(link)] * k.linkOffset[i];
  }
  return out;
}

std::string Kinematics::describeTree() const {
  const Impl& k = *impl_;
  std::unordered_map<int, std::vector<const TreeJoint*>> childrenOf;  // parent link frame (-1: root)
  std::unordered_map<std::string, int> frameOfLink;
  for (const auto& link : k.links) frameOfLink.emplace(link.name, link.frame);
  for (const JointData& j : k.joints) childrenOf[j.parentFrame].push_back(&k.treeJoints[j.tree]);
  // Preserve document order among siblings.
  std::string out = (k.rootName.empty() ? std::string("(root)") : k.rootName) + "\n";
  // Iterative depth-first print; past a depth of 24 the indent stops growing and shows the depth,
  // so that a chain of thousands of links prints in linear time.
  struct Item {
    const TreeJoint* joint;
    int depth;
  };
  auto printBelow = [&](int link, int depth) {
    std::vector<Item> stack;
    auto push = [&](int parent, int d) {
      auto it = childrenOf.find(parent);
      if (it == childrenOf.end()) return;
      for (auto c = it->second.rbegin(); c != it->second.rend(); ++c) stack.push_back({*c, d});
    };
    push(link, depth);
    while (!stack.empty()) {
      const Item item = stack.back();
      stack.pop_back();
      const TreeJoint& t = *item.joint;
      if (item.depth <= 24) {
        out.append(static_cast<std::size_t>(item.depth) * 3, ' ');
      } else {
        out.append(72, ' ');
        out += "[depth " + std::to_string(item.depth) + "] ";
      }
      out += "└─ " + t.childLink + "  (" + std::string(jointTypeName(t.type)) + " joint '" + t.name + "'";
      if (t.firstDof >= 0) out += ", dof " + std::to_string(t.firstDof);
      out += ")\n";
      push(frameOfLink.count(t.childLink) ? frameOfLink.at(t.childLink) : -2, item.depth + 1);
    }
  };
  printBelow(-1, 0);
  for (const auto& link : k.links) {
    if (link.hasParentJoint) continue;
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
