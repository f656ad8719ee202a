// The frame graph builder's last phases: both graphs validated (cycles, reachability), the links
// frames are attached to, every pose resolved in one traversal, and the run of all phases.
#include "graph/FrameGraphBuilder.hpp"

namespace interlink::detail {

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
    attachedLink_[v] = kindAt(static_cast<int>(v)) == FrameKind::Link ? static_cast<int>(v) : kNone;
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
    for (int v : cycle) names.push_back(nameAt(v));
    names.push_back(nameAt(cycle.front()));
    error(ErrorCode::FRAME_ATTACHED_TO_CYCLE, "attached_to cycle: " + joinNames(names), whereAt(cycle.front()));
  }
}

const Pose& FrameGraphBuilder::edgePose(int vertex) {
  Vertex& v = vertices_[static_cast<std::size_t>(vertex)];
  if (v.edgeResolved || v.placementFrame == kNone) return *v.edgePose;
  // X_RM = X_RPf * X_MPf^-1, with X_MPf resolved inside the model (placement_frame semantics).
  v.edgeResolved = true;  // set first: a malformed graph must not recurse forever
  if (auto X_MPf = poseInAncestor(v.placementFrame, vertex)) {
    v.edgePose = &placedEdges_.emplace_back(*v.edgePose * X_MPf->inverse());
  } else {
    error(ErrorCode::MODEL_PLACEMENT_FRAME_INVALID,
          "placement frame of model '" + nameAt(vertex) + "' cannot be resolved inside the model", whereAt(vertex));
  }
  return *v.edgePose;
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
      names.push_back(nameAt(v));
      onCycle[static_cast<std::size_t>(v)] = 1;
    }
    names.push_back(nameAt(cycle.front()));
    error(ErrorCode::POSE_RELATIVE_TO_CYCLE, "relative_to cycle: " + joinNames(names), whereAt(cycle.front()));
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (isResolved_[v] || onCycle[v] || target[v] == kNone) continue;  // missing targets were reported in phase 7
    // A vertex that leads into a cycle: say which cycle it depends on.
    int w = target[v];
    std::size_t guard = 0;
    while (w != kNone && !onCycle[static_cast<std::size_t>(w)] && !isResolved_[static_cast<std::size_t>(w)] && ++guard <= n) w = target[static_cast<std::size_t>(w)];
    if (w != kNone && onCycle[static_cast<std::size_t>(w)]) {
      error(ErrorCode::POSE_RELATIVE_TO_GRAPH_ERROR,
            "pose of '" + nameAt(static_cast<int>(v)) + "' depends on the relative_to cycle through '" + nameAt(w) + "'",
            whereAt(static_cast<int>(v)));
    }
  }
}

namespace {

/// Number of frames a model contributes, to size the tables once.
std::size_t countFrames(const Model& model) {
  std::size_t count = 1 + model.links.size() + model.joints.size() + model.frames.size();
  for (const Model& nested : model.models) count += countFrames(nested);
  return count;
}

}  // namespace

std::size_t FrameGraphBuilder::expectedVertices(const Document& document, std::size_t worldIndex) {
  std::size_t expected = 1;
  if (document.model) expected += countFrames(*document.model);
  if (worldIndex < document.worlds.size()) {  // only the world being built: each world is built once
    const World& world = document.worlds[worldIndex];
    expected += world.frames.size() + world.joints.size();
    for (const Model& model : world.models) expected += countFrames(model);
  }
  return expected;
}

detail::GraphData FrameGraphBuilder::run() {
  if (document_.isWorld() && worldIndex_ < document_.worlds.size()) {
    const World& world = document_.worlds[worldIndex_];
    root_ = addVertex("world", FrameKind::World, world.where, kNone);
    Scope scope;
    scope.isWorld = true;
    scope.modelVertex = root_;
    scope.world = &world;
    scopes_.push_back(scope);
    canonicalLink_.push_back(kNone);
    childScopes_.emplace_back();
    vertices_[static_cast<std::size_t>(root_)].ownScope = 0;
    checkWorldNameAttributes(0);
    checkModels(0);
    checkWorldFrameAttachedToValues(0);
    buildWorldFrameAttachedToGraph(0);
    checkWorldPoseRelativeToValues(0);
    buildWorldPoseRelativeToGraph(0);
    out_.rootName = "world";
    out_.worldIndex = worldIndex_;
    out_.world = true;
  } else if (document_.model) {
    const Model& model = *document_.model;
    root_ = addVertex(model.name, FrameKind::Model, model.where, kNone);
    openModelScope(model, kNone, root_, "");
    if (!model.name.empty()) checkName(model.name, "model", model.where, 0);
    checkModel(0);
    out_.rootName = model.name;
  } else {
    return std::move(out_);
  }
  resolveAttachedLinks();
  validateFrameAttachedToGraph();
  validatePoseRelativeToGraph();
  // 6.8: the parent and child of each joint are attached to different links.
  // (Checked by Kinematics, which resolves attached links for every frame anyway.)

  // The public frames are the resolved vertices, in registration order (the root first). In a
  // valid document that is every vertex, and each keeps its index: the frames and both indexes
  // are already in place, and only the edges are written into them.
  const std::size_t n = vertices_.size();
  std::vector<int> publicIndex;  // empty: frame v is public frame v
  if (std::find(isResolved_.begin(), isResolved_.end(), 0) != isResolved_.end()) {
    publicIndex.assign(n, kNone);
    int next = 0;
    for (std::size_t v = 0; v < n; ++v) {
      if (isResolved_[v]) publicIndex[v] = next++;
    }
  }
  auto publicOf = [&](int v) { return publicIndex.empty() ? v : publicIndex[static_cast<std::size_t>(v)]; };
  out_.frameScope.reserve(n);
  for (std::size_t v = 0; v < n; ++v) {
    if (!isResolved_[v]) continue;
    const Vertex& vertex = vertices_[v];
    FrameInfo& info = out_.frames[v];
    info.relativeTo = vertex.relativeTarget == kNone ? -1 : publicOf(vertex.relativeTarget);
    const int att = vertex.attachedSink ? kNone : vertex.attachedTarget;
    info.attachedTo = att == kNone ? -1 : publicOf(att);
    const int link = attachedLink_[v];
    if (link != kNone && isResolved_[static_cast<std::size_t>(link)]) {
      info.attachedLinkFrame = publicOf(link);
      info.attachedLink = nameAt(link);
    }
    out_.frameScope.push_back(vertex.scope == kNone ? 0 : vertex.scope);
  }
  if (!publicIndex.empty()) dropUnresolvedFrames(publicIndex);
  out_.scopes = scopes_;
  out_.scopeNames.reserve(scopes_.size());
  for (const Scope& scope : scopes_) {
    out_.scopeNames.push_back(scope.prefix.empty() ? std::string() : scope.prefix.substr(0, scope.prefix.size() - 2));
  }
  for (auto& scope : out_.scopes) {
    scope.modelVertex = publicOf(scope.modelVertex);
    scope.model = nullptr;  // the document may move; only names are needed after the build
    scope.world = nullptr;
  }
  return std::move(out_);
}

void FrameGraphBuilder::dropUnresolvedFrames(const std::vector<int>& publicIndex) {
  std::vector<FrameInfo> kept;
  kept.reserve(out_.frames.size());
  for (std::size_t v = 0; v < out_.frames.size(); ++v) {
    if (publicIndex[v] != kNone) kept.push_back(std::move(out_.frames[v]));
  }
  out_.frames = std::move(kept);
  // The frames were renumbered: both indexes are made again.
  out_.byName.clear();
  for (std::size_t f = 1; f < out_.frames.size(); ++f) out_.byName.insert(f, out_.frames);
  out_.frameOfElement.renumber([&](std::size_t frame) -> std::optional<std::size_t> {
    const int f = publicIndex[frame];
    if (f == kNone) return std::nullopt;
    return static_cast<std::size_t>(f);
  });
}

}  // namespace interlink::detail
