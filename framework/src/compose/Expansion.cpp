#include "compose/Expansion.hpp"

#include <algorithm>

#include "interlink/xml/XmlElement.hpp"

namespace interlink::detail {

namespace {

/// Calls `f` on every location a document holds.
template <class F>
void forEachLocation(Model& model, F&& f);

template <class F>
void forEachShapeLocation(Shape& shape, F&& f) {
  f(shape.where);
  f(shape.pose.where);
}

template <class F>
void forEachLocation(Model& model, F&& f) {
  f(model.where);
  f(model.pose.where);
  for (Link& link : model.links) {
    f(link.where);
    f(link.pose.where);
    f(link.inertial.where);
    for (Shape& s : link.visuals) forEachShapeLocation(s, f);
    for (Shape& s : link.collisions) forEachShapeLocation(s, f);
  }
  for (Joint& joint : model.joints) {
    f(joint.where);
    f(joint.pose.where);
    for (JointAxis& axis : joint.axes) f(axis.where);
  }
  for (Frame& frame : model.frames) {
    f(frame.where);
    f(frame.pose.where);
  }
  for (Light& light : model.lights) f(light.where);
  for (Include& include : model.includes) f(include.where);
  for (KeptElement& kept : model.kept) f(kept.where);
  for (Model& nested : model.models) forEachLocation(nested, f);
}

std::string stepText(const plugin::ExpandedDocument& expanded, std::uint32_t step) {
  return step >= 1 && step <= expanded.steps.size() ? expanded.steps[step - 1].what : std::string();
}

/// The notes of a chain: innermost step first, as compilers print "in expansion of ... from".
void addChainNotes(const plugin::ExpandedDocument& expanded, std::uint32_t step, ErrorCode code, Diagnostics& into) {
  for (std::size_t guard = 0; step >= 1 && step <= expanded.steps.size() && guard < expanded.steps.size(); ++guard) {
    const plugin::ExpansionStep& s = expanded.steps[step - 1];
    into.add(Diagnostic{Severity::Note, code, stepText(expanded, step), s.where});
    step = s.parent;
  }
}

}  // namespace

SourceLocation expansionOrigin(const plugin::ExpandedDocument& expanded, const SourceLocation& at, std::uint32_t* step) {
  if (step) *step = 0;
  if (expanded.origins.empty()) return at;
  const auto line = static_cast<std::uint32_t>(std::max(at.line, 0));
  const auto column = static_cast<std::uint32_t>(std::max(at.column, 0));
  auto after = std::upper_bound(expanded.origins.begin(), expanded.origins.end(), std::make_pair(line, column),
                                [](const std::pair<std::uint32_t, std::uint32_t>& p, const plugin::ExpansionOrigin& o) {
                                  return p.first < o.line || (p.first == o.line && p.second < o.column);
                                });
  if (after == expanded.origins.begin()) return expanded.origins.front().where;
  const plugin::ExpansionOrigin& origin = *std::prev(after);
  if (step) *step = origin.step;
  return origin.where;
}

ExpansionResult expandThenLoad(const PluginRegistry& registry, const PluginHandle& expander,
                               const plugin::LoadRequest& request, Document& document, Diagnostics& diagnostics,
                               bool keepText) {
  ExpansionResult result;
  plugin::ExpandedDocument expanded;
  expanded.textWanted = keepText;
  const std::size_t before = diagnostics.size();
  expander.expand(request, expanded, diagnostics);
  bool failed = false;
  for (std::size_t i = before; i < diagnostics.size(); ++i) failed = failed || diagnostics.items()[i].isError();
  // Errors, or nothing to read (a macro library expands to nothing; the plugin said so).
  if (failed || (expanded.content.empty() && !expanded.tree)) return result;
  const std::string extension = expanded.extension;
  // A tree is sniffed by the start its text would have.
  const std::string treeHead = expanded.tree ? "<?xml version=\"1.0\" ?>\n<" + expanded.tree->name + ">" : std::string();
  const std::string_view head = expanded.tree ? std::string_view(treeHead) : std::string_view(expanded.content).substr(0, 4096);
  PluginHandle reader = registry.formatFor("expanded" + extension, head);
  if (!reader || reader.info().kind != plugin::PluginKind::Format || reader.expands()) {
    diagnostics.error(ErrorCode::NO_PARSER,
                      "'" + expander.info().name + "' expanded the file into '" + extension +
                          "', but no plugin that reads that format is loaded; loaded plugins: " + registry.describeFormats(),
                      SourceLocation{request.path, 0, 0});
    return result;
  }
  const bool readsTree = reader.readsXmlTree();
  if (expanded.tree && !readsTree && expanded.content.empty()) {
    // This format's reader takes text only: the expansion again, written (its findings were
    // reported the first time).
    plugin::ExpandedDocument written;
    Diagnostics again;
    expander.expand(request, written, again);
    expanded = std::move(written);
  }
  plugin::LoadRequest inner = request;
  inner.content = expanded.content;
  inner.tree = readsTree ? expanded.tree.get() : nullptr;
  Diagnostics found;
  reader.load(inner, document, found);
  const std::string& path = request.path;
  for (const Diagnostic& d : found) {
    Diagnostic mapped = d;
    std::uint32_t step = 0;
    if (mapped.where.file == path) mapped.where = expansionOrigin(expanded, d.where, &step);
    diagnostics.add(mapped);
    addChainNotes(expanded, step, d.code, diagnostics);
  }
  const auto remap = [&](SourceLocation& where) {
    if (where.file == path) where = expansionOrigin(expanded, where, nullptr);
  };
  if (document.model) forEachLocation(*document.model, remap);
  for (World& world : document.worlds) {
    remap(world.where);
    for (Model& m : world.models) forEachLocation(m, remap);
  }
  result.reader = reader;
  result.text = std::move(expanded.content);
  result.extension = extension;
  return result;
}

}  // namespace interlink::detail
