// Core model -> MJCF (MuJoCo 2.2.2). The kinematic tree becomes nested <body> elements under
// <worldbody> (the root frame); each tree joint becomes the MuJoCo joints that move its child the
// same way, placed in the child body frame; loop-closure joints become <equality> welds or
// connects; explicit and nested-model frames become sites. Masses are written as explicit
// <inertial> elements and geoms carry no mass (inertiafromgeom="false"), so MuJoCo's bodies weigh
// what the core model says. Rules and what MJCF cannot hold: docs/mjcf.md.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "MjcfKept.hpp"
#include "WriterSupport.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::convert {
namespace {

constexpr double kMassBound = 1e-13;

std::string frameAttributes(const Pose& pose) {
  std::string out;
  if (!pose.translation().isZero(1e-15)) out += attr("pos", numbers(pose.translation()));
  if (!pose.linear().isIdentity(1e-15)) out += attr("quat", detail::quaternionWxyzText(pose));
  return out;
}

using MujocoJoint = detail::TargetJoint;  // hinge, slide, ball or free

class MjcfWriter : XmlWriterBase {
 public:
  using XmlWriterBase::XmlWriterBase;

  std::optional<std::string> write() {
    const Document& document = loaded_.document;
    for (const TreeJoint& joint : loaded_.kinematics.joints()) {
      if (joint.loopClosure) {
        loops_.push_back(&joint);
      } else {
        children_[joint.parentLink].push_back(&joint);
        parentJoint_[joint.childLink] = &joint;
      }
    }
    detail::TargetHolds holds{"MJCF"};
    holds.nestedModelFrames = true;  // as sites
    holds.jointSprings = true;       // stiffness and springref
    holds.worldGravity = holds.modelGravity = true;  // <option gravity>
    holds.mjcfSections = true;                       // an MJCF source's actuators, sensors, ...
    detail::warnWhatTargetCannotHold(document, holds, diagnostics_);
    const std::string modelName = document.isWorld() ? document.worlds.front().name : document.model->name;
    out_.open("mujoco", attr("model", modelName));
    out_.comment("converted by interlink from " + detail::fileNameOf(document.sourceFile) + " (" + document.format +
                 "); scoped names use \"__\" for \"::\"");
    std::string compiler = attr("angle", "radian") + attr("inertiafromgeom", "false") + attr("autolimits", "true");
    // MuJoCo refuses a moving body without mass or with a zero principal moment; a bound far
    // below any physical value lets it load while every mass stays the core model's to 1e-12.
    // Always written, so that converting the output again writes the same compiler line.
    compiler += attr("boundmass", number(kMassBound)) + attr("boundinertia", number(kMassBound));
    if (const std::string light = lightMovingLinks(); !light.empty()) {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           "MuJoCo needs mass and inertia on moving bodies; " + light + " get at least " +
                               number(kMassBound) + " (<compiler boundmass boundinertia>)",
                           SourceLocation{document.sourceFile, 0, 0});
    }
    out_.empty("compiler", compiler);
    writeGravity(document);
    if (document.model) mujocoParameters_ = detail::keptMjcfParameters(*document.model);
    writeAssets();
    const detail::MjcfSections kept =
        document.model ? detail::keptMjcfSections(*document.model) : detail::MjcfSections{};
    for (const std::string& section : kept.beforeWorld) out_.raw(section);
    out_.open("worldbody");
    const auto& frames = graph_.frames();
    writeSitesOf("");
    for (std::size_t i = 0; i < frames.size(); ++i) {
      if (frames[i].kind != FrameKind::Link || parentJoint_.count(frames[i].name)) continue;
      if (isWorldBody(i)) {
        writeWorldBodyContent(i);
      } else {
        writeBody(i, "");
      }
    }
    // Links attached to the world by a joint: children of the root frame.
    for (const TreeJoint* joint : children_[""]) writeBody(joint->childLinkFrame, "");
    out_.close("worldbody");
    writeLoops();
    writeMimics();
    for (const std::string& section : kept.afterWorld) out_.raw(section);
    out_.close("mujoco");
    if (diagnostics_.hasErrors()) return std::nullopt;
    return out_.str();
  }

 private:
  /// Links moved by a joint whose mass or a principal moment is zero, named for a warning.
  std::string lightMovingLinks() const {
    std::string names;
    std::size_t count = 0;
    for (const auto& [name, joint] : parentJoint_) {
      if (joint->type == JointType::Fixed) continue;
      const Link* link = index_.link(joint->childLinkFrame);
      if (!link) continue;
      const Inertial& inertial = link->inertial;
      Eigen::SelfAdjointEigenSolver<Matrix3> eigen(inertial.inertia, Eigen::EigenvaluesOnly);
      if (inertial.mass >= kMassBound && eigen.eigenvalues().minCoeff() >= kMassBound) continue;
      if (count++ < 5) names += (names.empty() ? "'" : ", '") + name + "'";
    }
    if (count > 5) names += " and " + std::to_string(count - 5) + " more";
    return names.empty() ? names : "the links " + names;
  }

  Pose rootPose(std::size_t frame) const { return graph_.frames()[frame].pose; }

  /// A root link that stands for MuJoCo's world body (detail::standsForWorld): its geoms and
  /// sites go into <worldbody> and its children are top-level bodies, where MuJoCo allows free
  /// joints.
  bool isWorldBody(std::size_t frame) const { return detail::standsForWorld(graph_, index_, frame); }

  /// Whether an MJCF source's geom names a mesh the source wrote inline (kept with the assets).
  bool inlineMeshOf(const std::string& link, const std::string& shape) const {
    const auto parameters = mujocoParameters_.geoms.find({link, shape});
    if (parameters == mujocoParameters_.geoms.end()) return false;
    return std::any_of(parameters->second.begin(), parameters->second.end(),
                       [](const auto& parameter) { return parameter.first == "mesh"; });
  }

  void writeWorldBodyContent(std::size_t frame) {
    const FrameInfo& info = graph_.frames()[frame];
    if (!written_.insert(info.name).second) return;
    worldBody_ = info.name;
    if (const Link* link = index_.link(frame)) writeGeoms(*link, frame);
    writeSitesOf(info.name);
    writeKeptOf(index_.link(frame));
    for (const TreeJoint* child : children_[info.name]) writeBody(child->childLinkFrame, info.name);
  }

  /// MuJoCo's one gravity, in its world frame (the root frame here): the world's, or the one a
  /// model file's source sets (Juice) turned from the model frame into the root frame. Without
  /// either, MuJoCo's default applies.
  void writeGravity(const Document& document) {
    std::optional<Vector3> gravity;
    if (document.isWorld()) {
      gravity = document.worlds.front().gravity;
    } else if (document.model) {
      gravity = document.model->gravity;
      const auto modelFrame = graph_.frameOf(*document.model);
      if (gravity && modelFrame) gravity = Vector3(graph_.frames()[*modelFrame].pose.linear() * *gravity);
    }
    if (gravity) out_.empty("option", attr("gravity", numbers(*gravity)));
  }

  /// Meshes MuJoCo 2.2.2 can read (STL, OBJ, MSH), one asset per file and scale.
  void writeAssets() {
    std::vector<std::string> lines;
    for (const auto& [frame, link] : index_.links) {
      for (const auto* shapes : {&link->collisions, &link->visuals}) {
        for (const Shape& shape : *shapes) {
          const Geometry& g = shape.geometry;
          if (g.type != GeometryType::Mesh) continue;
          const std::string file = meshFile(g, link->where.file.str());
          const std::string extension = toLowerExtension(file);
          if (extension != ".stl" && extension != ".obj" && extension != ".msh") continue;
          if (extension == ".stl" && !isBinaryStl(file)) continue;  // MuJoCo 2.2.2 reads binary STL only
          const std::string key = file + "|" + numbers(g.scale);
          if (meshes_.count(key)) continue;
          const std::string assetName = "mesh_" + std::to_string(meshes_.size());
          meshes_[key] = assetName;
          // MuJoCo takes a relative file name relative to the MJCF file (no <compiler meshdir>).
          const std::string written = detail::meshUriFor(g.meshUri, file, {}, options_);
          lines.push_back("<mesh" + attr("name", assetName) + attr("file", written) + attr("scale", numbers(g.scale)) +
                          "/>");
        }
      }
    }
    if (loaded_.document.model) {
      for (std::string& line : detail::keptMjcfAppearance(*loaded_.document.model, options_)) lines.push_back(std::move(line));
    }
    if (lines.empty()) return;
    out_.open("asset");
    for (const std::string& line : lines) out_.raw(line);
    out_.close("asset");
  }

  /// The mesh as an absolute path MuJoCo can open from wherever the MJCF file is written: the
  /// path the reader resolved, else a relative URI taken beside the file that named it. Empty
  /// when the file is not on disk.
  static std::string meshFile(const Geometry& g, const std::string& sourceFile) {
    if (!g.meshResolvedPath.empty()) return g.meshResolvedPath;
    std::string uri = g.meshUri;
    if (uri.rfind("file://", 0) == 0) uri = uri.substr(7);
    if (uri.empty() || uri.find("://") != std::string::npos) return {};
    std::filesystem::path path(uri);
    if (path.is_relative() && !sourceFile.empty()) path = std::filesystem::path(sourceFile).parent_path() / path;
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec) ? path.lexically_normal().string() : std::string();
  }

  /// A binary STL is 84 bytes of header and count, then 50 bytes a triangle.
  static bool isBinaryStl(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    char header[84];
    if (!in.read(header, sizeof header)) return false;
    const auto count = static_cast<std::uintmax_t>(static_cast<unsigned char>(header[80])) |
                       static_cast<std::uintmax_t>(static_cast<unsigned char>(header[81])) << 8 |
                       static_cast<std::uintmax_t>(static_cast<unsigned char>(header[82])) << 16 |
                       static_cast<std::uintmax_t>(static_cast<unsigned char>(header[83])) << 24;
    std::error_code ec;
    return std::filesystem::file_size(file, ec) == 84 + 50 * count;
  }

  static std::string toLowerExtension(const std::string& file) {
    const auto dot = file.rfind('.');
    std::string ext = dot == std::string::npos ? std::string() : file.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
  }

  /// The body of `rootFrame` and every body below it, without recursion: a chain of 10 000 links
  /// nests 10 000 bodies (issue 29).
  void writeBody(std::size_t rootFrame, const std::string& rootParent) {
    struct Pending {
      std::size_t frame;
      std::string parentLink;
      bool close;  // the </body> after the children of the body opened before it
    };
    std::vector<Pending> pending{{rootFrame, rootParent, false}};
    while (!pending.empty()) {
      const Pending item = std::move(pending.back());
      pending.pop_back();
      if (item.close) {
        out_.close("body");
        continue;
      }
      const FrameInfo& info = graph_.frames()[item.frame];
      if (!written_.insert(info.name).second) continue;
      const Pose pose = item.parentLink.empty() ? rootPose(item.frame)
                                                : detail::relativePose(graph_, *graph_.find(item.parentLink), item.frame);
      std::string body = attr("name", urdfName(info.name)) + frameAttributes(pose);
      const std::size_t scope = info.name.rfind("::");
      const auto own = mujocoParameters_.bodies.find(scope == std::string::npos ? info.name : info.name.substr(scope + 2));
      if (own != mujocoParameters_.bodies.end()) {
        for (const std::pair<std::string, std::string>& value : own->second) body += attr(value.first, value.second);
      }
      out_.open("body", body);
      auto joint = parentJoint_.find(info.name);
      if (joint != parentJoint_.end()) writeJoints(*joint->second, item.frame);
      if (const Link* link = index_.link(item.frame)) {
        writeInertial(*link);
        writeGeoms(*link, item.frame);
      }
      writeSitesOf(info.name);
      writeKeptOf(index_.link(item.frame));
      pending.push_back({0, std::string(), true});
      const auto& children = children_[info.name];
      for (auto child = children.rbegin(); child != children.rend(); ++child) {
        pending.push_back({(*child)->childLinkFrame, info.name, false});
      }
    }
  }

  /// What an MJCF source kept inside the body of `link` (its lights, plugins), as written.
  void writeKeptOf(const Link* link) {
    if (!link || !loaded_.document.model) return;
    for (const KeptElement& kept : loaded_.document.model->kept) {
      if (detail::isKeptMjcfBodyElement(kept) && kept.owners.front() == link->name) out_.raw(kept.text);
    }
  }

  /// The MuJoCo joints that move the child body as the core joint does, in the child body frame.
  void writeJoints(const TreeJoint& tree, std::size_t childFrame) {
    const Joint* found = index_.joint(tree.frame);
    if (!found) return;
    const Joint& joint = *found;
    const Pose X_CJ = detail::relativePose(graph_, childFrame, tree.frame);
    std::vector<MujocoJoint> parts;
    // MuJoCo has ball and (top-level) free joints; every other type is its single-axis chain.
    const SingleAxisChain chain = detail::singleAxisChainOf(graph_, tree.frame, joint);
    for (const SingleAxisMotion& motion : chain.motions) {
      parts.push_back({motion.rotation ? "hinge" : "slide", (X_CJ.linear() * motion.direction).normalized(),
                       motion.axis >= 0 ? &joint.axes[static_cast<std::size_t>(motion.axis)] : nullptr});
    }
    switch (tree.type) {
      case JointType::Fixed: return;
      case JointType::Ball: parts.assign(1, MujocoJoint{"ball", Vector3::UnitZ(), nullptr}); break;
      case JointType::Free:
        // MuJoCo allows free joints only at the top; lower down, three slides and a ball.
        if (tree.parentLink.empty() || tree.parentLink == worldBody_) {
          parts.assign(1, MujocoJoint{"free", Vector3::UnitZ(), nullptr});
        } else {
          parts.resize(3);
          parts.push_back(MujocoJoint{"ball", Vector3::UnitZ(), nullptr});
        }
        break;
      case JointType::Screw:
      case JointType::Gearbox:
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             "MJCF has no " + std::string(jointTypeName(tree.type)) + " joint; '" + tree.name +
                                 "' is written as a hinge (its coupling is lost)", joint.where, tree.name);
        break;
      default: break;
    }
    const std::string base = urdfName(tree.name);
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const MujocoJoint& part = parts[k];
      const std::string name = attr("name", parts.size() == 1 ? base : base + "__" + std::to_string(k));
      if (part.type == "free") {
        out_.empty("freejoint", name);  // MuJoCo's qpos: position, then the quaternion w x y z
        continue;
      }
      std::string attributes = name + attr("type", part.type);
      if (part.type != "free") attributes += attr("pos", numbers(X_CJ.translation()));
      if (part.type == "hinge" || part.type == "slide") {
        attributes += attr("axis", numbers(part.axis));
        const JointAxis* a = part.limits;
        if (a && boundsMotion(a->lower) && boundsMotion(a->upper)) {
          attributes += attr("range", number(a->lower) + " " + number(a->upper));
        }
        if (a && a->damping != 0) attributes += attr("damping", number(a->damping));
        if (a && a->friction != 0) attributes += attr("frictionloss", number(a->friction));
        if (a && a->springStiffness != 0) {
          attributes += attr("stiffness", number(a->springStiffness)) + attr("springref", number(a->springReference));
        }
      }
      // An MJCF source's own joint parameters (armature, ...), when its joint stays one MuJoCo joint.
      const auto parameters = mujocoParameters_.joints.find(joint.name);
      if (parts.size() == 1 && parameters != mujocoParameters_.joints.end()) {
        for (const auto& [key, value] : parameters->second) attributes += attr(key, value);
      }
      out_.empty("joint", attributes);
    }
  }

  void writeInertial(const Link& link) {
    const Inertial& inertial = link.inertial;
    // Massless, or as light as <compiler boundmass> makes it: a body without <inertial>.
    if (inertial.mass <= kMassBound) return;
    Eigen::SelfAdjointEigenSolver<Matrix3> eigen(inertial.inertia);
    Matrix3 axes = eigen.eigenvectors();
    if (axes.determinant() < 0) axes.col(2) = -axes.col(2);
    Pose principal = inertial.centerOfMass;
    principal.linear() = inertial.centerOfMass.linear() * axes;
    const Vector3 moments = eigen.eigenvalues();
    if (moments[0] + moments[1] < moments[2] * (1 + 1e-12)) {
      diagnostics_.warning(ErrorCode::LINK_INERTIA_INVALID,
                           "the inertia of link '" + link.name + "' breaks the triangle inequality (A + B >= C); MuJoCo "
                           "refuses such a body", inertial.where.line ? inertial.where : link.where);
    }
    std::string attributes = attr("pos", numbers(principal.translation()));
    attributes += attr("quat", detail::quaternionWxyzText(principal));
    attributes += attr("mass", number(inertial.mass)) + attr("diaginertia", numbers(moments));
    out_.empty("inertial", attributes);
  }

  void writeGeoms(const Link& link, std::size_t linkFrame) {
    const std::string& linkName = graph_.frames()[linkFrame].name;
    std::set<std::string> collisionNames;
    for (const Shape& s : link.collisions) collisionNames.insert(s.name);
    for (const Shape& s : link.collisions) writeGeom(s, link, linkFrame, linkName, "collision", true);
    for (const Shape& s : link.visuals) {
      if (!collisionNames.count(s.name)) writeGeom(s, link, linkFrame, linkName, "visual", false);
    }
  }

  void writeGeom(const Shape& shape, const Link& link, std::size_t linkFrame, const std::string& linkName, const char* kind,
                 bool collides) {
    const Geometry& g = shape.geometry;
    std::string attributes;
    std::optional<Vector3> planeNormal;
    switch (g.type) {
      case GeometryType::Box: attributes = attr("type", "box") + attr("size", numbers(g.size / 2)); break;
      case GeometryType::Sphere: attributes = attr("type", "sphere") + attr("size", number(g.radius)); break;
      case GeometryType::Cylinder:
      case GeometryType::Capsule:
        attributes = attr("type", g.type == GeometryType::Cylinder ? "cylinder" : "capsule") +
                     attr("size", number(g.radius) + " " + number(g.length / 2));
        break;
      case GeometryType::Ellipsoid: attributes = attr("type", "ellipsoid") + attr("size", numbers(g.radii)); break;
      case GeometryType::Mesh: {
        const std::string file = meshFile(g, link.where.file.str());
        auto mesh = meshes_.find(file + "|" + numbers(g.scale));
        if (mesh != meshes_.end()) {
          attributes = attr("type", "mesh") + attr("mesh", mesh->second);
          break;
        }
        // A mesh an MJCF source wrote inline: its <mesh> is kept, the geom's parameters name it.
        if (g.meshUri.empty() && inlineMeshOf(link.name, shape.name)) {
          attributes = attr("type", "mesh");
          break;
        }
        [[fallthrough]];
      }
      case GeometryType::Plane:
        // MuJoCo's plane (static, so in <worldbody> only): half sizes (0: infinite) and a grid
        // spacing, its normal the geom's z.
        if (g.type == GeometryType::Plane && !worldBody_.empty() && linkName == worldBody_) {
          attributes = attr("type", "plane") +
                       attr("size", number(g.planeSize.x() / 2) + " " + number(g.planeSize.y() / 2) + " 1");
          planeNormal = g.normal;
          break;
        }
        [[fallthrough]];
      default:
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             (g.type == GeometryType::Plane
                                  ? std::string("MuJoCo has planes only in <worldbody> (planes are static)")
                                  : std::string("MJCF 2.2.2 cannot hold this ") + geometryTypeName(g.type) +
                                        (g.type == GeometryType::Mesh
                                             ? " (MuJoCo reads binary STL, OBJ and MSH files on disk only)"
                                             : "")) +
                                 "; " + kind + " '" + shape.name + "' of link '" + linkName + "' is not written",
                             shape.where, std::string(kind) + " '" + shape.name + "' of link '" + linkName + "'");
        return;
    }
    Pose pose = shape.pose.pose;
    if (!shape.pose.relativeTo.empty()) {
      const auto reference = graph_.resolveReference(linkFrame, shape.pose.relativeTo);
      if (reference) pose = detail::relativePose(graph_, linkFrame, *reference) * pose;
    }
    if (planeNormal && planeNormal->norm() > 0) {
      pose.linear() = pose.linear() * Eigen::Quaterniond::FromTwoVectors(Vector3::UnitZ(), *planeNormal).toRotationMatrix();
    }
    // Shape names unique in the model (MJCF geoms: what its sensors and contacts name) are kept;
    // others are unique per link only.
    const bool mjcfSource = loaded_.document.rules.shapeNamesUniqueInModel;
    std::string head =
        shape.name.empty() ? std::string() : attr("name", mjcfSource ? shape.name : urdfName(linkName) + "__" + shape.name);
    if (!geomNames_.insert(head).second) head.clear();
    attributes = head + attributes + frameAttributes(pose);
    // A visual only geom collides with nothing; an MJCF source's own values (friction, condim,
    // material, its contype and group, ...) over these.
    detail::MjcfAttributeList extra;
    if (!collides) extra = {{"contype", "0"}, {"conaffinity", "0"}, {"group", "1"}};
    const auto parameters = mujocoParameters_.geoms.find({link.name, shape.name});
    if (parameters != mujocoParameters_.geoms.end()) {
      for (const std::pair<std::string, std::string>& own : parameters->second) {
        const auto same =
            std::find_if(extra.begin(), extra.end(), [&own](const auto& e) { return e.first == own.first; });
        if (same != extra.end()) {
          same->second = own.second;
        } else {
          extra.push_back(own);
        }
      }
    }
    for (const auto& [key, value] : extra) attributes += attr(key, value);
    if (shape.color) {
      const Eigen::Vector4d& c = *shape.color;
      attributes += attr("rgba", number(c[0]) + " " + number(c[1]) + " " + number(c[2]) + " " + number(c[3]));
    }
    out_.empty("geom", attributes);
  }

  /// Explicit frames and nested-model frames rigidly attached to `link` ("" = the root frame).
  /// The camera an MJCF source kept for frame `frame` (a scoped name), if any.
  const KeptElement* keptCamera(const std::string& frame) {
    if (!camerasIndexed_ && loaded_.document.model) {
      for (const KeptElement& kept : loaded_.document.model->kept) {
        if (detail::isKeptMjcfCamera(kept)) cameras_[kept.owners[1]] = &kept;
      }
    }
    camerasIndexed_ = true;
    const std::size_t scope = frame.rfind("::");
    const auto found = cameras_.find(scope == std::string::npos ? frame : frame.substr(scope + 2));
    return found == cameras_.end() ? nullptr : found->second;
  }

  void writeSitesOf(const std::string& link) {
    const auto& frames = graph_.frames();
    // Grouped by link once: scanning every frame for every body was quadratic (a 10 000-link
    // chain took 1.4 s; issue 29).
    if (!sitesGrouped_) {
      for (std::size_t i = 0; i < frames.size(); ++i) {
        if (frames[i].kind == FrameKind::Frame || frames[i].kind == FrameKind::Model) {
          sitesByLink_[frames[i].attachedLink].push_back(i);
        }
      }
      sitesGrouped_ = true;
    }
    const auto sites = sitesByLink_.find(link);
    if (sites == sitesByLink_.end()) return;
    const auto linkIndex = link.empty() ? std::nullopt : graph_.find(link);
    for (const std::size_t i : sites->second) {
      const FrameInfo& f = frames[i];
      if (f.relativeTo < 0 && f.kind == FrameKind::Model) continue;  // the root model frame is the world
      const Pose pose = linkIndex ? detail::relativePose(graph_, *linkIndex, i) : rootPose(i);
      if (const KeptElement* camera = keptCamera(f.name)) {
        out_.raw(detail::mjcfCamera(*camera, urdfName(f.name), frameAttributes(pose)));
        continue;
      }
      std::string site = attr("name", urdfName(f.name)) + frameAttributes(pose);
      const std::size_t scope = f.name.rfind("::");
      const auto own = mujocoParameters_.sites.find(scope == std::string::npos ? f.name : f.name.substr(scope + 2));
      if (own != mujocoParameters_.sites.end()) {
        for (const auto& [key, value] : own->second) site += attr(key, value);
      }
      out_.empty("site", site);
    }
  }

  void writeLoops() {
    if (loops_.empty()) return;
    out_.open("equality");
    for (const TreeJoint* loop : loops_) {
      // The link written as <worldbody> is MuJoCo's body "world".
      const auto body = [&](const std::string& link) {
        return link.empty() || link == worldBody_ ? std::string("world") : urdfName(link);
      };
      const std::string body1 = body(loop->childLink);
      const std::string body2 = body(loop->parentLink);
      if (loop->type == JointType::Fixed) {
        out_.empty("weld", attr("name", urdfName(loop->name)) + attr("body1", body1) + attr("body2", body2));
      } else if (loop->type == JointType::Ball) {
        const Pose anchor = detail::relativePose(graph_, loop->childLinkFrame, loop->frame);
        out_.empty("connect", attr("name", urdfName(loop->name)) + attr("body1", body1) + attr("body2", body2) +
                                  attr("anchor", numbers(anchor.translation())));
      } else {
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             "MJCF closes loops with welds and ball connects only; the " +
                                 std::string(jointTypeName(loop->type)) + " loop joint '" + loop->name + "' is not written",
                             SourceLocation{loaded_.document.sourceFile, 0, 0});
      }
    }
    out_.close("equality");
  }

  /// A mimic (follower = multiplier * leader + offset) is MuJoCo's joint equality with the
  /// polynomial coefficients offset, multiplier, when both joints are single MuJoCo joints.
  void writeMimics() {
    std::vector<std::string> lines;
    std::map<std::string, const TreeJoint*> byName;
    for (const TreeJoint& tree : loaded_.kinematics.joints()) byName[tree.name] = &tree;
    const auto single = [&](const TreeJoint* tree) {
      const Joint* joint = tree ? index_.joint(tree->frame) : nullptr;
      return joint && !tree->loopClosure && tree->type != JointType::Ball && tree->type != JointType::Free &&
             detail::singleAxisChainOf(graph_, tree->frame, *joint).motions.size() == 1;
    };
    for (const TreeJoint& tree : loaded_.kinematics.joints()) {
      const Joint* joint = index_.joint(tree.frame);
      if (!joint || !joint->mimic) continue;
      const auto leader = byName.find(scopedName(graph_.scopeOf(tree.frame), joint->mimic->joint));
      if (!single(&tree) || leader == byName.end() || !single(leader->second)) {
        diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                             "MJCF has no place for a mimic of or by a joint written as several MuJoCo joints: the mimic of "
                             "joint '" + tree.name + "' is not written",
                             joint->where);
        continue;
      }
      lines.push_back("<joint" + attr("name", urdfName(tree.name) + "__mimic") + attr("joint1", urdfName(tree.name)) +
                      attr("joint2", urdfName(leader->second->name)) +
                      attr("polycoef", number(joint->mimic->offset) + " " + number(joint->mimic->multiplier) + " 0 0 0") +
                      "/>");
    }
    if (lines.empty()) return;
    out_.open("equality");
    for (const std::string& line : lines) out_.raw(line);
    out_.close("equality");
  }

  std::map<std::string, std::vector<const TreeJoint*>> children_;  // parent link ("" = root) -> joints
  std::map<std::string, const TreeJoint*> parentJoint_;            // child link -> its tree joint
  std::vector<const TreeJoint*> loops_;
  std::map<std::string, std::string> meshes_;  // file|scale -> asset name
  std::set<std::string> written_;
  std::set<std::string> geomNames_;
  detail::MjcfParameters mujocoParameters_;  // an MJCF source's own geom and joint parameters
  std::map<std::string, std::vector<std::size_t>> sitesByLink_;  // attached link -> frames written as its sites
  bool sitesGrouped_ = false;
  std::map<std::string, const KeptElement*> cameras_;  // keptCamera: by the frame's local name
  bool camerasIndexed_ = false;
  std::string worldBody_;  // the link written as <worldbody> (isWorldBody), if any
};

}  // namespace

std::optional<std::string> writeMjcf(const LoadResult& loaded, Diagnostics& diagnostics) {
  return writeMjcf(loaded, WriteOptions{}, diagnostics);
}

std::optional<std::string> writeMjcf(const LoadResult& loaded, const WriteOptions& options, Diagnostics& diagnostics) {
  return detail::writeWith<MjcfWriter>(loaded, options, diagnostics);
}

}  // namespace interlink::convert
