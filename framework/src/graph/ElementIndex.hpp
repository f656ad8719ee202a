#pragma once
// The document's links and joints by their frames in the graph (FrameGraph::frameOf: identity, not
// names), for the consumers of a loaded model that start from frames or tree joints (internal).
#include <cstddef>
#include <map>
#include <set>

#include "interlink/FrameGraph.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::detail {

/// Ordered by frame, so that output built from it is deterministic.
struct ElementIndex {
  std::map<std::size_t, const Link*> links;
  std::map<std::size_t, const Joint*> joints;
  std::set<std::size_t> staticLinks;  // links inside a static model

  /// Indexes the document's top-level model or its first world (models and world joints).
  ElementIndex(const FrameGraph& graph, const Document& document);
  const Link* link(std::size_t frame) const;
  const Joint* joint(std::size_t frame) const;

 private:
  void addModel(const FrameGraph& graph, const Model& model, bool isStatic);
};

}  // namespace interlink::detail
