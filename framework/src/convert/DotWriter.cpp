// The frame graph as Graphviz DOT: one node per named frame, models as nested clusters, the
// kinematic tree in solid edges labelled with joint poses, attached-to and relative-to relations
// in distinct styles; or the kinematic tree alone.
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "WriterSupport.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::convert {
namespace {

std::string dotString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string localName(const std::string& scoped) { return std::string(names::localName(scoped)); }

/// Six significant digits, -0 and rounding noise below 1e-12 shown as 0: a label to read, not to
/// parse back.
std::string shortNumber(double value) {
  if (std::abs(value) < 1e-12) value = 0;
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

/// "xyz: x y z\nrpy: roll pitch yaw", the edge label urdf_to_graphviz writes for a joint origin.
std::string poseLabel(const Pose& pose) {
  const Vector3 xyz = pose.translation();
  const Vector3 rpy = rpyFromRotation(pose.linear());
  return "xyz: " + shortNumber(xyz.x()) + " " + shortNumber(xyz.y()) + " " + shortNumber(xyz.z()) +
         "\\nrpy: " + shortNumber(rpy.x()) + " " + shortNumber(rpy.y()) + " " + shortNumber(rpy.z());
}

class DotWriter {
 public:
  DotWriter(const LoadResult& loaded, const DotOptions& options)
      : loaded_(loaded), options_(options), frames_(loaded.graph.frames()) {
    // Tree joints by their frames (identity: a joint's frame may be named otherwise than it).
    for (const TreeJoint& j : loaded_.kinematics.joints()) treeJointOfFrame_[j.frame] = &j;
  }

  std::string write() {
    out_ << "digraph interlink {\n"
         << "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=11, compound=true, label=" << dotString(legend())
         << ", labelloc=b];\n"
         << "  node [fontname=\"Helvetica\", fontsize=10, style=filled];\n"
         << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    // Which frames belong to which model scope ("" is the root scope).
    for (std::size_t i = 1; i < frames_.size(); ++i) members_[loaded_.graph.scopeOf(i)].push_back(i);
    const bool world = loaded_.graph.isWorld();
    if (world) {
      node(0);
      writeScope("");
    } else {
      // A model file: the top model is the outermost cluster, its frame the root node.
      out_ << "  subgraph cluster_root {\n    label=" << dotString("model " + frames_[0].name)
           << "; style=rounded; color=gray30;\n";
      node(0);
      writeScope("");
      out_ << "  }\n";
    }
    edges();
    out_ << "}\n";
    return out_.str();
  }

 private:
  std::string legend() const {
    std::string text = "solid: joints of the kinematic tree (parent link -> joint -> child link)";
    if (options_.poseLabels) text += ", labelled with the joint pose in the parent link";
    if (!options_.kinematicTreeOnly) text += "; dashed blue: attached-to; dotted grey: pose relative-to";
    return text + "; red: loop closure";
  }

  /// In a drawing of the kinematic tree alone, only links, joints and the root are nodes.
  bool drawn(std::size_t i) const {
    if (!options_.kinematicTreeOnly || i == 0) return true;
    return frames_[i].kind == FrameKind::Link || frames_[i].kind == FrameKind::Joint;
  }

  void node(std::size_t i) {
    if (!drawn(i)) return;
    const FrameInfo& f = frames_[i];
    std::string shape;
    std::string fill;
    switch (f.kind) {
      case FrameKind::World: shape = "doublecircle", fill = "gray90"; break;
      case FrameKind::Model: shape = "tab", fill = "lavender"; break;
      case FrameKind::Link: shape = "box", fill = "lightyellow"; break;
      case FrameKind::Joint: shape = "ellipse", fill = "lightblue"; break;
      case FrameKind::Frame: shape = "note", fill = "honeydew"; break;
    }
    // Nodes are told apart by shape and kind: a joint named like a link keeps its own name.
    std::string label = (i == 0 ? f.name : localName(f.shownName())) + "\\n" + frameKindName(f.kind);
    const TreeJoint* tree = f.kind == FrameKind::Joint ? treeJointOf(i) : nullptr;
    if (tree) {
      label = localName(f.shownName()) + "\\n" + std::string(jointTypeName(tree->type)) + " joint";
      if (tree->loopClosure) {
        label += "\\nloop closure";
        fill = "mistyrose";
      }
    }
    out_ << "    f" << i << " [label=\"" << escapeLabel(label) << "\", shape=" << shape << ", fillcolor=" << fill
         << (tree && tree->loopClosure ? ", color=red, penwidth=2" : "") << "];\n";
  }

  static std::string escapeLabel(const std::string& label) {
    std::string out;
    for (std::size_t i = 0; i < label.size(); ++i) {
      // Keep the "\n" line breaks we put in; escape quotes.
      if (label[i] == '"') out += '\\';
      out += label[i];
    }
    return out;
  }

  const TreeJoint* treeJointOf(std::size_t frame) const {
    auto it = treeJointOfFrame_.find(frame);
    return it == treeJointOfFrame_.end() ? nullptr : it->second;
  }

  void writeScope(const std::string& scope) {
    auto found = members_.find(scope);
    if (found == members_.end()) return;
    for (std::size_t i : found->second) {
      const FrameInfo& f = frames_[i];
      if (f.kind == FrameKind::Model) {
        out_ << "  subgraph cluster_" << i << " {\n    label=" << dotString("model " + f.name)
             << "; style=rounded; color=gray50;\n";
        node(i);
        writeScope(f.name);
        out_ << "  }\n";
      } else {
        node(i);
      }
    }
  }

  void edges() {
    auto id = [](std::size_t frame) { return "f" + std::to_string(frame); };
    out_ << "  // kinematic tree\n";
    for (const TreeJoint& j : loaded_.kinematics.joints()) {
      const std::string joint = id(j.frame);
      const std::string parent = j.parentLinkFrame < 0 ? id(0) : id(static_cast<std::size_t>(j.parentLinkFrame));
      const std::string child = id(j.childLinkFrame);
      const std::string style = j.loopClosure ? "color=red, penwidth=2, style=bold" : "penwidth=2";
      std::string label;
      if (options_.poseLabels) label = jointPoseInParent(j);
      if (j.loopClosure) label = label.empty() ? "loop closure" : "loop closure\\n" + label;
      out_ << "  " << parent << " -> " << joint << " [" << (label.empty() ? "" : "label=\"" + label + "\", ") << style
           << "];\n";
      out_ << "  " << joint << " -> " << child << " [" << style << "];\n";
    }
    if (options_.kinematicTreeOnly) return;
    out_ << "  // attached-to\n";
    for (std::size_t i = 1; i < frames_.size(); ++i) {
      if (frames_[i].attachedTo < 0) continue;
      out_ << "  f" << i << " -> f" << frames_[i].attachedTo
           << " [style=dashed, color=blue, arrowhead=empty, constraint=false];\n";
    }
    out_ << "  // relative-to\n";
    for (std::size_t i = 1; i < frames_.size(); ++i) {
      if (frames_[i].relativeTo < 0) continue;
      out_ << "  f" << i << " -> f" << frames_[i].relativeTo
           << " [style=dotted, color=gray40, arrowhead=vee, constraint=false];\n";
    }
  }

  /// X_PJ: the joint frame in its parent link's frame (the root's for a joint to the world).
  std::string jointPoseInParent(const TreeJoint& joint) const {
    const std::size_t parent = joint.parentLinkFrame < 0 ? 0 : static_cast<std::size_t>(joint.parentLinkFrame);
    return poseLabel(frames_[parent].pose.inverse() * frames_[joint.frame].pose);
  }

  const LoadResult& loaded_;
  const DotOptions options_;
  const std::vector<FrameInfo>& frames_;
  std::ostringstream out_;
  std::map<std::string, std::vector<std::size_t>> members_;
  std::unordered_map<std::size_t, const TreeJoint*> treeJointOfFrame_;
};

}  // namespace

std::string writeDot(const LoadResult& loaded, const DotOptions& options) {
  return DotWriter(loaded, options).write();
}

}  // namespace interlink::convert
