#include "SkelReader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "MeshReader.hpp"
#include "ShapeInertia.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/UniqueNames.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"
#include "SkelDocumentReader.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::skel::detail {

bool Reader::read(std::string_view content, SkelFile& file) {
  const auto root = xml::parse(content, path_, diagnostics_);
  if (!root) return false;
  if (root->name != "skel") {
    error(ErrorCode::ELEMENT_MISSING, "expected <skel> as the root element, found <" + root->name + ">",
          root->where);
    return false;
  }
  file.version = root->attributeOr("version", "1.0");

  const XmlElement* worldElement = nullptr;
  for (const auto& child : root->children) {
    if (child.name == "world") {
      if (worldElement == nullptr) {
        worldElement = &child;
      } else {
        warning(ErrorCode::ELEMENT_UNSUPPORTED,
                "a second <world>: DART reads only the first one; kept uninterpreted", child.where);
        keep(file.kept, "skel", child);
      }
    } else {
      unsupported(file.kept, "skel", child);
    }
  }
  if (worldElement == nullptr) {
    error(ErrorCode::ELEMENT_MISSING, "<skel> needs a <world> element", root->where);
    return false;
  }

  WorldRecord& record = file.world.emplace();
  World& world = record.settings;
  world.name = worldElement->attributeOr("name", "Unknown world");  // the document's default
  world.where = worldElement->where;
  world.physics.type = "dart";
  for (const auto& child : worldElement->children) {
    if (child.name == "physics") {
      readPhysics(child, world);
    } else if (child.name == "skeleton") {
      readSkeleton(child, record);
    } else {
      unsupported(world.kept, "skel/world", child);
    }
  }
  return true;
}

void Reader::readPhysics(const XmlElement& physics, World& world) {
  for (const auto& child : physics.children) {
    if (child.name == "time_step") {
      if (const auto step = number(child, "<time_step> (seconds)")) {
        requirePositive(*step, child, "<time_step>");
        world.physics.maxStepSize = *step;
      }
    } else if (child.name == "gravity") {
      if (const auto gravity = vector3(child, "<gravity> (x y z)")) world.gravity = *gravity;
    } else if (child.name == "collision_detector") {
      world.physics.collisionDetector = trim(child.text);
    } else {
      unsupported(world.kept, "skel/world/physics", child);
    }
  }
}

void Reader::readSkeleton(const XmlElement& element, WorldRecord& world) {
  SkeletonRecord model;
  model.where = element.where;
  model.pose.where = element.where;

  std::string name = element.attributeOr("name", "");
  if (name.empty()) {
    warning(ErrorCode::ATTRIBUTE_MISSING, "<skeleton> without a name; named 'Unknown skeleton' as the document says",
            element.where);
    name = "Unknown skeleton";
  }
  if (names::isReserved(name) || names::containsDelimiter(name)) {
    error(ErrorCode::NAME_INVALID, "skeleton name '" + name + "' is reserved or contains '::'", element.where);
    return;
  }
  model.name = name;

  std::unordered_map<std::string, std::size_t> bodies;  // name -> index in model.bodies
  std::vector<const XmlElement*> jointElements;
  for (const auto& child : element.children) {
    if (child.name == "body") {
      readBody(child, model, bodies);
    } else if (child.name == "joint") {
      jointElements.push_back(&child);
    } else if (child.name == "transformation") {
      if (const auto pose = transformation(child)) {
        model.pose.pose = *pose;
        model.pose.where = child.where;
      }
    } else if (child.name == "mobile") {
      // What DART 6.12 actually reads.
      if (const auto mobile = boolean(child, "<mobile>")) model.isStatic = !*mobile;
    } else if (child.name == "immobile") {
      // What the format document names; DART 6.12 ignores it, we honour it.
      if (const auto immobile = boolean(child, "<immobile>")) model.isStatic = *immobile;
    } else {
      unsupported(model.kept, "skeleton", child);
    }
  }

  for (std::size_t i = 0; i < jointElements.size(); ++i) {
    if (auto record = readJoint(*jointElements[i], bodies, model)) {
      record->documentIndex = i;
      model.joints.push_back(std::move(*record));
    }
  }
  world.skeletons.push_back(std::move(model));
}

void Reader::readBody(const XmlElement& element, SkeletonRecord& model,
                      std::unordered_map<std::string, std::size_t>& bodies) {
  Link link;
  link.where = element.where;
  link.pose.where = element.where;
  link.name = element.attributeOr("name", "");
  if (link.name.empty()) {
    warning(ErrorCode::ATTRIBUTE_MISSING, "<body> without a name; named 'Unknown body' as the document says",
            element.where);
    link.name = "Unknown body";
  }
  if (names::isReserved(link.name) || names::containsDelimiter(link.name)) {
    error(ErrorCode::NAME_INVALID, "body name '" + link.name + "' is reserved or contains '::'; body left out",
          element.where);
    return;
  }
  if (bodies.count(link.name) != 0) {
    error(ErrorCode::DUPLICATE_NAME,
          "body '" + link.name + "' is defined before (line " +
              std::to_string(model.bodies[bodies[link.name]].where.line) +
              "); this one is left out, as DART discards repeated body names",
          element.where);
    return;
  }

  bool inertiaGiven = false;
  bool momentGiven = false;
  std::vector<const XmlElement*> visuals;
  std::vector<const XmlElement*> collisions;
  for (const auto& child : element.children) {
    if (child.name == "gravity") {
      if (const auto gravity = boolean(child, "<gravity>")) link.gravity = *gravity;
    } else if (child.name == "self_collide") {
      if (const auto selfCollide = boolean(child, "<self_collide>")) link.selfCollide = *selfCollide;
    } else if (child.name == "transformation") {
      if (const auto pose = transformation(child)) {
        link.pose.pose = *pose;  // relative to the skeleton frame, which is the model frame
        link.pose.where = child.where;
      }
    } else if (child.name == "inertia") {
      inertiaGiven = true;
      readInertia(child, link, momentGiven);
    } else if (child.name == "visualization_shape") {
      visuals.push_back(&child);
    } else if (child.name == "collision_shape") {
      collisions.push_back(&child);
    } else if (child.name == "marker") {
      MarkerRecord marker;
      marker.name = child.attributeOr("name", "");
      marker.body = link.name;
      marker.where = child.where;
      if (marker.name.empty()) {
        error(ErrorCode::ATTRIBUTE_MISSING, "<marker> needs a name attribute", child.where);
        continue;
      }
      if (const XmlElement* offset = child.child("offset")) {
        if (const auto value = vector3(*offset, "marker <offset> (x y z)")) marker.offset = *value;
      }
      model.markers.push_back(std::move(marker));
    } else if (child.name == "soft_shape") {
      // A soft body: its point masses and springs are outside the core model; kept whole.
      const XmlElement* geometry = child.child("geometry");
      if (child.child("total_mass") == nullptr) {
        warning(ErrorCode::ELEMENT_MISSING, "<soft_shape> without <total_mass>", child.where);
      }
      if (geometry == nullptr) {
        error(ErrorCode::ELEMENT_MISSING, "<soft_shape> needs a <geometry> (box, sphere, ellipsoid or cylinder)",
              child.where);
      } else if (const XmlElement* box = geometry->child("box"); box != nullptr && box->child("frags") == nullptr) {
        warning(ErrorCode::ELEMENT_MISSING,
                "soft <box> without <frags> (point counts per axis): DART 6.12 crashes on this; the soft shape is "
                "kept as written and the rigid body loads normally",
                box->where);
      }
      keep(model.kept, "skeleton/body[" + link.name + "]", child);
    } else if (child.name == "soft") {
      note(ErrorCode::ELEMENT_UNSUPPORTED, "<soft> is an old spelling of <soft_shape> that DART 6.12 ignores; kept",
           child.where);
      keep(model.kept, "skeleton/body[" + link.name + "]", child);
    } else {
      unsupported(model.kept, "skeleton/body", child);
    }
  }
  link.hasInertial = inertiaGiven;

  // DART creates every visualization shape, then every collision shape.
  for (const XmlElement* visual : visuals) {
    if (auto shape = readShape(*visual, link.name, true, model)) {
      shape->name = "visual_" + std::to_string(link.visuals.size());
      link.visuals.push_back(std::move(*shape));
    }
  }
  for (const XmlElement* collision : collisions) {
    if (auto shape = readShape(*collision, link.name, false, model)) {
      shape->name = "collision_" + std::to_string(link.collisions.size());
      link.collisions.push_back(std::move(*shape));
    }
  }

  // DART: an <inertia> without <moment_of_inertia> takes the moment of the body's first shape.
  if (inertiaGiven && !momentGiven) {
    const Shape* first = !link.visuals.empty() ? &link.visuals.front()
                                               : (!link.collisions.empty() ? &link.collisions.front() : nullptr);
    if (first != nullptr) {
      if (const auto moment = dartShapeInertia(first->geometry, link.inertial.mass)) {
        link.inertial.inertia = *moment;
      } else if (first->geometry.type == GeometryType::Mesh) {
        // The one place a mesh's content is needed: without it the body has no moment of inertia.
        error(ErrorCode::FILE_READ,
              "body '" + link.name + "' takes its moment of inertia from mesh '" + first->geometry.meshUri +
                  "', which could not be read (missing, refused or broken; see the mesh's warning)",
              first->where);
      }
    }
  }

  bodies.emplace(link.name, model.bodies.size());
  model.bodies.push_back(BodyRecord{std::move(link), element.where});
}

void Reader::readInertia(const XmlElement& element, Link& link, bool& momentGiven) {
  link.inertial.where = element.where;
  for (const auto& child : element.children) {
    if (child.name == "mass") {
      if (const auto mass = number(child, "<mass> (kg)")) {
        requirePositive(*mass, child, "<mass>");
        link.inertial.mass = *mass;
      }
    } else if (child.name == "offset") {
      if (const auto offset = vector3(child, "inertia <offset> (x y z)")) {
        link.inertial.centerOfMass.translation() = *offset;  // wins over a <transformation>'s translation
      }
    } else if (child.name == "transformation") {
      // The document's inertial frame (DART 6.12 reads only <offset>): the tensor is written in it.
      if (const auto pose = transformation(child)) {
        const Vector3 offset = link.inertial.centerOfMass.translation();
        link.inertial.centerOfMass = *pose;
        if (element.child("offset") != nullptr) link.inertial.centerOfMass.translation() = offset;
      }
    } else if (child.name == "moment_of_inertia") {
      momentGiven = true;
      // Defaults as the format document gives them; DART requires all six.
      std::array<double, 6> moment{1, 1, 1, 0, 0, 0};
      static const std::array<const char*, 6> names{"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
      for (std::size_t i = 0; i < names.size(); ++i) {
        const XmlElement* component = child.child(names[i]);
        if (component == nullptr) {
          warning(ErrorCode::ELEMENT_MISSING,
                  std::string("<moment_of_inertia> without <") + names[i] + ">; using " + formatNumber(moment[i]),
                  child.where);
          continue;
        }
        if (const auto value = number(*component, names[i])) moment[i] = *value;
      }
      Matrix3 inertia;
      inertia << moment[0], moment[3], moment[4], moment[3], moment[1], moment[5], moment[4], moment[5], moment[2];
      link.inertial.inertia = inertia;
    } else {
      warning(ErrorCode::ELEMENT_UNSUPPORTED, "<" + child.name + "> in <inertia> is not read by DART; ignored",
              child.where);
    }
  }
  if (element.child("mass") == nullptr) {
    warning(ErrorCode::ELEMENT_MISSING, "<inertia> without <mass>; using 1 kg", element.where);
  }
}

bool readSkelFile(const plugin::LoadRequest& request, SkelFile& file, Diagnostics& diagnostics) {
  return Reader(request.path, request.host, diagnostics).read(request.content, file);
}

int sniffSkel(const char* /*path*/, const char* head, std::size_t headSize) {
  // Only the extension speaks for a file without a <skel> root: claim it weakly, so that the reader
  // can say what is wrong with it instead of "no parser".
  return xml::headRootIs(head, headSize, "skel") ? 90 : 10;
}

}  // namespace interlink::skel::detail
