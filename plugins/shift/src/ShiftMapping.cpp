// Step 2 of the Shift plugin: ShiftFile records -> the core model.
//
// The spanning tree of bodies and joints is built with Boost.Graph from the fixed frame, which
// decides each joint's sense and marks the joints that close loops; then the world, its root
// model and one nested model per assembly are written (docs/shift.md, "Mapping").
#include "ShiftMapping.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interlink/TextNumbers.hpp"
#include "interlink/UniqueNames.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::shift::detail {
namespace {

/// True for a model_parameters entry the reader applied to the model, which is therefore a note
/// of the reading and not content: the version, the units values were converted from, the
/// include directories searched, the gravity and the numbers of the simulation, of the first
/// integrator and of the first solver (the world's typed gravity and physics), the integration
/// type. Other entries (file names, a second integrator, the solver's type) are content.
bool appliedWhileReading(std::string_view key, std::string_view value) {
  const auto startsWith = [key](std::string_view prefix) { return key.substr(0, prefix.size()) == prefix; };
  if (key == "version" || startsWith("units.") || startsWith("include_dir") || startsWith("gravity[")) return true;
  for (std::string_view prefix : {"simulation.", "integrator[0].", "integrators[0].", "solver[0].", "solvers[0]."}) {
    if (!startsWith(prefix)) continue;
    const std::string_view name = key.substr(prefix.size());
    Diagnostics ignored;
    if (parseDouble(value, {}, name, ignored)) return true;
    return prefix.substr(0, 6) != "solver" && (name == "integration_type" || name == "type");
  }
  return false;
}

/// model_parameters as written, keyed "shift." + their path, into content and notes.
void splitParameters(const std::map<std::string, std::string>& written, std::map<std::string, std::string>& parameters,
                     std::map<std::string, std::string>& notes) {
  for (const auto& [key, value] : written) (appliedWhileReading(key, value) ? notes : parameters)["shift." + key] = value;
}

Vector3 rotationVector(const Matrix3& rotation) {
  const Eigen::AngleAxisd angleAxis(rotation);
  return angleAxis.axis() * angleAxis.angle();
}

enum class Sense { Forward, Reversed };

class Mapper {
 public:
  Mapper(const ShiftFile& file, Document& document, Diagnostics& diagnostics)
      : file_(file), document_(document), diagnostics_(diagnostics),
        bodyPlace_(file.bodies.size()), jointPlace_(file.joints.size()) {}

  void run() {
    buildTree();
    writeDocument();
  }

 private:
  /// Where the tree puts a body: its vertex and its pose in the fixed frame at zero.
  struct BodyPlace {
    int vertex = -1;
    Pose pose = Pose::Identity();
  };
  /// Where the tree and the model put a joint.
  struct JointPlace {
    bool treeEdge = false;
    Sense sense = Sense::Forward;
    int placedIn = 0;       // the assembly whose model holds the joint
    std::string modelName;  // unique in that model
  };

  void buildTree();
  void writeDocument();
  Model buildModel(int assembly);
  /// What an assembly holds besides bodies and joints: kept elements and restraints.
  void mapAssemblyRecords(int assembly, Model& model, ShiftAssembly& record) const;
  std::string scopedFrom(int model, const EndPoint& point) const;
  std::string scopedBody(int model, int body) const;
  std::string worldScoped(const EndPoint& point) const;
  /// Scoped name of an assembly's model from the world ("robot::arm").
  std::string modelScope(int assembly) const;
  int commonAssembly(int a, int b) const;
  Joint buildJoint(int joint) const;
  void writeLights(World& world);
  std::string assemblyPath(int assembly) const { return file_.assemblyPath(assembly); }

  const ShiftFile& file_;
  Document& document_;
  Diagnostics& diagnostics_;
  const std::vector<AssemblyRecord>& assemblies_ = file_.assemblies;
  const std::vector<BodyRecord>& bodies_ = file_.bodies;
  const std::vector<JointRecord>& joints_ = file_.joints;
  const std::vector<LightRecord>& lights_ = file_.lights;
  const Vector3& gravity_ = file_.gravity;
  std::vector<BodyPlace> bodyPlace_;
  std::vector<JointPlace> jointPlace_;
  int rootModel_ = 0;  // the assembly that becomes the world's model
};

// ---------------------------------------------------------------------------------------------
// spanning tree

void Mapper::buildTree() {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                                      boost::property<boost::edge_index_t, int>>;
  // Vertex 0 is the fixed frame; active bodies follow in document order.
  std::vector<int> bodyOfVertex = {kFixedBody};
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (!bodies_[b].active) continue;
    bodyPlace_[b].vertex = static_cast<int>(bodyOfVertex.size());
    bodyOfVertex.push_back(static_cast<int>(b));
  }
  auto vertexOf = [this](int body) { return body == kFixedBody ? 0 : bodyPlace_[static_cast<std::size_t>(body)].vertex; };
  Graph graph(bodyOfVertex.size());
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    boost::add_edge(static_cast<std::size_t>(vertexOf(joints_[j].parent.body)),
                    static_cast<std::size_t>(vertexOf(joints_[j].child.body)), static_cast<int>(j), graph);
  }

  // Breadth first from the fixed frame, joints in document order: each body hangs below the
  // first joint that reaches it on a shortest path; every other joint closes a loop.
  struct TreeState {
    std::vector<int> treeJoint;       // per vertex: the joint that discovered it
    std::vector<int> discoveryOrder;  // vertices in discovery order
  } state{std::vector<int>(bodyOfVertex.size(), -1), {}};
  struct Visitor : boost::default_bfs_visitor {
    TreeState* state;
    explicit Visitor(TreeState* s) : state(s) {}
    void tree_edge(Graph::edge_descriptor edge, const Graph& g) const {
      const auto to = boost::target(edge, g);
      state->treeJoint[to] = boost::get(boost::edge_index, g, edge);
      state->discoveryOrder.push_back(static_cast<int>(to));
    }
  };
  std::vector<boost::default_color_type> colors(bodyOfVertex.size(), boost::white_color);
  auto colorMap = boost::make_iterator_property_map(colors.begin(), boost::get(boost::vertex_index, graph));
  boost::breadth_first_visit(graph, 0, boost::visitor(Visitor(&state)).color_map(colorMap));
  // Bodies that no chain of joints connects to the fixed frame float: the first of each group
  // becomes a root at the fixed origin.
  for (std::size_t v = 1; v < bodyOfVertex.size(); ++v) {
    if (colors[v] != boost::white_color) continue;
    const BodyRecord& body = bodies_[static_cast<std::size_t>(bodyOfVertex[v])];
    diagnostics_.warning(ErrorCode::KINEMATICS_INVALID,
                         "body '" + body.name + "' in " + assemblyPath(body.assembly) +
                             " is not connected to the fixed frame by any joint; it is placed at the fixed origin "
                             "(use a float joint to position it)",
                         body.where);
    state.discoveryOrder.push_back(static_cast<int>(v));
    boost::breadth_first_visit(graph, v, boost::visitor(Visitor(&state)).color_map(colorMap));
  }

  for (int v : state.discoveryOrder) {
    const int j = state.treeJoint[static_cast<std::size_t>(v)];
    if (j < 0) continue;  // a root
    JointPlace& place = jointPlace_[static_cast<std::size_t>(j)];
    place.treeEdge = true;
    place.sense = vertexOf(joints_[static_cast<std::size_t>(j)].child.body) == v ? Sense::Forward : Sense::Reversed;
  }
  // Zero-configuration poses in the fixed frame, parents before children.
  for (int v : state.discoveryOrder) {
    Pose& pose = bodyPlace_[static_cast<std::size_t>(bodyOfVertex[static_cast<std::size_t>(v)])].pose;
    const int j = state.treeJoint[static_cast<std::size_t>(v)];
    if (j < 0) {
      pose = Pose::Identity();
      continue;
    }
    const JointRecord& joint = joints_[static_cast<std::size_t>(j)];
    // Only a rigid joint's {R, T} is structure; float and spherical start from coincident frames
    // and carry theirs as initial positions.
    const Pose offset = joint.type == JointType::Fixed ? joint.offset : Pose::Identity();
    auto poseOf = [this](int b) { return b == kFixedBody ? Pose(Pose::Identity()) : bodyPlace_[static_cast<std::size_t>(b)].pose; };
    if (jointPlace_[static_cast<std::size_t>(j)].sense == Sense::Forward) {
      pose = poseOf(joint.parent.body) * joint.parent.frameInBody * offset * joint.child.frameInBody.inverse();
    } else {
      pose = poseOf(joint.child.body) * joint.child.frameInBody * offset.inverse() * joint.parent.frameInBody.inverse();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// output

int Mapper::commonAssembly(int a, int b) const {
  std::set<int> ancestors;
  for (int x = a; x >= 0; x = assemblies_[static_cast<std::size_t>(x)].parent) ancestors.insert(x);
  for (int y = b; y >= 0; y = assemblies_[static_cast<std::size_t>(y)].parent)
    if (ancestors.count(y)) return y;
  return 0;
}

std::string Mapper::scopedBody(int model, int body) const {
  if (body == kFixedBody) return std::string(names::kWorld);
  std::string scoped = bodies_[static_cast<std::size_t>(body)].name;
  for (int a = bodies_[static_cast<std::size_t>(body)].assembly; a != model && a > 0;
       a = assemblies_[static_cast<std::size_t>(a)].parent)
    scoped = names::join(assemblies_[static_cast<std::size_t>(a)].name, scoped);
  return scoped;
}

std::string Mapper::scopedFrom(int model, const EndPoint& point) const {
  if (point.body == kFixedBody) return point.frame == kOrigin ? "world" : std::string(kFixed) + ":" + point.frame;
  const std::string body = scopedBody(model, point.body);
  return point.frame == kOrigin ? body : body + ":" + point.frame;
}

std::string Mapper::modelScope(int assembly) const {
  std::string scope;
  for (int a = assembly; a >= 0; a = assemblies_[static_cast<std::size_t>(a)].parent) {
    const std::string& name = assemblies_[static_cast<std::size_t>(a)].name;
    scope = scope.empty() ? name : names::join(name, scope);
    if (a == rootModel_) break;
  }
  return scope;
}

std::string Mapper::worldScoped(const EndPoint& point) const {
  if (point.body == kFixedBody) return point.frame == kOrigin ? "" : std::string(kFixed) + ":" + point.frame;
  const int assembly = bodies_[static_cast<std::size_t>(point.body)].assembly;
  return names::join(modelScope(assembly), scopedFrom(assembly, point));
}

Joint Mapper::buildJoint(int index) const {
  const JointRecord& def = joints_[static_cast<std::size_t>(index)];
  const JointPlace& place = jointPlace_[static_cast<std::size_t>(index)];
  Joint joint;
  joint.name = place.modelName;
  joint.type = def.type;
  joint.where = def.where;
  joint.loopClosure = !place.treeEdge;
  const bool reversed = place.treeEdge && place.sense == Sense::Reversed;
  const EndPoint& parent = reversed ? def.child : def.parent;
  const EndPoint& child = reversed ? def.parent : def.child;
  joint.parent = scopedBody(place.placedIn, parent.body);
  joint.child = scopedBody(place.placedIn, child.body);
  // The joint frame is the child's frame of the pair; at zero it coincides with the parent's.
  joint.pose.pose = child.frameInBody;
  joint.pose.where = def.where;
  // A reversed joint moves the other way: X_CP(q) = X_PC(q)^-1, the same coordinate about the
  // opposite axis for one-DOF joints, the inverse rotation (and translation) otherwise.
  const double sign = reversed ? -1.0 : 1.0;
  if (def.type == JointType::Revolute || def.type == JointType::Prismatic) {
    JointAxis axis;
    axis.xyz = sign * def.axis;
    axis.where = def.where;
    joint.axes.push_back(axis);
    joint.initialPositions = def.initialPositions;
    joint.initialVelocities = def.initialVelocities;
  } else if (def.type == JointType::Ball || def.type == JointType::Free) {
    const Pose offset = reversed ? def.offset.inverse() : def.offset;
    const Vector3 rotation = rotationVector(offset.linear());
    if (def.type == JointType::Ball) {
      joint.initialPositions = {rotation.x(), rotation.y(), rotation.z()};
    } else {
      const Vector3 t = offset.translation();
      joint.initialPositions = {t.x(), t.y(), t.z(), rotation.x(), rotation.y(), rotation.z()};
    }
    joint.initialVelocities = def.initialVelocities;
    if (reversed)
      for (double& v : joint.initialVelocities) v = -v;
  }
  return joint;
}

Model Mapper::buildModel(int index) {
  const AssemblyRecord& assembly = assemblies_[static_cast<std::size_t>(index)];
  Model model;
  model.name = assembly.name;
  model.where = assembly.where;
  ShiftAssembly record;
  mapAssemblyRecords(index, model, record);
  for (int b : assembly.bodies) {
    const BodyRecord& body = bodies_[static_cast<std::size_t>(b)];
    if (!body.active) {
      model.kept.push_back(KeptElement{"body/" + body.name, "", body.where});
      continue;
    }
    Link link = body.link;
    link.pose.pose = bodyPlace_[static_cast<std::size_t>(b)].pose;  // model frames coincide with the fixed frame
    link.pose.where = body.where;
    model.links.push_back(std::move(link));
    for (const auto& frame : body.frames) {
      Frame f;
      f.name = body.name + ":" + frame.name;
      f.attachedTo = body.name;
      f.pose.pose = frame.pose;
      f.pose.where = frame.where;
      f.where = frame.where;
      model.frames.push_back(std::move(f));
    }
    if (!body.collisionGeometry.empty()) record.bodies.push_back(ShiftBody{body.name, body.collisionGeometry});
  }
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const JointRecord& joint = joints_[j];
    const JointPlace& place = jointPlace_[j];
    if (place.placedIn != index) continue;
    model.joints.push_back(buildJoint(static_cast<int>(j)));
    // The pair as written (a loop constraint needs both frames), and whether the tree turned it.
    ShiftJoint written;
    written.name = place.modelName;
    written.type = joint.typeName;
    written.parentFrame = scopedFrom(index, joint.parent);
    written.childFrame = scopedFrom(index, joint.child);
    written.sense = !place.treeEdge                ? JointSense::LoopClosure
                    : place.sense == Sense::Forward ? JointSense::Forward
                                                    : JointSense::Reversed;
    written.stiffness = joint.stiffness;
    written.damping = joint.damping;
    written.dampingCoefficients = joint.dampingCoefficients;
    record.joints.push_back(std::move(written));
  }
  for (int child : assembly.children) {
    if (!assemblies_[static_cast<std::size_t>(child)].active) continue;
    Model nested = buildModel(child);
    if (nested.links.empty() && nested.models.empty()) {
      diagnostics_.add(Diagnostic{Severity::Note, ErrorCode::MODEL_WITHOUT_LINK,
                                  assemblyPath(child) + " has no active body; it is left out",
                                  assemblies_[static_cast<std::size_t>(child)].where});
      continue;
    }
    model.models.push_back(std::move(nested));
  }
  if (!record.joints.empty() || !record.bodies.empty() || !record.restraints.empty())
    model.extensions.set(std::move(record));
  return model;
}

void Mapper::mapAssemblyRecords(int index, Model& model, ShiftAssembly& record) const {
  const AssemblyRecord& assembly = assemblies_[static_cast<std::size_t>(index)];
  model.kept.insert(model.kept.end(), assembly.kept.begin(), assembly.kept.end());
  for (int r : assembly.restraints) {
    const RestraintRecord& read = file_.restraints[static_cast<std::size_t>(r)];
    Restraint restraint;
    restraint.name = read.name;
    restraint.type = read.type;
    // A spring acts on the displacement, dampers and friction on its rate.
    restraint.variable =
        read.type == RestraintType::Spring ? RestraintVariable::Displacement : RestraintVariable::Velocity;
    if (read.joint >= 0) {
      const JointPlace& place = jointPlace_[static_cast<std::size_t>(read.joint)];
      restraint.joint = names::join(modelScope(place.placedIn), place.modelName);
    } else {
      restraint.firstFrame = worldScoped(read.first);
      restraint.secondFrame = worldScoped(read.second);
      if (restraint.firstFrame.empty()) restraint.firstFrame = "world";
      if (restraint.secondFrame.empty()) restraint.secondFrame = "world";
      restraint.distance = read.distance;
    }
    restraint.function = read.function;
    record.restraints.push_back(std::move(restraint));
  }
}

void Mapper::writeDocument() {
  document_.format = "shift";
  document_.formatVersion = file_.version;
  // Shift's document gives every body a mass; Shift loads a semi-definite tensor.
  document_.rules.setVersion(document_.formatVersion);
  document_.rules.inertia.checked = true;
  document_.rules.inertia.massRequired = true;
  document_.rules.inertia.zeroMomentsAllowed = true;
  document_.rules.setInertiaVerdict("Shift loads it");
  // Names inside one model must differ across links, frames, nested models and joints.
  std::vector<UniqueNames> used(assemblies_.size(), UniqueNames(":", "", 2));
  for (std::size_t a = 0; a < assemblies_.size(); ++a) {
    if (!assemblies_[a].active) continue;
    for (int b : assemblies_[a].bodies) {
      const BodyRecord& body = bodies_[static_cast<std::size_t>(b)];
      if (!body.active) continue;
      used[a].add(body.name);
      for (const auto& f : body.frames) used[a].add(body.name + ":" + f.name);
    }
    for (int c : assemblies_[a].children) {
      const AssemblyRecord& child = assemblies_[static_cast<std::size_t>(c)];
      if (!child.active) continue;
      if (!used[a].add(child.name))
        diagnostics_.error(ErrorCode::DUPLICATE_NAME,
                           "subassembly '" + child.name + "' has the name of a body in " +
                               assemblyPath(static_cast<int>(a)) + "; both become one scope in the model",
                           child.where);
    }
  }
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const JointRecord& joint = joints_[j];
    int place = joint.assembly;
    if (joint.parent.body != kFixedBody)
      place = commonAssembly(place, bodies_[static_cast<std::size_t>(joint.parent.body)].assembly);
    if (joint.child.body != kFixedBody)
      place = commonAssembly(place, bodies_[static_cast<std::size_t>(joint.child.body)].assembly);
    jointPlace_[j].placedIn = place;
    // A joint that has to live higher up than its assembly keeps the path to where it was declared.
    std::vector<std::string> parts = {joint.name};
    for (int a = joint.assembly; a != place && a > 0; a = assemblies_[static_cast<std::size_t>(a)].parent)
      parts.insert(parts.begin(), assemblies_[static_cast<std::size_t>(a)].name);
    std::string name = joinPath(parts, ":");
    const std::string unique = used[static_cast<std::size_t>(place)].unique(name);
    if (unique != name)
      diagnostics_.warning(ErrorCode::DUPLICATE_NAME,
                           "joint '" + joint.name + "': the name is taken by a body, frame or subassembly in " +
                               assemblyPath(place) + " (one scope in the model); this joint is named '" + unique + "'",
                           joint.where);
    jointPlace_[j].modelName = unique;
  }
  // A file with a single top-level assembly and nothing at the top level gives that assembly as
  // the world's model; otherwise a root model named after the file holds the assemblies.
  {
    const AssemblyRecord& top = assemblies_[0];
    int activeChildren = 0;
    int onlyChild = 0;
    for (int c : top.children)
      if (assemblies_[static_cast<std::size_t>(c)].active) {
        ++activeChildren;
        onlyChild = c;
      }
    bool rootUsed = false;
    for (int b : top.bodies) rootUsed = rootUsed || bodies_[static_cast<std::size_t>(b)].active;
    for (const auto& place : jointPlace_) rootUsed = rootUsed || place.placedIn == 0;
    if (!rootUsed && activeChildren == 1) rootModel_ = onlyChild;
  }

  World world;
  world.name = assemblies_[0].name;
  world.where = file_.where;
  world.gravity = gravity_;
  world.physics = file_.physics;
  splitParameters(file_.parameters, world.parameters, world.readingNotes);
  world.kept = file_.kept;
  for (const auto& frame : file_.fixedFrames) {
    Frame f;
    f.name = std::string(kFixed) + ":" + frame.name;
    f.pose.pose = frame.pose;
    f.pose.where = frame.where;
    f.where = frame.where;
    world.frames.push_back(std::move(f));
  }
  writeLights(world);
  Model root = buildModel(rootModel_);
  ShiftAssembly rootRecord;
  if (const ShiftAssembly* own = root.extensions.find<ShiftAssembly>()) rootRecord = *own;
  if (rootModel_ != 0) mapAssemblyRecords(0, root, rootRecord);
  rootRecord.includeDirectories = file_.includeDirectories;
  root.extensions.set(std::move(rootRecord));
  splitParameters(file_.parameters, root.parameters, root.readingNotes);
  if (!root.links.empty() || !root.models.empty()) world.models.push_back(std::move(root));
  else
    diagnostics_.warning(ErrorCode::MODEL_WITHOUT_LINK, "the file has no active body", file_.where);
  document_.worlds.push_back(std::move(world));
}

void Mapper::writeLights(World& world) {
  for (const auto& def : lights_) {
    Light light = def.light;
    light.attachedTo = worldScoped(def.at);
    light.pose.relativeTo = light.attachedTo;
    light.pose.where = light.where;
    world.lights.push_back(std::move(light));
  }
  if (!lights_.empty()) return;
  // Shift's default: one directional light overhead, shining along gravity.
  Light light;
  light.name = "default_overhead";
  light.type = LightType::Directional;
  const Vector3 down = gravity_.norm() > 0 ? Vector3(gravity_.normalized()) : Vector3(Vector3::UnitZ());
  light.direction = down;
  light.pose.pose.translation() = -10.0 * down;
  world.lights.push_back(std::move(light));
  world.readingNotes["shift.default_light"] = "true";
}


}  // namespace

void mapShiftFile(const ShiftFile& file, const plugin::LoadRequest& /*request*/, Document& document,
                  Diagnostics& diagnostics) {
  Mapper(file, document, diagnostics).run();
}

}  // namespace interlink::shift::detail
