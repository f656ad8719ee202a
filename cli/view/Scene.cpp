#include "view/Scene.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <deque>
#include <filesystem>
#include <functional>
#include <set>
#include <unordered_map>

#include "interlink/ModelQuery.hpp"
#include "CommandSupport.hpp"
#include "view/JsonText.hpp"

namespace interlink::cli::view {

namespace {

/// Every model of the document the graph resolves (a world's models, or the top model), nested
/// ones included, and the world's own joints.
void forEachModel(const LoadResult& loaded, const std::function<void(const Model&)>& visit) {
  std::function<void(const Model&)> walk = [&](const Model& model) {
    visit(model);
    for (const Model& nested : model.models) walk(nested);
  };
  const Document& document = loaded.document;
  if (document.model) walk(*document.model);
  if (loaded.graph.isWorld() && loaded.graph.worldIndex() < document.worlds.size()) {
    for (const Model& model : document.worlds[loaded.graph.worldIndex()].models) walk(model);
  }
}

const std::vector<Joint>* worldJoints(const LoadResult& loaded) {
  const Document& document = loaded.document;
  if (!loaded.graph.isWorld() || loaded.graph.worldIndex() >= document.worlds.size()) return nullptr;
  return &document.worlds[loaded.graph.worldIndex()].joints;
}

void where(JsonText& json, const SourceLocation& location) {
  json.key("file").value(location.file.str());
  json.key("line").value(location.line);
}

/// The link's elements by the index of their frame in the graph.
struct ElementsByFrame {
  std::unordered_map<std::size_t, const Link*> links;
  std::unordered_map<std::size_t, const Joint*> joints;
};

ElementsByFrame elementsByFrame(const LoadResult& loaded) {
  ElementsByFrame elements;
  forEachModel(loaded, [&](const Model& model) {
    for (const Link& link : model.links) {
      if (auto frame = loaded.graph.frameOf(link)) elements.links[*frame] = &link;
    }
    for (const Joint& joint : model.joints) {
      if (auto frame = loaded.graph.frameOf(joint)) elements.joints[*frame] = &joint;
    }
  });
  if (const auto* joints = worldJoints(loaded)) {
    for (const Joint& joint : *joints) {
      if (auto frame = loaded.graph.frameOf(joint)) elements.joints[*frame] = &joint;
    }
  }
  return elements;
}

void geometry(JsonText& json, const Geometry& g, const std::map<std::string, int>& meshOfPath) {
  json.beginObject();
  json.key("type").value(geometryTypeName(g.type));
  switch (g.type) {
    case GeometryType::Box:
    case GeometryType::Pyramid: json.key("size").vector(g.size); break;
    case GeometryType::Sphere: json.key("radius").value(g.radius); break;
    case GeometryType::Cylinder:
    case GeometryType::Capsule:
    case GeometryType::Cone:
      json.key("radius").value(g.radius);
      json.key("length").value(g.length);
      break;
    case GeometryType::Ellipsoid: json.key("radii").vector(g.radii); break;
    case GeometryType::Plane:
      json.key("normal").vector(g.normal);
      json.key("plane_size").beginArray().value(g.planeSize[0]).value(g.planeSize[1]).endArray();
      break;
    case GeometryType::Mesh: {
      json.key("uri").value(g.meshUri);
      json.key("scale").vector(g.scale);
      auto mesh = meshOfPath.find(g.meshResolvedPath);
      json.key("mesh").value(mesh == meshOfPath.end() ? -1 : mesh->second);
      break;
    }
    case GeometryType::MultiSphere:
      json.key("spheres").beginArray();
      for (const Sphere& s : g.spheres) json.beginObject().key("radius").value(s.radius).key("center").vector(s.center).endObject();
      json.endArray();
      break;
    case GeometryType::Empty:
    case GeometryType::Heightmap: break;
  }
  return (void)json.endObject();
}

void shapes(JsonText& json, const std::vector<Shape>& list, const LoadResult& loaded, std::size_t linkFrame,
            const std::map<std::string, int>& meshOfPath) {
  const auto& frames = loaded.graph.frames();
  json.beginArray();
  for (const Shape& shape : list) {
    // X_LS: the shape in its link's frame (a pose written relative to another frame resolved here).
    Pose X_LS = shape.pose.pose;
    if (!shape.pose.relativeTo.empty()) {
      if (auto f = loaded.graph.resolveReference(linkFrame, shape.pose.relativeTo)) {
        X_LS = frames[linkFrame].pose.inverse() * frames[*f].pose * shape.pose.pose;
      }
    }
    json.beginObject();
    json.key("name").value(shape.name);
    json.key("pose").pose(X_LS);
    json.key("geometry");
    geometry(json, shape.geometry, meshOfPath);
    if (shape.color) {
      json.key("color").beginArray();
      for (int i = 0; i < 4; ++i) json.value((*shape.color)[i]);
      json.endArray();
    }
    if (!shape.material.empty()) json.key("material").value(shape.material);
    where(json, shape.where);
    json.endObject();
  }
  json.endArray();
}

/// Mass, centre of mass and the box of uniform density with the same principal moments, as
/// Gazebo and MuJoCo draw inertia: sides sqrt(6 (I_b + I_c - I_a) / m).
void inertial(JsonText& json, const Link& link) {
  const Inertial& in = link.inertial;
  Eigen::SelfAdjointEigenSolver<Matrix3> solver(in.inertia);
  Matrix3 axes = solver.eigenvectors();
  if (axes.determinant() < 0) axes.col(2) = -axes.col(2);
  const Vector3 moments = solver.eigenvalues();
  bool valid = in.mass > 0 && std::isfinite(in.mass) && solver.info() == Eigen::Success;
  Vector3 box = Vector3::Zero();
  for (int i = 0; i < 3 && valid; ++i) {
    const double twice = moments[(i + 1) % 3] + moments[(i + 2) % 3] - moments[i];
    if (moments[i] < 0 || twice < -1e-12 * moments.cwiseAbs().maxCoeff()) valid = false;
    box[i] = std::sqrt(std::max(0.0, 6.0 * twice / in.mass));
  }
  Pose X_LB = in.centerOfMass;
  X_LB.linear() = in.centerOfMass.linear() * axes;
  json.beginObject();
  json.key("given").value(link.hasInertial);
  json.key("mass").value(in.mass);
  json.key("com").vector(in.centerOfMass.translation());
  json.key("box_pose").pose(X_LB);
  json.key("box_size").vector(box);
  json.key("valid").value(valid);
  where(json, in.where.line ? in.where : link.where);
  json.endObject();
}

/// The chain of tree joints in evaluation order (parents before children), with X_PJ and X_JC
/// computed exactly as Kinematics::build computes them, so the page's forward kinematics is the
/// core's: X_RC(q) = X_RP(q) · X_PJ · M_J(q) · X_JC, and every frame rides on its link.
void chain(JsonText& json, const LoadResult& loaded, const ElementsByFrame& elements) {
  const auto& frames = loaded.graph.frames();
  const auto& joints = loaded.kinematics.joints();
  std::unordered_map<int, std::vector<std::size_t>> childJoints;  // parent link frame (-1: root) -> joints
  std::vector<char> isChild(frames.size(), 0);
  for (std::size_t j = 0; j < joints.size(); ++j) {
    if (joints[j].loopClosure) continue;
    childJoints[joints[j].parentLinkFrame].push_back(j);
    isChild[joints[j].childLinkFrame] = 1;
  }
  std::vector<std::size_t> order;
  std::deque<int> queue{-1};
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].kind == FrameKind::Link && !isChild[i]) queue.push_back(static_cast<int>(i));
  }
  std::vector<char> placed(joints.size(), 0);
  while (!queue.empty()) {
    const int link = queue.front();
    queue.pop_front();
    auto it = childJoints.find(link);
    if (it == childJoints.end()) continue;
    for (std::size_t j : it->second) {
      if (placed[j]) continue;
      placed[j] = 1;
      order.push_back(j);
      queue.push_back(static_cast<int>(joints[j].childLinkFrame));
    }
  }
  json.key("steps").beginArray();
  std::vector<char> moved(frames.size(), 0);
  for (std::size_t j : order) {
    const TreeJoint& t = joints[j];
    moved[t.childLinkFrame] = 1;
    const Pose& X_RJ = frames[t.frame].pose;
    const Pose X_RP = t.parentLinkFrame < 0 ? Pose::Identity() : frames[static_cast<std::size_t>(t.parentLinkFrame)].pose;
    const Joint* source = elements.joints.count(t.frame) ? elements.joints.at(t.frame) : nullptr;
    json.beginObject();
    json.key("joint").value(j);
    json.key("type").value(std::string(jointTypeName(t.type)));
    json.key("first_dof").value(t.firstDof);
    json.key("dof_count").value(dofCount(t.type));
    json.key("axes").beginArray();
    for (const Vector3& a : t.axes) json.vector(a);
    json.endArray();
    json.key("pitch").value(source ? source->screwThreadPitch : 0.0);
    json.key("ratio").value(source ? source->transmissionRatio : 1.0);
    json.key("parent").value(t.parentLinkFrame);
    json.key("child").value(t.childLinkFrame);
    json.key("X_PJ").pose(X_RP.inverse() * X_RJ);
    json.key("X_JC").pose(X_RJ.inverse() * frames[t.childLinkFrame].pose);
    json.endObject();
  }
  json.endArray();
  json.key("root_links").beginArray();
  std::vector<char> listed(frames.size(), 0);
  for (const FrameInfo& frame : frames) {
    const int link = frame.attachedLinkFrame;
    if (link < 0 || moved[static_cast<std::size_t>(link)] || listed[static_cast<std::size_t>(link)]) continue;
    listed[static_cast<std::size_t>(link)] = 1;
    json.beginObject().key("link").value(link).key("pose").pose(frames[static_cast<std::size_t>(link)].pose).endObject();
  }
  json.endArray();
}

void framesArray(JsonText& json, const LoadResult& loaded) {
  const auto& frames = loaded.graph.frames();
  json.beginArray();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const FrameInfo& f = frames[i];
    const int link = f.attachedLinkFrame;
    // X_LF on the link it rides on, X_RF for a frame fixed in the root (Kinematics' offsets).
    Pose offset = f.pose;
    if (link >= 0) offset = static_cast<std::size_t>(link) == i ? Pose::Identity() : frames[static_cast<std::size_t>(link)].pose.inverse() * f.pose;
    json.beginObject();
    json.key("name").value(f.name);
    json.key("kind").value(frameKindName(f.kind));
    json.key("link").value(link);
    json.key("offset").pose(offset);
    where(json, f.where);
    json.endObject();
  }
  json.endArray();
}

void jointsArray(JsonText& json, const LoadResult& loaded, const ElementsByFrame& elements) {
  const auto& joints = loaded.kinematics.joints();
  json.beginArray();
  for (const TreeJoint& t : joints) {
    const Joint* source = elements.joints.count(t.frame) ? elements.joints.at(t.frame) : nullptr;
    json.beginObject();
    json.key("name").value(t.name);
    json.key("type").value(std::string(jointTypeName(t.type)));
    json.key("frame").value(t.frame);
    json.key("parent").value(t.parentLinkFrame);
    json.key("child").value(t.childLinkFrame);
    json.key("first_dof").value(t.firstDof);
    json.key("loop_closure").value(t.loopClosure);
    json.key("axes").beginArray();
    for (const Vector3& a : t.axes) json.vector(a);
    json.endArray();
    if (source && source->mimic) {
      const std::string leader = scopedName(loaded.graph.scopeOf(t.frame), source->mimic->joint);
      json.key("mimic").beginObject().key("joint").value(leader).key("multiplier").value(source->mimic->multiplier);
      json.key("offset").value(source->mimic->offset).endObject();
    }
    if (source) where(json, source->where);
    json.endObject();
  }
  json.endArray();
}

void dofsArray(JsonText& json, const LoadResult& loaded) {
  const ModelQuery query(loaded);
  std::unordered_map<std::string, const JointInfo*> infoOf;
  for (const JointInfo& info : query.joints()) infoOf[info.name] = &info;
  json.beginArray();
  for (const Dof& dof : loaded.kinematics.dofs()) {
    const JointInfo* info = infoOf.count(dof.joint) ? infoOf.at(dof.joint) : nullptr;
    const auto index = static_cast<std::size_t>(dof.index);
    json.beginObject();
    json.key("name").value(dof.name);
    json.key("joint").value(dof.joint);
    json.key("index").value(dof.index);
    json.key("initial").value(dof.initial);
    json.key("lower").value(info && index < info->lower.size() ? info->lower[index] : -INFINITY);
    json.key("upper").value(info && index < info->upper.size() ? info->upper[index] : INFINITY);
    json.endObject();
  }
  json.endArray();
}

void linksArray(JsonText& json, const LoadResult& loaded, const ElementsByFrame& elements,
                const std::map<std::string, int>& meshOfPath) {
  const auto& frames = loaded.graph.frames();
  json.beginArray();
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].kind != FrameKind::Link) continue;
    auto found = elements.links.find(i);
    json.beginObject();
    json.key("name").value(frames[i].name);
    json.key("frame").value(i);
    if (found != elements.links.end()) {
      const Link& link = *found->second;
      json.key("visuals");
      shapes(json, link.visuals, loaded, i, meshOfPath);
      json.key("collisions");
      shapes(json, link.collisions, loaded, i, meshOfPath);
      json.key("inertial");
      inertial(json, link);
      where(json, link.where);
    }
    json.endObject();
  }
  json.endArray();
}

void diagnosticsArray(JsonText& json, const Diagnostics& diagnostics) {
  for (const Diagnostic& d : diagnostics) json.raw(diagnosticJson(d, ""));
}

}  // namespace

std::vector<std::string> meshPaths(const LoadResult& loaded) {
  std::vector<std::string> paths;
  std::set<std::string> seen;
  forEachModel(loaded, [&](const Model& model) {
    for (const Link& link : model.links) {
      for (const auto* list : {&link.visuals, &link.collisions}) {
        for (const Shape& shape : *list) {
          const std::string& path = shape.geometry.meshResolvedPath;
          if (shape.geometry.type == GeometryType::Mesh && !path.empty() && seen.insert(path).second) paths.push_back(path);
        }
      }
    }
  });
  return paths;
}

std::vector<std::string> modelFiles(const LoadResult& loaded, const std::string& topLevelFile) {
  std::set<std::string> files;
  auto add = [&](const std::string& file) {
    if (file.empty() || file.front() == '<') return;  // "<stdin>", "<string>"
    std::error_code ec;
    files.insert(std::filesystem::absolute(file, ec).lexically_normal().string());
  };
  add(topLevelFile);
  add(loaded.document.sourceFile);
  forEachModel(loaded, [&](const Model& model) {
    add(model.source.file);
    for (const Link& link : model.links) {
      add(link.where.file);
      for (const auto* list : {&link.visuals, &link.collisions}) {
        for (const Shape& shape : *list) {
          add(shape.where.file);
          add(shape.geometry.meshResolvedPath);
        }
      }
    }
    for (const Joint& joint : model.joints) add(joint.where.file);
  });
  for (const FrameInfo& frame : loaded.graph.frames()) add(frame.where.file);
  for (const Diagnostic& d : loaded.diagnostics) add(d.where.file);
  return {files.begin(), files.end()};
}

std::string sceneJson(const LoadResult& loaded, const std::string& title, const std::map<std::string, int>& meshOfPath,
                      const Diagnostics& extraDiagnostics) {
  const ElementsByFrame elements = elementsByFrame(loaded);
  JsonText json;
  json.beginObject();
  json.key("version").value(1);
  json.key("title").value(title);
  json.key("ok").value(loaded.ok());
  json.key("root").value(loaded.graph.rootName());
  json.key("is_world").value(loaded.graph.isWorld());
  json.key("frames");
  framesArray(json, loaded);
  json.key("chain").beginObject();
  chain(json, loaded, elements);
  json.endObject();
  json.key("dofs");
  dofsArray(json, loaded);
  json.key("joints");
  jointsArray(json, loaded, elements);
  json.key("links");
  linksArray(json, loaded, elements, meshOfPath);
  json.key("diagnostics").beginArray();
  diagnosticsArray(json, loaded.diagnostics);
  diagnosticsArray(json, extraDiagnostics);
  json.endArray();
  json.endObject();
  return json.take();
}

}  // namespace interlink::cli::view
