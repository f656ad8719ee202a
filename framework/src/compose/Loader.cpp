// Loading any registered format and composing includes across formats (SDFormat's <include>
// with the Interface API contract of its composition proposal §1.5, as libsdformat 12.4 ships it).
// The load itself: its parts are in compose/LoaderImpl.hpp.
#include "compose/LoaderImpl.hpp"

namespace interlink {

namespace {

namespace fs = std::filesystem;

/// error that lists the worlds, and the first world is shown.
std::size_t selectWorld(const Document& document, const std::string& name, Diagnostics& diagnostics) {
  if (name.empty()) return 0;
  std::string names;
  for (std::size_t i = 0; i < document.worlds.size(); ++i) {
    if (document.worlds[i].name == name) return i;
    names += (names.empty() ? "'" : ", '") + document.worlds[i].name + "'";
  }
  diagnostics.error(ErrorCode::USAGE,
                    "no world named '" + name + "' in '" + document.sourceFile + "'; " +
                        (names.empty() ? std::string("the file holds a model, not a world") : "its worlds are " + names),
                    SourceLocation{document.sourceFile, 0, 0});
  return 0;
}


}  // namespace

// ---------------------------------------------------------------------------------------------
Loader::Loader(bool discoverPlugins) : impl_(std::make_unique<Impl>()) {
  if (discoverPlugins) impl_->registry.discover();
}
Loader::~Loader() = default;

PluginRegistry& Loader::plugins() { return impl_->registry; }
const hardware::HardwareRegistry& Loader::hardware() const { return impl_->currentHardware(); }
const PluginRegistry& Loader::plugins() const { return impl_->registry; }

void Loader::registerCustomModelParser(CustomModelParser parser) { impl_->customParsers.push_back(std::move(parser)); }

LoadResult Loader::loadFile(const std::string& path, const LoadOptions& options) const {
  LoadResult result;
  Impl::Context context = impl_->makeContext(options, result.diagnostics);
  std::error_code ec;
  const std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  if (!fs::exists(absolute, ec) && ec.value() != ELOOP) {
    result.diagnostics.error(ErrorCode::FILE_READ, "no such file '" + path + "'", SourceLocation{path, 0, 0});
    return result;
  }
  // Through the load's table of canonical directories, which the includes then find filled.
  context.includeStack.push_back(Impl::canonicalOf(absolute, context));
  Impl::setPathPolicy(context, absolute);
  auto document = impl_->loadDocument(absolute, SourceLocation{}, context);
  if (document) {
    result.document = std::move(*document);
    result.expandedText = std::move(context.expandedText);
    result.expandedExtension = std::move(context.expandedExtension);
    impl_->finish(result, absolute, context);
  }
  detail::nameFilesAsGiven(result.diagnostics, path, absolute);
  return result;
}

LoadResult Loader::loadString(const std::string& content, const std::string& fileName, const LoadOptions& options) const {
  LoadResult result;
  Impl::Context context = impl_->makeContext(options, result.diagnostics);
  std::error_code ec;
  const std::string absolute = fs::absolute(fileName, ec).lexically_normal().string();
  context.includeStack.push_back(absolute);
  Impl::setPathPolicy(context, "");
  if (content.find_first_not_of(" \t\r\n") == std::string::npos) {
    result.diagnostics.error(ErrorCode::FILE_EMPTY, "input is empty; expected a model description", SourceLocation{fileName, 1, 1});
    return result;
  }
  if (!io::checkModelText(content, fileName, result.diagnostics)) return result;
  auto document = impl_->parseDocument(absolute, content, SourceLocation{}, context);
  if (!document) return result;
  result.document = std::move(*document);
  result.expandedText = std::move(context.expandedText);
  result.expandedExtension = std::move(context.expandedExtension);
  impl_->finish(result, absolute, context);
  return result;
}

LoadResult Loader::loadInclude(const Include& include, const std::string& includingFile, const LoadOptions& options) const {
  LoadResult result;
  Impl::Context context = impl_->makeContext(options, result.diagnostics);
  std::error_code ec;
  const std::string base = fs::absolute(includingFile, ec).lexically_normal().string();
  context.includeStack.push_back(Impl::canonicalOf(base, context));
  Impl::setPathPolicy(context, base);  // the including file stands for the top level
  // The include is read as the including file's format would read it (model directories, host
  // parsers for other formats): that format is the one claiming the including file's extension.
  const PluginHandle includer = impl_->registry.formatFor(base);
  const ModelSource source{base, includer ? includer.info().name : std::string(), "", false, FormatRules{}};
  std::vector<Light> lights;
  std::vector<KeptElement> kept;
  auto model = impl_->resolveInclude(include, source, "", lights, kept, context);
  if (!model) {
    if (!lights.empty() || !kept.empty()) {
      result.diagnostics.error(ErrorCode::ELEMENT_INCORRECT_TYPE,
                               "'" + include.uri + "' holds a light or an actor, expected a model", include.where);
    }
    return result;
  }
  result.document.sourceFile = model->source.file;
  result.document.format = model->source.format;
  result.document.formatVersion = model->source.formatVersion;
  result.document.rules = model->source.rules;
  result.document.model = std::move(*model);
  impl_->resolve(result, context);
  impl_->check(result, context);
  return result;
}

void Loader::Impl::finish(LoadResult& result, const std::string& absolute, Context& context) const {
  // The include step: every Include record becomes the model it names.
  if (result.document.model) composeModel(*result.document.model, result.document.model->name, context);
  const ModelSource worldSource{absolute, result.document.format, result.document.formatVersion, false,
                                result.document.rules};
  for (World& world : result.document.worlds) composeWorld(world, worldSource, context);
  detail::resolveMeshes(result.document,
                        {[&](const std::string& uri, const std::string& from) -> const detail::UriLookup& {
                           return lookUpUri(uri, from, context);
                         },
                         [&](const std::string& file) { return context.pathPolicy.refusal(file); }},
                        result.diagnostics);
  // Every file has been read and composed: their bytes are not needed by the graph or the
  // kinematics, and releasing them first keeps the load's peak memory lower.
  context.files.clear();
  resolve(result, context);
  check(result, context);
}

void Loader::Impl::check(LoadResult& result, const Context& context) const {
  dropFollowOnErrors(result.diagnostics, context);
  detail::checkInertias(result.document, result.diagnostics);
  detail::checkMimicCycles(result.document, result.diagnostics);
  if (!context.options.listEveryWarning) detail::groupRepeatedWarnings(result.diagnostics);
}

void Loader::Impl::resolve(LoadResult& result, Context& context) const {
  if (!context.options.resolveFrames) return;

  const std::size_t shown = selectWorld(result.document, context.options.world, result.diagnostics);
  const std::size_t worldCount = result.document.worlds.size();
  for (std::size_t world = 0; world < std::max<std::size_t>(worldCount, 1); ++world) {
    // Every world is checked and resolved in file order; the one shown is kept.
    FrameGraph graph = FrameGraph::build(result.document, result.diagnostics, world);
    Kinematics kinematics = Kinematics::build(result.document, graph, result.diagnostics);
    if (world == shown) detail::checkFinite(result.document, graph, kinematics, result.diagnostics);
    if (world == shown) {
      result.graph = std::move(graph);
      result.kinematics = std::move(kinematics);
    }
  }

  // Reposture callbacks, parent scope first (they were recorded in that order).
  const bool worldRoot = result.graph.isWorld();
  for (const auto& pending : context.repostures) {
    std::string name = pending.scopedName;
    if (!worldRoot && result.document.model) {
      // In a model file, frames are named from inside the top model.
      const std::string top = names::scopePrefix(result.document.model->name);
      if (name.rfind(top, 0) == 0) name = name.substr(top.size());
    }
    try {
      pending.function(InterfaceModelPoseGraph(result.graph, name, worldRoot));
    } catch (const std::exception& e) {
      result.diagnostics.error(ErrorCode::PLUGIN_EXCEPTION, "reposture callback of '" + name + "' threw: " + e.what(), pending.where);
    } catch (...) {
      result.diagnostics.error(ErrorCode::PLUGIN_EXCEPTION, "reposture callback of '" + name + "' threw", pending.where);
    }
  }
}

}  // namespace interlink
