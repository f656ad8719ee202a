// Step 1 of the Shift plugin: assemblies and bodies (inertia, geometry, meshes) into ShiftFile
// records.
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ShiftFileReader.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/TextNumbers.hpp"

namespace interlink::shift::detail {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// assemblies and bodies

void Reader::readAssembly(const json_t* object, int parent, bool parentActive) {
  const int index = static_cast<int>(assemblies_.size());
  AssemblyRecord assembly;
  assembly.where = at(object);
  assembly.parent = parent;
  if (parent < 0) {
    assembly.name = fs::path(request_.path).stem().string();
    if (assembly.name.empty()) assembly.name = "shift";
  } else {
    auto name = string(object, "name", "assembly", true);
    if (!name || !checkName(*name, at(object, "name"), "assembly", false)) return;
    for (int sibling : assemblies_[static_cast<std::size_t>(parent)].children) {
      if (assemblies_[static_cast<std::size_t>(sibling)].name == *name) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                           "assembly '" + *name + "' is defined twice in " + assemblyPath(parent),
                           at(object, "name"));
        return;
      }
    }
    assembly.name = *name;
  }
  const bool ownActive = parent < 0 ? true : flag(object, "active", "assembly '" + assembly.name + "'").value_or(true);
  assembly.active = parentActive && ownActive;
  assemblies_.push_back(assembly);
  assemblyJson_.push_back(object);
  if (parent >= 0) assemblies_[static_cast<std::size_t>(parent)].children.push_back(index);
  const std::string path = assemblyPath(index);
  if (parent >= 0 && parentActive && !ownActive)
    diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::NONE,
                                path + " is switched off (active: false): its bodies, joints and subassemblies "
                                       "are left out",
                                at(object, "active")});

  if (parent >= 0) {
    std::vector<KeptElement> kept;
    warnUnknownKeys(object, {"name", "active", "bodies", "joints", "restraints", "assemblies"}, path, kept);
    for (auto& k : kept) assemblies_[static_cast<std::size_t>(index)].kept.push_back(std::move(k));
  }

  if (const json_t* bodies = array(object, "bodies", path)) {
    for (std::size_t i = 0; i < json_array_size(bodies); ++i)
      readBody(json_array_get(bodies, i), index, assemblies_[static_cast<std::size_t>(index)].active);
  }
  if (const json_t* children = array(object, "assemblies", path)) {
    for (std::size_t i = 0; i < json_array_size(children); ++i) {
      const json_t* child = json_array_get(children, i);
      if (!json_is_object(child)) {
        wrongType(child, at(child), path + " subassembly", "an object");
        continue;
      }
      readAssembly(child, index, assemblies_[static_cast<std::size_t>(index)].active);
    }
  }
}

void Reader::readBody(const json_t* object, int assembly, bool assemblyActive) {
  const std::string path = assemblyPath(assembly);
  auto name = entryName(object, "body", path);
  if (!name) return;
  if (*name == kFixed) {
    diagnostics_.error(ErrorCode::RESERVED_NAME, "body name 'fixed' is reserved for the fixed inertial frame",
                       at(object, "name"));
    return;
  }
  auto& owner = assemblies_[static_cast<std::size_t>(assembly)];
  // One lookup per body (a scan of the assembly's bodies made n bodies cost n^2).
  if (auto other = bodyByName_.find({assembly, *name}); other != bodyByName_.end()) {
    diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                       "body '" + *name + "' is defined twice in " + path + " (first at line " +
                           std::to_string(bodies_[static_cast<std::size_t>(other->second)].where.line) + ")",
                       at(object, "name"));
    return;
  }
  BodyRecord body;
  body.name = *name;
  body.assembly = assembly;
  body.where = at(object);
  body.active = assemblyActive && flag(object, "active", "body '" + *name + "'").value_or(true);
  const std::string what = "body '" + *name + "'";
  body.link.name = *name;
  body.link.where = body.where;

  std::vector<KeptElement> kept;
  warnUnknownKeys(object,
                  {"name", "active", "definition", "geometry", "center_of_mass", "mass", "moment_of_inertia",
                   "inertia", "frames", "collision_geometry"},
                  path + "/" + *name, kept);
  for (auto& k : kept) owner.kept.push_back(std::move(k));

  if (body.active) {
    readInertia(object, body);
    readGeometry(object, body);
    if (auto collision = string(object, "collision_geometry", what, false))
      body.collisionGeometry = *collision;
  }
  if (const json_t* frames = array(object, "frames", what)) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < json_array_size(frames); ++i) {
      const json_t* frame = json_array_get(frames, i);
      if (!json_is_object(frame)) {
        wrongType(frame, at(frame), what + " frame", "an object");
        continue;
      }
      auto frameName = string(frame, "name", what + " frame", true);
      if (!frameName || !checkName(*frameName, at(frame, "name"), what + " frame", true)) continue;
      if (!seen.insert(*frameName).second) {
        diagnostics_.error(ErrorCode::DUPLICATE_NAME, what + ": frame '" + *frameName + "' is defined twice",
                           at(frame, "name"));
        continue;
      }
      std::vector<KeptElement> frameKept;
      warnUnknownKeys(frame, {"name", "T", "R"}, path + "/" + *name + "/" + *frameName, frameKept);
      for (auto& k : frameKept) owner.kept.push_back(std::move(k));
      auto pose = framePose(frame, what + " frame '" + *frameName + "'");
      if (!pose) continue;
      body.frames.push_back(FrameRecord{*frameName, *pose, at(frame)});
    }
  }
  const int index = static_cast<int>(bodies_.size());
  bodies_.push_back(std::move(body));
  assemblies_[static_cast<std::size_t>(assembly)].bodies.push_back(index);
  bodyByName_.emplace(std::make_pair(assembly, bodies_[static_cast<std::size_t>(index)].name), index);
}

void Reader::readInertia(const json_t* object, BodyRecord& body) {
  const std::string what = "body '" + body.name + "'";
  // 0.2: mass and moment_of_inertia beside each other; 2.0: one "inertia" object with the mass.
  const json_t* moments = json_object_get(object, "moment_of_inertia");
  const json_t* inertia = json_object_get(object, "inertia");
  const json_t* tensor = moments ? moments : inertia;
  const json_t* mass = json_object_get(object, "mass");
  const json_t* massOwner = object;
  if (!mass && json_is_object(inertia)) {
    mass = json_object_get(inertia, "mass");
    massOwner = inertia;
  }
  Inertial& inertial = body.link.inertial;
  inertial.where = at(tensor ? tensor : object);
  bool any = false;
  if (mass) {
    if (auto m = number(mass, at(massOwner, "mass"), what + " mass")) {
      inertial.mass = *m * units_.mass;
      any = true;
    }
  }
  if (const json_t* com = json_object_get(object, "center_of_mass")) {
    if (auto c = vector3(com, at(com), what + " center_of_mass")) {
      inertial.centerOfMass.translation() = *c * units_.length;
      any = true;
    }
  }
  if (tensor) {
    if (!json_is_object(tensor)) {
      wrongType(tensor, at(tensor), what + " inertia", "an object with Ixx, Iyy, Izz, Ixy, Iyz, Izx");
    } else {
      const double scale = units_.mass * units_.length * units_.length;
      auto entry = [&](const char* key) -> double {
        const json_t* value = json_object_get(tensor, key);
        if (!value) return 0.0;
        return number(value, at(value), what + " " + key).value_or(0.0) * scale;
      };
      Matrix3 I;
      const double ixy = entry("Ixy"), iyz = entry("Iyz"), izx = entry("Izx");
      I << entry("Ixx"), ixy, izx, ixy, entry("Iyy"), iyz, izx, iyz, entry("Izz");
      for (const char* key : {"Ixx", "Iyy", "Izz"})
        if (!json_object_get(tensor, key))
          diagnostics_.warning(ErrorCode::ELEMENT_MISSING, what + " inertia: '" + key + "' is missing; 0 is used",
                               at(tensor));
      inertial.inertia = I;
      any = true;  // validity: the core's inertia check (check/InertiaCheck.cpp)
    }
  }
  body.link.hasInertial = any;
}

void Reader::addMesh(BodyRecord& body, const std::string& uri, const std::string& material,
                     const SourceLocation& where) {
  Shape shape;
  shape.name = body.link.visuals.empty() ? "visual" : "visual_" + std::to_string(body.link.visuals.size());
  shape.where = where;
  shape.material = material;
  shape.geometry.type = GeometryType::Mesh;
  shape.geometry.meshUri = uri;
  shape.geometry.scale = Vector3::Constant(units_.length);

  const fs::path base = fs::path(request_.path).parent_path();
  std::vector<fs::path> candidates;
  if (fs::path(uri).is_absolute()) candidates.emplace_back(uri);
  candidates.push_back(base / uri);
  for (const auto& dir : includeDirectories_) candidates.push_back(base / dir / uri);
  std::string found;
  std::error_code ec;
  for (const auto& candidate : candidates) {
    if (fs::is_regular_file(candidate, ec)) {
      found = fs::weakly_canonical(candidate, ec).string();
      break;
    }
  }
  const bool hostServices = request_.host && request_.host->size >= sizeof(plugin::HostServices);
  // The host's path policy (docs/hostile-input.md): include_directories may not widen it.
  auto outsideRootsReason = [&](const std::string& file) {
    return hostServices && request_.host->checkPath ? request_.host->checkPath(request_.host->context, file) : std::string();
  };
  if (found.empty() && hostServices && request_.host->resolveUri) {
    found = request_.host->resolveUri(request_.host->context, uri, request_.path);
  }
  // A missing mesh (the body keeps its mass properties) and a refused one (not opened here) are
  // reported by the core's mesh check (check/MeshCheck.cpp), as for every format.
  shape.geometry.meshResolvedPath = found;
  if (!found.empty() && outsideRootsReason(found).empty()) {
    const MeshReading& reading = meshes_.read(found);
    if (reading.info) {
      MeshInfo info = *reading.info;
      info.boundsMin *= units_.length;
      info.boundsMax *= units_.length;
      shape.geometry.mesh = info;
    } else {
      // A file the mesh reader refuses (path policy, limits) is an error; one it cannot decode, a warning.
      const std::string message = "body '" + body.name + "': mesh '" + found + "' could not be read: " + reading.error;
      if (reading.code == ErrorCode::PATH_OUTSIDE_ROOTS || reading.code == ErrorCode::MESH_LIMIT) {
        diagnostics_.error(reading.code, message, where);
      } else {
        diagnostics_.warning(ErrorCode::FILE_READ, message, where);
      }
    }
  }
  body.link.visuals.push_back(std::move(shape));
}

void Reader::readGeometry(const json_t* object, BodyRecord& body) {
  const std::string what = "body '" + body.name + "'";
  // A file list: [mesh, material] (material optional) or a single name.
  auto readFiles = [&](const json_t* files, const SourceLocation& where) {
    if (json_is_string(files)) {
      addMesh(body, json_string_value(files), "", where);
      return;
    }
    if (!json_is_array(files) || json_array_size(files) == 0 || !json_is_string(json_array_get(files, 0))) {
      wrongType(files, where, what + " mesh files", "[mesh file, material file]");
      return;
    }
    const json_t* material = json_array_get(files, 1);
    addMesh(body, json_string_value(json_array_get(files, 0)), json_is_string(material) ? json_string_value(material) : "",
            where);
  };
  if (const json_t* definition = json_object_get(object, "definition")) {
    if (!json_is_null(definition)) readFiles(definition, at(definition));
  }
  const json_t* geometry = json_object_get(object, "geometry");
  if (!geometry || json_is_null(geometry)) return;
  auto readOne = [&](const json_t* entry) {
    if (!json_is_object(entry)) {
      wrongType(entry, at(entry), what + " geometry", "an object with 'type' and 'filename'");
      return;
    }
    const std::string type = toLower(string(entry, "type", what + " geometry", false).value_or("mesh"));
    if (type != "mesh") {
      diagnostics_.warning(ErrorCode::ELEMENT_UNSUPPORTED,
                           what + ": geometry type '" + type + "' is not known (expected mesh); kept as written",
                           at(entry, "type"));
      keep(assemblies_[static_cast<std::size_t>(body.assembly)].kept, "geometry", entry);
      return;
    }
    const json_t* files = json_object_get(entry, "filename");
    if (!files) {
      diagnostics_.error(ErrorCode::ELEMENT_MISSING, what + " geometry: 'filename' is missing", at(entry));
      return;
    }
    readFiles(files, at(files));
  };
  if (json_is_array(geometry)) {
    for (std::size_t i = 0; i < json_array_size(geometry); ++i) readOne(json_array_get(geometry, i));
  } else {
    readOne(geometry);
  }
}

}  // namespace interlink::shift::detail
