// The SDFormat reader, models: includes, frames, links, inertials, visuals, collisions and geometry.
#include "SdfDocumentReader.hpp"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>


#include "Unflatten.hpp"
#include "schema/SchemaValidator.hpp"
#include "schema/Upgrade.hpp"
#include "interlink/HugePages.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/xml/KeptNodes.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::sdformat::detail {

Model Reader::newModel(const SourceLocation& where) {
  Model model;
  model.where = where;
  return model;
}

Model Reader::readModel(const XmlElement& e, const ModelContext& context) {
  Model model = newModel(e.where);
  model.name = requiredName(e);
  model.pose.where = e.where;
  KeptScope scope(*this, context.path);
  model.canonicalLink = frameReference(e, "canonical_link");
  model.placementFrame = frameReference(e, "placement_frame");
  // SDFormat 1.4 files get //axis/use_parent_model_frame = true on the joints of top-level
  // models when libsdformat converts them to 1.5.
  const bool axesInModelFrame = version_.below(5) && (context.topLevelOfFile || context.inWorld);
  reserveFor(e, model);
  bool poseRead = false;
  for (const XmlElement& child : e.children) {
    const std::string_view n = child.name;  // a view: comparisons with literals stay inline
    if (n == "link") {
      model.links.push_back(readLink(child, model, context.path));
    } else if (n == "joint") {
      model.joints.push_back(readJoint(child, context.path, model.kept, axesInModelFrame));
    } else if (n == "frame") {
      model.frames.push_back(readFrame(child, context.path, model.kept));
    } else if (n == "model") {
      ModelContext nested;
      nested.path = context.path + "/model";
      model.models.push_back(readModel(child, nested));
    } else if (n == "include") {
      if (auto include = readInclude(child, model.models.size())) model.includes.push_back(std::move(*include));
    } else if (n == "pose" && !poseRead) {
      model.pose = readPose(child);
      poseRead = true;
      if (context.topLevelOfFile && !model.pose.relativeTo.empty()) {
        const Attribute* attribute = child.attribute("relative_to");
        if (version_.below(7) && child.attribute("frame")) attribute = child.attribute("frame");
        schemaError(ErrorCode::ATTRIBUTE_INVALID,
                    "the pose of the top-level model must not have relative_to (found '" + model.pose.relativeTo +
                        "'): it has no sibling frames",
                    attribute ? attribute->where : child.where);
        model.pose.relativeTo.clear();
      }
    } else if (n == "static") {
      readBool(child, model.isStatic);
    } else {
      keep(child, context.path, model.kept);
    }
  }
  return model;
}

void Reader::reserveFor(const XmlElement& e, Model& model) {
  std::size_t links = 0, joints = 0, frames = 0, models = 0;
  for (const XmlElement& child : e.children) {
    const std::string_view n = child.name;  // a view: comparisons with literals stay inline
    links += n == "link";
    joints += n == "joint";
    frames += n == "frame";
    models += n == "model" || n == "include";
  }
  reserveToFill(model.links, links);  // in huge pages when big: filled once, front to back
  reserveToFill(model.joints, joints);
  reserveToFill(model.frames, frames);
  model.models.reserve(models);
}

std::optional<Include> Reader::readInclude(const XmlElement& e, std::size_t modelsBefore) {
  Include include;
  include.where = e.where;
  include.element = xml::keptNodeOf(e);
  if (const Attribute* merge = e.attribute("merge")) {
    const std::string value = toLower(trim(merge->value));
    if (value == "true" || value == "1") {
      include.merge = true;
    } else if (value != "false" && value != "0") {
      schemaError(ErrorCode::ATTRIBUTE_INVALID, "attribute 'merge' of <include> must be true or false, got '" +
                                                    merge->value + "'",
                  merge->where);
    }
  }
  bool hasUri = false;
  std::vector<KeptElement> includeKept;  // inside an added frame or joint; the include keeps its text
  for (const XmlElement& child : e.children) {
    if (child.name == "uri") {
      include.uri = text(child);
      hasUri = true;
    } else if (child.name == "name") {
      include.name = text(child);
    } else if (child.name == "static") {
      bool value = false;
      readBool(child, value);
      include.isStatic = value;
    } else if (child.name == "pose") {
      include.pose = readPose(child);
    } else if (child.name == "placement_frame") {
      include.placementFrame = text(child);
      if (*include.placementFrame == "__root__") {
        diagnostics_.error(ErrorCode::ATTRIBUTE_INVALID,
                           "'__root__' is reserved; it cannot be used as a value of <placement_frame>", child.where);
      }
    } else if (child.name == "frame") {
      include.frames.push_back(readFrame(child, "include", includeKept));
    } else if (child.name == "joint") {
      include.joints.push_back(readJoint(child, "include", includeKept, false));
    }
    // Everything else (plugins, custom elements) travels in Include::element for the framework and
    // host parsers.
  }
  if (include.placementFrame && !include.pose) {
    // libsdformat checks this while reading the include (so ELEMENT_INVALID and FILE_READ follow).
    schemaError(ErrorCode::MODEL_PLACEMENT_FRAME_INVALID,
                "<placement_frame> of an <include> requires a <pose> in the same <include>", e.where);
  }
  if (!hasUri || include.uri.empty()) {
    // libsdformat reports this outside its schema reader (no FILE_READ).
    diagnostics_.error(ErrorCode::ATTRIBUTE_MISSING, "<include> has no <uri>; expected the URI of the model to include",
                       e.where);
    return std::nullopt;
  }
  include.position = modelsBefore;
  return include;
}

Frame Reader::readFrame(const XmlElement& e, const std::string& scopePath, std::vector<KeptElement>& kept) {
  Frame frame;
  frame.where = e.where;
  frame.name = requiredName(e);
  frame.attachedTo = frameReference(e, "attached_to");
  frame.pose.where = e.where;
  KeptOwner owner(*this, frame.name);
  bool poseRead = false;
  for (const XmlElement& child : e.children) {
    if (std::string_view(child.name) == "pose" && !poseRead) {
      frame.pose = readPose(child);
      poseRead = true;
    } else {
      keep(child, scopePath + "/frame", kept);
    }
  }
  return frame;
}

void Reader::checkLinkChildNames(const XmlElement& link, const std::string& linkName) {
  std::map<std::string, const XmlElement*> seen;
  for (const XmlElement& child : link.children) {
    if (child.isNamespaced() || child.name == "plugin") continue;  // plugins may share a name
    const Attribute* name = child.attribute("name");
    if (!name) continue;
    auto [it, inserted] = seen.emplace(name->value, &child);
    if (inserted) continue;
    const XmlElement& first = *it->second;
    const std::string message = "<" + child.name + "> name '" + name->value + "' is already used by the <" +
                                first.name + "> at line " + std::to_string(first.where.line) + " in link '" +
                                linkName + "'; sibling names must be unique across every element type";
    if (first.name == child.name) {
      if (child.name != "visual" && child.name != "collision") {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME, message, name->where);
      }
    } else if (version_.below(7)) {
      diagnostics_.warning(ErrorCode::DUPLICATE_NAME, message + " (an error from SDFormat 1.7 on)", name->where);
    } else {
      diagnostics_.error(ErrorCode::DUPLICATE_NAME, message, name->where);
    }
  }
}

Link Reader::readLink(const XmlElement& e, Model& model, const std::string& modelPath) {
  Link link = declaredAt<Link>(e);
  KeptOwner owner(*this, link.name);
  const std::string path = modelPath + "/link";
  checkLinkChildNames(e, link.name);
  bool poseRead = false;
  for (const XmlElement& child : e.children) {
    const std::string_view n = child.name;  // a view: comparisons with literals stay inline
    if (n == "pose" && !poseRead) {
      link.pose = readPose(child);
      poseRead = true;
    } else if (n == "inertial") {
      readInertial(child, link, path, model.kept);
    } else if (n == "visual") {
      link.visuals.push_back(readShape(child, path + "/visual", model.kept));
    } else if (n == "collision") {
      link.collisions.push_back(readShape(child, path + "/collision", model.kept));
    } else if (n == "gravity") {
      readBool(child, link.gravity);
    } else if (n == "self_collide") {
      readBool(child, link.selfCollide);
    } else if (n == "light") {
      Light light = readLight(child, path + "/light", model.kept);
      light.attachedTo = link.name;
      if (light.pose.relativeTo.empty()) light.pose.relativeTo = link.name;
      model.lights.push_back(std::move(light));
    } else {
      keep(child, path, model.kept);
    }
  }
  return link;
}

void Reader::readInertial(const XmlElement& e, Link& link, const std::string& linkPath, std::vector<KeptElement>& kept) {
  Inertial& inertial = link.inertial;
  link.hasInertial = true;
  inertial.where = e.where;
  const std::string path = linkPath + "/inertial";
  for (const XmlElement& child : e.children) {
    if (child.name == "mass") {
      readNumber(child, inertial.mass);
    } else if (child.name == "pose") {
      const SemanticPose pose = readPose(child);
      inertial.centerOfMass = pose.pose;
    } else if (child.name == "inertia") {
      double ixx = 1, iyy = 1, izz = 1, ixy = 0, ixz = 0, iyz = 0;
      for (const XmlElement& moment : child.children) {
        const std::string& m = moment.name;
        if (m == "ixx") readNumber(moment, ixx);
        else if (m == "iyy") readNumber(moment, iyy);
        else if (m == "izz") readNumber(moment, izz);
        else if (m == "ixy") readNumber(moment, ixy);
        else if (m == "ixz") readNumber(moment, ixz);
        else if (m == "iyz") readNumber(moment, iyz);
        else keep(moment, path + "/inertia", kept);
      }
      inertial.inertia << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
    } else {
      keep(child, path, kept);
    }
  }
}

Shape Reader::readShape(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept) {
  Shape shape = declaredAt<Shape>(e);
  KeptOwner owner(*this, shape.name);
  for (const XmlElement& child : e.children) {
    if (child.name == "pose") {
      shape.pose = readPose(child);
    } else if (child.name == "geometry") {
      readGeometry(child, shape.geometry, path + "/geometry", kept);
    } else if (child.name == "material") {
      readMaterial(child, shape);
      keep(child, path, kept);
    } else {
      keep(child, path, kept);
    }
  }
  return shape;
}

void Reader::readMaterial(const XmlElement& e, Shape& shape) {
  if (const XmlElement* diffuse = e.child("diffuse")) {
    Diagnostics scratch;  // reported through the kept element's consumers, not here
    if (auto rgba = parseDoubles(diffuse->text, diffuse->where, "<diffuse>", scratch, {4})) {
      shape.color = Eigen::Vector4d((*rgba)[0], (*rgba)[1], (*rgba)[2], (*rgba)[3]);
    }
  }
  if (const XmlElement* script = e.child("script")) {
    if (const XmlElement* name = script->child("name")) shape.material = text(*name);
  }
}

void Reader::readGeometry(const XmlElement& e, Geometry& geometry, const std::string& path, std::vector<KeptElement>& kept) {
  for (const XmlElement& shape : e.children) {
    const std::string& n = shape.name;
    const std::string shapePath = path + "/" + n;
    if (n == "box") {
      geometry.type = GeometryType::Box;
      geometry.size = Vector3::Ones();
      readShapeValues(shape, shapePath, kept, {{"size", [&](const XmlElement& v) { readVector3(v, geometry.size); }}});
    } else if (n == "sphere") {
      geometry.type = GeometryType::Sphere;
      geometry.radius = 1;
      readShapeValues(shape, shapePath, kept, {{"radius", [&](const XmlElement& v) { readNumber(v, geometry.radius); }}});
    } else if (n == "cylinder" || n == "capsule") {
      geometry.type = n == "cylinder" ? GeometryType::Cylinder : GeometryType::Capsule;
      geometry.radius = n == "cylinder" ? 1 : 0.5;
      geometry.length = 1;
      readShapeValues(shape, shapePath, kept,
                      {{"radius", [&](const XmlElement& v) { readNumber(v, geometry.radius); }},
                       {"length", [&](const XmlElement& v) { readNumber(v, geometry.length); }}});
    } else if (n == "ellipsoid") {
      geometry.type = GeometryType::Ellipsoid;
      geometry.radii = Vector3::Ones();
      readShapeValues(shape, shapePath, kept, {{"radii", [&](const XmlElement& v) { readVector3(v, geometry.radii); }}});
    } else if (n == "plane") {
      geometry.type = GeometryType::Plane;
      geometry.planeSize = Eigen::Vector2d::Ones();
      readShapeValues(shape, shapePath, kept,
                      {{"normal", [&](const XmlElement& v) { readVector3(v, geometry.normal); }},
                       {"size", [&](const XmlElement& v) {
                          if (auto size = numbers(v, 2)) geometry.planeSize = Eigen::Vector2d((*size)[0], (*size)[1]);
                        }}});
    } else if (n == "mesh") {
      geometry.type = GeometryType::Mesh;
      bool hasUri = false;
      readShapeValues(shape, shapePath, kept,
                      {{"uri", [&](const XmlElement& v) {
                          geometry.meshUri = text(v);
                          hasUri = true;
                        }},
                       {"scale", [&](const XmlElement& v) { readVector3(v, geometry.scale); }}});
      if (!hasUri) {
        schemaError(ErrorCode::ELEMENT_MISSING, "required element <uri> of <mesh> is missing", shape.where);
      }
    } else if (n == "empty") {
      geometry.type = GeometryType::Empty;
    } else if (n == "heightmap") {
      geometry.type = GeometryType::Heightmap;
      if (const XmlElement* uri = shape.child("uri")) geometry.meshUri = text(*uri);
      keep(shape, path, kept);
    } else {
      keep(shape, path, kept);
    }
  }
}

void Reader::readShapeValues(const XmlElement& shape, const std::string& path, std::vector<KeptElement>& kept,
                     std::initializer_list<ValueReader> readers) {
  for (const XmlElement& child : shape.children) {
    bool known = false;
    for (const ValueReader& reader : readers) {
      if (child.name == reader.name) {
        reader.read(child);
        known = true;
        break;
      }
    }
    if (!known) keep(child, path, kept);
  }
}

}  // namespace interlink::sdformat::detail
