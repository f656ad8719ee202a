#include "WriterSupport.hpp"

#include "GazeboExtensions.hpp"
#include "MjcfKept.hpp"

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <map>
#include <set>

#include "interlink/convert/Writers.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::convert::detail {

std::string number(double value) {
  if (std::abs(value) < 1e-15) value = 0.0;
  return formatNumber(value);
}

std::string numbers(const Vector3& v) { return number(v.x()) + " " + number(v.y()) + " " + number(v.z()); }

namespace {

/// A character and what an escaping writes instead of it.
struct Replacement {
  char character;
  const char* text;
};

/// `text` with each character of `table` replaced, and the other control characters (below 0x20)
/// but for those in `keptControls` written as `control(code)` says.
template <typename Control>
std::string escaped(std::string_view text, std::initializer_list<Replacement> table, std::string_view keptControls,
                    Control control) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto* found = std::find_if(table.begin(), table.end(), [c](const Replacement& r) { return r.character == c; });
    if (found != table.end()) {
      out += found->text;
    } else if (static_cast<unsigned char>(c) < 0x20 && keptControls.find(c) == std::string_view::npos) {
      out += control(static_cast<unsigned>(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string xmlEscape(std::string_view text) {
  return escaped(text, {{'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}}, "\n\t\r",
                 [](unsigned code) { return "&#" + std::to_string(code) + ";"; });
}

std::string jsonString(std::string_view text) {
  return "\"" +
         escaped(text, {{'"', "\\\""}, {'\\', "\\\\"}, {'\n', "\\n"}, {'\t', "\\t"}, {'\r', "\\r"}}, {},
                        [](unsigned code) {
                          char buffer[16];
                          std::snprintf(buffer, sizeof buffer, "\\u%04x", code);
                          return std::string(buffer);
                        }) +
         "\"";
}

void XmlOut::indent() {
  // Indentation stops growing at 32 levels: a chain of 10 000 nested bodies would otherwise
  // write 100 MB of spaces (issue 29).
  constexpr int kDeepestIndent = 32;
  out_ << std::string(2 * static_cast<std::size_t>(std::min(depth_, kDeepestIndent)), ' ');
}

void XmlOut::open(const std::string& name, const std::string& attributes) {
  indent();
  out_ << "<" << name << attributes << ">\n";
  ++depth_;
}

void XmlOut::close(const std::string& name) {
  --depth_;
  indent();
  out_ << "</" << name << ">\n";
}

void XmlOut::leaf(const std::string& name, const std::string& text, const std::string& attributes) {
  indent();
  out_ << "<" << name << attributes << ">" << xmlEscape(text) << "</" << name << ">\n";
}

void XmlOut::empty(const std::string& name, const std::string& attributes) {
  indent();
  out_ << "<" << name << attributes << "/>\n";
}

void XmlOut::comment(const std::string& text) {
  std::string safe = text;
  for (std::size_t p = safe.find("--"); p != std::string::npos; p = safe.find("--")) safe.replace(p, 2, "- -");
  indent();
  out_ << "<!-- " << safe << " -->\n";
}

void XmlOut::raw(const std::string& markup) {
  indent();
  out_ << markup << "\n";
}

bool boundsMotion(double bound) { return std::isfinite(bound) && std::abs(bound) < 1e16; }

std::string meshUriFor(const std::string& uriAsWritten, const std::string& resolvedPath, TargetSchemes schemes,
                       const WriteOptions& options) {
  namespace fs = std::filesystem;
  const auto startsWith = [&](const char* prefix) { return uriAsWritten.rfind(prefix, 0) == 0; };
  switch (options.meshUris) {
    case MeshUriStyle::AsWritten: return uriAsWritten;
    case MeshUriStyle::Absolute: return resolvedPath.empty() ? uriAsWritten : resolvedPath;
    case MeshUriStyle::Portable:
      if ((schemes.package && startsWith("package://")) || (schemes.model && startsWith("model://"))) {
        return uriAsWritten;
      }
      break;
    case MeshUriStyle::Relative: break;
  }
  if (resolvedPath.empty()) return uriAsWritten;
  // Text whose place is unknown: the file found is all a reader anywhere can use.
  if (options.outputPath.empty()) return resolvedPath;
  std::error_code ec;
  const fs::path output(options.outputPath);
  const fs::path directory = fs::absolute(output, ec).lexically_normal().parent_path();
  const fs::path relative = fs::path(resolvedPath).lexically_normal().lexically_relative(directory);
  // No relative path between them (another root): the file found is all there is.
  return ec || relative.empty() ? resolvedPath : relative.generic_string();
}

bool isKeptUrdfElement(const KeptElement& kept) {
  return kept.element.name.empty() && kept.path.rfind("robot/", 0) == 0 &&
         kept.path.find('/', 6) == std::string::npos;
}

bool isKeptUrdfChild(const KeptElement& kept) {
  if (!kept.element.name.empty()) return false;
  if (kept.within == "link/visual") return kept.owners.size() == 2 && kept.path.rfind("robot/link/visual/", 0) == 0;
  return kept.owners.size() == 1 && ((kept.within == "link" && kept.path.rfind("robot/link/", 0) == 0) ||
                                     (kept.within == "joint" && kept.path.rfind("robot/joint/", 0) == 0));
}

bool standsForWorld(const FrameGraph& graph, const interlink::detail::ElementIndex& index, std::size_t frame) {
  const FrameInfo& info = graph.frames()[frame];
  const Link* link = index.link(frame);
  return (info.name == "worldbody" || info.name == "world") && link && link->inertial.mass == 0 &&
         info.pose.isApprox(Pose::Identity(), 1e-12);
}

bool isFloatingBase(const FrameGraph& graph, const interlink::detail::ElementIndex& index, const TreeJoint& joint) {
  if (joint.type != JointType::Free || joint.loopClosure) return false;
  return joint.parentLinkFrame < 0 || standsForWorld(graph, index, static_cast<std::size_t>(joint.parentLinkFrame));
}

std::string fileNameOf(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xmlEscape(value) + "\"";
}

Pose relativePose(const FrameGraph& graph, std::size_t reference, std::size_t frame) {
  const auto& frames = graph.frames();
  return frames[reference].pose.inverse() * frames[frame].pose;
}

Vector3 axisInJointFrame(const FrameGraph& graph, std::size_t jointFrame, const JointAxis& axis) {
  if (axis.expressedIn.empty()) return axis.xyz;
  auto reference = graph.resolveReference(jointFrame, axis.expressedIn);
  if (!reference) return axis.xyz;
  return relativePose(graph, jointFrame, *reference).linear() * axis.xyz;
}

bool writable(const LoadResult& loaded, Diagnostics& diagnostics) {
  if (!loaded.ok()) {
    diagnostics.error(ErrorCode::ELEMENT_ERROR, "the input has errors; nothing is written",
                      SourceLocation{loaded.document.sourceFile, 0, 0});
    return false;
  }
  if (!loaded.document.isWorld() && !loaded.document.model) {
    diagnostics.error(ErrorCode::ELEMENT_MISSING, "the input holds neither a world nor a model",
                      SourceLocation{loaded.document.sourceFile, 0, 0});
    return false;
  }
  return true;
}

std::string quaternionWxyzText(const Pose& pose) {
  const Eigen::Vector4d q = quaternionWxyz(pose);
  return number(q[0]) + " " + number(q[1]) + " " + number(q[2]) + " " + number(q[3]);
}

SingleAxisChain singleAxisChainOf(const FrameGraph& graph, std::size_t jointFrame, const Joint& joint) {
  std::vector<Vector3> axes;
  axes.reserve(joint.axes.size());
  for (const JointAxis& axis : joint.axes) axes.push_back(axisInJointFrame(graph, jointFrame, axis));
  return singleAxisChain(joint.type, axes);
}

namespace {

/// The kind of a kept element: its element name when read as a tree; else, for XML text, the last
/// step of its path ("robot/link/gazebo"); for JSON, the first ("joint/j1", "restraint/r2").
std::string keptKind(const KeptElement& kept) {
  if (!kept.element.name.empty()) return kept.element.name;
  const bool xml = kept.text.find_first_not_of(" \t\r\n") != std::string::npos &&
                   kept.text[kept.text.find_first_not_of(" \t\r\n")] == '<';
  const std::size_t slash = xml ? kept.path.rfind('/') : kept.path.find('/');
  if (slash == std::string::npos) return kept.path;
  return xml ? kept.path.substr(slash + 1) : kept.path.substr(0, slash);
}

/// How a warning names one kept element: its owners and its name attribute ("base::imu"), else
/// its path.
std::string keptLabel(const KeptElement& kept) {
  std::string label;
  for (const std::string& owner : kept.owners) label += names::scopePrefix(owner);
  for (const auto& [attribute, value] : kept.element.attributes) {
    if (attribute == "name") return label + value;
  }
  return label + kept.path;
}

class DroppedContent {
 public:
  DroppedContent(const TargetHolds& holds, Diagnostics& diagnostics) : holds_(holds), diagnostics_(diagnostics) {}

  void kept(const std::vector<KeptElement>& elements, bool inModelOrWorld) {
    for (const KeptElement& kept : elements) {
      if (holds_.keptTrees && inModelOrWorld && !kept.element.name.empty()) continue;
      if (isKeptMjcfDefaults(kept)) continue;  // applied by the reader: every value is in the model
      if (holds_.mjcfSections && isKeptMjcfSection(kept)) continue;
      if (holds_.mjcfSections && (isKeptMjcfBodyElement(kept) || isKeptMjcfCamera(kept))) continue;
      if (isKeptMjcfParameters(kept)) {
        if (holds_.mjcfSections) continue;
        std::string owner;
        for (const std::string& name : kept.owners) owner += (owner.empty() ? "" : "::") + name;
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             std::string(holds_.format) + " has no place for MuJoCo " + kept.within + " parameters (" +
                                 (kept.within == "geom"    ? "friction, condim, solref, solimp, margin, material, ..."
                                  : kept.within == "site" ? "type, size, rgba, group, ..."
                                  : kept.within == "body" ? "mocap, gravcomp, user"
                                                          : "armature, limit and friction solver settings, ...") +
                                 "): those of " + kept.within + " '" + owner + "' are not written",
                             kept.where, kept.within + " '" + owner + "'");
        continue;
      }
      if (holds_.gazeboBlocks && isGazeboBlock(kept)) continue;
      if (holds_.urdfElements && (isKeptUrdfElement(kept) || isKeptUrdfChild(kept))) continue;
      const std::string kind = keptKind(kept);
      // MJCF actuators bound their joints' forces: the writers put that into effort limits.
      const char* carried = kind == "actuator" ? "; their force limits are written as joint effort limits" : "";
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           std::string(holds_.format) + " has no place for <" + kind +
                               "> elements (kept as read from the source): '" + keptLabel(kept) + "' is not written" +
                               carried,
                           kept.where, keptLabel(kept));
    }
  }
  /// `place`: where in the document the lights are ("in models", "in worlds").
  void lights(const std::vector<Light>& lights, bool held, const char* place) {
    if (held) return;
    for (const Light& light : lights) cannotHold(std::string("lights ") + place, "light '" + light.name + "'", light.where);
  }
  /// `world`: the parameters of the enclosing world (null for a model file's model), `fileModel`:
  /// the model a model file holds (the one whose gravity a target may have a place for).
  void model(const Model& m, bool nested, const std::map<std::string, std::string>* world, bool fileModel) {
    kept(m.kept, true);
    if (m.gravity && !(fileModel && holds_.modelGravity)) cannotHold("model gravity", "the gravity of model '" + m.name + "'", m.where);
    parameters(m.parameters, world, false, "model '" + m.name + "'", m.where);
    lights(m.lights, holds_.modelLights, "in models");
    for (const Link& link : m.links) {
      if (holds_.linkFlags) break;
      if (!link.gravity) cannotHold("links without gravity", "link '" + names::join(m.name, link.name) + "'", link.where);
      if (link.selfCollide) cannotHold("self-colliding links", "link '" + names::join(m.name, link.name) + "'", link.where);
    }
    for (const Joint& joint : m.joints) {
      const std::string label = "joint '" + names::join(m.name, joint.name) + "'";
      const bool movedFromZero = std::any_of(joint.initialPositions.begin(), joint.initialPositions.end(),
                                             [](double q) { return q != 0; });
      if (!holds_.initialPositions && movedFromZero)
        cannotHold("joint initial positions", label, joint.where);
      if (holds_.jointSprings) continue;
      for (const JointAxis& axis : joint.axes) {
        if (axis.springStiffness == 0) continue;
        cannotHold("joint springs", label, axis.where);
        break;
      }
    }
    if (nested && !holds_.nestedModelFrames) {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           std::string(holds_.format) + " has no place for model frames: nested model '" + m.name +
                               "' is flattened and its frame is not written",
                           m.where, m.name);
    }
    for (const Model& child : m.models) model(child, true, world, false);
  }
  void world(const World& w) {
    kept(w.kept, true);
    lights(w.lights, holds_.worldLights, "in worlds");
    const std::string label = "world '" + w.name + "'";
    if (!holds_.worldGravity && !holds_.worldPhysics) {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           std::string(holds_.format) + " has no place for world gravity and physics: those of " + label +
                               " are not written",
                           w.where);
    } else if (!holds_.worldPhysics) {
      cannotHold("world physics", "the physics of " + label, w.where);
    } else if (!holds_.worldGravity) {
      cannotHold("world gravity", "the gravity of " + label, w.where);
    }
    parameters(w.parameters, nullptr, true, label, w.where);
    for (const Model& m : w.models) model(m, false, &w.parameters, false);
  }

 private:
  /// One element the target has no place for; `label` names it in quotes (grouped by kind).
  void cannotHold(std::string_view kind, const std::string& label, const SourceLocation& where) {
    diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                         std::string(holds_.format) + " has no place for " + std::string(kind) + ": " + label + " is not written",
                         where, label);
  }

  /// The parameters of `owner` ("model 'arm'"): all content (notes of the reading are kept apart,
  /// in readingNotes). A model's parameter equal to its world's (Shift gives both the file's) is
  /// the world's, warned there once.
  void parameters(const std::map<std::string, std::string>& own, const std::map<std::string, std::string>* world,
                  bool ofWorld, const std::string& owner, const SourceLocation& where) {
    for (const auto& [key, value] : own) {
      if (world) {
        const auto same = world->find(key);
        if (same != world->end() && same->second == value) continue;
      }
      cannotHold(ofWorld ? "world parameters" : "model parameters", "parameter '" + key + "' of " + owner, where);
    }
  }

  const TargetHolds& holds_;
  Diagnostics& diagnostics_;
};

}  // namespace

void warnWhatTargetCannotHold(const Document& document, const TargetHolds& holds, Diagnostics& diagnostics) {
  DroppedContent dropped(holds, diagnostics);
  // Root-level kept elements (outside any model or world) have no place in any XML writer's output.
  dropped.kept(document.kept, false);
  dropped.lights(document.lights, holds.worldLights, "at the top level");
  for (const World& world : document.worlds) dropped.world(world);
  if (document.model) dropped.model(*document.model, false, nullptr, true);
}

}  // namespace interlink::convert::detail

namespace interlink::convert {

std::string jsonQuoted(std::string_view text) { return detail::jsonString(text); }

}  // namespace interlink::convert
