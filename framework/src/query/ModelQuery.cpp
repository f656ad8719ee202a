// Host queries on a loaded model. Everything here reads the public FrameGraph and Kinematics: the
// frame poses come from Kinematics::framePoses and the Jacobian from the joints' motion subspaces
// placed at their current frames, so both stay in step with forward kinematics by construction.
#include "interlink/ModelQuery.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <unordered_map>

#include "graph/ElementIndex.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/model/Names.hpp"

namespace interlink {

namespace {

/// A tree joint placed in the frame table, with what its motion depends on.
struct Edge {
  const TreeJoint* joint = nullptr;
  int parentFrame = -1;  // -1: the root
  Pose X_PJ = Pose::Identity();
  JointMotionParameters motion;
};

}  // namespace

struct ModelQuery::Impl {
  const LoadResult* loaded = nullptr;
  std::vector<JointInfo> joints;
  std::unordered_map<std::string, int> dofIndex;
  std::unordered_map<std::string, std::size_t> multiDofJoint;  // joint name -> DOF count (> 1)
  std::vector<Edge> edges;            // tree joints (loop closures excluded)
  std::vector<int> parentEdge;        // per frame: edge whose child is this link frame, -1 otherwise
  std::vector<int> frameLink;         // per frame: the link frame it rides on, -1 when fixed in the root
  std::vector<std::vector<int>> childEdges;  // per frame: edges whose parent is this link frame
  struct LinkMass {
    int frame;
    const Inertial* inertial;
  };
  std::vector<LinkMass> links;
  // The tables above (joints to links) serve joints(), massProperties() and jacobian(); `frames`
  // needs none of them, so they are built on first use (issue 31: 8% of the instructions and
  // ~600 bytes per link of `frames --json`). ModelQuery is const after construction: once_flag.
  std::once_flag tablesBuilt;
  void buildTables();
  const Impl& tables() const {
    Impl& self = const_cast<Impl&>(*this);
    std::call_once(self.tablesBuilt, [&self] { self.buildTables(); });
    return *this;
  }

  std::optional<std::size_t> frame(const std::string& name, Diagnostics& diagnostics) const {
    if (name.empty()) return std::size_t{0};
    auto index = loaded->graph.find(name);
    if (!index) diagnostics.error(ErrorCode::KINEMATICS_INVALID, loaded->graph.unknownFrameMessage(name));
    return index;
  }
};

ModelQuery::ModelQuery(const LoadResult& loaded) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.loaded = &loaded;
  const auto& dofs = loaded.kinematics.dofs();
  for (std::size_t i = 0; i < dofs.size(); ++i) m.dofIndex.emplace(dofs[i].name, static_cast<int>(i));
  for (const TreeJoint& tree : loaded.kinematics.joints()) {
    const int count = dofCount(tree.type);
    if (tree.firstDof >= 0 && count > 1) m.multiDofJoint.emplace(tree.name, static_cast<std::size_t>(count));
  }
}

void ModelQuery::Impl::buildTables() {
  Impl& m = *this;
  const LoadResult& result = *m.loaded;
  const auto& frames = result.graph.frames();

  // The document's joints and links by their frames (identity: names are never rebuilt).
  const detail::ElementIndex document(result.graph, result.document);

  m.frameLink.assign(frames.size(), -1);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    m.frameLink[i] = frames[i].attachedLinkFrame;
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].kind != FrameKind::Link) continue;
    if (const Link* link = document.link(i)) m.links.push_back({static_cast<int>(i), &link->inertial});
  }

  const auto& dofs = result.kinematics.dofs();
  m.parentEdge.assign(frames.size(), -1);
  m.childEdges.assign(frames.size(), {});
  for (const TreeJoint& tree : result.kinematics.joints()) {
    const Joint* joint = document.joint(tree.frame);
    if (tree.firstDof >= 0) {
      JointInfo info;
      info.name = tree.name;
      info.type = tree.type;
      info.firstDof = tree.firstDof;
      info.dofCount = dofCount(tree.type);
      info.axes = tree.axes;
      info.parentLink = tree.parentLink;
      info.childLink = tree.childLink;
      for (std::size_t a = 0; a < tree.axes.size(); ++a) {
        const JointAxis limits = joint && a < joint->axes.size() ? joint->axes[a] : JointAxis{};
        info.lower.push_back(limits.lower);
        info.upper.push_back(limits.upper);
        info.effort.push_back(limits.effort);
        info.velocity.push_back(limits.velocity);
      }
      for (int c = 0; c < info.dofCount; ++c) info.initial.push_back(dofs[static_cast<std::size_t>(tree.firstDof + c)].initial);
      m.joints.push_back(std::move(info));
    }
    if (tree.loopClosure) continue;
    const std::size_t jointFrame = tree.frame;
    const std::size_t child = tree.childLinkFrame;
    std::optional<std::size_t> parent;
    if (tree.parentLinkFrame >= 0) parent = static_cast<std::size_t>(tree.parentLinkFrame);
    Edge e;
    e.joint = &tree;
    e.parentFrame = parent ? static_cast<int>(*parent) : -1;
    const Pose X_RP = parent ? frames[*parent].pose : Pose::Identity();
    e.X_PJ = X_RP.inverse() * frames[jointFrame].pose;
    e.motion.axes = tree.axes;
    if (joint) {
      e.motion.screwThreadPitch = joint->screwThreadPitch;
      e.motion.transmissionRatio = joint->transmissionRatio;
    }
    const int index = static_cast<int>(m.edges.size());
    m.parentEdge[child] = index;
    if (parent) m.childEdges[*parent].push_back(index);
    m.edges.push_back(e);
  }
  // Kinematics lists joints in document order; the configuration vector is in DOF order.
  std::stable_sort(m.joints.begin(), m.joints.end(), [](const JointInfo& a, const JointInfo& b) { return a.firstDof < b.firstDof; });
}

ModelQuery::~ModelQuery() = default;
ModelQuery::ModelQuery(ModelQuery&&) noexcept = default;
ModelQuery& ModelQuery::operator=(ModelQuery&&) noexcept = default;

const LoadResult& ModelQuery::loaded() const { return *impl_->loaded; }
const std::vector<JointInfo>& ModelQuery::joints() const { return impl_->tables().joints; }

std::vector<std::string> ModelQuery::dofNames() const {
  std::vector<std::string> names;
  names.reserve(impl_->loaded->kinematics.dofs().size());
  for (const Dof& dof : impl_->loaded->kinematics.dofs()) names.push_back(dof.name);
  return names;
}

std::optional<std::vector<double>> ModelQuery::configuration(const std::map<std::string, double>& values,
                                                             Diagnostics& diagnostics, const std::vector<double>& base) const {
  const Impl& m = *impl_;
  const std::size_t n = m.loaded->kinematics.dofs().size();
  std::vector<double> q = base.empty() ? std::vector<double>(n, 0.0) : base;
  if (q.size() != n) {
    diagnostics.error(ErrorCode::KINEMATICS_INVALID, "base configuration has " + std::to_string(q.size()) +
                                                         " values; expected " + std::to_string(n));
    return std::nullopt;
  }
  bool ok = true;
  for (const auto& [name, value] : values) {
    auto it = m.dofIndex.find(name);
    if (it != m.dofIndex.end()) {
      q[static_cast<std::size_t>(it->second)] = value;
      continue;
    }
    ok = false;
    auto multi = m.multiDofJoint.find(name);
    if (multi != m.multiDofJoint.end()) {
      diagnostics.error(ErrorCode::KINEMATICS_INVALID, "joint '" + name + "' has " + std::to_string(multi->second) +
                                                           " DOFs; name each one ('" + name + "[0]', ...)");
    } else {
      diagnostics.error(ErrorCode::KINEMATICS_INVALID, "no DOF named '" + name + "'");
    }
  }
  if (!ok) return std::nullopt;
  return q;
}

std::optional<std::vector<Pose>> ModelQuery::framePoses(const std::vector<double>& q, const std::string& relativeTo,
                                                        Diagnostics& diagnostics) const {
  std::optional<FramePoses> poses = framePosesAt(q, relativeTo, diagnostics);
  if (!poses) return std::nullopt;
  return poses->all();
}

std::optional<FramePoses> ModelQuery::framePosesAt(const std::vector<double>& q, const std::string& relativeTo,
                                                   Diagnostics& diagnostics) const {
  auto reference = impl_->frame(relativeTo, diagnostics);
  if (!reference) return std::nullopt;
  std::optional<FramePoses> poses = impl_->loaded->kinematics.posesAt(q, diagnostics);
  if (!poses || *reference == 0) return poses;
  poses->X_BR_ = (*poses)[*reference].inverse();
  poses->relative_ = true;
  return poses;
}

std::optional<Pose> ModelQuery::pose(const std::string& frame, const std::vector<double>& q, const std::string& relativeTo,
                                     Diagnostics& diagnostics) const {
  auto a = impl_->frame(frame, diagnostics);
  auto b = impl_->frame(relativeTo, diagnostics);
  if (!a || !b) return std::nullopt;
  return pose(*a, q, *b, diagnostics);
}

std::optional<Pose> ModelQuery::pose(std::size_t frame, const std::vector<double>& q, std::size_t relativeTo,
                                     Diagnostics& diagnostics) const {
  const Kinematics& kinematics = impl_->loaded->kinematics;
  auto X_RA = kinematics.framePose(frame, q, diagnostics);
  if (!X_RA || relativeTo == 0) return X_RA;
  auto X_RB = kinematics.framePose(relativeTo, q, diagnostics);
  if (!X_RB) return std::nullopt;
  return X_RB->inverse() * *X_RA;
}

std::optional<std::size_t> ModelQuery::frameIndex(const std::string& name, Diagnostics& diagnostics) const {
  return impl_->frame(name, diagnostics);
}

std::optional<std::vector<double>> ModelQuery::parseConfiguration(std::string_view text, Diagnostics& diagnostics) const {
  const Kinematics& kinematics = impl_->loaded->kinematics;
  const std::string whole = trim(text);
  if (whole == "zero") return kinematics.zeroConfiguration();
  if (whole == "initial") return kinematics.initialConfiguration();
  if (whole.find('=') == std::string::npos) {  // values in DOF order, separated by commas or spaces
    std::string spaced = whole;
    for (char& c : spaced) {
      if (c == ',') c = ' ';
    }
    return parseDoubles(spaced, SourceLocation{}, "positions (one value per DOF, in DOF order)", diagnostics);
  }
  // Values by name: NAME=VALUE items separated by commas; a leading "zero" or "initial" item says
  // where the DOFs not named stay (zero by default). A name may hold spaces; the value follows its last '='.
  std::vector<double> base;
  std::map<std::string, double> values;
  bool ok = true;
  std::size_t start = 0;
  for (std::size_t item = 0; start <= whole.size(); ++item) {
    std::size_t end = whole.find(',', start);
    if (end == std::string::npos) end = whole.size();
    const std::string token = trim(std::string_view(whole).substr(start, end - start));
    start = end + 1;
    if (item == 0 && (token == "zero" || token == "initial")) {
      if (token == "initial") base = kinematics.initialConfiguration();
      continue;
    }
    const std::size_t equals = token.rfind('=');
    if (equals == std::string::npos || equals == 0) {
      diagnostics.error(ErrorCode::VALUE_INVALID, "expected NAME=VALUE in positions by name, got '" + token + "'");
      ok = false;
      continue;
    }
    const std::string name = trim(std::string_view(token).substr(0, equals));
    auto value = parseDouble(std::string_view(token).substr(equals + 1), SourceLocation{}, "the position of '" + name + "'", diagnostics);
    if (!value) {
      ok = false;
      continue;
    }
    if (!values.emplace(name, *value).second) {
      diagnostics.error(ErrorCode::VALUE_INVALID, "'" + name + "' is given twice in positions by name");
      ok = false;
    }
  }
  auto q = configuration(values, diagnostics, base);
  if (!ok) return std::nullopt;
  return q;
}

std::optional<MassProperties> ModelQuery::massProperties(const std::vector<double>& q, const std::string& subtree,
                                                         Diagnostics& diagnostics) const {
  const Impl& m = impl_->tables();
  const auto& frames = m.loaded->graph.frames();
  std::vector<char> included(frames.size(), subtree.empty() ? 1 : 0);
  if (!subtree.empty()) {
    auto root = m.frame(subtree, diagnostics);
    if (!root) return std::nullopt;
    const FrameInfo& f = frames[*root];
    if (*root == 0) {
      included.assign(frames.size(), 1);
    } else if (f.kind == FrameKind::Model) {
      const std::string prefix = names::scopePrefix(f.name);
      for (std::size_t i = 0; i < frames.size(); ++i) included[i] = frames[i].name.compare(0, prefix.size(), prefix) == 0;
    } else if (f.kind == FrameKind::Link) {
      std::vector<std::size_t> stack{*root};
      while (!stack.empty()) {
        const std::size_t link = stack.back();
        stack.pop_back();
        if (included[link]) continue;  // a tree visits each link once; this guards malformed input
        included[link] = 1;
        for (int e : m.childEdges[link]) {
          stack.push_back(m.edges[static_cast<std::size_t>(e)].joint->childLinkFrame);
        }
      }
    } else {
      diagnostics.error(ErrorCode::KINEMATICS_INVALID,
                        "'" + subtree + "' is a " + frameKindName(f.kind) + " frame; a subtree is named by a model or a link");
      return std::nullopt;
    }
  }
  auto poses = m.loaded->kinematics.posesAt(q, diagnostics);  // each pose made when read
  if (!poses) return std::nullopt;

  MassProperties out;
  Vector3 moment = Vector3::Zero();
  for (const auto& link : m.links) {
    if (!included[static_cast<std::size_t>(link.frame)]) continue;
    const Pose X_RC = (*poses)[static_cast<std::size_t>(link.frame)] * link.inertial->centerOfMass;
    out.mass += link.inertial->mass;
    moment += link.inertial->mass * X_RC.translation();
  }
  if (out.mass <= 0) return out;
  out.centerOfMass = moment / out.mass;
  for (const auto& link : m.links) {
    if (!included[static_cast<std::size_t>(link.frame)]) continue;
    const Pose X_RC = (*poses)[static_cast<std::size_t>(link.frame)] * link.inertial->centerOfMass;
    const Matrix3 R = X_RC.linear();
    const Vector3 d = X_RC.translation() - out.centerOfMass;
    // Rotated into the root frame, then moved to the common centre of mass (parallel axes).
    out.inertia += R * link.inertial->inertia * R.transpose() +
                   link.inertial->mass * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
  }
  return out;
}

std::optional<Jacobian> ModelQuery::jacobian(const std::string& frame, const std::vector<double>& q,
                                             Diagnostics& diagnostics) const {
  const Impl& m = impl_->tables();
  auto index = m.frame(frame, diagnostics);
  if (!index) return std::nullopt;
  auto poses = m.loaded->kinematics.posesAt(q, diagnostics);  // each pose made when read
  if (!poses) return std::nullopt;
  Jacobian J = Jacobian::Zero(6, static_cast<Eigen::Index>(q.size()));
  const Vector3 p_RF = (*poses)[*index].translation();
  int link = m.frameLink[*index];
  std::size_t guard = 0;  // a tree path is at most one edge per edge
  while (link >= 0 && guard++ <= m.edges.size()) {
    const int e = m.parentEdge[static_cast<std::size_t>(link)];
    if (e < 0) break;
    const Edge& edge = m.edges[static_cast<std::size_t>(e)];
    if (edge.joint->firstDof >= 0) {
      const Pose X_RP = edge.parentFrame < 0 ? Pose::Identity() : (*poses)[static_cast<std::size_t>(edge.parentFrame)];
      const Pose X_RJ = X_RP * edge.X_PJ;  // the joint frame before its own motion
      const double* coordinates = &q[static_cast<std::size_t>(edge.joint->firstDof)];
      const Vector3 lever = p_RF - X_RJ.translation();
      for (int c = 0; c < dofCount(edge.joint->type); ++c) {
        const MotionColumn column_J = jointMotionColumn(edge.joint->type, edge.motion, coordinates, c);
        const Vector3 w_R = X_RJ.linear() * column_J.angular;
        const Eigen::Index column = edge.joint->firstDof + c;
        J.block<3, 1>(0, column) = X_RJ.linear() * column_J.linear + w_R.cross(lever);
        J.block<3, 1>(3, column) = w_R;
      }
    }
    link = edge.parentFrame;
  }
  return J;
}

}  // namespace interlink
