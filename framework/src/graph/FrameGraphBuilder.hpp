#pragma once
// The frame graph builder: each phase of SDFormat's composition proposal (section 1.6) is a member
// function; the scope and name phases and the model and world phases are in BuildPhases.cpp, the
// validation of both graphs and the pose resolution in GraphValidation.cpp. Internal.
#include "graph/GraphData.hpp"
#include "util/LargeBlocks.hpp"

namespace interlink::detail {

/// "a -> b -> c": the names of a cycle, in order.
inline std::string joinNames(const std::vector<std::string>& names, const char* separator = " -> ") {
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
        diagnostics_(diagnostics),
        expectedVertices_(expectedVertices(document, worldIndex)) {
    documentRules_ = document.rules;
    vertices_.reserve(expectedVertices_);
    out_.frames.reserve(expectedVertices_);
    // A big model's frames are most of the graph's memory, filled front to back once.
    adviseHugePages(out_.frames.data(), out_.frames.capacity() * sizeof(FrameInfo));
    out_.byName.reserve(expectedVertices_);
    out_.frameOfElement.reserve(expectedVertices_);
  }

  detail::GraphData run();

 private:
  /// The vertices the graph of `document`'s world `worldIndex` (or its model) will have.
  static std::size_t expectedVertices(const Document& document, std::size_t worldIndex);
  // --- scopes and names -------------------------------------------------------------------
  /// A new vertex and its frame (`name` scoped from the root).
  int addVertex(std::string name, FrameKind kind, const SourceLocation& where, int scope);
  FrameInfo& frameAt(int vertex) { return out_.frames[static_cast<std::size_t>(vertex)]; }
  const FrameInfo& frameAt(int vertex) const { return out_.frames[static_cast<std::size_t>(vertex)]; }
  const std::string& nameAt(int vertex) const { return frameAt(vertex).name; }
  FrameKind kindAt(int vertex) const { return frameAt(vertex).kind; }
  const SourceLocation& whereAt(int vertex) const { return frameAt(vertex).where; }
  std::string_view localNameAt(int vertex) const {
    return std::string_view(nameAt(vertex)).substr(vertices_[static_cast<std::size_t>(vertex)].localNameStart);
  }
  /// Whether the scoped name is registered, for a frame of that kind.
  bool isRegisteredAs(const std::string& scopedName, FrameKind kind) const {
    const std::optional<std::size_t> frame = out_.byName.find(scopedName, out_.frames);
    return frame && kindAt(static_cast<int>(*frame)) == kind;
  }
  /// The built frames without those left unresolved (after errors), and the indexes to match.
  void dropUnresolvedFrames(const std::vector<int>& publicIndex);
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
  /// The rules `scope` follows, as its plugin declared them (FormatRules): each model follows its
  /// own file's rules; the world (and a model the framework did not stamp) the root document's.
  const FormatRules& rulesOf(int scope) const {
    const Model* model = scopes_[static_cast<std::size_t>(scope)].model;
    return model && !model->source.format.empty() ? model->source.rules : documentRules_;
  }
  /// Whether links and joints of `scope` have separate namespaces (SDFormat before 1.7, URDF): a
  /// joint named like a link keeps its name; only its frame is named "<name>_joint".
  bool jointsHaveOwnNamespace(int scope) const { return !rulesOf(scope).jointsShareLinkNamespace; }

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
  bool namesItself(int scope, const Element& element, const std::string& reference) const {
    return reference == localNameAt(vertexOf(scope, element));
  }
  /// The frame a written relative_to names (kNone when it names none, or the owner itself).
  int checkRelativeTo(int scope, bool selfReference, const std::string& owner, const char* what, const SemanticPose& pose,
                       const SourceLocation& where, const char* expected);
  void addRelativeToEdge(int vertex, const SemanticPose& pose, int fallback);
  void buildFrameAttachedToGraph(int scope);          // phase 6 (6.1-6.6; 6.7/6.8 globally below)
  // Shared by model and world scopes (one scope walker for both).
  void addAttachedToEdges(int scope, const std::vector<Joint>& joints, const std::vector<Frame>& frames);
  void addPoseEdges(int scope, const std::vector<Model>& models, const std::vector<Joint>& joints,
                    const std::vector<Frame>& frames);
  template <class Element>
  void checkPoses(int scope, const std::vector<Element>& elements, const char* what, const char* expected);
  // The vertex of an element of `scope`'s own lists (phase 2 gave each one): by its position, not
  // looked up by its address.
  int vertexOf(int scope, const Link& link) const {
    const Scope& s = scopes_[static_cast<std::size_t>(scope)];
    return s.firstLink + static_cast<int>(&link - s.model->links.data());
  }
  int vertexOf(int scope, const Joint& joint) const {
    const Scope& s = scopes_[static_cast<std::size_t>(scope)];
    return s.firstJoint + static_cast<int>(&joint - (s.model ? s.model->joints : s.world->joints).data());
  }
  int vertexOf(int scope, const Frame& frame) const {
    const Scope& s = scopes_[static_cast<std::size_t>(scope)];
    return s.firstFrame + static_cast<int>(&frame - (s.model ? s.model->frames : s.world->frames).data());
  }
  int vertexOf(int scope, const Model& model) const {
    const Scope& s = scopes_[static_cast<std::size_t>(scope)];
    return s.firstModel + static_cast<int>(&model - (s.model ? s.model->models : s.world->models).data());
  }
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
    frameAt(child).pose = frameAt(parent).pose * edgePose(child);
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
  FormatRules documentRules_;  // the root document's rules (Document::rules)
  std::size_t expectedVertices_;  // from the document: the tables are sized once
  // What run() returns, filled as the phases go: each vertex's frame (name, kind, location, then
  // its resolved pose) and the two indexes, name -> frame and element -> frame, which the phases
  // look names up in. When every frame resolves (a valid document) nothing is copied at the end.
  detail::GraphData out_;
  std::vector<Vertex> vertices_;  // the edges of frame out_.frames[i]
  std::deque<Pose> placedEdges_;  // edge poses computed for placement frames (they never move)
  std::vector<Scope> scopes_;
  // Per scope, its nested scopes in the order they were opened (kept beside scopes_), so that a
  // world of many models is not rescanned once per model.
  std::vector<std::vector<int>> childScopes_;
  mutable std::string keyBuffer_;                     // reused by lookup(): no allocation per query
  std::vector<int> canonicalLink_;  // per scope, resolved in phase 4 (a link, or a static nested model)
  std::vector<char> isResolved_;
  int root_ = kNone;
  bool attachedCyclesPossible_ = true;
  std::vector<int> attachedLink_;  // per vertex: the link (or kNone) it is attached to
  void resolveAttachedLinks();
};

}  // namespace interlink::detail
