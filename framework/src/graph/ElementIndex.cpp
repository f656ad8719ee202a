#include "graph/ElementIndex.hpp"

namespace interlink::detail {

ElementIndex::ElementIndex(const FrameGraph& graph, const Document& document) {
  if (document.isWorld()) {
    const World& world = document.worlds.front();
    for (const Model& model : world.models) addModel(graph, model, false);
    for (const Joint& joint : world.joints) {
      if (auto frame = graph.frameOf(joint)) joints[*frame] = &joint;
    }
  } else if (document.model) {
    addModel(graph, *document.model, false);
  }
}

void ElementIndex::addModel(const FrameGraph& graph, const Model& model, bool isStatic) {
  const bool staticHere = isStatic || model.isStatic;
  for (const Link& link : model.links) {
    auto frame = graph.frameOf(link);
    if (!frame) continue;
    links[*frame] = &link;
    if (staticHere) staticLinks.insert(*frame);
  }
  for (const Joint& joint : model.joints) {
    if (auto frame = graph.frameOf(joint)) joints[*frame] = &joint;
  }
  for (const Model& nested : model.models) addModel(graph, nested, staticHere);
}

const Link* ElementIndex::link(std::size_t frame) const {
  auto found = links.find(frame);
  return found == links.end() ? nullptr : found->second;
}

const Joint* ElementIndex::joint(std::size_t frame) const {
  auto found = joints.find(frame);
  return found == joints.end() ? nullptr : found->second;
}

}  // namespace interlink::detail
