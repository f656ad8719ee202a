// The frame graphs of SDFormat's composition proposal (section 1.6 of
// sdformat.org/tutorials?tut=composition_proposal), built once over the whole composed document.
//
// Every scope (the world, each model, each nested model) contributes vertices to ONE attached-to
// graph and ONE relative-to graph (Boost.Graph adjacency lists), with names scoped by "::". Each
// phase of the proposal is a named member function below. Poses are then resolved in a single
// traversal from the root over the reversed relative-to edges, so resolving every frame costs
// O(frames), unlike libsdformat, which walks to the scope root for every query.
#include "interlink/FrameGraph.hpp"

#include "interlink/SimilarNames.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <memory_resource>
#include <string_view>
#include <unordered_map>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/strong_components.hpp>

namespace interlink {

const char* frameKindName(FrameKind kind) {
  switch (kind) {
    case FrameKind::World: return "world";
    case FrameKind::Model: return "model";
    case FrameKind::Link: return "link";
    case FrameKind::Joint: return "joint";
    case FrameKind::Frame: return "frame";
  }
  return "frame";
}

namespace detail {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
/// Read-only graphs for the traversals: one contiguous edge array, built in linear time.
using CsrGraph = boost::compressed_sparse_row_graph<boost::directedS>;

/// A CSR graph over n vertices from (source, target) pairs in any order.
inline CsrGraph makeCsr(std::vector<std::pair<std::size_t, std::size_t>>& edges, std::size_t n) {
  return CsrGraph(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), n);
}
constexpr int kNone = -1;

/// One named frame while the graphs are being built.
struct Vertex {
  std::string name;            // scoped from the root
  std::string_view localName;  // the last component of `name` (a view into it)
  std::string ownName;         // the element's scoped name where `name` differs (FrameInfo::ownName)
  FrameKind kind = FrameKind::Frame;
  const SourceLocation* where = nullptr;  // the element's own location (the document outlives the build)
  int scope = kNone;      // scope the element is declared in
  int ownScope = kNone;   // for model vertices: the scope they open
  // Relative-to graph: one out-edge to `relativeTarget` carrying X_target_this.
  Pose edgePose = Pose::Identity();
  int relativeTarget = kNone;
  int placementFrame = kNone;  // models placed by //model/@placement_frame or //include/placement_frame
  bool edgeResolved = false;
  // Attached-to graph: one out-edge, or a sink (links, static models, the world).
  int attachedTarget = kNone;
  bool attachedSink = false;
};

struct Scope {
  std::string prefix;  // "" for the root scope, "a::b::" for nested ones
  int modelVertex = kNone;
  int parent = kNone;
  bool isWorld = false;
  bool isStatic = false;  // the model or one of its ancestors is static
  const Model* model = nullptr;
  const World* world = nullptr;
};

/// Everything a built graph keeps: the public frames and enough scope data to resolve references.
struct GraphData {
  std::vector<FrameInfo> frames;
  std::vector<int> frameScope;  // scope index of each public frame
  std::vector<detail::Scope> scopes;
  // Public index by scoped name; the keys view the names in `frames`, which never change after
  // the build (moving the vector keeps its elements where they are).
  std::unordered_map<std::string_view, std::size_t> byName;
  std::vector<std::size_t> modelFrameOfScope;           // public index of each scope's model frame
  // Public index of each element's frame, by the element's address in the built document.
  std::unordered_map<const void*, std::size_t> frameOfElement;
  std::vector<std::string> scopeNames;  // per scope: its scoped name ("" for the root scope)
  std::string rootName;
  bool world = false;
  std::size_t worldIndex = 0;

  std::optional<std::size_t> lookup(int scope, const std::string& reference) const;
};

}  // namespace detail

struct FrameGraph::Impl : detail::GraphData {};

namespace {

using detail::kNone;
using detail::Scope;
using detail::Vertex;

bool isReservedName(std::string_view name) {
  if (name == "world") return true;
  return name.size() >= 4 && name.compare(0, 2, "__") == 0 && name.compare(name.size() - 2, 2, "__") == 0;
}

std::string joinNames(const std::vector<std::string>& names, const char* separator = " -> ") {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? separator : "") + names[i];
  return out;
}

struct PoseResolver;

class FrameGraphBuilder {
 public:
  friend struct PoseResolver;
  FrameGraphBuilder(const Document& document, Diagnostics& diagnostics, std::size_t worldIndex)
      : document_(document),
        worldIndex_(worldIndex),
        diagnostics_(diagnostics) {
    documentRules_.format = document.format;
    documentRules_.formatVersion = document.formatVersion;
  }

  detail::GraphData run();

 private:
  // --- scopes and names -------------------------------------------------------------------
  int addVertex(Vertex v);
  int openModelScope(const Model& model, int parentScope, int modelVertex, const std::string& prefix);
  /// The one scope walker step shared by model and world phases: a vertex for `element` named
  /// `frameName` in `scope`, registered under its scoped name.
  template <class Element>
  int addElement(int scope, const std::string& frameName, const Element& element);
  /// A nested model of `scope` (a world's model or a model's nested model) and the scope it opens.
  void addNestedModel(int scope, const Model& model);
  int lookup(int scope, const std::string& reference) const;
  void registerName(const std::string& localName, int vertex, const SourceLocation& where);
  void checkName(const std::string& name, const char* what, const SourceLocation& where, int scope);
  /// Whether `scope` follows the rules of an SDFormat file older than `version`: each model
  /// follows its own file's rules; the world (and a model the framework did not stamp) the root
  /// document's.
  bool sdformatBefore(int scope, double version) const { return rulesOf(scope).sdformatBefore(version); }
  const ModelSource& rulesOf(int scope) const {
    const Model* model = scopes_[static_cast<std::size_t>(scope)].model;
    return model && !model->source.format.empty() ? model->source : documentRules_;
  }
  /// Whether links and joints of `scope` have separate namespaces (SDFormat before 1.7, URDF): a
  /// joint named like a link keeps its name; only its frame is named "<name>_joint".
  bool jointsHaveOwnNamespace(int scope) const { return rulesOf(scope).format == "urdf" || sdformatBefore(scope, 1.7); }

  // --- model phases (proposal 1.6.1); phase 1 (XML and schema) is the format plugin's -------
  void checkNameAttributes(int scope);                // phase 2
  void checkJointParentChildNames(int scope);         // phase 3
  std::string unknownJointEnd(int scope, const Joint& joint, const char* end) const;
  void checkCanonicalLink(int scope);                 // phase 4
  void checkFrameAttachedToValues(int scope);         // phase 5
  void checkAttachedToValues(int scope, const std::vector<Frame>& frames, const char* what, const char* expected);
  /// Whether `reference` names the frame of `element` itself. By the frame, never by the name: in
  /// URDF (and SDFormat < 1.7) a joint may share a link's name, and then names that link.
  template <class Element>
  bool namesItself(const Element& element, const std::string& reference) const {
    const int self = vertexOf(&element);
    return self != kNone && reference == vertices_[self].localName;
  }
  void checkRelativeTo(int scope, bool selfReference, const std::string& owner, const char* what, const SemanticPose& pose,
                       const SourceLocation& where, const char* expected);
  void addRelativeToEdge(int scope, int vertex, const SemanticPose& pose, int fallback);
  void buildFrameAttachedToGraph(int scope);          // phase 6 (6.1-6.6; 6.7/6.8 globally below)
  // Shared by model and world scopes (one scope walker for both).
  void addAttachedToEdges(int scope, const std::vector<Joint>& joints, const std::vector<Frame>& frames);
  void addPoseEdges(int scope, const std::vector<Model>& models, const std::vector<Joint>& joints,
                    const std::vector<Frame>& frames);
  template <class Element>
  void checkPoses(int scope, const std::vector<Element>& elements, const char* what, const char* expected);
  int vertexOf(const void* element) const;  // kNone when the element has no vertex
  int jointChildTarget(int scope, int vertex, const Joint& joint) const;
  int frameTarget(int scope, const Frame& frame) const;
  void checkPoseRelativeToValues(int scope);          // phase 7
  void buildPoseRelativeToGraph(int scope);           // phase 8 (8.1-8.5; 8.6 globally below)
  void checkModel(int scope);                         // phases 2-8 for one model and its nested models
  const std::vector<int>& childScopes(int scope);     // the scopes whose parent is `scope`, in order

  // --- world phases (proposal 1.6.2) ------------------------------------------------------
  void checkWorldNameAttributes(int scope);           // phase 2
  void checkModels(int scope);                        // phase 3
  void checkWorldFrameAttachedToValues(int scope);    // phase 4
  void buildWorldFrameAttachedToGraph(int scope);     // phase 5
  void checkWorldPoseRelativeToValues(int scope);     // phase 6
  void buildWorldPoseRelativeToGraph(int scope);      // phase 7

  // --- whole-graph validation and resolution -----------------------------------------------
  void validateFrameAttachedToGraph();                // 6.7, 6.8 / world 5.4
  void validatePoseRelativeToGraph();                 // 8.6 / world 7.5, and the one-pass resolution
  const Pose& edgePose(int vertex);
  void resolveChild(int parent, int child) {
    resolved_[static_cast<std::size_t>(child)] = resolved_[static_cast<std::size_t>(parent)] * edgePose(child);
    isResolved_[static_cast<std::size_t>(child)] = 1;
  }
  std::optional<Pose> poseInAncestor(int vertex, int ancestor);
  std::vector<std::vector<int>> findCycles(const std::vector<int>& target) const;
  int canonicalLinkOf(int scope, std::vector<int>& visiting);

  void error(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.error(code, std::move(message), where);
  }

  const Document& document_;
  std::size_t worldIndex_;  // the world of document_ to build
  Diagnostics& diagnostics_;
  ModelSource documentRules_;  // the root document's format and version
  // The vertices and both indexes live as long as the builder and are never erased from: they
  // take their memory from one arena, released at once, instead of one allocation per vertex,
  // per name and per element (36 000 for a 12 000-frame model). Declared first: freed last.
  std::pmr::monotonic_buffer_resource arena_;
  std::pmr::deque<Vertex> vertices_{&arena_};  // a deque: vertices never move, so views of their names stay valid
  std::vector<Scope> scopes_;
  // Per scope, its nested scopes in the order they were opened (kept beside scopes_), so that a
  // world of many models is not rescanned once per model.
  std::vector<std::vector<int>> childScopes_;
  std::pmr::unordered_map<std::string_view, int> byName_{&arena_};  // keys view vertices_[i].name
  mutable std::string keyBuffer_;                     // reused by lookup(): no allocation per query
  std::vector<int> canonicalLink_;  // per scope, resolved in phase 4 (a link, or a static nested model)
  std::pmr::unordered_map<const void*, int> vertexOf_{&arena_};  // element (Link/Joint/Frame/Model) -> its vertex
  std::vector<Pose> resolved_;
  std::vector<char> isResolved_;
  int root_ = kNone;
  bool attachedCyclesPossible_ = true;
  std::vector<int> attachedLink_;  // per vertex: the link (or kNone) it is attached to
  void resolveAttachedLinks();
};

int FrameGraphBuilder::addVertex(Vertex v) {
  vertices_.push_back(std::move(v));
  Vertex& added = vertices_.back();
  const std::string_view name = added.name;
  const std::size_t separator = name.rfind("::");
  added.localName = name.substr(separator == std::string_view::npos ? 0 : separator + 2);
  return static_cast<int>(vertices_.size()) - 1;
}

FrameKind kindOf(const Link&) { return FrameKind::Link; }
FrameKind kindOf(const Joint&) { return FrameKind::Joint; }
FrameKind kindOf(const Frame&) { return FrameKind::Frame; }
FrameKind kindOf(const Model&) { return FrameKind::Model; }

template <class Element>
int FrameGraphBuilder::addElement(int scope, const std::string& frameName, const Element& element) {
  Vertex v;
  v.name = scopes_[static_cast<std::size_t>(scope)].prefix + frameName;
  v.where = &element.where;
  v.scope = scope;
  v.kind = kindOf(element);
  const int index = addVertex(std::move(v));
  vertexOf_[&element] = index;
  registerName(frameName, index, element.where);
  return index;
}

void FrameGraphBuilder::addNestedModel(int scope, const Model& model) {
  checkName(model.name, "model", model.where, scope);
  const std::string prefix = scopes_[static_cast<std::size_t>(scope)].prefix + model.name + "::";
  openModelScope(model, scope, addElement(scope, model.name, model), prefix);
}

int FrameGraphBuilder::openModelScope(const Model& model, int parentScope, int modelVertex, const std::string& prefix) {
  Scope scope;
  scope.prefix = prefix;
  scope.modelVertex = modelVertex;
  scope.parent = parentScope;
  scope.model = &model;
  scope.isStatic = model.isStatic || (parentScope != kNone && scopes_[parentScope].isStatic && !scopes_[parentScope].isWorld);
  scopes_.push_back(scope);
  canonicalLink_.push_back(kNone);
  const int index = static_cast<int>(scopes_.size()) - 1;
  childScopes_.emplace_back();
  if (parentScope != kNone) childScopes_[static_cast<std::size_t>(parentScope)].push_back(index);
  vertices_[modelVertex].ownScope = index;
  return index;
}

int FrameGraphBuilder::lookup(int scope, const std::string& reference) const {
  if (reference.empty()) return kNone;
  const Scope& s = scopes_[scope];
  // Views: comparing with a literal then checks the length first, inline (one call per query).
  const std::string_view written = reference;
  if (written == "__model__") return s.isWorld ? kNone : s.modelVertex;
  if (written == "world") return s.isWorld ? s.modelVertex : kNone;
  static const std::string kModelSuffix = "::__model__";
  std::string& key = keyBuffer_;
  key.assign(s.prefix);
  if (reference.size() > kModelSuffix.size() &&
      reference.compare(reference.size() - kModelSuffix.size(), kModelSuffix.size(), kModelSuffix) == 0) {
    key.append(reference, 0, reference.size() - kModelSuffix.size());
    auto it = byName_.find(std::string_view(key));
    return it != byName_.end() && vertices_[it->second].kind == FrameKind::Model ? it->second : kNone;
  }
  // The root scope has no prefix: the reference is the key as written, no copy needed.
  const std::string_view scoped = s.prefix.empty() ? written : std::string_view(key += reference);
  auto it = byName_.find(scoped);
  return it == byName_.end() ? kNone : it->second;
}

void FrameGraphBuilder::checkName(const std::string& name, const char* what, const SourceLocation& where, int scope) {
  if (name.empty()) {
    error(ErrorCode::ATTRIBUTE_MISSING, std::string(what) + " has an empty name; expected a non-empty name", where);
    return;
  }
  if (isReservedName(name)) {
    error(ErrorCode::RESERVED_NAME,
          std::string(what) + " name '" + name + "' is reserved ('world' and names starting and ending with '__')",
          where);
  }
  if (name.find("::") != std::string::npos) {
    error(!sdformatBefore(scope, 1.8) ? ErrorCode::RESERVED_NAME : ErrorCode::NAME_INVALID,
          std::string(what) + " name '" + name + "' contains '::', which is the scope delimiter", where);
  }
}

void FrameGraphBuilder::registerName(const std::string& localName, int vertex, const SourceLocation& where) {
  auto [it, inserted] = byName_.emplace(std::string_view(vertices_[vertex].name), vertex);
  if (!inserted) {
    const Vertex& first = vertices_[it->second];
    std::string message = std::string(frameKindName(vertices_[vertex].kind)) + " name '" + localName +
                          "' is already used by a " + frameKindName(first.kind) + " in the same scope";
    if (first.where && first.where->line > 0) message += " (line " + std::to_string(first.where->line) + ")";
    error(ErrorCode::DUPLICATE_NAME, message, where);
  }
}

// ---------------------------------------------------------------------------------------------
// Model phase 2: names are non-empty, not reserved, free of "::" and unique among siblings.
// Registers every link, joint, frame and nested model of the scope (6.1-6.4, 8.1-8.2 vertices).
void FrameGraphBuilder::checkNameAttributes(int scope) {
  const Model& model = *scopes_[scope].model;
  const std::string prefix = scopes_[scope].prefix;  // a copy: opening nested scopes grows scopes_
  for (const Link& link : model.links) {
    checkName(link.name, "link", link.where, scope);
    addElement(scope, link.name, link);
    // Visual and collision names are unique within their link (recursiveSiblingUniqueNames).
    for (const auto* shapes : {&link.visuals, &link.collisions}) {
      std::unordered_map<std::string, const Shape*> seen;
      for (const Shape& shape : *shapes) {
        if (!seen.emplace(shape.name, &shape).second) {
          error(ErrorCode::DUPLICATE_NAME,
                std::string(shapes == &link.visuals ? "visual" : "collision") + " name '" + shape.name +
                    "' is used twice in link '" + link.name + "'",
                shape.where);
        }
      }
    }
  }
  for (const Joint& joint : model.joints) {
    checkName(joint.name, "joint", joint.where, scope);
    std::string frameName = joint.name;
    if (jointsHaveOwnNamespace(scope)) {
      // Before SDFormat 1.7 (and in URDF) joints and links have separate namespaces; libsdformat
      // names the joint's frame "<name>_joint" when they collide, and so do we. The joint keeps
      // its name (DOFs, positions, writers); only the frame graph uses the frame's name.
      while (byName_.count(prefix + frameName) && vertices_[byName_.at(prefix + frameName)].kind == FrameKind::Link) {
        frameName += "_joint";
      }
    }
    const int vertex = addElement(scope, frameName, joint);
    if (frameName != joint.name) vertices_[vertex].ownName = prefix + joint.name;
  }
  for (const Frame& frame : model.frames) {
    checkName(frame.name, "frame", frame.where, scope);
    addElement(scope, frame.name, frame);
  }
  for (const Model& nested : model.models) addNestedModel(scope, nested);
}

// A joint's parent or child (`end`) that names nothing, said in the words of the model's format: a
// URDF joint joins links of a robot, an SDFormat joint frames of a model.
std::string FrameGraphBuilder::unknownJointEnd(int scope, const Joint& joint, const char* end) const {
  const bool parent = std::string_view(end) == "parent";
  const std::string& name = parent ? joint.parent : joint.child;
  if (rulesOf(scope).format == "urdf") {
    return std::string(end) + " link '" + name + "' of joint '" + joint.name + "' is not a link of robot '" +
           scopes_[static_cast<std::size_t>(scope)].model->name + "'";
  }
  return std::string(end) + " frame '" + name + "' of joint '" + joint.name + "' is not " +
         (parent ? "'world' or " : "") + "a link, joint, frame or nested model of this model";
}

// Model phase 3: joint parent and child name frames of this scope; "world" only as a parent.
void FrameGraphBuilder::checkJointParentChildNames(int scope) {
  for (const Joint& joint : scopes_[scope].model->joints) {
    if (joint.child == "world") {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, "joint '" + joint.name + "' has 'world' as its child; a child must be a frame of the model", joint.where);
    } else if (joint.child.empty()) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, "joint '" + joint.name + "' has no child frame", joint.where);
    } else if (joint.child == joint.name && lookup(scope, joint.child) == vertexOf_[&joint]) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, "joint '" + joint.name + "' names itself as its child", joint.where);
      // Its frame is attached to its child and, without a relative_to, posed in it: both cycles.
      error(ErrorCode::FRAME_ATTACHED_TO_CYCLE, "joint '" + joint.name + "' is attached to itself (its child)", joint.where);
      if (joint.pose.relativeTo.empty()) {
        error(ErrorCode::POSE_RELATIVE_TO_CYCLE, "the pose of joint '" + joint.name + "' is relative to its child, itself",
              joint.where);
      }
    } else if (lookup(scope, joint.child) == kNone) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, unknownJointEnd(scope, joint, "child"), joint.where);
    }
    if (scopes_[scope].model->source.fromInterfaceModel) continue;  // interface joints name a child only
    if (joint.parent.empty()) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID, "joint '" + joint.name + "' has no parent frame", joint.where);
    } else if (namesItself(joint, joint.parent)) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID, "joint '" + joint.name + "' names itself as its parent", joint.where);
    } else if (joint.parent != "world" && lookup(scope, joint.parent) == kNone) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID, unknownJointEnd(scope, joint, "parent"), joint.where);
    }
    if (!joint.parent.empty() && joint.parent == joint.child) {
      error(ErrorCode::JOINT_PARENT_SAME_AS_CHILD, "joint '" + joint.name + "' has the same parent and child '" + joint.child + "'", joint.where);
    }
  }
}

// The canonical link of a scope: @canonical_link, else the first link, else the first nested
// model's canonical link.
int FrameGraphBuilder::canonicalLinkOf(int scope, std::vector<int>& visiting) {
  if (canonicalLink_[scope] != kNone) return canonicalLink_[scope];
  const Model& model = *scopes_[scope].model;
  int target = kNone;
  if (!model.canonicalLink.empty()) {
    target = lookup(scope, model.canonicalLink);
    if (target != kNone && vertices_[target].kind != FrameKind::Link) target = kNone;
  } else if (!model.links.empty()) {
    target = vertexOf(&model.links.front());
  } else {
    // No link of its own: the first nested model's canonical link, or a static nested model,
    // which is fixed and so a valid thing to be attached to (libsdformat's STATIC_MODEL sink).
    for (const Model& nested : model.models) {
      auto it = vertexOf_.find(&nested);
      if (it == vertexOf_.end() || vertices_[it->second].ownScope == kNone) continue;
      const int nestedScope = vertices_[it->second].ownScope;
      if (nested.isStatic) {
        target = it->second;
        break;
      }
      if (std::find(visiting.begin(), visiting.end(), nestedScope) != visiting.end()) continue;
      visiting.push_back(nestedScope);
      target = canonicalLinkOf(nestedScope, visiting);
      if (target != kNone) break;
    }
  }
  canonicalLink_[scope] = target;
  return target;
}

// Model phase 4: the canonical link exists (non-static models). A static model is fixed to its
// parent frame, so its @canonical_link is never used and not checked (as libsdformat).
void FrameGraphBuilder::checkCanonicalLink(int scope) {
  if (scopes_[scope].isStatic) return;
  const Model& model = *scopes_[scope].model;
  std::vector<int> visiting{scope};
  const int link = canonicalLinkOf(scope, visiting);
  if (!model.canonicalLink.empty() && link == kNone) {
    error(ErrorCode::MODEL_CANONICAL_LINK_INVALID,
          "canonical_link '" + model.canonicalLink + "' of model '" + model.name + "' is not a link of this model",
          model.where);
    return;
  }
  if (link == kNone) {
    error(ErrorCode::MODEL_WITHOUT_LINK, "model '" + model.name + "' has no link; a non-static model needs at least one", model.where);
  }
}

// Model phase 5: //frame/@attached_to names a sibling frame and not the frame itself.
void FrameGraphBuilder::checkFrameAttachedToValues(int scope) {
  checkAttachedToValues(scope, scopes_[scope].model->frames, "frame", "a link, joint, frame or nested model of this model");
}

/// Phase 5 (model) and 4 (world): each attached_to names a frame of the scope, not the frame itself.
/// A frame attached to itself with no relative_to is also posed relative to itself: both cycles.
void FrameGraphBuilder::checkAttachedToValues(int scope, const std::vector<Frame>& frames, const char* what,
                                              const char* expected) {
  for (const Frame& frame : frames) {
    if (frame.attachedTo.empty()) continue;
    if (namesItself(frame, frame.attachedTo)) {
      error(ErrorCode::FRAME_ATTACHED_TO_CYCLE, std::string(what) + " '" + frame.name + "' is attached to itself", frame.where);
      if (frame.pose.relativeTo.empty()) {
        error(ErrorCode::POSE_RELATIVE_TO_CYCLE,
              "the pose of " + std::string(what) + " '" + frame.name + "' is relative to its attached_to frame, itself",
              frame.where);
      }
    } else if (lookup(scope, frame.attachedTo) == kNone) {
      error(ErrorCode::FRAME_ATTACHED_TO_INVALID,
            "attached_to '" + frame.attachedTo + "' of " + what + " '" + frame.name + "' is not " + expected, frame.where);
    }
  }
}

// Model phase 6: attached-to edges. Links are sinks; the model frame goes to the canonical link
// (static models are sinks); joints go to their child; frames to attached_to or the model frame.
void FrameGraphBuilder::buildFrameAttachedToGraph(int scope) {
  const Scope& s = scopes_[scope];
  Vertex& modelVertex = vertices_[s.modelVertex];
  if (s.isStatic) {
    modelVertex.attachedSink = true;
  } else {
    modelVertex.attachedTarget = canonicalLink_[scope];
  }
  for (const Link& link : s.model->links) {
    if (const int v = vertexOf(&link); v != kNone) vertices_[v].attachedSink = true;
  }
  addAttachedToEdges(scope, s.model->joints, s.model->frames);
}

/// Attached-to edges of a scope's joints (to their child) and explicit frames (to attached_to,
/// else the scope's own frame), for model and world scopes alike.
void FrameGraphBuilder::addAttachedToEdges(int scope, const std::vector<Joint>& joints, const std::vector<Frame>& frames) {
  for (const Joint& joint : joints) {
    if (const int v = vertexOf(&joint); v != kNone) vertices_[v].attachedTarget = jointChildTarget(scope, v, joint);
  }
  for (const Frame& frame : frames) {
    if (const int v = vertexOf(&frame); v != kNone) vertices_[v].attachedTarget = frameTarget(scope, frame);
  }
}

/// Phase 7 (model) and 6 (world): a pose's relative_to names a frame of the scope, not its owner.
void FrameGraphBuilder::checkRelativeTo(int scope, bool selfReference, const std::string& owner, const char* what,
                                        const SemanticPose& pose, const SourceLocation& where, const char* expected) {
  if (pose.relativeTo.empty()) return;
  const SourceLocation& at = pose.where.line ? pose.where : where;
  if (selfReference) {
    error(ErrorCode::POSE_RELATIVE_TO_CYCLE, std::string(what) + " '" + owner + "' has a pose relative to itself", at);
  } else if (lookup(scope, pose.relativeTo) == kNone) {
    error(ErrorCode::POSE_RELATIVE_TO_INVALID,
          "relative_to '" + pose.relativeTo + "' of " + what + " '" + owner + "' is not " + expected, at);
  }
}

/// Phase 8 (model) and 7 (world): the vertex's one relative-to edge, carrying its written pose.
void FrameGraphBuilder::addRelativeToEdge(int scope, int v, const SemanticPose& pose, int fallback) {
  Vertex& vertex = vertices_[v];
  vertex.edgePose = pose.pose;
  vertex.relativeTarget = pose.relativeTo.empty()                ? fallback
                          : pose.relativeTo == vertex.localName ? kNone
                                                                 : lookup(scope, pose.relativeTo);
}

// Model phase 7: every //pose/@relative_to names a frame of this scope.
void FrameGraphBuilder::checkPoseRelativeToValues(int scope) {
  const Model& model = *scopes_[scope].model;
  const char* expected = "a link, joint, frame or nested model of this model";
  checkPoses(scope, model.links, "link", expected);
  checkPoses(scope, model.joints, "joint", expected);
  checkPoses(scope, model.frames, "frame", expected);
  checkPoses(scope, model.models, "model", expected);
}

template <class Element>
void FrameGraphBuilder::checkPoses(int scope, const std::vector<Element>& elements, const char* what, const char* expected) {
  for (const Element& e : elements) {
    checkRelativeTo(scope, namesItself(e, e.pose.relativeTo), e.name, what, e.pose, e.where, expected);
  }
}

// Model phase 8: relative-to edges (8.3-8.5) and placement frames of nested models.
void FrameGraphBuilder::buildPoseRelativeToGraph(int scope) {
  const Scope& s = scopes_[scope];
  for (const Link& link : s.model->links) {
    if (const int v = vertexOf(&link); v != kNone) addRelativeToEdge(scope, v, link.pose, s.modelVertex);
  }
  addPoseEdges(scope, s.model->models, s.model->joints, s.model->frames);
}

/// Relative-to edges of a scope's nested models (default: the scope's frame), joints (their
/// child) and explicit frames (their attached_to), for model and world scopes alike.
void FrameGraphBuilder::addPoseEdges(int scope, const std::vector<Model>& models, const std::vector<Joint>& joints,
                                     const std::vector<Frame>& frames) {
  const int scopeFrame = scopes_[scope].modelVertex;
  for (const Model& model : models) {
    if (const int v = vertexOf(&model); v != kNone) addRelativeToEdge(scope, v, model.pose, scopeFrame);
  }
  for (const Joint& joint : joints) {
    if (const int v = vertexOf(&joint); v != kNone) addRelativeToEdge(scope, v, joint.pose, jointChildTarget(scope, v, joint));
  }
  for (const Frame& frame : frames) {
    if (const int v = vertexOf(&frame); v != kNone) addRelativeToEdge(scope, v, frame.pose, frameTarget(scope, frame));
  }
}

int FrameGraphBuilder::vertexOf(const void* element) const {
  auto it = vertexOf_.find(element);
  return it == vertexOf_.end() ? kNone : it->second;
}

int FrameGraphBuilder::jointChildTarget(int scope, int vertex, const Joint& joint) const {
  // A model joint naming itself as its child was reported in phase 3; it gets no edge. (A world
  // joint keeps the edge to itself, which the cycle check reports.)
  if (!scopes_[scope].isWorld && joint.child == vertices_[vertex].localName) return kNone;
  return lookup(scope, joint.child);
}

int FrameGraphBuilder::frameTarget(int scope, const Frame& frame) const {
  if (frame.attachedTo.empty()) return scopes_[scope].modelVertex;
  return frame.attachedTo == frame.name ? kNone : lookup(scope, frame.attachedTo);
}

const std::vector<int>& FrameGraphBuilder::childScopes(int scope) {
  return childScopes_[static_cast<std::size_t>(scope)];
}

void FrameGraphBuilder::checkModel(int scope) {
  checkNameAttributes(scope);
  // Nested scopes were opened by phase 2; check them before this model's graph uses them.
  const std::vector<int> nested = childScopes(scope);  // a copy: checking may open scopes
  for (int child : nested) checkModel(child);
  checkJointParentChildNames(scope);
  checkCanonicalLink(scope);
  checkFrameAttachedToValues(scope);
  buildFrameAttachedToGraph(scope);
  checkPoseRelativeToValues(scope);
  buildPoseRelativeToGraph(scope);

  // //model/@placement_frame: the model's pose places that frame instead of the model frame.
  const Model& model = *scopes_[scope].model;
  if (!model.placementFrame.empty()) {
    const int frame = lookup(scope, model.placementFrame);
    if (frame == kNone) {
      // libsdformat reports this through its relative-to graph; so do we, with the same code.
      error(ErrorCode::POSE_RELATIVE_TO_INVALID,
            "placement_frame '" + model.placementFrame + "' of model '" + model.name + "' is not a frame of that model",
            model.where);
    } else {
      vertices_[scopes_[scope].modelVertex].placementFrame = frame;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// World phase 2: names of models, frames and joints directly in the world.
void FrameGraphBuilder::checkWorldNameAttributes(int scope) {
  const World& world = *scopes_[scope].world;
  for (const Model& model : world.models) addNestedModel(scope, model);
  for (const Frame& frame : world.frames) {
    checkName(frame.name, "frame", frame.where, scope);
    std::string frameName = frame.name;
    if (sdformatBefore(scope, 1.8)) {
      // SDFormat 1.7 let world frames share a model's name; libsdformat calls such a frame
      // "<name>_frame", and so do we.
      while (byName_.count(frameName) && vertices_[byName_.at(frameName)].kind == FrameKind::Model) frameName += "_frame";
    }
    addElement(scope, frameName, frame);
  }
  for (const Joint& joint : world.joints) {
    checkName(joint.name, "joint", joint.where, scope);
    addElement(scope, joint.name, joint);
  }
}

// World phase 3: every model passes the eight model phases.
void FrameGraphBuilder::checkModels(int scope) {
  const std::vector<int> models = childScopes(scope);  // a copy: checking may open scopes
  for (int model : models) checkModel(model);
  // //world/joint (SDFormat 1.8): parent and child are frames of the world scope.
  for (const Joint& joint : scopes_[scope].world->joints) {
    if (joint.child.empty() || joint.child == "world" || lookup(scope, joint.child) == kNone) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, "child '" + joint.child + "' of world joint '" + joint.name + "' is not a frame of the world", joint.where);
    }
    if (joint.parent.empty() || lookup(scope, joint.parent) == kNone) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID, "parent '" + joint.parent + "' of world joint '" + joint.name + "' is not 'world' or a frame of the world", joint.where);
    }
    if (!joint.parent.empty() && joint.parent == joint.child) {
      error(ErrorCode::JOINT_PARENT_SAME_AS_CHILD, "world joint '" + joint.name + "' has the same parent and child", joint.where);
    }
  }
}

// World phase 4: //world/frame/@attached_to names a model or frame of the world.
void FrameGraphBuilder::checkWorldFrameAttachedToValues(int scope) {
  checkAttachedToValues(scope, scopes_[scope].world->frames, "world frame", "a model or frame of the world");
}

// World phase 5: world frames go to attached_to or the world; the world is a sink.
void FrameGraphBuilder::buildWorldFrameAttachedToGraph(int scope) {
  const Scope& s = scopes_[scope];
  vertices_[s.modelVertex].attachedSink = true;
  addAttachedToEdges(scope, s.world->joints, s.world->frames);
}

// World phase 6: //model/pose and //world/frame/pose relative_to name a model or frame of the world.
void FrameGraphBuilder::checkWorldPoseRelativeToValues(int scope) {
  const World& world = *scopes_[scope].world;
  const char* expected = "a model or frame of the world";
  checkPoses(scope, world.models, "model", expected);
  checkPoses(scope, world.frames, "frame", expected);
  checkPoses(scope, world.joints, "joint", expected);
}

// World phase 7: relative-to edges of world models, frames and joints.
void FrameGraphBuilder::buildWorldPoseRelativeToGraph(int scope) {
  const Scope& s = scopes_[scope];
  addPoseEdges(scope, s.world->models, s.world->joints, s.world->frames);
}

// ---------------------------------------------------------------------------------------------
/// Cycles of a graph in which every vertex has at most one out-edge (`target`), each listed in
/// edge order. Found with Boost's strongly connected components, so the cost stays linear.
std::vector<std::vector<int>> FrameGraphBuilder::findCycles(const std::vector<int>& target) const {
  const std::size_t n = target.size();
  detail::Graph graph(n);
  for (std::size_t v = 0; v < n; ++v) {
    if (target[v] != kNone) boost::add_edge(v, static_cast<std::size_t>(target[v]), graph);
  }
  std::vector<int> component(n);
  const int count = boost::strong_components(
      graph, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, graph)));
  std::vector<int> size(static_cast<std::size_t>(count), 0);
  for (std::size_t v = 0; v < n; ++v) ++size[static_cast<std::size_t>(component[v])];
  std::vector<std::vector<int>> cycles;
  std::vector<char> reported(static_cast<std::size_t>(count), 0);
  for (std::size_t v = 0; v < n; ++v) {
    const auto c = static_cast<std::size_t>(component[v]);
    const bool selfLoop = target[v] == static_cast<int>(v);
    if (reported[c] || (size[c] < 2 && !selfLoop)) continue;
    reported[c] = 1;
    std::vector<int> cycle{static_cast<int>(v)};
    for (int w = target[v]; w != static_cast<int>(v); w = target[static_cast<std::size_t>(w)]) cycle.push_back(w);
    cycles.push_back(std::move(cycle));
  }
  return cycles;
}

/// The link every vertex is attached to: one traversal from every sink over the reversed
/// attached-to edges. A vertex it does not reach is on, or leads into, a cycle or a bad reference.
void FrameGraphBuilder::resolveAttachedLinks() {
  const std::size_t n = vertices_.size();
  attachedLink_.assign(n, kNone);
  std::vector<char> reached(n, 0);
  std::vector<std::pair<std::size_t, std::size_t>> edges;  // reversed: from the frame attached to, to the frame
  edges.reserve(n);
  for (std::size_t v = 0; v < n; ++v) {
    if (!vertices_[v].attachedSink && vertices_[v].attachedTarget != kNone)
      edges.emplace_back(static_cast<std::size_t>(vertices_[v].attachedTarget), v);
  }
  const detail::CsrGraph graph = detail::makeCsr(edges, n);
  std::vector<std::size_t> stack;
  for (std::size_t v = 0; v < n; ++v) {
    if (!vertices_[v].attachedSink) continue;
    attachedLink_[v] = vertices_[v].kind == FrameKind::Link ? static_cast<int>(v) : kNone;
    reached[v] = 1;
    stack.push_back(v);
    while (!stack.empty()) {
      const std::size_t u = stack.back();
      stack.pop_back();
      for (auto [e, end] = boost::out_edges(u, graph); e != end; ++e) {
        const std::size_t w = boost::target(*e, graph);
        attachedLink_[w] = attachedLink_[u];
        reached[w] = 1;
        stack.push_back(w);
      }
    }
  }
  attachedCyclesPossible_ = std::find(reached.begin(), reached.end(), 0) != reached.end();
}

// 6.7 / 6.8 / world 5.4: no cycles, every frame reaches a link (or the world, or a static model),
// and each joint's parent and child resolve to different links.
void FrameGraphBuilder::validateFrameAttachedToGraph() {
  if (!attachedCyclesPossible_) return;  // every vertex reached a sink: there is no cycle to name
  std::vector<int> target(vertices_.size(), kNone);
  for (std::size_t v = 0; v < vertices_.size(); ++v) target[v] = vertices_[v].attachedSink ? kNone : vertices_[v].attachedTarget;
  for (const auto& cycle : findCycles(target)) {
    std::vector<std::string> names;
    for (int v : cycle) names.push_back(vertices_[v].name);
    names.push_back(vertices_[cycle.front()].name);
    error(ErrorCode::FRAME_ATTACHED_TO_CYCLE, "attached_to cycle: " + joinNames(names), *vertices_[cycle.front()].where);
  }
}

const Pose& FrameGraphBuilder::edgePose(int vertex) {
  Vertex& v = vertices_[vertex];
  if (v.edgeResolved || v.placementFrame == kNone) return v.edgePose;
  // X_RM = X_RPf * X_MPf^-1, with X_MPf resolved inside the model (placement_frame semantics).
  v.edgeResolved = true;  // set first: a malformed graph must not recurse forever
  if (auto X_MPf = poseInAncestor(v.placementFrame, vertex)) {
    v.edgePose = v.edgePose * X_MPf->inverse();
  } else {
    error(ErrorCode::MODEL_PLACEMENT_FRAME_INVALID,
          "placement frame of model '" + v.name + "' cannot be resolved inside the model", *v.where);
  }
  return v.edgePose;
}

std::optional<Pose> FrameGraphBuilder::poseInAncestor(int vertex, int ancestor) {
  Pose pose = Pose::Identity();
  std::size_t steps = 0;
  for (int v = vertex; v != ancestor; v = vertices_[v].relativeTarget) {
    if (v == kNone || ++steps > vertices_.size()) return std::nullopt;
    pose = edgePose(v) * pose;
  }
  return pose;
}

/// Breadth-first visitor over the relative-to graph with its edges reversed: a tree edge runs from
/// the frame a pose is written relative to, to the posed frame, whose pose follows from its parent's.
struct PoseResolver : boost::default_bfs_visitor {
  FrameGraphBuilder* builder = nullptr;
  template <class Edge, class G>
  void tree_edge(Edge e, const G& g) const {
    builder->resolveChild(static_cast<int>(boost::source(e, g)), static_cast<int>(boost::target(e, g)));
  }
};

// 8.6 / world 7.5: no cycles and every vertex reaches the root; then every pose is resolved in
// one breadth-first traversal from the root over the reversed edges.
void FrameGraphBuilder::validatePoseRelativeToGraph() {
  const std::size_t n = vertices_.size();
  std::vector<int> target(n, kNone);
  for (std::size_t v = 0; v < n; ++v) target[v] = static_cast<int>(v) == root_ ? kNone : vertices_[v].relativeTarget;
  std::vector<std::pair<std::size_t, std::size_t>> edges;  // reversed: from the frame a pose is relative to
  edges.reserve(n);
  for (std::size_t v = 0; v < n; ++v) {
    if (target[v] != kNone) edges.emplace_back(static_cast<std::size_t>(target[v]), v);
  }
  const detail::CsrGraph graph = detail::makeCsr(edges, n);
  resolved_.assign(n, Pose::Identity());
  isResolved_.assign(n, 0);
  isResolved_[static_cast<std::size_t>(root_)] = 1;

  PoseResolver resolver;
  resolver.builder = this;
  std::vector<boost::default_color_type> colors(n, boost::white_color);
  boost::breadth_first_search(graph, static_cast<std::size_t>(root_),
                              boost::visitor(resolver).color_map(boost::make_iterator_property_map(
                                  colors.begin(), boost::get(boost::vertex_index, graph))));

  // Cycles are looked for only when something was left unresolved (a valid graph pays nothing).
  std::vector<char> onCycle(n, 0);
  if (std::find(isResolved_.begin(), isResolved_.end(), 0) == isResolved_.end()) return;
  for (const auto& cycle : findCycles(target)) {
    std::vector<std::string> names;
    for (int v : cycle) {
      names.push_back(vertices_[v].name);
      onCycle[static_cast<std::size_t>(v)] = 1;
    }
    names.push_back(vertices_[cycle.front()].name);
    error(ErrorCode::POSE_RELATIVE_TO_CYCLE, "relative_to cycle: " + joinNames(names), *vertices_[cycle.front()].where);
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (isResolved_[v] || onCycle[v] || target[v] == kNone) continue;  // missing targets were reported in phase 7
    // A vertex that leads into a cycle: say which cycle it depends on.
    int w = target[v];
    std::size_t guard = 0;
    while (w != kNone && !onCycle[static_cast<std::size_t>(w)] && !isResolved_[static_cast<std::size_t>(w)] && ++guard <= n) w = target[static_cast<std::size_t>(w)];
    if (w != kNone && onCycle[static_cast<std::size_t>(w)]) {
      error(ErrorCode::POSE_RELATIVE_TO_GRAPH_ERROR,
            "pose of '" + vertices_[v].name + "' depends on the relative_to cycle through '" + vertices_[w].name + "'",
            *vertices_[v].where);
    }
  }
}

/// Number of frames a model contributes, to size the tables once.
std::size_t countFrames(const Model& model) {
  std::size_t count = 1 + model.links.size() + model.joints.size() + model.frames.size();
  for (const Model& nested : model.models) count += countFrames(nested);
  return count;
}

detail::GraphData FrameGraphBuilder::run() {
  detail::GraphData out;
  std::size_t expected = 1;
  if (document_.model) expected += countFrames(*document_.model);
  if (worldIndex_ < document_.worlds.size()) {  // only the world being built: each world is built once
    const World& world = document_.worlds[worldIndex_];
    expected += world.frames.size() + world.joints.size();
    for (const Model& model : world.models) expected += countFrames(model);
  }
  byName_.reserve(expected);
  vertexOf_.reserve(expected);
  if (document_.isWorld() && worldIndex_ < document_.worlds.size()) {
    const World& world = document_.worlds[worldIndex_];
    Vertex root;
    root.name = "world";
    root.kind = FrameKind::World;
    root.where = &world.where;
    root_ = addVertex(root);
    Scope scope;
    scope.isWorld = true;
    scope.modelVertex = root_;
    scope.world = &world;
    scopes_.push_back(scope);
    canonicalLink_.push_back(kNone);
    childScopes_.emplace_back();
    vertices_[root_].ownScope = 0;
    checkWorldNameAttributes(0);
    checkModels(0);
    checkWorldFrameAttachedToValues(0);
    buildWorldFrameAttachedToGraph(0);
    checkWorldPoseRelativeToValues(0);
    buildWorldPoseRelativeToGraph(0);
    out.rootName = "world";
    out.worldIndex = worldIndex_;
    out.world = true;
  } else if (document_.model) {
    const Model& model = *document_.model;
    Vertex root;
    root.name = model.name;
    root.kind = FrameKind::Model;
    root.where = &model.where;
    root_ = addVertex(root);
    openModelScope(model, kNone, root_, "");
    if (!model.name.empty()) checkName(model.name, "model", model.where, 0);
    checkModel(0);
    out.rootName = model.name;
  } else {
    return out;
  }
  resolveAttachedLinks();
  validateFrameAttachedToGraph();
  validatePoseRelativeToGraph();
  // 6.8: the parent and child of each joint are attached to different links.
  // (Checked by Kinematics, which resolves attached links for every frame anyway.)

  const std::size_t n = vertices_.size();
  const std::vector<int>& attachedLink = attachedLink_;

  // Public view: resolved frames in registration order (the root first).
  std::vector<int> publicIndex(n, kNone);
  out.frames.reserve(n);
  out.byName.reserve(n);
  for (std::size_t v = 0; v < n; ++v) {
    if (!isResolved_[v]) continue;
    publicIndex[v] = static_cast<int>(out.frames.size());
    FrameInfo info;
    info.name = std::move(vertices_[v].name);  // the builder is done with it (byName_ is not used again)
    info.kind = vertices_[v].kind;
    info.ownName = std::move(vertices_[v].ownName);
    info.pose = resolved_[v];
    if (vertices_[v].where) info.where = *vertices_[v].where;
    // Attached links are resolved to names below, once every name has been moved.
    out.frames.push_back(std::move(info));
    out.frameScope.push_back(vertices_[v].scope == kNone ? 0 : vertices_[v].scope);
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (publicIndex[v] == kNone) continue;
    FrameInfo& info = out.frames[static_cast<std::size_t>(publicIndex[v])];
    const int rel = vertices_[v].relativeTarget;
    info.relativeTo = rel == kNone ? -1 : publicIndex[static_cast<std::size_t>(rel)];
    const int att = vertices_[v].attachedSink ? kNone : vertices_[v].attachedTarget;
    info.attachedTo = att == kNone ? -1 : publicIndex[static_cast<std::size_t>(att)];
    const int link = attachedLink[v];
    if (link != kNone && publicIndex[static_cast<std::size_t>(link)] != kNone) {
      info.attachedLinkFrame = publicIndex[static_cast<std::size_t>(link)];
      info.attachedLink = out.frames[static_cast<std::size_t>(info.attachedLinkFrame)].name;
    }
    if (static_cast<int>(v) != root_) out.byName.emplace(std::string_view(info.name), static_cast<std::size_t>(publicIndex[v]));
  }
  out.frameOfElement.reserve(vertexOf_.size());
  for (const auto& [element, vertex] : vertexOf_) {
    if (publicIndex[static_cast<std::size_t>(vertex)] != kNone)
      out.frameOfElement.emplace(element, static_cast<std::size_t>(publicIndex[static_cast<std::size_t>(vertex)]));
  }
  out.scopes = scopes_;
  out.scopeNames.reserve(scopes_.size());
  for (const Scope& scope : scopes_) {
    out.scopeNames.push_back(scope.prefix.empty() ? std::string() : scope.prefix.substr(0, scope.prefix.size() - 2));
  }
  for (auto& scope : out.scopes) {
    scope.modelVertex = publicIndex[static_cast<std::size_t>(scope.modelVertex)];
    scope.model = nullptr;  // the document may move; only names are needed after the build
    scope.world = nullptr;
  }
  return out;
}

}  // namespace

std::optional<std::size_t> detail::GraphData::lookup(int scope, const std::string& reference) const {
  if (reference.empty() || scope < 0 || scope >= static_cast<int>(scopes.size())) return std::nullopt;
  const detail::Scope& s = scopes[static_cast<std::size_t>(scope)];
  auto modelFrame = [&]() -> std::optional<std::size_t> {
    if (s.modelVertex < 0) return std::nullopt;
    return static_cast<std::size_t>(s.modelVertex);
  };
  if (reference == "__model__") return s.isWorld ? std::nullopt : modelFrame();
  if (reference == "world") return s.isWorld ? modelFrame() : std::nullopt;
  std::string key = s.prefix + reference;
  static const std::string kModelSuffix = "::__model__";
  if (key.size() > kModelSuffix.size() && key.compare(key.size() - kModelSuffix.size(), kModelSuffix.size(), kModelSuffix) == 0) {
    key.resize(key.size() - kModelSuffix.size());
  }
  auto it = byName.find(std::string_view(key));
  if (it == byName.end()) return std::nullopt;
  return it->second;
}

FrameGraph::FrameGraph() : impl_(std::make_unique<Impl>()) {}
FrameGraph::~FrameGraph() = default;
FrameGraph::FrameGraph(FrameGraph&&) noexcept = default;
FrameGraph& FrameGraph::operator=(FrameGraph&&) noexcept = default;

FrameGraph FrameGraph::build(const Document& document, Diagnostics& diagnostics, std::size_t world) {
  FrameGraph graph;
  FrameGraphBuilder builder(document, diagnostics, world);
  static_cast<detail::GraphData&>(*graph.impl_) = builder.run();
  return graph;
}

const std::vector<FrameInfo>& FrameGraph::frames() const { return impl_->frames; }

std::optional<std::size_t> FrameGraph::find(const std::string& scopedName) const {
  if (scopedName == impl_->rootName && !impl_->frames.empty()) {
    // The root is found by its own name unless a frame inside it has that name.
    auto it = impl_->byName.find(scopedName);
    return it == impl_->byName.end() ? std::optional<std::size_t>(0) : std::optional<std::size_t>(it->second);
  }
  if (scopedName == "__model__" && !impl_->world && !impl_->frames.empty()) return 0;
  auto it = impl_->byName.find(scopedName);
  if (it != impl_->byName.end()) return it->second;
  // A model file is resolved in its model frame, placed at the world's origin: "world" names it.
  if (scopedName == "world" && !impl_->frames.empty()) return 0;
  return std::nullopt;
}

std::string FrameGraph::unknownFrameMessage(const std::string& scopedName) const {
  std::vector<std::string> names;
  names.reserve(impl_->frames.size() + 1);
  for (const FrameInfo& frame : impl_->frames) names.push_back(frame.name);
  if (!impl_->world) names.push_back("world");
  return "no frame named '" + scopedName + "'" + didYouMean(scopedName, names);
}

std::optional<Pose> FrameGraph::pose(const std::string& frame, const std::string& relativeTo) const {
  auto a = find(frame);
  auto b = find(relativeTo);
  if (!a || !b) return std::nullopt;
  return impl_->frames[*b].pose.inverse() * impl_->frames[*a].pose;
}

std::optional<std::size_t> FrameGraph::resolveReference(std::size_t from, const std::string& reference) const {
  if (from >= impl_->frameScope.size()) return std::nullopt;
  return impl_->lookup(impl_->frameScope[from], reference);
}

namespace {
std::optional<std::size_t> frameOfElement(const detail::GraphData& data, const void* element) {
  auto it = data.frameOfElement.find(element);
  if (it == data.frameOfElement.end()) return std::nullopt;
  return it->second;
}
}  // namespace

std::optional<std::size_t> FrameGraph::frameOf(const Link& link) const { return frameOfElement(*impl_, &link); }
std::optional<std::size_t> FrameGraph::frameOf(const Joint& joint) const { return frameOfElement(*impl_, &joint); }
std::optional<std::size_t> FrameGraph::frameOf(const Frame& frame) const { return frameOfElement(*impl_, &frame); }
std::optional<std::size_t> FrameGraph::frameOf(const Model& model) const { return frameOfElement(*impl_, &model); }

const std::string& FrameGraph::scopeOf(std::size_t frame) const {
  static const std::string kNoScope;
  if (frame >= impl_->frameScope.size()) return kNoScope;
  return impl_->scopeNames[static_cast<std::size_t>(impl_->frameScope[frame])];
}

std::string scopedName(const std::string& scope, const std::string& localName) {
  return scope.empty() ? localName : scope + "::" + localName;
}

const std::string& FrameGraph::rootName() const { return impl_->rootName; }
bool FrameGraph::isWorld() const { return impl_->world; }
std::size_t FrameGraph::worldIndex() const { return impl_->worldIndex; }

}  // namespace interlink
