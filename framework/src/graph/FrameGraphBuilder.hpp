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
        expectedVertices_(expectedVertices(document, worldIndex)),
        arena_(expectedVertices_ * kArenaBytesPerVertex, largeBlockResource()) {
    documentRules_ = document.rules;
  }

  detail::GraphData run();

 private:
  /// The vertices the graph of `document`'s world `worldIndex` (or its model) will have.
  static std::size_t expectedVertices(const Document& document, std::size_t worldIndex);
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
  FormatRules documentRules_;  // the root document's rules (Document::rules)
  // The vertices and both indexes live as long as the builder and are never erased from: they
  // take their memory from one arena, released at once, instead of one allocation per vertex,
  // per name and per element (36 000 for a 12 000-frame model). Declared first: freed last.
  // Sized from the document: one buffer for a whole graph (for a big model, in huge pages),
  // rather than buffers doubling from 1 KiB.
  std::size_t expectedVertices_;
  static constexpr std::size_t kArenaBytesPerVertex = sizeof(Vertex) + 96;  // the vertex, its two index entries
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
  std::vector<Pose, LargeBlockAllocator<Pose>> resolved_;  // one pose per vertex
  std::vector<char> isResolved_;
  int root_ = kNone;
  bool attachedCyclesPossible_ = true;
  std::vector<int> attachedLink_;  // per vertex: the link (or kNone) it is attached to
  void resolveAttachedLinks();
};

}  // namespace interlink::detail
