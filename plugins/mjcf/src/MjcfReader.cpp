// MJCF XML -> MJCF records, following what MuJoCo's compiler does with each attribute (the current
// XML reference, and MuJoCo 2.2.2's src/xml/xml_native_reader.cc and src/user/user_objects.cc where
// they agree): <include> files spliced in place, the schema checked (MjcfSchema), <default>
// classes looked up through class/childclass (MjcfAttributes), every orientation form turned into
// one quaternion, angles converted to radians, fromto turned into a frame and sizes.
#include "MjcfReader.hpp"

#include "MjcfAssets.hpp"
#include "MjcfChecks.hpp"
#include "MjcfMass.hpp"
#include "MjcfSchema.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "interlink/TextNumbers.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::mjcf {
namespace {

using detail::Element;
using detail::quaternionFromZAxis;
using xml::attributeLocation;
using xml::Attribute;
using xml::XmlElement;
namespace fs = std::filesystem;

// Included bytes spliced into one model, all includes together: a file including another many
// times at every level cannot grow the model exponentially (the include service bounds each file,
// the depth and the number of includes).
constexpr std::uintmax_t kMaxTotalIncludeBytes = 256ull << 20;
constexpr double kEpsilon = 1e-14;  // MuJoCo's mjEPS (mjMINVAL is 1e-15)

/// Levels of elements in `root`'s tree (1: the root alone), without recursion.
std::size_t treeDepth(const XmlElement& root) {
  std::size_t deepest = 0;
  std::vector<std::pair<const XmlElement*, std::size_t>> pending{{&root, 1}};
  while (!pending.empty()) {
    const auto [element, depth] = pending.back();
    pending.pop_back();
    deepest = std::max(deepest, depth);
    for (const XmlElement& child : element->children) pending.emplace_back(&child, depth + 1);
  }
  return deepest;
}

class Reader : public detail::AssetReader {
 public:
  Reader(const std::string& path, const plugin::HostServices* host, MjcfModel& model, Diagnostics& diagnostics)
      : AssetReader(path, host, model, diagnostics), host_(host) {}

  bool read(std::string_view content) {
    auto root = xml::parse(content, path_, diagnostics_);
    if (!root) return false;
    if (root->name != "mujoco") {
      diagnostics_.error(ErrorCode::ELEMENT_INVALID,
                         "an MJCF file must have <mujoco> as its root element, found <" + root->name + ">", root->where);
      return false;
    }
    expandIncludes(*root);
    root_ = std::move(*root);
    checkSchema(root_, diagnostics_);
    model_.name = root_.attributeOr("model", "MuJoCo Model");
    model_.world.where = root_.where;

    // MuJoCo reads the sections in this order whatever their order in the file.
    for (const XmlElement* c : root_.childrenNamed("compiler")) readCompiler(*c);
    classes_["main"] = detail::DefaultClass{};
    for (const XmlElement* d : root_.childrenNamed("default")) {
      readDefault(*d, "", true);
      // Also kept as written: an MJCF writer gives the kept actuators and sensors their classes.
      model_.kept.push_back(KeptElement{"mujoco/default", d->toXml(), d->where});
    }
    for (const XmlElement* a : root_.childrenNamed("asset")) readAssets(*a);
    for (const XmlElement* w : root_.childrenNamed("worldbody")) readBodyContent(*w, model_.world, "main", true);
    resolveMeshes(model_.world);
    if (model_.compiler.globalCoordinates) {
      for (BodyRecord& body : model_.world.children) makeLocal(body, Pose::Identity());
    }
    for (const XmlElement* e : root_.childrenNamed("equality")) readEquality(*e);
    detail::checkKeptSections(root_, *this, detail::ModelNames{bodyNames_, jointNames_, geomNames_, siteNames_},
                              diagnostics_);
    // Unknown sections are the schema's errors (MjcfSchema); these are kept as data.
    static const std::set<std::string> keptSections = {"option", "size", "visual", "statistic", "contact", "tendon",
                                                       "actuator", "sensor", "keyframe", "custom", "extension",
                                                       "deformable"};
    for (const XmlElement& c : root_.children) {
      if (keptSections.count(c.name)) keep(model_.kept, "mujoco/" + c.name, c);
      if (c.name == "option") checkOption(c);
    }
    return true;
  }

 private:
  // --- includes ---------------------------------------------------------------------------------

  /// Replaces every <include file> below `e` by the children of the included file's <mujoco>.
  /// `depth` is that of `e` in the spliced tree, bounded across files as within one (issue 29): the
  /// recursive steps after this one (bodies, classes, freeing the tree) go as deep as the tree.
  void expandIncludes(XmlElement& e, std::size_t depth = 1) {
    XmlElement::Children children(e.children.get_allocator());
    children.reserve(e.children.size());
    for (XmlElement& c : e.children) {
      if (c.name != "include") {
        expandIncludes(c, depth + 1);
        children.push_back(std::move(c));
        continue;
      }
      for (XmlElement& included : readInclude(c, depth)) children.push_back(std::move(included));
    }
    e.children = std::move(children);
  }

  /// One <include file>, read through the host's include service (its depth, cycle, count and path
  /// policy and file checks). MuJoCo resolves include paths against the main model file's directory.
  std::vector<XmlElement> readInclude(const XmlElement& include, std::size_t parentDepth) {
    const Attribute* file = include.attribute("file");
    if (!file || trim(file->value).empty()) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<include> needs the attribute 'file'", include.where);
      return {};
    }
    if (!plugin::hostHas(host_, offsetof(plugin::HostServices, endInclude)) || !host_->beginInclude || !host_->endInclude) {
      diagnostics_.error(ErrorCode::FILE_READ,
                         "cannot read included file '" + file->value + "': the host offers no include service",
                         attributeLocation(include, file));
      return {};
    }
    const std::string requested = (fs::path(path_).parent_path() / file->value).lexically_normal().string();
    plugin::IncludedFile included;
    if (!host_->beginInclude(host_->context, requested, path_, attributeLocation(include, file), included, diagnostics_)) return {};
    struct EndInclude {
      const plugin::HostServices* host;
      ~EndInclude() { host->endInclude(host->context); }
    } endInclude{host_};
    includedBytes_ += included.content.size();
    if (includedBytes_ > kMaxTotalIncludeBytes) {
      if (!includeBudgetReported_) {  // once, not per include
        diagnostics_.error(ErrorCode::INCLUDE_LIMIT, "the model's includes splice more than 256 MiB in all",
                           attributeLocation(include, file));
      }
      includeBudgetReported_ = true;
      return {};
    }
    auto root = xml::parse(included.content, included.path, diagnostics_);
    if (!root) return {};
    // MuJoCo drops the included file's top-level element, whatever its name: <mujoco>, or
    // <mujocoinclude> as Metaworld and older MuJoCo models write it.
    if (root->children.empty()) {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING,
                         "included file '" + file->value + "' has no element inside its <" + root->name +
                             "> (MuJoCo refuses an empty include)",
                         attributeLocation(include, file));
      return {};
    }
    // The included root's children take the place of <include>, one level below `parentDepth`.
    if (const std::size_t depth = parentDepth + treeDepth(*root) - 1; depth > xml::ParseOptions{}.maxDepth) {
      diagnostics_.error(ErrorCode::INCLUDE_DEPTH, "elements nest " + std::to_string(depth) + " levels deep once '" +
                                                       file->value + "' is spliced in: more than " +
                                                       std::to_string(xml::ParseOptions{}.maxDepth) + " in all files",
                         attributeLocation(include, file));
      return {};
    }
    expandIncludes(*root, parentDepth);
    // Moved out: the lists keep the included tree's memory alive (see xml::detail::TreeAllocator).
    return std::vector<XmlElement>(std::make_move_iterator(root->children.begin()),
                                   std::make_move_iterator(root->children.end()));
  }

  // --- attribute access ---------------------------------------------------------------------------

  /// twice within one kind is an error, as in MuJoCo.
  template <class Record>
  void identify(Record& record, const XmlElement& e, int& counter, std::unordered_set<std::string>& names, const char* kind) {
    record.name = e.attributeOr("name", "");
    record.id = counter++;
    record.where = e.where;
    if (!record.name.empty() && !names.insert(record.name).second) {
      diagnostics_.error(ErrorCode::DUPLICATE_NAME, std::string(kind) + " name '" + record.name + "' is used twice",
                         attributeLocation(e, e.attribute("name")));
    }
  }

  // --- sections -----------------------------------------------------------------------------------

  void readCompiler(const XmlElement& c) {
    Compiler& compiler = model_.compiler;
    const Element e{c, "compiler", ""};
    if (auto v = keyword(e, "angle", {"radian", "degree"})) compiler.degrees = *v == 1;
    if (const Attribute* a = c.attribute("eulerseq")) {
      const bool valid = a->value.size() == 3 && a->value.find_first_not_of("xyzXYZ") == std::string::npos;
      if (valid) {
        compiler.eulerSequence = a->value;
      } else {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           "eulerseq of <compiler> is '" + a->value + "'; expected 3 of x, y, z, X, Y, Z",
                           attributeLocation(c, a));
      }
    }
    if (auto v = keyword(e, "inertiafromgeom", {"false", "true", "auto"})) {
      compiler.inertiaFromGeom = static_cast<InertiaFromGeom>(*v);
    }
    if (auto v = numbers(e, "inertiagrouprange", {2})) {
      compiler.inertiaGroupLow = static_cast<int>((*v)[0]);
      compiler.inertiaGroupHigh = static_cast<int>((*v)[1]);
    }
    if (auto v = number(e, "boundmass")) compiler.boundMass = *v;
    if (auto v = number(e, "boundinertia")) compiler.boundInertia = *v;
    if (auto v = number(e, "settotalmass")) compiler.setTotalMass = *v;
    if (auto v = boolean(e, "balanceinertia")) compiler.balanceInertia = *v;
    if (auto v = boolean(e, "autolimits")) {
      compiler.autoLimits = *v;
      compiler.autoLimitsGiven = true;
    }
    if (auto v = boolean(e, "exactmeshinertia")) compiler.exactMeshInertia = *v;
    if (auto v = boolean(e, "fitaabb")) compiler.fitAabb = *v;
    if (auto v = boolean(e, "convexhull")) compiler.convexHull = *v;
    if (auto v = keyword(e, "coordinate", {"local", "global"})) compiler.globalCoordinates = *v == 1;
    if (auto v = boolean(e, "fusestatic"); v && *v) {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           "<compiler fusestatic=\"true\">: Interlink keeps static bodies as links (MuJoCo fuses them)",
                           attributeLocation(c, c.attribute("fusestatic")));
    }
    const fs::path base = fs::path(path_).parent_path();
    if (const Attribute* a = c.attribute("assetdir")) {
      compiler.meshDir = compiler.textureDir = (base / a->value).lexically_normal().string();
    }
    if (const Attribute* a = c.attribute("meshdir")) compiler.meshDir = (base / a->value).lexically_normal().string();
    if (const Attribute* a = c.attribute("texturedir")) compiler.textureDir = (base / a->value).lexically_normal().string();
  }

  // --- bodies -------------------------------------------------------------------------------------

  /// Everything inside <worldbody> or a <body>: its joints, geoms, sites, cameras, inertial and
  /// child bodies. `cls` is the childclass in force.
  void readBodyContent(const XmlElement& xml, BodyRecord& body, const std::string& cls, bool isWorld) {
    for (const XmlElement& c : xml.children) {
      if (c.name == "body") {
        BodyRecord child;
        readBody(c, child, cls);
        body.children.push_back(std::move(child));
      } else if (c.name == "geom") {
        readGeom(Element{c, "geom", className(c, cls)}, body);
      } else if (c.name == "site") {
        readSite(Element{c, "site", className(c, cls)}, body);
      } else if (c.name == "camera") {
        FrameRecord camera;
        const Element e{c, "camera", className(c, cls)};
        identify(camera, c, model_.cameraCount, cameraNames_, "camera");
        camera.pose = frame(e);
        camera.element = c.toXml();
        body.cameras.push_back(std::move(camera));
      } else if (!isWorld && (c.name == "joint" || c.name == "freejoint")) {
        readJoint(Element{c, "joint", c.name == "joint" ? className(c, cls) : std::string()}, body);
      } else if (!isWorld && c.name == "inertial") {
        readInertial(Element{c, "inertial", ""}, body);
      } else if (c.name == "light") {
        keep(body.kept, "body/light", c);
      } else if (c.name == "frame") {
        readFrame(c, body, cls);
      } else if (c.name == "plugin") {
        keep(body.kept, "body/plugin", c);  // forces computed by a MuJoCo plugin; no kinematics
      } else if (c.name == "composite" || c.name == "flexcomp" || c.name == "replicate" || c.name == "attach") {
        // Each generates bodies, joints and names by MuJoCo's own rules (attach: from another model).
        diagnostics_.error(ErrorCode::ELEMENT_UNSUPPORTED,
                           "<" + c.name + "> (bodies generated by MuJoCo) is not supported by Interlink", c.where);
      }
      // Anything else is not MJCF: the schema's error (MjcfSchema).
    }
  }

  /// The default class what `xml` holds falls back to: its childclass, else the one it inherits.
  std::string childClass(const XmlElement& xml, const std::string& inherited) {
    const Attribute* childclass = xml.attribute("childclass");
    if (!childclass) return inherited;
    if (hasClass(childclass->value)) return childclass->value;
    diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                       "<" + xml.name + "> names the unknown default class '" + childclass->value + "' as childclass",
                       attributeLocation(xml, childclass));
    return inherited;
  }

  /// <frame> (MuJoCo 3.1.0): a pose and a childclass for what it holds, which belongs to the
  /// enclosing body, in MuJoCo's order.
  void readFrame(const XmlElement& xml, BodyRecord& body, const std::string& inherited) {
    if (model_.compiler.globalCoordinates) {
      diagnostics_.error(ErrorCode::ELEMENT_UNSUPPORTED,
                         "<frame> with <compiler coordinate=\"global\"> is not supported by Interlink", xml.where);
      return;
    }
    const std::string cls = childClass(xml, inherited);
    const Pose pose = frame(Element{xml, "frame", ""});
    BodyRecord inner;
    inner.id = body.id;
    readBodyContent(xml, inner, cls, true);
    // What the frame holds moves to the body, placed by the frame's pose.
    const auto moveInto = [&pose](auto& from, auto& to) {
      for (auto& record : from) {
        record.pose = pose * record.pose;
        to.push_back(std::move(record));
      }
    };
    moveInto(inner.geoms, body.geoms);
    moveInto(inner.sites, body.sites);
    moveInto(inner.cameras, body.cameras);
    moveInto(inner.children, body.children);
    for (KeptElement& k : inner.kept) {
      if (k.path == "body/light") detail::placeInFrame(k, pose);
      body.kept.push_back(std::move(k));
    }
  }

  /// A mesh's data is read when a geom needs it: for the body's mass (the body is weighed from
  /// its geoms), or for the convex hull MuJoCo builds for a colliding geom.
  void resolveMeshes(BodyRecord& body) {
    const InertiaFromGeom fromGeom = model_.compiler.inertiaFromGeom;
    const bool weighed = body.id > 0 && (fromGeom == InertiaFromGeom::True || (!body.inertial && fromGeom == InertiaFromGeom::Auto));
    for (GeomRecord& g : body.geoms) {
      if (g.typeName != "mesh" || g.meshAsset.empty()) continue;
      detail::MeshAsset* asset = findMesh(g.meshAsset);
      const bool colliding = model_.compiler.convexHull && (g.contype != 0 || g.conaffinity != 0);
      if (!asset || (!weighed && !colliding)) continue;
      const detail::MeshAsset& mesh = compiled(*asset);
      g.meshInertia = mesh.inertia;
      g.meshProblem = mesh.problem;
      // MuJoCo builds the convex hull of every mesh a colliding geom uses, and qhull fails on flat ones.
      if (!mesh.hull && colliding) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           "<geom>" + (g.name.empty() ? std::string() : " '" + g.name + "'") + " collides with mesh '" +
                               g.meshAsset + "', whose vertices are flat: MuJoCo's convex hull (qhull) cannot be built; "
                               "set contype and conaffinity to 0 or <compiler convexhull=\"false\">",
                           g.meshWhere);
      }
    }
  }

  /// <option integrator>: one of MuJoCo's integrators; implicitfast is newer than MuJoCo 2.2.2.
  void checkOption(const XmlElement& option) {
    const Element e{option, "option", ""};
    const auto integrator = keyword(e, "integrator", {"Euler", "RK4", "implicit", "implicitfast"});
    if (integrator && *integrator == 3) {
      diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::NONE,
                                  "<option integrator=\"implicitfast\"> is read as the current MuJoCo XML reference "
                                  "defines it; it was introduced by MuJoCo 2.3.3, so older MuJoCo releases (Debian's "
                                  "2.2.2 among them) refuse this file",
                                  attributeLocation(option, option.attribute("integrator"))});
    }
  }

  void readBody(const XmlElement& xml, BodyRecord& body, const std::string& inherited) {
    identify(body, xml, model_.bodyCount, bodyNames_, "body");
    if (body.name == "world") {
      diagnostics_.error(ErrorCode::RESERVED_NAME, "body name 'world' is reserved for the world body",
                         attributeLocation(xml, xml.attribute("name")));
    }
    const std::string cls = childClass(xml, inherited);
    body.pose = frame(Element{xml, "body", ""});
    body.mujoco = carried(Element{xml, "body", ""}, {"mocap", "gravcomp", "user"});
    if (model_.compiler.globalCoordinates && !xml.attribute("pos")) unplaced_.insert(body.id);
    readBodyContent(xml, body, cls, false);
    resolveMeshes(body);
  }

  /// <compiler coordinate="global">: every frame was read in world coordinates; make each relative
  /// to its body, and each body relative to its parent, as MuJoCo's MakeLocal does. A body without
  /// pos takes its inertial frame (given, or from its geoms) as its own frame.
  void makeLocal(BodyRecord& body, const Pose& parentGlobal) {
    Pose global = body.pose;
    // MuJoCo weighs the geoms in world coordinates; its principal axes (mju_eig3, which stops early)
    // then depend on that frame, so the mass is computed here, before the geoms move to the body.
    const InertiaFromGeom fromGeom = model_.compiler.inertiaFromGeom;
    std::optional<MassProperties> geoms;
    const bool weighGeoms = fromGeom == InertiaFromGeom::True || (!body.inertial && fromGeom == InertiaFromGeom::Auto);
    if (weighGeoms) {
      const bool anyGeom = std::any_of(body.geoms.begin(), body.geoms.end(), [&](const GeomRecord& g) {
        return g.group >= model_.compiler.inertiaGroupLow && g.group <= model_.compiler.inertiaGroupHigh;
      });
      if (anyGeom) geoms = geomFrame(body.geoms, model_.compiler);
    }
    if (unplaced_.count(body.id)) {
      if (geoms) {
        global = geoms->frame;
      } else if (body.inertial && !weighGeoms) {
        global = body.inertial->frame;
      } else {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING,
                           "with <compiler coordinate=\"global\"> a <body> needs a pos, an <inertial> or geoms to take its "
                           "frame from",
                           body.where);
      }
    }
    const Pose toBody = global.inverse();
    body.pose = parentGlobal.inverse() * global;
    for (GeomRecord& g : body.geoms) g.pose = toBody * g.pose;
    for (FrameRecord& site : body.sites) site.pose = toBody * site.pose;
    for (FrameRecord& camera : body.cameras) camera.pose = toBody * camera.pose;
    for (JointRecord& joint : body.joints) {
      if (joint.kind != JointKind::Free) joint.pos = toBody * joint.pos;
      joint.axis = toBody.linear() * joint.axis;
    }
    if (geoms) {
      InertialRecord weighed;
      weighed.frame = toBody * geoms->frame;
      weighed.mass = geoms->mass;
      weighed.inertia = geoms->inertia;
      weighed.fromGeoms = true;
      weighed.where = body.where;
      body.inertial = weighed;
    } else if (body.inertial) {
      body.inertial->frame = toBody * body.inertial->frame;
    }
    for (BodyRecord& child : body.children) makeLocal(child, global);
  }

  void readJoint(const Element& e, BodyRecord& body) {
    JointRecord joint;
    identify(joint, e.xml, model_.jointCount, jointNames_, "joint");
    if (e.xml.name == "freejoint") {
      joint.kind = JointKind::Free;
      body.joints.push_back(std::move(joint));
      return;
    }
    if (auto v = keyword(e, "type", {"free", "ball", "slide", "hinge"})) {
      static const JointKind kinds[] = {JointKind::Free, JointKind::Ball, JointKind::Slide, JointKind::Hinge};
      joint.kind = kinds[*v];
    }
    joint.pos = vector3(e, "pos").value_or(Vector3::Zero());
    if (auto axis = vector3(e, "axis")) {
      if (axis->norm() < kEpsilon) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "axis of " + what(e) + " is zero",
                           attributeLocation(e.xml, lookup(e, "axis")));
      } else {
        joint.axis = axis->normalized();
      }
    }
    const bool angular = joint.kind == JointKind::Hinge || joint.kind == JointKind::Ball;
    auto value = [&](const char* name) {
      const double v = number(e, name).value_or(0.0);
      return angular ? angle(v) : v;
    };
    joint.ref = joint.kind == JointKind::Ball ? 0.0 : value("ref");
    joint.springRef = joint.kind == JointKind::Ball ? 0.0 : value("springref");
    joint.stiffness = number(e, "stiffness").value_or(0.0);
    joint.damping = number(e, "damping").value_or(0.0);
    joint.armature = number(e, "armature").value_or(0.0);
    joint.frictionLoss = number(e, "frictionloss").value_or(0.0);
    joint.mujoco = carried(e, {"group", "armature", "margin", "solreflimit", "solimplimit", "solreffriction",
                               "solimpfriction", "springdamper", "actuatorgravcomp", "user"});
    double range[2] = {0, 0};
    if (auto r = numbers(e, "range", {2})) {
      range[0] = angular ? angle((*r)[0]) : (*r)[0];
      range[1] = angular ? angle((*r)[1]) : (*r)[1];
    }
    joint.limited = limited(e, "limited", "range", !(range[0] == 0 && range[1] == 0));
    // actuatorfrcrange (MuJoCo 3.0.0): the force actuators may apply at the joint, its effort limit.
    if (auto r = numbers(e, "actuatorfrcrange", {2})) {
      joint.forceLower = (*r)[0];
      joint.forceUpper = (*r)[1];
    }
    joint.forceLimited = limited(e, "actuatorfrclimited", "actuatorfrcrange", !(joint.forceLower == 0 && joint.forceUpper == 0));
    if (joint.forceLimited && joint.forceLower > joint.forceUpper) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "actuatorfrcrange of " + what(e) + " is empty (lower > upper)",
                         attributeLocation(e.xml, lookup(e, "actuatorfrcrange")));
    }
    if (joint.limited) {
      if (range[0] >= range[1] && joint.kind != JointKind::Ball) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "range of " + what(e) + " is empty (lower >= upper)",
                           attributeLocation(e.xml, lookup(e, "range")));
      }
      joint.lower = range[0];
      joint.upper = range[1];
    }
    body.joints.push_back(std::move(joint));
  }

  void readInertial(const Element& e, BodyRecord& body) {
    if (body.inertial) {
      diagnostics_.error(ErrorCode::ELEMENT_INVALID, "<body> has a second <inertial>", e.xml.where);
      return;
    }
    InertialRecord inertial;
    inertial.where = e.xml.where;
    if (!e.xml.attribute("pos")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<inertial> needs the attribute 'pos'", e.xml.where);
    }
    inertial.frame = frame(e);
    if (auto mass = number(e, "mass")) {
      inertial.mass = *mass;
    } else if (!e.xml.attribute("mass")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<inertial> needs the attribute 'mass'", e.xml.where);
    }
    const bool diagonal = e.xml.attribute("diaginertia") != nullptr;
    const bool full = e.xml.attribute("fullinertia") != nullptr;
    if (diagonal == full) {
      diagnostics_.error(diagonal ? ErrorCode::ATTRIBUTE_INVALID : ErrorCode::ATTRIBUTE_MISSING,
                         "<inertial> needs exactly one of 'diaginertia' and 'fullinertia'", e.xml.where);
    }
    if (diagonal) {
      if (auto d = vector3(e, "diaginertia")) inertial.inertia = d->asDiagonal();
    } else if (full) {
      if (auto f = numbers(e, "fullinertia", {6})) {
        const auto& v = *f;  // ixx iyy izz ixy ixz iyz
        inertial.inertia << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
        // MuJoCo stores principal moments about its own (approximate) principal axes.
        const PrincipalAxes principal = principalAxesAsMujoco(inertial.inertia);
        inertial.frame.linear() = principal.axes;
        inertial.inertia = principal.moments.asDiagonal();
        if (e.xml.attribute("quat") || e.xml.attribute("axisangle") || e.xml.attribute("xyaxes") ||
            e.xml.attribute("zaxis") || e.xml.attribute("euler")) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "<inertial> with 'fullinertia' cannot also give an orientation",
                             e.xml.where);
        }
      }
    }
    // A negative mass is not refused here: MuJoCo raises it to <compiler boundmass> (0 by default)
    // first; what is still invalid then is the core inertia check's (check/InertiaCheck.cpp).
    body.inertial = inertial;
  }

  /// fromto: the frame sits at the midpoint with +z along (from - to), as MuJoCo places it.
  bool applyFromTo(const Element& e, Pose& pose, Vector3& size, bool boxLike) {
    auto v = numbers(e, "fromto", {6});
    if (!v) return false;
    if (e.xml.attribute("pos")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " gives both 'pos' and 'fromto'",
                         attributeLocation(e.xml, e.xml.attribute("pos")));
    }
    const Vector3 from((*v)[0], (*v)[1], (*v)[2]), to((*v)[3], (*v)[4], (*v)[5]);
    const Vector3 direction = from - to;
    const double halfLength = direction.norm() / 2;
    if (halfLength < kEpsilon) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "fromto points of " + what(e) + " are too close",
                         attributeLocation(e.xml, lookup(e, "fromto")));
      return false;
    }
    if (boxLike) {
      size[2] = halfLength;
      size[1] = size[0];
    } else {
      size[1] = halfLength;
    }
    pose = Pose::Identity();
    pose.translation() = (from + to) / 2;
    pose.linear() = quaternionFromZAxis(direction).toRotationMatrix();
    return true;
  }

  void readGeom(const Element& e, BodyRecord& body) {
    GeomRecord geom;
    identify(geom, e.xml, model_.geomCount, geomNames_, "geom");
    static const std::vector<std::string> types = {"plane", "hfield", "sphere", "capsule", "ellipsoid",
                                                   "cylinder", "box", "mesh"};
    geom.typeName = types[keyword(e, "type", types).value_or(2)];
    if (auto s = numbers(e, "size", {1, 2, 3})) {
      for (std::size_t i = 0; i < s->size(); ++i) geom.size[static_cast<int>(i)] = (*s)[i];
    }
    const bool boxLike = geom.typeName == "box" || geom.typeName == "ellipsoid";
    const bool fromTo = lookup(e, "fromto") != nullptr;
    if (fromTo && !boxLike && geom.typeName != "capsule" && geom.typeName != "cylinder") {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                         "fromto of " + what(e) + " needs a capsule, cylinder, box or ellipsoid, not a " + geom.typeName,
                         attributeLocation(e.xml, lookup(e, "fromto")));
    } else if (!fromTo || !applyFromTo(e, geom.pose, geom.size, boxLike)) {
      geom.pose = frame(e);
    }
    if (geom.typeName != "mesh" && geom.typeName != "plane" && geom.typeName != "hfield") fitToMesh(e, geom);
    if (auto m = number(e, "mass")) geom.mass = *m;
    if (auto d = number(e, "density")) geom.density = *d;
    geom.group = integer(e, "group").value_or(0);
    geom.contype = integer(e, "contype").value_or(1);
    geom.conaffinity = integer(e, "conaffinity").value_or(1);
    geom.mujoco = carried(e, {"contype", "conaffinity", "condim", "group", "priority", "material", "friction", "solmix",
                              "solref", "solimp", "margin", "gap", "fluidshape", "fluidcoeff", "user"});
    if (auto c = numbers(e, "rgba", {4})) geom.rgba = Eigen::Vector4d((*c)[0], (*c)[1], (*c)[2], (*c)[3]);
    if (const Attribute* m = lookup(e, "material")) {
      geom.material = m->value;
      if (!hasMaterial(m->value)) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " names the unknown material '" + m->value + "'",
                           attributeLocation(e.xml, m));
      }
    }
    if ((geom.mass && *geom.mass < 0) || geom.density < 0) {
      diagnostics_.error(ErrorCode::LINK_INERTIA_INVALID, "mass or density of " + what(e) + " is negative", e.xml.where);
    }

    // Sizes each type needs (MuJoCo's checksize): positive half-sizes.
    const Vector3& s = geom.size;
    Geometry& g = geom.geometry;
    auto needPositive = [&](int count) {
      for (int i = 0; i < count; ++i) {
        if (!(s[i] > 0)) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                             "size of " + what(e) + " (a " + geom.typeName + ") needs " + std::to_string(count) +
                                 " positive values", attributeLocation(e.xml, lookup(e, "size")));
          return;
        }
      }
    };
    if (geom.typeName == "sphere") {
      needPositive(1);
      g.type = GeometryType::Sphere;
      g.radius = s[0];
    } else if (geom.typeName == "capsule" || geom.typeName == "cylinder") {
      needPositive(2);
      g.type = geom.typeName == "capsule" ? GeometryType::Capsule : GeometryType::Cylinder;
      g.radius = s[0];
      g.length = 2 * s[1];
    } else if (geom.typeName == "box") {
      needPositive(3);
      g.type = GeometryType::Box;
      g.size = 2 * s;
    } else if (geom.typeName == "ellipsoid") {
      needPositive(3);
      g.type = GeometryType::Ellipsoid;
      g.radii = s;
    } else if (geom.typeName == "plane") {
      g.type = GeometryType::Plane;
      g.normal = Vector3::UnitZ();
      g.planeSize = Eigen::Vector2d(2 * s[0], 2 * s[1]);  // 0: infinite, as MuJoCo draws it
      if (!(s[2] > 0)) {
        // The third size is the spacing of the grid MuJoCo draws; its compiler refuses 0.
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           "size of plane " + what(e) + " needs a positive third value (MuJoCo: \"plane size(3) must be "
                           "positive\")", attributeLocation(e.xml, lookup(e, "size")));
      }
      if (body.id != 0) {
        diagnostics_.error(ErrorCode::ELEMENT_INVALID, "plane " + what(e) + " must be in <worldbody> (planes are static)",
                           e.xml.where);
      }
    } else {
      const bool mesh = geom.typeName == "mesh";
      const char* reference = mesh ? "mesh" : "hfield";
      g.type = mesh ? GeometryType::Mesh : GeometryType::Heightmap;
      const Attribute* asset = lookup(e, reference);
      const detail::MeshAsset* found = !asset ? nullptr : mesh ? findMesh(asset->value) : findHfield(asset->value);
      if (!asset) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, what(e) + " of type " + geom.typeName + " needs the attribute '" +
                                                             reference + "'", e.xml.where);
      } else if (!found) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " names the unknown " + reference + " '" + asset->value + "'",
                           attributeLocation(e.xml, asset));
      } else {
        g.meshUri = found->file;
        g.meshResolvedPath = found->resolved;
        g.scale = found->scale;
        if (mesh) {
          // Its data is read when the body's mass or a collision needs it (resolveMeshes).
          geom.meshAsset = asset->value;
          geom.meshWhere = attributeLocation(e.xml, asset);
          // A mesh written in the file has no file to name: MJCF output names the kept asset.
          if (found->file.empty()) geom.mujoco.emplace_back("mesh", asset->value);
        }
      }
    }
    body.geoms.push_back(std::move(geom));
  }

  /// A primitive geom naming a mesh takes the shape of the mesh's equivalent inertia box (MuJoCo's
  /// FitGeom), scaled by fitscale, at the mesh's centre and principal axes.
  void fitToMesh(const Element& e, GeomRecord& geom) {
    const Attribute* name = lookup(e, "mesh");
    if (!name) return;
    detail::MeshAsset* found = findMesh(name->value);
    if (!found) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, what(e) + " names the unknown mesh '" + name->value + "'",
                         attributeLocation(e.xml, name));
      return;
    }
    if (lookup(e, "fromto")) {
      diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "fromto cannot be used with a mesh in " + what(e),
                         attributeLocation(e.xml, lookup(e, "fromto")));
      return;
    }
    if (model_.compiler.fitAabb) {
      diagnostics_.error(ErrorCode::ELEMENT_UNSUPPORTED,
                         what(e) + " is fitted to a mesh's bounding box (<compiler fitaabb=\"true\">), which Interlink "
                                   "does not compute; fitting to the inertia box is supported",
                         attributeLocation(e.xml, name));
      return;
    }
    const auto& inertia = compiled(*found).inertia;
    if (!inertia) {
      diagnostics_.error(ErrorCode::LINK_INERTIA_INVALID,
                         what(e) + " cannot be fitted to mesh '" + name->value + "': " + found->problem,
                         attributeLocation(e.xml, name));
      return;
    }
    const Vector3& b = inertia->box;
    Vector3& size = geom.size;
    if (geom.typeName == "sphere") {
      size[0] = (b[0] + b[1] + b[2]) / 3;
    } else if (geom.typeName == "capsule") {
      size[0] = (b[0] + b[1]) / 2;
      size[1] = std::max(0.0, b[2] - size[0] / 2);
    } else if (geom.typeName == "cylinder") {
      size[0] = (b[0] + b[1]) / 2;
      size[1] = b[2];
    } else {
      size = b;
    }
    size *= number(e, "fitscale").value_or(1);
    geom.pose = geom.pose * inertia->frame;
  }

  void readSite(const Element& e, BodyRecord& body) {
    FrameRecord site;
    identify(site, e.xml, model_.siteCount, siteNames_, "site");
    const std::string type = e.xml.attributeOr("type", "sphere");
    Vector3 size = Vector3::Constant(0.005);  // MuJoCo's default site size
    if (auto s = numbers(e, "size", {1, 2, 3})) std::copy(s->begin(), s->end(), size.data());
    const bool fromTo = lookup(e, "fromto") && applyFromTo(e, site.pose, size, type == "box" || type == "ellipsoid");
    if (!fromTo) site.pose = frame(e);
    site.mujoco = carried(e, {"type", "group", "material", "rgba", "user"});
    if (const Attribute* s = fromTo ? nullptr : lookup(e, "size")) site.mujoco.emplace_back("size", s->value);
    if (fromTo) site.mujoco.emplace_back("size", detail::numbersText(size));
    body.sites.push_back(std::move(site));
  }

  // --- equality -----------------------------------------------------------------------------------

  void readEquality(const XmlElement& section) {
    for (const XmlElement& c : section.children) {
      if (c.name != "weld" && c.name != "connect") {
        keep(model_.kept, "mujoco/equality/" + c.name, c);
        continue;
      }
      const Element e{c, "equality", className(c, "main")};
      EqualityRecord eq;
      eq.kind = c.name == "weld" ? EqualityKind::Weld : EqualityKind::Connect;
      identify(eq, c, model_.equalityCount, equalityNames_, "equality");
      eq.body1 = c.attributeOr("body1", "");
      eq.body2 = c.attributeOr("body2", "");
      if (eq.body1.empty()) {
        diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<" + c.name + "> needs the attribute 'body1'", c.where);
        continue;
      }
      for (const std::string* b : {&eq.body1, &eq.body2}) {
        if (!b->empty() && *b != "world" && !bodyNames_.count(*b)) {
          diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID, "<" + c.name + "> names the unknown body '" + *b + "'", c.where);
        }
      }
      if (eq.body2 == "world") eq.body2.clear();
      if (eq.kind == EqualityKind::Connect) {
        if (auto anchor = vector3(e, "anchor")) {
          eq.anchor = *anchor;
        } else {
          diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<connect> needs the attribute 'anchor'", c.where);
        }
      }
      model_.equalities.push_back(std::move(eq));
    }
  }


  const plugin::HostServices* host_;
  XmlElement root_;
  bool includeBudgetReported_ = false;
  std::uintmax_t includedBytes_ = 0;
  // Hashed: only looked up (ordered sets made reading n log n in the number of names).
  std::unordered_set<std::string> bodyNames_, jointNames_, geomNames_, siteNames_, cameraNames_, equalityNames_;
  std::set<int> unplaced_;  // bodies without pos under coordinate="global" (makeLocal)
};

}  // namespace

bool readMjcf(std::string_view content, const std::string& path, const plugin::HostServices* host, MjcfModel& model,
              Diagnostics& diagnostics) {
  return Reader(path, host, model, diagnostics).read(content);
}

}  // namespace interlink::mjcf
