// The SDFormat reader, the document root and worlds (their physics, gravity, lights and models).
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
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/xml/XmlParser.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace interlink::sdformat::detail {

void Reader::readRoot(const XmlElement& root, Document& document) {
  std::map<std::string, SourceLocation> worldNames;
  const XmlElement* firstModel = nullptr;
  for (const XmlElement& child : root.children) {
    if (child.name == "world") {
      World world = readWorld(child);
      auto [it, inserted] = worldNames.emplace(world.name, world.where);
      if (!inserted) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                           "world name '" + world.name + "' is already used by the world at line " +
                               std::to_string(it->second.line) + "; each world needs a unique name",
                           world.where);
        continue;
      }
      document.worlds.push_back(std::move(world));
    } else if (child.name == "model") {
      if (!firstModel) {
        firstModel = &child;
        ModelContext context;
        context.topLevelOfFile = true;
        context.path = "model";
        document.model = readModel(child, context);
      } else if (child.attributeOr("name", "") == firstModel->attributeOr("name", "")) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                           "model name '" + child.attributeOr("name", "") + "' is already used at line " +
                               std::to_string(firstModel->where.line),
                           child.where);
      } else {
        diagnostics_.error(ErrorCode::ELEMENT_INCORRECT_TYPE,
                           "a model file can hold only one top-level <model>; this one ('" +
                               child.attributeOr("name", "") + "') is not read",
                           child.where);
      }
    } else if (child.name == "light") {
      document.lights.push_back(readLight(child, "light", document.kept));
    } else {
      keep(child, "", document.kept);
    }
  }
}

World Reader::readWorld(const XmlElement& e) {
  World world;
  world.where = e.where;
  world.name = requiredName(e);
  const std::string path = "world";
  KeptScope scope(*this, path);
  std::size_t modelCount = 0;
  for (const XmlElement& child : e.children) modelCount += child.name == "model" || child.name == "include";
  world.models.reserve(modelCount);
  bool physicsRead = false;
  bool gravityRead = false;
  for (const XmlElement& child : e.children) {
    const std::string_view n = child.name;  // a view: comparisons with literals stay inline
    if (n == "gravity") {
      readVector3(child, world.gravity);
      gravityRead = true;
    } else if (n == "physics") {
      // Several profiles may be given; the one marked default (or the first) is the one used.
      const bool isDefault = toLower(child.attributeOr("default", "false")) == "true";
      if (!physicsRead || isDefault) {
        world.physics = readPhysics(child, world, gravityRead, path, world.kept);
        physicsRead = true;
      } else {
        keep(child, path, world.kept);
      }
    } else if (n == "model") {
      ModelContext context;
      context.path = path + "/model";
      context.inWorld = true;
      if (version_.below(8) && hasFlattenedContent(child)) {
        XmlElement converted = child;
        unflattenModel(converted);
        world.models.push_back(readModel(converted, context));
      } else {
        world.models.push_back(readModel(child, context));
      }
    } else if (n == "include") {
      if (auto include = readInclude(child, world.models.size())) world.includes.push_back(std::move(*include));
    } else if (n == "frame") {
      world.frames.push_back(readFrame(child, path, world.kept));
    } else if (n == "joint" && !version_.below(10)) {  // world-level joints exist since 1.10
      world.joints.push_back(readJoint(child, path, world.kept, false));
    } else if (n == "light") {
      world.lights.push_back(readLight(child, path + "/light", world.kept));
    } else {
      keep(child, path, world.kept);
    }
  }
  return world;
}

Physics Reader::readPhysics(const XmlElement& e, World& world, bool gravityRead, const std::string& parentPath,
                    std::vector<KeptElement>& kept) {
  Physics physics;
  physics.name = e.attributeOr("name", "default_physics");
  physics.type = e.attributeOr("type", "ode");
  const std::string path = parentPath + "/physics";
  for (const XmlElement& child : e.children) {
    if (child.name == "max_step_size") {
      readNumber(child, physics.maxStepSize);
    } else if (child.name == "real_time_factor") {
      readNumber(child, physics.realTimeFactor);
    } else if (child.name == "gravity" && version_.below(6)) {
      // SDFormat 1.5 kept gravity here; 1.6 moved it to the world.
      if (!gravityRead) readVector3(child, world.gravity);
    } else if (child.isNamespaced() || child.name == "plugin") {
      keep(child, path, kept);
    } else {
      collectPhysicsValues(child, child.name, physics, path, kept);
    }
  }
  return physics;
}

void Reader::collectPhysicsValues(const XmlElement& e, const std::string& key, Physics& physics, const std::string& parentPath,
                          std::vector<KeptElement>& kept) {
  if (!e.children.empty()) {
    for (const XmlElement& child : e.children) {
      collectPhysicsValues(child, key + "/" + child.name, physics, parentPath + "/" + e.name, kept);
    }
    return;
  }
  if (e.name == "collision_detector") {
    physics.collisionDetector = text(e);
    return;
  }
  const std::string value = text(e);
  if (value.empty()) return;
  Diagnostics scratch;  // a non-number here is a name (solver type), not an error
  if (auto number = parseDouble(value, e.where, tag(e), scratch)) {
    physics.values[key] = *number;
  } else {
    keep(e, parentPath, kept);
  }
}

Light Reader::readLight(const XmlElement& e, const std::string& path, std::vector<KeptElement>& kept) {
  Light light;
  light.where = e.where;
  light.name = e.attributeOr("name", "");
  KeptOwner owner(*this, light.name);
  const std::string type = e.attributeOr("type", "point");
  if (type == "directional") {
    light.type = LightType::Directional;
  } else if (type == "spot") {
    light.type = LightType::Spot;
  } else if (type != "point") {
    schemaError(ErrorCode::ATTRIBUTE_INVALID,
                "light type '" + type + "' is not one of point, directional, spot", e.where);
  }
  for (const XmlElement& child : e.children) {
    if (child.name == "pose") {
      light.pose = readPose(child);
    } else if (child.name == "direction") {
      readVector3(child, light.direction);
    } else if (child.name == "cast_shadows") {
      readBool(child, light.castShadows);
    } else if (child.name == "diffuse") {
      if (auto rgba = numbers(child, 4)) light.diffuse = Eigen::Vector4d((*rgba)[0], (*rgba)[1], (*rgba)[2], (*rgba)[3]);
    } else {
      keep(child, path, kept);
    }
  }
  return light;
}

}  // namespace interlink::sdformat::detail
