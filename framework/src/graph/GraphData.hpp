#pragma once
// The data of a built frame graph (the vertices, scopes and resolved poses FrameGraph answers
// queries from), shared by the builder (its phases: BuildPhases.cpp, GraphValidation.cpp) and the
// queries (FrameGraph.cpp). Internal.
#include "interlink/FrameGraph.hpp"

#include "graph/FrameIndexes.hpp"

#include "interlink/SimilarNames.hpp"
#include "interlink/model/Names.hpp"

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <string_view>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/strong_components.hpp>

namespace interlink::detail {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
/// Read-only graphs for the traversals: one contiguous edge array, built in linear time.
using CsrGraph = boost::compressed_sparse_row_graph<boost::directedS>;

/// A CSR graph over n vertices from (source, target) pairs in any order.
inline CsrGraph makeCsr(std::vector<std::pair<std::size_t, std::size_t>>& edges, std::size_t n) {
  return CsrGraph(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), n);
}
constexpr int kNone = -1;
constexpr int kNotLookedUp = -2;  // a remembered name lookup not made yet

/// The pose of an edge that carries none (a root, a scope's own frame).
inline const Pose kIdentityEdge = Pose::Identity();

/// One frame's edges while the graphs are being built. Its name, kind and location are written
/// once, in the built graph's FrameInfo of the same index (GraphData::frames), which the builder
/// fills from the start: a vertex holds no copy of them, and no pose (the frames of a big model
/// are most of a load's memory, and memory is most of its time).
struct Vertex {
  std::uint32_t localNameStart = 0;  // where the last component of the frame's scoped name begins
  int scope = kNone;      // scope the element is declared in
  int ownScope = kNone;   // for model vertices: the scope they open
  // Relative-to graph: one out-edge to `relativeTarget` carrying X_target_this: the pose as the
  // document wrote it (the document outlives the build), or one computed for a placement frame.
  const Pose* edgePose = &kIdentityEdge;
  int relativeTarget = kNone;
  int writtenRelativeTo = kNone;  // what its pose's relative_to names, found by phase 7 (model) / 6 (world)
  int childLookup = kNotLookedUp;  // a model joint's child, found by phase 3
  int placementFrame = kNone;  // models placed by //model/@placement_frame or //include/placement_frame
  // Attached-to graph: one out-edge, or a sink (links, static models, the world).
  int attachedTarget = kNone;
  bool edgeResolved = false;
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
  // The vertex of the first link, joint, frame and nested model of the scope: each list's
  // vertices were added in order, so an element's vertex is its list's first plus its position.
  int firstLink = kNone;
  int firstJoint = kNone;
  int firstFrame = kNone;
  int firstModel = kNone;
};

/// Everything a built graph keeps: the public frames and enough scope data to resolve references.
struct GraphData {
  std::vector<FrameInfo> frames;  // the builder's vertices, index for index, until the build ends
  std::vector<int> frameScope;  // scope index of each public frame
  std::vector<detail::Scope> scopes;
  // Public index by scoped name (the root's frame is not in it): its keys are the names in `frames`.
  FrameNameIndex byName;
  std::vector<std::size_t> modelFrameOfScope;           // public index of each scope's model frame
  // Public index of each element's frame, by the element's address in the built document.
  ElementFrameIndex frameOfElement;
  std::vector<std::string> scopeNames;  // per scope: its scoped name ("" for the root scope)
  std::string rootName;
  bool world = false;
  std::size_t worldIndex = 0;

  std::optional<std::size_t> lookup(int scope, const std::string& reference) const;
};

}  // namespace interlink::detail
