// Loading any registered format and composing includes across formats (SDFormat's <include>
// with the Interface API contract, seed 003 section 1.5, as libsdformat 12.4 ships it).
#include "interlink/Loader.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include <boost/filesystem.hpp>

#include "util/PathList.hpp"

#include "interlink/TextNumbers.hpp"
#include "interlink/compose/InterfaceModelPoseGraph.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink {

namespace {

namespace fs = boost::filesystem;
using detail::splitPathList;

/// The first bytes handed to sniffers.
constexpr std::size_t kSniffBytes = 4096;

/// A reposture callback to run once the graphs are resolved.
struct PendingReposture {
  std::string scopedName;
  RepostureFunction function;
  std::shared_ptr<const InterfaceModel> owner;  // keeps the callback's captures alive
  SourceLocation where;
};

bool isSdformatFile(const std::string& path) {
  const std::string ext = toLower(fs::path(path).extension().string());
  return ext == ".sdf" || ext == ".world";
}

/// Reads a whole file; refuses what cannot be a model description before any plugin sees it.
std::optional<std::string> readModelFile(const std::string& path, const SourceLocation& requestedAt, Diagnostics& diagnostics) {
  boost::system::error_code ec;
  if (fs::is_directory(path, ec)) {
    diagnostics.error(ErrorCode::FILE_READ, "'" + path + "' is a directory, expected a model file", requestedAt);
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diagnostics.error(ErrorCode::FILE_READ, "cannot open '" + path + "': " + std::strerror(errno), requestedAt);
    return std::nullopt;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string content = buffer.str();
  if (content.find_first_not_of(" \t\r\n") == std::string::npos) {
    diagnostics.error(ErrorCode::FILE_EMPTY, "file is empty; expected a model description", SourceLocation{path, 1, 1});
    return std::nullopt;
  }
  const std::size_t nul = content.find('\0', 0);
  if (nul != std::string::npos && nul < 65536) {
    diagnostics.error(ErrorCode::FILE_BINARY, "file contains binary data (a NUL byte at offset " + std::to_string(nul) +
                                                  "); expected a text model description",
                      SourceLocation{path, 0, 0});
    return std::nullopt;
  }
  return content;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
struct Loader::Impl {
  PluginRegistry registry;
  std::vector<CustomModelParser> customParsers;

  struct Context {
    const LoadOptions& options;
    Diagnostics& diagnostics;
    std::vector<std::string> includeStack;  // canonical paths being loaded, outermost first
    std::vector<PendingReposture> repostures;
    std::vector<std::string> resourcePaths;
  };

  std::string resolveUri(const std::string& uri, const std::string& fromFile, const Context& context) const;
  std::optional<Document> loadDocument(const std::string& path, const SourceLocation& requestedAt, Context& context) const;
  std::optional<Document> parseDocument(const std::string& path, const std::string& content, const SourceLocation& requestedAt,
                                        Context& context) const;
  void finish(LoadResult& result, const std::string& absolute, Context& context) const;
  /// The steps after composition: frame graph, kinematics, reposture callbacks.
  void resolve(LoadResult& result, Context& context) const;
  /// NO_PARSER: "no parser for '.xyz'; loaded plugins: ..." at the include (or the file).
  void reportNoParser(const std::string& path, const SourceLocation& requestedAt, Context& context) const {
    const std::string ext = fs::path(path).extension().string();
    context.diagnostics.error(ErrorCode::NO_PARSER,
                              "no parser for '" + (ext.empty() ? std::string("(no extension)") : ext) +
                                  "'; loaded plugins: " + registry.describeFormats(),
                              requestedAt.known() ? requestedAt : SourceLocation{path, 0, 0});
  }
  /// The context of one load: the host's resource paths, then INTERLINK_RESOURCE_PATH.
  static Context makeContext(const LoadOptions& options, Diagnostics& diagnostics) {
    Context context{options, diagnostics, {}, {}, options.resourcePaths};
    for (auto& dir : splitPathList(std::getenv("INTERLINK_RESOURCE_PATH"))) context.resourcePaths.push_back(dir);
    return context;
  }
  void composeModel(Model& model, const std::string& baseFile, const std::string& scopedName, int depth, Context& context) const;
  void composeWorld(World& world, const std::string& baseFile, Context& context) const;
  /// Outcome of resolving one <include> entry.
  enum class IncludeOutcome { Model, Absorbed, Failed };
  /// Replaces `entry` (an unresolved include) by the model it names; lights and actors it brings
  /// instead go to `lights` / `kept` of the enclosing element (Absorbed).
  IncludeOutcome resolveInclude(Model& entry, const std::string& baseFile, const std::string& parentScopedName,
                                std::vector<Light>& lights, std::vector<KeptElement>& kept, int depth, Context& context) const;
  /// What an <include> brings: a model, or (SDFormat) a light or an actor.
  struct IncludedContent {
    std::optional<Model> model;
    std::vector<Light> lights;
    std::vector<KeptElement> kept;
  };
  std::optional<IncludedContent> loadIncludedModel(const Include& include, const std::string& resolved,
                                                   const std::string& parentScopedName, Context& context) const;
  Model fromInterfaceModel(const InterfaceModel& im, const std::string& scopedName, Context& context,
                           const std::shared_ptr<const InterfaceModel>& owner, const SourceLocation& where) const;
};

std::string Loader::Impl::resolveUri(const std::string& uri, const std::string& fromFile, const Context& context) const {
  boost::system::error_code ec;
  const fs::path base = fs::path(fromFile).parent_path();
  auto existing = [&](const fs::path& p) -> std::string {
    return fs::exists(p, ec) ? fs::absolute(p).lexically_normal().string() : std::string();
  };
  auto searchResources = [&](const std::string& relative) -> std::string {
    for (const auto& dir : context.resourcePaths) {
      if (auto found = existing(fs::path(dir) / relative); !found.empty()) return found;
    }
    return {};
  };
  auto startsWith = [&](const char* prefix) { return uri.rfind(prefix, 0) == 0; };
  auto resolved = [&]() -> std::string {
    if (startsWith("file://")) {
      const fs::path p = uri.substr(7);
      return existing(p.is_absolute() ? p : base / p);
    }
    if (startsWith("model://")) return searchResources(uri.substr(8));
    if (startsWith("package://")) return searchResources(uri.substr(10));
    if (uri.find("://") != std::string::npos) return {};  // network and unknown schemes are never fetched
    const fs::path p(uri);
    if (p.is_absolute()) return existing(p);
    if (auto found = existing(base / p); !found.empty()) return found;
    return searchResources(uri);
  }();
  if (resolved.empty() && context.options.findFile) {
    // The host's callback may name a file that exists only for its own parser (libsdformat's
    // find callback works the same way), so its answer is taken as given.
    resolved = context.options.findFile(uri);
  }
  return resolved;
}

std::optional<Document> Loader::Impl::loadDocument(const std::string& path, const SourceLocation& requestedAt,
                                                   Context& context) const {
  if (!registry.claimsExtension(path)) {  // say so before reading a file nobody could parse
    reportNoParser(path, requestedAt, context);
    return std::nullopt;
  }
  auto content = readModelFile(path, requestedAt, context.diagnostics);
  if (!content) return std::nullopt;
  return parseDocument(path, *content, requestedAt, context);
}

std::optional<Document> Loader::Impl::parseDocument(const std::string& path, const std::string& content,
                                                    const SourceLocation& requestedAt, Context& context) const {
  PluginHandle plugin = registry.formatFor(path, std::string_view(content).substr(0, kSniffBytes));
  if (!plugin) {
    reportNoParser(path, requestedAt, context);
    return std::nullopt;
  }
  // URIs a plugin asks about are resolved with this load's resource paths.
  plugin::HostServices host;
  struct UriContext {
    const Impl* self;
    const Context* context;
  } uriContext{this, &context};
  host.context = &uriContext;
  host.resolveUri = [](const void* ctx, const std::string& uri, const std::string& fromFile) -> std::string {
    const auto* c = static_cast<const UriContext*>(ctx);
    return c->self->resolveUri(uri, fromFile, *c->context);
  };
  host.hardwareRegistry = &registry;
  plugin::LoadRequest request;
  request.path = path;
  request.content = content;
  request.host = &host;
  Document document;
  plugin.load(request, document, context.diagnostics);
  document.sourceFile = path;
  if (document.format.empty()) document.format = plugin.info().name;
  auto stamp = [&](Model& m, auto& self) -> void {
    if (m.sourceFile.empty()) m.sourceFile = path;
    if (m.sourceFormat.empty()) m.sourceFormat = plugin.info().name;
    if (!m.keepAlive) m.keepAlive = plugin.keepAlive();
    for (Model& nested : m.models) self(nested, self);
  };
  if (document.model) stamp(*document.model, stamp);
  for (World& world : document.worlds) {
    for (Model& m : world.models) stamp(m, stamp);
  }
  return document;
}

Model Loader::Impl::fromInterfaceModel(const InterfaceModel& im, const std::string& scopedName, Context& context,
                                       const std::shared_ptr<const InterfaceModel>& owner, const SourceLocation& where) const {
  Model m;
  m.name = im.Name();
  m.isStatic = im.Static();
  m.canonicalLink = im.CanonicalLinkName();
  m.pose.pose = im.ModelFramePoseInParentFrame();
  m.fromInterfaceModel = true;
  m.sourceFormat = "interface";
  m.where = where;
  for (const auto& link : im.Links()) {
    Link l;
    l.name = link.Name();
    l.pose.pose = link.PoseInModelFrame();
    l.where = where;
    m.links.push_back(std::move(l));
  }
  for (const auto& frame : im.Frames()) {
    Frame f;
    f.name = frame.Name();
    f.attachedTo = frame.AttachedTo() == "__model__" ? std::string() : frame.AttachedTo();
    f.pose.pose = frame.PoseInAttachedToFrame();
    f.where = where;
    m.frames.push_back(std::move(f));
  }
  for (const auto& joint : im.Joints()) {
    Joint j;
    j.name = joint.Name();
    j.child = joint.ChildName();
    j.pose.pose = joint.PoseInChildFrame();
    j.where = where;
    m.joints.push_back(std::move(j));
  }
  if (im.Reposture()) context.repostures.push_back({scopedName, im.Reposture(), owner, where});
  for (const auto& nested : im.NestedModels()) {
    if (!nested) continue;
    m.models.push_back(fromInterfaceModel(*nested, scopedName + "::" + nested->Name(), context, nested, where));
  }
  m.keepAlive = owner;
  return m;
}

std::optional<Loader::Impl::IncludedContent> Loader::Impl::loadIncludedModel(const Include& include, const std::string& resolved,
                                                                           const std::string& parentScopedName,
                                                                           Context& context) const {
  // 1. SDFormat files are parsed as SDFormat; custom parsers are never asked for them.
  // 2. Otherwise host parsers, newest first; the first answer (or the first error) ends the search.
  if (!isSdformatFile(resolved) && !customParsers.empty()) {
    NestedInclude nested;
    nested.SetUri(include.uri);
    nested.SetResolvedFileName(resolved);
    nested.SetAbsoluteParentName(parentScopedName);
    nested.SetLocalModelName(include.name);
    nested.SetIsStatic(include.isStatic);
    if (include.pose) {
      nested.SetIncludeRawPose(include.pose->pose);
      if (!include.pose->relativeTo.empty()) nested.SetIncludePoseRelativeTo(include.pose->relativeTo);
    }
    nested.SetPlacementFrame(include.placementFrame);
    if (!include.elementText.empty()) {
      Diagnostics ignored;  // the element was well-formed when the plugin read it
      if (auto element = xml::parse(include.elementText, include.where.file, ignored)) {
        nested.SetIncludeElement(std::make_shared<const xml::XmlElement>(std::move(*element)));
      }
    }
    for (auto parser = customParsers.rbegin(); parser != customParsers.rend(); ++parser) {
      Diagnostics parserDiagnostics;
      InterfaceModelPtr model;
      try {
        model = (*parser)(nested, parserDiagnostics);
      } catch (const std::exception& e) {
        parserDiagnostics.error(ErrorCode::PLUGIN_EXCEPTION, std::string("custom model parser threw: ") + e.what(), include.where);
      } catch (...) {
        parserDiagnostics.error(ErrorCode::PLUGIN_EXCEPTION, "custom model parser threw an unknown exception", include.where);
      }
      for (auto d : parserDiagnostics) {
        if (!d.where.known()) d.where = include.where;
        context.diagnostics.add(std::move(d));
      }
      if (parserDiagnostics.hasErrors()) return std::nullopt;  // the contract: errors end the search
      if (!model) continue;
      const std::string scopedName =
          (parentScopedName.empty() ? "" : parentScopedName + "::") + include.name.value_or(model->Name());
      IncludedContent content;
      content.model = fromInterfaceModel(*model, scopedName, context, model, include.where);
      content.model->sourceFile = resolved;
      return content;
    }
  }
  // 3. Format plugins by extension (SDFormat included).
  const std::size_t errorsBefore = context.diagnostics.errorCount();
  auto document = loadDocument(resolved, include.where, context);
  if (!document) return std::nullopt;
  IncludedContent content;
  if (document->model) {
    content.model = std::move(*document->model);
    return content;
  }
  if (!document->lights.empty() || !document->kept.empty()) {
    // SDFormat may include a file whose top level is a <light> or an <actor>.
    content.lights = std::move(document->lights);
    content.kept = std::move(document->kept);
    return content;
  }
  if (document->worlds.size() == 1 && !isSdformatFile(resolved)) {
    // A format whose files are worlds (e.g. one robot in its environment): include the world's
    // content as one model named after the file.
    World& world = document->worlds.front();
    if (world.models.size() == 1 && world.frames.empty()) {
      content.model = std::move(world.models.front());
      return content;
    }
    Model wrapper;
    wrapper.name = fs::path(resolved).stem().string();
    wrapper.models = std::move(world.models);
    wrapper.frames = std::move(world.frames);
    wrapper.joints = std::move(world.joints);
    wrapper.sourceFile = resolved;
    wrapper.sourceFormat = document->format;
    wrapper.where = world.where;
    content.model = std::move(wrapper);
    return content;
  }
  if (context.diagnostics.errorCount() == errorsBefore) {
    context.diagnostics.error(ErrorCode::ELEMENT_MISSING,
                              "'" + resolved + "' has no top-level <model>, <light> or <actor>; an <include> needs one",
                              include.where);
  }
  return std::nullopt;
}

Loader::Impl::IncludeOutcome Loader::Impl::resolveInclude(Model& entry, const std::string& baseFile,
                                                          const std::string& parentScopedName, std::vector<Light>& lights,
                                                          std::vector<KeptElement>& kept, int depth, Context& context) const {
  constexpr IncludeOutcome kFailed = IncludeOutcome::Failed;
  const Include include = *entry.include;
  if (depth >= context.options.maxIncludeDepth) {
    context.diagnostics.error(ErrorCode::INCLUDE_DEPTH,
                              "includes nested more than " + std::to_string(context.options.maxIncludeDepth) +
                                  " deep at '" + include.uri + "' (runaway include?)",
                              include.where);
    return kFailed;
  }
  if (include.uri.empty()) {
    context.diagnostics.error(ErrorCode::ELEMENT_MISSING, "<include> has no <uri>", include.where);
    return kFailed;
  }
  std::string resolved = resolveUri(include.uri, baseFile, context);
  if (resolved.empty()) {
    context.diagnostics.error(ErrorCode::URI_LOOKUP,
                              "unable to find uri[" + include.uri + "] (searched beside '" + baseFile +
                                  "' and in INTERLINK_RESOURCE_PATH)",
                              include.where);
    return kFailed;
  }
  boost::system::error_code ec;
  if (fs::is_directory(resolved, ec)) {
    // A model directory: model.config names the SDFormat file (the newest version we read).
    const fs::path config = fs::path(resolved) / "model.config";
    std::string chosen;
    if (fs::exists(config, ec)) {
      std::ifstream in(config.string());
      std::stringstream text;
      text << in.rdbuf();
      Diagnostics configDiagnostics;
      if (auto root = xml::parse(text.str(), config.string(), configDiagnostics)) {
        double best = -1;
        for (const auto* sdf : root->childrenNamed("sdf")) {
          const double version = std::strtod(sdf->attributeOr("version", "0").c_str(), nullptr);
          if (version <= 1.9 + 1e-9 && version > best) {
            best = version;
            chosen = sdf->trimmedText();
          }
        }
      } else {
        context.diagnostics.append(configDiagnostics);
        return kFailed;
      }
      if (chosen.empty()) {
        context.diagnostics.error(ErrorCode::URI_LOOKUP, "'" + config.string() + "' names no <sdf> file", include.where);
        return kFailed;
      }
    } else {
      // libsdformat 12 requires the manifest; so do we, with the file it should name.
      context.diagnostics.error(ErrorCode::URI_LOOKUP,
                                "unable to resolve uri[" + include.uri + "] to a model file: the directory '" + resolved +
                                    "' has no model.config (expected <model><sdf version=\"1.9\">model.sdf</sdf></model>)",
                                include.where);
      return kFailed;
    }
    resolved = (fs::path(resolved) / chosen).lexically_normal().string();
    if (!fs::exists(resolved, ec)) {
      context.diagnostics.error(ErrorCode::URI_LOOKUP, "model file '" + resolved + "' does not exist", include.where);
      return kFailed;
    }
  }
  std::string canonical = fs::canonical(resolved, ec).string();
  if (ec) canonical = resolved;  // a name only a host parser understands
  if (std::find(context.includeStack.begin(), context.includeStack.end(), canonical) != context.includeStack.end()) {
    std::string chain;
    for (const auto& p : context.includeStack) chain += p + " -> ";
    context.diagnostics.error(ErrorCode::INCLUDE_CYCLE, "include cycle: " + chain + canonical, include.where);
    return kFailed;
  }
  if (include.placementFrame && !include.pose) {
    context.diagnostics.error(ErrorCode::MODEL_PLACEMENT_FRAME_INVALID,
                              "<placement_frame> requires a <pose> in the same <include>", include.where);
    return kFailed;
  }

  context.includeStack.push_back(canonical);
  auto content = loadIncludedModel(include, resolved, parentScopedName, context);
  if (!content) {
    context.includeStack.pop_back();
    return kFailed;
  }
  if (!content->model) {
    for (Light& light : content->lights) {
      if (include.name) light.name = *include.name;
      if (include.pose) light.pose = *include.pose;
      lights.push_back(std::move(light));
    }
    for (KeptElement& element : content->kept) kept.push_back(std::move(element));
    context.includeStack.pop_back();
    return IncludeOutcome::Absorbed;
  }
  auto& model = content->model;
  // The framework applies //include/name, //include/static and //include/pose for every include
  // (host parsers included: the values it set are overridden only when the <include> gives them).
  if (include.name) model->name = *include.name;
  if (include.isStatic) model->isStatic = *include.isStatic;
  if (include.pose) model->pose = *include.pose;
  if (include.placementFrame) model->placementFrame = *include.placementFrame;
  if (model->sourceFile.empty()) model->sourceFile = resolved;
  model->where = include.where;
  if (!model->fromInterfaceModel) {
    composeModel(*model, resolved, (parentScopedName.empty() ? "" : parentScopedName + "::") + model->name, depth + 1, context);
  }
  context.includeStack.pop_back();
  entry = std::move(*model);
  return IncludeOutcome::Model;
}

void Loader::Impl::composeModel(Model& model, const std::string& baseFile, const std::string& scopedName, int depth,
                                Context& context) const {
  std::vector<Model> merged;
  for (auto it = model.models.begin(); it != model.models.end();) {
    if (!it->include) {
      composeModel(*it, it->sourceFile.empty() ? baseFile : it->sourceFile, scopedName + "::" + it->name, depth, context);
      ++it;
      continue;
    }
    const bool merge = it->include->merge;
    if (resolveInclude(*it, baseFile, scopedName, model.lights, model.kept, depth, context) != IncludeOutcome::Model) {
      it = model.models.erase(it);  // absorbed, or reported; the rest of the model is still checked
      continue;
    }
    if (merge) {
      merged.push_back(std::move(*it));
      it = model.models.erase(it);
    } else {
      ++it;
    }
  }
  // //include/@merge (SDFormat 1.9): the included model's content joins this model through a
  // proxy frame that stands for its model frame, as libsdformat does.
  for (Model& m : merged) {
    const std::string proxy = "_merged__" + m.name + "__model__";
    Frame frame;
    frame.name = proxy;
    frame.pose = m.pose;
    frame.where = m.where;
    if (!m.canonicalLink.empty()) frame.attachedTo = m.canonicalLink;
    else if (!m.links.empty()) frame.attachedTo = m.links.front().name;
    model.frames.push_back(frame);
    auto retarget = [&](std::string& reference) {
      if (reference.empty() || reference == "__model__") reference = proxy;
    };
    for (Link& link : m.links) {
      retarget(link.pose.relativeTo);
      model.links.push_back(std::move(link));
    }
    for (Frame& f : m.frames) {
      retarget(f.attachedTo);
      model.frames.push_back(std::move(f));
    }
    for (Joint& joint : m.joints) {
      if (joint.parent == "__model__") joint.parent = proxy;
      if (joint.child == "__model__") joint.child = proxy;
      for (auto& axis : joint.axes) {
        if (axis.expressedIn == "__model__") axis.expressedIn = proxy;
      }
      model.joints.push_back(std::move(joint));
    }
    for (Model& nested : m.models) {
      retarget(nested.pose.relativeTo);
      model.models.push_back(std::move(nested));
    }
  }
}

void Loader::Impl::composeWorld(World& world, const std::string& baseFile, Context& context) const {
  for (auto it = world.models.begin(); it != world.models.end();) {
    if (!it->include) {
      composeModel(*it, it->sourceFile.empty() ? baseFile : it->sourceFile, it->name, 0, context);
      ++it;
      continue;
    }
    if (it->include->merge) {
      context.diagnostics.error(ErrorCode::MERGE_INCLUDE_UNSUPPORTED,
                                "merge-include is only allowed inside a model, not directly in a world", it->include->where);
      it = world.models.erase(it);
      continue;
    }
    if (resolveInclude(*it, baseFile, "", world.lights, world.kept, 0, context) != IncludeOutcome::Model) {
      it = world.models.erase(it);
      continue;
    }
    ++it;
  }
}

// ---------------------------------------------------------------------------------------------
Loader::Loader(bool discoverPlugins) : impl_(std::make_unique<Impl>()) {
  if (discoverPlugins) impl_->registry.discover();
}
Loader::~Loader() = default;

PluginRegistry& Loader::plugins() { return impl_->registry; }
const PluginRegistry& Loader::plugins() const { return impl_->registry; }

void Loader::registerCustomModelParser(CustomModelParser parser) { impl_->customParsers.push_back(std::move(parser)); }

LoadResult Loader::loadFile(const std::string& path, const LoadOptions& options) const {
  LoadResult result;
  Impl::Context context = Impl::makeContext(options, result.diagnostics);
  boost::system::error_code ec;
  const std::string absolute = fs::absolute(path, ec).lexically_normal().string();
  if (!fs::exists(absolute, ec)) {
    result.diagnostics.error(ErrorCode::FILE_READ, "no such file '" + path + "'", SourceLocation{path, 0, 0});
    return result;
  }
  context.includeStack.push_back(fs::canonical(absolute, ec).string());
  auto document = impl_->loadDocument(absolute, SourceLocation{}, context);
  if (!document) return result;
  result.document = std::move(*document);
  impl_->finish(result, absolute, context);
  return result;
}

LoadResult Loader::loadString(const std::string& content, const std::string& fileName, const LoadOptions& options) const {
  LoadResult result;
  Impl::Context context = Impl::makeContext(options, result.diagnostics);
  boost::system::error_code ec;
  const std::string absolute = fs::absolute(fileName, ec).lexically_normal().string();
  context.includeStack.push_back(absolute);
  if (content.find_first_not_of(" \t\r\n") == std::string::npos) {
    result.diagnostics.error(ErrorCode::FILE_EMPTY, "input is empty; expected a model description", SourceLocation{fileName, 1, 1});
    return result;
  }
  auto document = impl_->parseDocument(absolute, content, SourceLocation{}, context);
  if (!document) return result;
  result.document = std::move(*document);
  impl_->finish(result, absolute, context);
  return result;
}

LoadResult Loader::loadInclude(const Include& include, const std::string& includingFile, const LoadOptions& options) const {
  LoadResult result;
  Impl::Context context = Impl::makeContext(options, result.diagnostics);
  boost::system::error_code ec;
  const std::string base = fs::absolute(includingFile, ec).lexically_normal().string();
  context.includeStack.push_back(fs::canonical(base, ec).string());
  Model entry;
  entry.include = include;
  std::vector<Light> lights;
  std::vector<KeptElement> kept;
  const auto outcome = impl_->resolveInclude(entry, base, "", lights, kept, 0, context);
  if (outcome == Impl::IncludeOutcome::Absorbed) {
    result.diagnostics.error(ErrorCode::ELEMENT_INCORRECT_TYPE,
                             "'" + include.uri + "' holds a light or an actor, expected a model", include.where);
  }
  if (outcome != Impl::IncludeOutcome::Model) return result;
  result.document.sourceFile = entry.sourceFile;
  result.document.format = entry.sourceFormat;
  result.document.model = std::move(entry);
  impl_->resolve(result, context);
  return result;
}

void Loader::Impl::finish(LoadResult& result, const std::string& absolute, Context& context) const {
  if (result.document.model) {
    composeModel(*result.document.model, absolute, result.document.model->name, 0, context);
  }
  for (World& world : result.document.worlds) composeWorld(world, absolute, context);
  resolve(result, context);
}

void Loader::Impl::resolve(LoadResult& result, Context& context) const {
  if (!context.options.resolveFrames) return;

  result.graph = FrameGraph::build(result.document, result.diagnostics);
  result.kinematics = Kinematics::build(result.document, result.graph, result.diagnostics);

  // Reposture callbacks, parent scope first (they were recorded in that order).
  const bool worldRoot = result.graph.isWorld();
  for (const auto& pending : context.repostures) {
    std::string name = pending.scopedName;
    if (!worldRoot && result.document.model) {
      // In a model file, frames are named from inside the top model.
      const std::string top = result.document.model->name + "::";
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
