// The frame graphs of SDFormat's composition proposal (section 1.6 of
// sdformat.org/tutorials?tut=composition_proposal), built once over the whole composed document.
//
// Every scope (the world, each model, each nested model) contributes vertices to ONE attached-to
// graph and ONE relative-to graph (Boost.Graph adjacency lists), with names scoped by "::". Each
// phase of the proposal is a named member function of the builder (graph/FrameGraphBuilder.hpp;
// BuildPhases.cpp, GraphValidation.cpp). Poses are then resolved in a single traversal from the
// root over the reversed relative-to edges, so resolving every frame costs O(frames), unlike
// libsdformat, which walks to the scope root for every query. This file answers the queries.
#include "interlink/FrameGraph.hpp"

#include "graph/FrameGraphBuilder.hpp"
#include "interlink/SimilarNames.hpp"
#include "interlink/model/Names.hpp"

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

struct FrameGraph::Impl : detail::GraphData {
  Impl() = default;
  explicit Impl(detail::GraphData&& data) : GraphData(std::move(data)) {}
};

std::optional<std::size_t> detail::GraphData::lookup(int scope, const std::string& reference) const {
  if (reference.empty() || scope < 0 || scope >= static_cast<int>(scopes.size())) return std::nullopt;
  const detail::Scope& s = scopes[static_cast<std::size_t>(scope)];
  auto modelFrame = [&]() -> std::optional<std::size_t> {
    if (s.modelVertex < 0) return std::nullopt;
    return static_cast<std::size_t>(s.modelVertex);
  };
  if (reference == names::kModelFrame) return s.isWorld ? std::nullopt : modelFrame();
  if (reference == names::kWorld) return s.isWorld ? modelFrame() : std::nullopt;
  std::string key = s.prefix + reference;
  static const std::string kModelSuffix = names::scopePrefix(names::kModelFrame);
  if (key.size() > kModelSuffix.size() && key.compare(key.size() - kModelSuffix.size(), kModelSuffix.size(), kModelSuffix) == 0) {
    key.resize(key.size() - kModelSuffix.size());
  }
  return byName.find(key, frames);
}

FrameGraph::FrameGraph() : impl_(std::make_unique<Impl>()) {}
FrameGraph::~FrameGraph() = default;
FrameGraph::FrameGraph(FrameGraph&&) noexcept = default;
FrameGraph& FrameGraph::operator=(FrameGraph&&) noexcept = default;

FrameGraph FrameGraph::build(const Document& document, Diagnostics& diagnostics, std::size_t world) {
  FrameGraph graph;
  detail::FrameGraphBuilder builder(document, diagnostics, world);
  graph.impl_ = std::make_unique<Impl>(builder.run());
  return graph;
}

const std::vector<FrameInfo>& FrameGraph::frames() const { return impl_->frames; }

std::optional<std::size_t> FrameGraph::find(const std::string& scopedName) const {
  if (scopedName == impl_->rootName && !impl_->frames.empty()) {
    // The root is found by its own name unless a frame inside it has that name.
    const std::optional<std::size_t> frame = impl_->byName.find(scopedName, impl_->frames);
    return frame ? frame : std::optional<std::size_t>(0);
  }
  if (scopedName == "__model__" && !impl_->world && !impl_->frames.empty()) return 0;
  if (const std::optional<std::size_t> frame = impl_->byName.find(scopedName, impl_->frames)) return frame;
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
  return data.frameOfElement.find(element);
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
  return names::join(scope, localName);
}

const std::string& FrameGraph::rootName() const { return impl_->rootName; }
bool FrameGraph::isWorld() const { return impl_->world; }
std::size_t FrameGraph::worldIndex() const { return impl_->worldIndex; }

}  // namespace interlink
