// Loading any registered format and composing includes across formats (SDFormat's <include>
// with the Interface API contract, seed 003 section 1.5, as libsdformat 12.4 ships it).
#include "interlink/Loader.hpp"

#include "check/InertiaCheck.hpp"
#include "check/MeshCheck.hpp"
#include "check/WarningGroups.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <unordered_map>

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
std::optional<std::string> readModelFile(const std::string& path, const SourceLocation& requestedAt,
                                         const LoadOptions& options, Diagnostics& diagnostics) {
  auto content = io::readRegularFile(path, options.maxFileBytes, requestedAt, diagnostics);
  if (!content || !io::checkModelText(*content, path, diagnostics)) return std::nullopt;
  return content;
}

/// True when `path` is `root` or inside it (both canonical).
bool isWithin(const fs::path& path, const fs::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

/// Elements a model brings, nested models included (counted once when an include is resolved).
std::uint64_t elementCount(const Model& model) {
  std::uint64_t count = 1 + model.links.size() + model.joints.size() + model.frames.size();
  for (const Model& nested : model.models) count += elementCount(nested);
  return count;
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
    /// Directory trees includes and meshes may come from (canonical): the top-level file's
    /// directory and the resource paths.
    std::vector<fs::path> roots;
    std::uint64_t includedModels = 0;
    std::uint64_t includedElements = 0;
    bool includeLimitReported = false;
    /// What the file system said, per load: a file included many times (the legs of a robot, an
    /// include bomb) is canonicalised and read once. Only files that were read whole are kept.
    mutable std::unordered_map<std::string, std::string> canonicalPaths;  // "" when it has none
    /// "directory\nuri" -> (resolved path, whether LoadOptions::findFile gave it)
    mutable std::unordered_map<std::string, std::pair<std::string, bool>> resolvedUris;
    std::unordered_map<std::string, std::string> contents;
  };

  /// `fromHost` (optional) tells whether the answer came from LoadOptions::findFile.
  std::string resolveUri(const std::string& uri, const std::string& fromFile, const Context& context,
                         bool* fromHost = nullptr) const;
  std::string resolveUriUncached(const std::string& uri, const std::string& fromFile, const Context& context,
                                 bool* fromHost) const;
  std::optional<Document> loadDocument(const std::string& path, const SourceLocation& requestedAt, Context& context) const;
  std::optional<Document> parseDocument(const std::string& path, const std::string& content, const SourceLocation& requestedAt,
                                        Context& context) const;
  void finish(LoadResult& result, const std::string& absolute, Context& context) const;
  /// The steps after composition: frame graph, kinematics, reposture callbacks.
  void resolve(LoadResult& result, Context& context) const;
  /// NO_PARSER: "no parser for '.xyz'; loaded plugins: ..." at the include (or the file).
  void reportNoParser(const std::string& path, const SourceLocation& requestedAt, Context& context) const {
    const std::string ext = fs::path(path).extension().string();
    const std::string claimants = registry.claimantsOf(path);
    // Plugins that claim the extension but declined this content are named as such, never as
    // candidates for it.
    const std::string message =
        claimants.empty() ? "no parser for '" + (ext.empty() ? std::string("(no extension)") : ext) +
                                "'; loaded plugins: " + registry.describeFormats()
                          : "no plugin recognises this file: " + claimants + " (claiming '" + ext +
                                "') declined its content and no other plugin's sniffer accepted it; use --from NAME "
                                "(LoadOptions::format) to choose one";
    context.diagnostics.error(ErrorCode::NO_PARSER, message, requestedAt.known() ? requestedAt : SourceLocation{path, 0, 0});
  }
  /// The context of one load: the host's resource paths, then INTERLINK_RESOURCE_PATH.
  static Context makeContext(const LoadOptions& options, Diagnostics& diagnostics) {
    Context context{options, diagnostics, {}, {}, options.resourcePaths, {}, 0, 0, false, {}, {}, {}};
    for (auto& dir : splitPathList(std::getenv("INTERLINK_RESOURCE_PATH"))) context.resourcePaths.push_back(dir);
    return context;
  }
  /// Sets the roots of the path policy once the top-level file is known.
  static void setRoots(Context& context, const std::string& topLevelFile) {
    boost::system::error_code ec;
    auto add = [&](const fs::path& dir) {
      const fs::path canonical = fs::weakly_canonical(fs::absolute(dir), ec);
      if (!ec) context.roots.push_back(canonical);
    };
    add(fs::path(topLevelFile).parent_path());
    for (const auto& dir : context.resourcePaths) add(dir);
  }
  /// The canonical form of `path` (symbolic links resolved; missing trailing parts kept as
  /// written), or "" when the file system cannot say; remembered for the load.
  static const std::string& canonicalOf(const std::string& path, const Context& context) {
    auto [known, inserted] = context.canonicalPaths.try_emplace(path);
    if (inserted) {
      boost::system::error_code ec;
      const fs::path canonical = fs::weakly_canonical(fs::absolute(path), ec);
      if (!ec) known->second = canonical.string();
    }
    return known->second;
  }
  /// Why `path` may not be read in this load, or empty (see LoadOptions::allowPathsOutsideRoots).
  static std::string outsideRootsReason(const std::string& path, const Context& context) {
    if (context.options.allowPathsOutsideRoots) return {};
    const std::string& canonicalName = canonicalOf(path, context);
    if (canonicalName.empty()) return {};  // not a file name (a host parser's own name); nothing is read from it here
    const fs::path canonical(canonicalName);
    for (const fs::path& root : context.roots) {
      if (isWithin(canonical, root)) return {};
    }
    std::string roots;
    for (const fs::path& root : context.roots) roots += (roots.empty() ? "'" : ", '") + root.string() + "'";
    return "'" + canonical.string() + "' is outside the directory tree of the top-level file and of the resource paths (" +
           roots + "); set LoadOptions::allowPathsOutsideRoots to allow it";
  }
  /// Counts one included model; false (reported once per load) when a limit is passed.
  static bool countInclude(const Model& model, const SourceLocation& where, Context& context) {
    ++context.includedModels;
    context.includedElements += elementCount(model);
    const bool tooMany = context.includedModels > context.options.maxIncludedModels;
    if (!tooMany && context.includedElements <= context.options.maxIncludedElements) return true;
    if (!context.includeLimitReported) {
      context.includeLimitReported = true;
      std::string chain;
      for (const auto& p : context.includeStack) chain += (chain.empty() ? "" : " -> ") + p;
      context.diagnostics.error(
          ErrorCode::INCLUDE_LIMIT,
          tooMany ? "more than " + std::to_string(context.options.maxIncludedModels) +
                        " included models in one load (LoadOptions::maxIncludedModels; an include bomb?); include chain: " + chain
                  : "included models bring more than " + std::to_string(context.options.maxIncludedElements) +
                        " elements into one load (LoadOptions::maxIncludedElements); include chain: " + chain,
          where);
    }
    return false;
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

std::string Loader::Impl::resolveUri(const std::string& uri, const std::string& fromFile, const Context& context,
                                     bool* fromHost) const {
  // Relative URIs depend on the including file's directory only: one lookup per load for each.
  const std::string key = fs::path(fromFile).parent_path().string() + "\n" + uri;
  auto [known, inserted] = context.resolvedUris.try_emplace(key);
  if (inserted) {
    bool byHost = false;
    known->second.first = resolveUriUncached(uri, fromFile, context, &byHost);
    known->second.second = byHost;
  }
  if (fromHost) *fromHost = known->second.second;
  return known->second.first;
}

std::string Loader::Impl::resolveUriUncached(const std::string& uri, const std::string& fromFile, const Context& context,
                                             bool* fromHost) const {
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
    if (fromHost) *fromHost = true;
  }
  return resolved;
}

std::optional<Document> Loader::Impl::loadDocument(const std::string& path, const SourceLocation& requestedAt,
                                                   Context& context) const {
  // Say so before reading a file nobody could parse (content decides only when sniffers exist
  // and the file is there to be sniffed).
  const bool named = !requestedAt.known() && !context.options.format.empty();
  boost::system::error_code ec;
  if (!named && !registry.claimsExtension(path) && (!registry.hasSniffers() || !fs::exists(path, ec))) {
    reportNoParser(path, requestedAt, context);
    return std::nullopt;
  }
  if (auto known = context.contents.find(path); known != context.contents.end()) {
    return parseDocument(path, known->second, requestedAt, context);
  }
  auto content = readModelFile(path, requestedAt, context.options, context.diagnostics);
  if (!content) return std::nullopt;
  const std::string& kept = context.contents.emplace(path, std::move(*content)).first->second;
  return parseDocument(path, kept, requestedAt, context);
}

std::optional<Document> Loader::Impl::parseDocument(const std::string& path, const std::string& content,
                                                    const SourceLocation& requestedAt, Context& context) const {
  const std::string format = requestedAt.known() ? std::string() : context.options.format;
  PluginHandle plugin = format.empty() ? registry.formatFor(path, std::string_view(content).substr(0, kSniffBytes))
                                       : registry.findByName(format);
  if (plugin && plugin.info().kind != plugin::PluginKind::Format) plugin = PluginHandle();
  if (!plugin && !format.empty()) {
    context.diagnostics.error(ErrorCode::NO_PARSER,
                              "no format plugin named '" + format + "'; loaded plugins: " + registry.describeFormats(),
                              SourceLocation{path, 0, 0});
    return std::nullopt;
  }
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
  host.checkPath = [](const void* ctx, const std::string& file) -> std::string {
    return outsideRootsReason(file, *static_cast<const UriContext*>(ctx)->context);
  };
  host.maxFileBytes = context.options.maxFileBytes;
  host.maxIncludedModels = context.options.maxIncludedModels;
  host.maxIncludedElements = context.options.maxIncludedElements;
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
  bool fromHost = false;
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
  if (context.includeLimitReported) return kFailed;  // reported once; the rest is not expanded
  std::string resolved = resolveUri(include.uri, baseFile, context, &fromHost);
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
      const auto text = readModelFile(config.string(), include.where, context.options, context.diagnostics);
      if (!text) return kFailed;
      Diagnostics configDiagnostics;
      if (auto root = xml::parse(*text, config.string(), configDiagnostics)) {
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
  if (!fromHost) {
    if (std::string why = outsideRootsReason(resolved, context); !why.empty()) {
      context.diagnostics.error(ErrorCode::PATH_OUTSIDE_ROOTS, "include of uri[" + include.uri + "] refused: " + why,
                                include.where);
      return kFailed;
    }
  }
  std::string canonical = canonicalOf(resolved, context);
  if (canonical.empty()) canonical = resolved;  // a name only a host parser understands
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
  if (!countInclude(*model, include.where, context)) {
    context.includeStack.pop_back();
    return kFailed;
  }
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
  if (!fs::exists(absolute, ec) && ec.value() != ELOOP) {
    result.diagnostics.error(ErrorCode::FILE_READ, "no such file '" + path + "'", SourceLocation{path, 0, 0});
    return result;
  }
  context.includeStack.push_back(fs::canonical(absolute, ec).string());
  Impl::setRoots(context, absolute);
  auto document = impl_->loadDocument(absolute, SourceLocation{}, context);
  if (!document) return result;
  result.document = std::move(*document);
  impl_->finish(result, absolute, context);
  detail::checkInertias(result.document, result.diagnostics);
  if (!options.listEveryWarning) detail::groupRepeatedWarnings(result.diagnostics);
  return result;
}

LoadResult Loader::loadString(const std::string& content, const std::string& fileName, const LoadOptions& options) const {
  LoadResult result;
  Impl::Context context = Impl::makeContext(options, result.diagnostics);
  boost::system::error_code ec;
  const std::string absolute = fs::absolute(fileName, ec).lexically_normal().string();
  context.includeStack.push_back(absolute);
  Impl::setRoots(context, absolute);
  if (content.find_first_not_of(" \t\r\n") == std::string::npos) {
    result.diagnostics.error(ErrorCode::FILE_EMPTY, "input is empty; expected a model description", SourceLocation{fileName, 1, 1});
    return result;
  }
  if (!io::checkModelText(content, fileName, result.diagnostics)) return result;
  auto document = impl_->parseDocument(absolute, content, SourceLocation{}, context);
  if (!document) return result;
  result.document = std::move(*document);
  impl_->finish(result, absolute, context);
  detail::checkInertias(result.document, result.diagnostics);
  if (!options.listEveryWarning) detail::groupRepeatedWarnings(result.diagnostics);
  return result;
}

LoadResult Loader::loadInclude(const Include& include, const std::string& includingFile, const LoadOptions& options) const {
  LoadResult result;
  Impl::Context context = Impl::makeContext(options, result.diagnostics);
  boost::system::error_code ec;
  const std::string base = fs::absolute(includingFile, ec).lexically_normal().string();
  context.includeStack.push_back(fs::canonical(base, ec).string());
  Impl::setRoots(context, base);  // the including file stands for the top level (path policy)
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
  detail::checkInertias(result.document, result.diagnostics);
  if (!options.listEveryWarning) detail::groupRepeatedWarnings(result.diagnostics);
  return result;
}

void Loader::Impl::finish(LoadResult& result, const std::string& absolute, Context& context) const {
  if (result.document.model) {
    composeModel(*result.document.model, absolute, result.document.model->name, 0, context);
  }
  for (World& world : result.document.worlds) composeWorld(world, absolute, context);
  detail::resolveMeshes(result.document,
                        {[&](const std::string& uri, const std::string& from) { return resolveUri(uri, from, context); },
                         [&](const std::string& file) { return outsideRootsReason(file, context); }},
                        result.diagnostics);
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
