// Loading any registered format and composing includes across formats (SDFormat's <include>
// with the Interface API contract of its composition proposal §1.5, as libsdformat 12.4 ships it).
#include "interlink/Loader.hpp"

#include "check/InertiaCheck.hpp"
#include "check/MeshCheck.hpp"
#include "check/ResolutionCheck.hpp"
#include "check/WarningGroups.hpp"
#include "compose/Expansion.hpp"
#include "compose/ResourceLookup.hpp"
#include "compose/FileNamesAsGiven.hpp"
#include "io/PathPolicy.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "interlink/TextNumbers.hpp"
#include "interlink/compose/InterfaceModelPoseGraph.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink {

namespace {

namespace fs = std::filesystem;

/// The first bytes handed to sniffers.
constexpr std::size_t kSniffBytes = 4096;

/// A reposture callback to run once the graphs are resolved.
struct PendingReposture {
  std::string scopedName;
  RepostureFunction function;
  std::shared_ptr<const InterfaceModel> owner;  // keeps the callback's captures alive
  SourceLocation where;
};

/// Reads a whole file; refuses what cannot be a model description before any plugin sees it.
std::optional<std::string> readModelFile(const std::string& path, const SourceLocation& requestedAt,
                                         const LoadOptions& options, Diagnostics& diagnostics) {
  auto content = io::readRegularFile(path, options.maxFileBytes, requestedAt, diagnostics);
  if (!content || !io::checkModelText(*content, path, diagnostics)) return std::nullopt;
  return content;
}

/// LoadOptions::strict: what a format's reader tolerated as its reference tool does (XML_SYNTAX
/// and DEVIATION_TOLERATED warnings from `from` on) refuses the file instead.
void refuseTolerated(Diagnostics& diagnostics, std::size_t from) {
  for (std::size_t i = from; i < diagnostics.size(); ++i) {
    Diagnostic& d = diagnostics.items()[i];
    if (d.code == ErrorCode::XML_SYNTAX || d.code == ErrorCode::DEVIATION_TOLERATED) d.severity = Severity::Error;
  }
}

/// Elements a model brings, nested models included (counted once when an include is resolved).
std::uint64_t elementCount(const Model& model) {
  std::uint64_t count = 1 + model.links.size() + model.joints.size() + model.frames.size();
  for (const Model& nested : model.models) count += elementCount(nested);
  return count;
}

/// Whether `model` or a model nested in it (included ones too) is static.
bool anyStatic(const Model& model) {
  if (model.isStatic) return true;
  return std::any_of(model.models.begin(), model.models.end(), [](const Model& nested) { return anyStatic(nested); });
}

void makeStatic(Model& model) {
  model.isStatic = true;
  for (Model& nested : model.models) makeStatic(nested);
}

/// //include/static (composition proposal 1.4.6): it may only turn a model static, and then every
/// model it brings, transitively included ones too. `false` on a model that is (or holds) a static
/// model is an error: a static model cannot be made to move.
void applyIncludeStatic(const Include& include, Model& model, Diagnostics& diagnostics) {
  if (!include.isStatic) return;
  if (*include.isStatic) {
    makeStatic(model);
  } else if (anyStatic(model)) {
    diagnostics.error(ErrorCode::ELEMENT_INVALID,
                      "<static>false</static> in the <include> of '" + include.uri +
                          "': the included model is static (or includes a static model); //include/static can only "
                          "change false to true",
                      include.where);
  }
}

/// //include/frame and //include/joint join the included model, in its scope.
void addIncludeElements(const Include& include, Model& model) {
  model.frames.insert(model.frames.end(), include.frames.begin(), include.frames.end());
  model.joints.insert(model.joints.end(), include.joints.begin(), include.joints.end());
}

/// Index of the world named `name` in `document` (empty: the first); an unknown name is a usage
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

/// The scoped name of the link a model frame is attached to: @canonical_link, else the first
/// link, else (recursively) the first nested model's, prefixed with that model's name.
std::string canonicalLinkName(const Model& model) {
  if (!model.canonicalLink.empty()) return model.canonicalLink;
  if (!model.links.empty()) return model.links.front().name;
  for (const Model& nested : model.models) {
    std::string inner = canonicalLinkName(nested);
    if (!inner.empty()) return nested.name + "::" + inner;
  }
  return {};
}

/// X_MP: the pose of `model`'s placement frame in its model frame, resolved in the model alone (a
/// merge-include's model frame is gone once its content has joined the enclosing model).
std::optional<Pose> placementFramePose(const Model& model, Diagnostics& diagnostics) {
  Document alone;
  alone.model = model;
  Diagnostics graphDiagnostics;  // the composed document's graph reports the model's own errors
  const FrameGraph graph = FrameGraph::build(alone, graphDiagnostics);
  if (const auto frame = graph.find(model.placementFrame)) return graph.frames()[*frame].pose;
  // libsdformat reports it through its relative-to graph, as for a plain include; so do we.
  diagnostics.error(ErrorCode::POSE_RELATIVE_TO_INVALID,
                    "placement_frame '" + model.placementFrame + "' of merge-included model '" + model.name +
                        "' is not a frame of that model",
                    model.where);
  return std::nullopt;
}

/// //include/@merge (SDFormat 1.9): the included model's content joins `into` without a scope of
/// its own, as libsdformat does it. A proxy frame `_merged__<name>__model__` stands for the merged
/// model frame: attached to its canonical link and posed (like the model was) relative to the
/// include's relative_to, else the enclosing model frame. Everything that referred to the merged
/// model frame, explicitly ("__model__") or by default (an empty relative_to or attached_to),
/// refers to the proxy instead. Name clashes with the enclosing model's elements are reported by
/// the frame graph (DUPLICATE_NAME). With //include/placement_frame the include's pose places
/// that frame, so the proxy is posed at X_RM = X_RP · X_MP⁻¹, X_MP resolved inside the included
/// model before it is merged (as libsdformat 12.3 poses its proxy frame).
void mergeInto(Model& into, Model&& merged, Diagnostics& diagnostics) {
  const std::string proxy = "_merged__" + merged.name + "__model__";
  Frame frame;
  frame.name = proxy;
  frame.pose = merged.pose;
  if (!merged.placementFrame.empty()) {
    if (auto X_MP = placementFramePose(merged, diagnostics)) frame.pose.pose = frame.pose.pose * X_MP->inverse();
  }
  if (frame.pose.relativeTo.empty()) frame.pose.relativeTo = "__model__";
  frame.where = merged.where;
  frame.attachedTo = canonicalLinkName(merged);
  if (frame.attachedTo.empty()) frame.attachedTo = "__model__";  // a static model of frames only
  into.frames.push_back(std::move(frame));
  auto toProxy = [&](std::string& reference) {
    if (reference.empty() || reference == "__model__") reference = proxy;
  };
  auto explicitToProxy = [&](std::string& reference) {
    if (reference == "__model__") reference = proxy;
  };
  for (Link& link : merged.links) {
    toProxy(link.pose.relativeTo);
    into.links.push_back(std::move(link));
  }
  for (Frame& f : merged.frames) {
    toProxy(f.attachedTo);
    explicitToProxy(f.pose.relativeTo);
    into.frames.push_back(std::move(f));
  }
  for (Joint& joint : merged.joints) {
    explicitToProxy(joint.parent);
    explicitToProxy(joint.child);
    explicitToProxy(joint.pose.relativeTo);  // empty stays: relative to the child
    for (JointAxis& axis : joint.axes) explicitToProxy(axis.expressedIn);
    into.joints.push_back(std::move(joint));
  }
  for (Model& nested : merged.models) {
    toProxy(nested.pose.relativeTo);
    into.models.push_back(std::move(nested));
  }
  for (Light& light : merged.lights) {
    toProxy(light.pose.relativeTo);
    into.lights.push_back(std::move(light));
  }
  for (KeptElement& element : merged.kept) into.kept.push_back(std::move(element));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
struct Loader::Impl {
  PluginRegistry registry;
  std::vector<CustomModelParser> customParsers;
  // The hardware registry, rebuilt when plugins were added since (hosts may discover more).
  mutable std::mutex hardwareMutex;
  mutable hardware::HardwareRegistry hardwareRegistry;
  mutable std::size_t hardwareBuiltFor = static_cast<std::size_t>(-1);

  struct Context {
    const LoadOptions& options;
    Diagnostics& diagnostics;
    std::vector<std::string> includeStack;  // canonical paths being loaded, outermost first
    std::vector<PendingReposture> repostures;
    detail::ResourceSearchPath searchPath;
    std::map<std::string, std::string> files;  // bytes of every file read in this load (stable nodes)
    plugin::HardwareServices hardware;  // the loader's hardware registry as plugins see it
    /// Where includes and meshes may come from (LoadOptions::confineToRoots).
    detail::PathPolicy pathPolicy;
    std::uint64_t includedModels = 0;
    std::uint64_t includedElements = 0;
    bool includeLimitReported = false;
    /// Includes that failed (reported), and where the models stand whose content they were to bring:
    /// "model has no link" there only follows from the failure and is not said again.
    std::size_t failedIncludes = 0;
    std::vector<SourceLocation> modelsMissingIncludes;
    /// The mesh limits of this load and what its meshes have spent (every plugin call shares it).
    MeshBudget meshBudget;
    std::string expandedText;  // the top-level file's expansion (a macro language's file)
    std::string expandedExtension;
    /// What the file system said, per load: a file included many times (the legs of a robot, an
    /// include bomb) is canonicalised and resolved once.
    mutable std::unordered_map<std::string, std::string> canonicalPaths;  // "" when it has none
    /// "directory\nuri" -> where it was found and where it was looked for
    mutable std::unordered_map<std::string, detail::UriLookup> resolvedUris;
  };

  const hardware::HardwareRegistry& currentHardware() const {
    std::lock_guard<std::mutex> lock(hardwareMutex);
    if (hardwareBuiltFor != registry.plugins().size()) {
      hardwareRegistry = hardware::HardwareRegistry::fromPlugins(registry);
      hardwareBuiltFor = registry.plugins().size();
    }
    return hardwareRegistry;
  }
  /// The hardware registry as plugins see it, built on first use: a load whose format names no
  /// hardware opens no hardware plugin (the registry discovers plugins lazily).
  plugin::HardwareServices lazyHardware() const {
    plugin::HardwareServices table;
    table.context = this;
    table.find = [](const void* self, hardware::ComponentKind kind, const char* type, std::size_t typeSize,
                    bool* exactCase) -> const hardware::CatalogEntry* {
      const plugin::HardwareServices built = static_cast<const Impl*>(self)->currentHardware().services();
      return built.find(built.context, kind, type, typeSize, exactCase);
    };
    table.evaluate = [](const void* self, const hardware::CatalogEntry* entry, const hardware::ComponentParameters& parameters,
                        hardware::ComponentModel& model, Diagnostics& diagnostics) -> bool {
      const plugin::HardwareServices built = static_cast<const Impl*>(self)->currentHardware().services();
      return built.evaluate(built.context, entry, parameters, model, diagnostics);
    };
    table.describeFamilies = [](const void* self) -> std::string {
      const plugin::HardwareServices built = static_cast<const Impl*>(self)->currentHardware().services();
      return built.describeFamilies(built.context);
    };
    return table;
  }

  // --- the include service: one policy for every format ------------------------------------
  std::string resolveUri(const std::string& uri, const std::string& fromFile, const Context& context) const {
    return lookUpUri(uri, fromFile, context).path;
  }
  /// The lookup of `uri` (compose/ResourceLookup), once per load for each directory and URI.
  const detail::UriLookup& lookUpUri(const std::string& uri, const std::string& fromFile, const Context& context) const;
  /// Resolves an include's URI from `fromFile` (a directory through the including format's
  /// plugin), applies the depth, cycle, count and path policy and pushes the file on the
  /// include stack.
  /// Returns the resolved path, or nothing after reporting why at `where`.
  std::optional<std::string> beginInclude(const std::string& uri, const std::string& fromFile,
                                          const std::string& includerFormat, const SourceLocation& where,
                                          Diagnostics& diagnostics, Context& context) const;
  /// The file a directory include names, asked of the including format's plugin.
  std::optional<std::string> modelFileInDirectory(const std::string& directory, const std::string& uri,
                                                  const std::string& includerFormat, const SourceLocation& where,
                                                  Diagnostics& diagnostics) const;
  /// The bytes of `path`, read once per load with the loader's checks.
  const std::string* readFile(const std::string& path, const SourceLocation& requestedAt, Diagnostics& diagnostics,
                              Context& context) const;

  // --- reading one file ---------------------------------------------------------------------
  std::optional<Document> loadDocument(const std::string& path, const SourceLocation& requestedAt, Context& context) const;
  std::optional<Document> parseDocument(const std::string& path, std::string_view content, const SourceLocation& requestedAt,
                                        Context& context) const;
  void finish(LoadResult& result, const std::string& absolute, Context& context) const;
  /// The steps after composition: frame graph, kinematics, reposture callbacks.
  void resolve(LoadResult& result, Context& context) const;
  /// The core's checks of every format's result (inertias), then repeated warnings grouped.
  void check(LoadResult& result, const Context& context) const;
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
  /// The context of one load: the host's search directories, then the environment's.
  Context makeContext(const LoadOptions& options, Diagnostics& diagnostics) const {
    return Context{options, diagnostics, {}, {},
                   detail::ResourceSearchPath::fromEnvironment(options.resourcePaths, options.packagePaths),
                   {}, lazyHardware(), {}, 0, 0, false, 0, {}, MeshBudget{options.meshLimits, 0, 0}, {}, {}, {}, {}};
  }
  /// Sets the path policy once the top-level file is known: its directory and the search
  /// directories are the roots of a confined load. `topLevelFile` is empty for a model given as
  /// text, which has no directory of its own (never the working directory).
  static void setPathPolicy(Context& context, const std::string& topLevelFile) {
    if (!context.options.confineToRoots) return;
    std::vector<std::string> roots;
    if (!topLevelFile.empty()) roots.push_back(fs::path(topLevelFile).parent_path().string());
    for (auto& dir : context.searchPath.allDirectories()) roots.push_back(std::move(dir));
    context.pathPolicy = detail::PathPolicy::confinedTo(roots);
  }
  /// The canonical form of `path` (symbolic links resolved; missing trailing parts kept as
  /// written), or "" when the file system cannot say; remembered for the load.
  static const std::string& canonicalOf(const std::string& path, const Context& context) {
    auto [known, inserted] = context.canonicalPaths.try_emplace(path);
    if (inserted) {
      std::error_code ec;
      const fs::path canonical = fs::weakly_canonical(fs::absolute(path), ec);
      if (!ec) known->second = canonical.string();
    }
    return known->second;
  }
  /// Reports the include limit once per load, with the include chain up to `next`.
  static void reportIncludeLimit(const std::string& message, const std::string& next, const SourceLocation& where,
                                 Diagnostics& diagnostics, Context& context) {
    if (context.includeLimitReported) return;
    context.includeLimitReported = true;
    std::string chain;
    for (const auto& p : context.includeStack) chain += (chain.empty() ? "" : " -> ") + p;
    if (!next.empty()) chain += " -> " + next;
    diagnostics.error(ErrorCode::INCLUDE_LIMIT, message + "; include chain: " + chain, where);
  }
  /// Counts the elements an included model brings; false (reported once per load) past the limit.
  static bool countElements(const Model& model, const SourceLocation& where, Context& context) {
    context.includedElements += elementCount(model);
    if (context.includedElements <= context.options.maxIncludedElements) return true;
    reportIncludeLimit("included models bring more than " + std::to_string(context.options.maxIncludedElements) +
                           " elements into one load (LoadOptions::maxIncludedElements)",
                       "", where, context.diagnostics, context);
    return false;
  }

  /// One cause, one error: a model whose include failed (reported at the include) is not also
  /// "without a link" for want of what the include was to bring.
  static void dropFollowOnErrors(Diagnostics& diagnostics, const Context& context) {
    if (context.modelsMissingIncludes.empty()) return;
    auto& items = diagnostics.items();
    items.erase(std::remove_if(items.begin(), items.end(),
                               [&](const Diagnostic& d) {
                                 if (d.code != ErrorCode::MODEL_WITHOUT_LINK) return false;
                                 return std::any_of(context.modelsMissingIncludes.begin(), context.modelsMissingIncludes.end(),
                                                    [&](const SourceLocation& at) {
                                                      return at.line == d.where.line && at.column == d.where.column &&
                                                             at.file == d.where.file;
                                                    });
                               }),
                items.end());
  }

  // --- the include step: Include records become models ---------------------------------------
  /// The include step of one scope (a model's or a world's models and includes); merge-includes
  /// go to `merged` (null in a world, where they are refused).
  void composeScope(std::vector<Model>& models, std::vector<Include>& includes, const ModelSource& includer,
                    const std::string& scopeName, std::vector<Light>& lights, std::vector<KeptElement>& kept,
                    std::vector<Model>* merged, Context& context) const;
  void composeModel(Model& model, const std::string& modelScopedName, Context& context) const;
  void composeWorld(World& world, const ModelSource& worldSource, Context& context) const;
  /// The model `include` names, composed, with //include/name, static, pose and placement_frame
  /// applied; lights and actors it brings instead go to `lights` / `kept`. Nothing when the
  /// include was absorbed that way or failed (reported).
  std::optional<Model> resolveInclude(const Include& include, const ModelSource& includer, const std::string& parentScopedName,
                                      std::vector<Light>& lights, std::vector<KeptElement>& kept, Context& context) const;
  /// What an <include> brings: a model, or (SDFormat) a light or an actor.
  struct IncludedContent {
    std::optional<Model> model;
    std::vector<Light> lights;
    std::vector<KeptElement> kept;
  };
  std::optional<IncludedContent> loadIncludedModel(const Include& include, const std::string& resolved,
                                                   const std::string& includerFormat, const std::string& parentScopedName,
                                                   Context& context) const;
  /// Host parsers (CustomModelParser), newest first: the first answer or the first error ends it.
  std::optional<IncludedContent> askHostParsers(const Include& include, const std::string& resolved,
                                                const std::string& parentScopedName, bool& answered, Context& context) const;
  Model fromInterfaceModel(const InterfaceModel& im, const std::string& scopedName, const std::string& file, Context& context,
                           const std::shared_ptr<const InterfaceModel>& owner, const SourceLocation& where) const;
};

namespace {

/// Sets the framework's bookkeeping on every model of a document a plugin returned: each keeps
/// its own file's rules, and its extension records keep the plugin's code loaded.
void stampSource(Model& model, const ModelSource& source, const std::shared_ptr<const void>& plugin) {
  // A model that comes with its source is a recorded core model (the core-model JSON reader):
  // it keeps the format rules it was first read under.
  if (model.source.format.empty()) model.source = source;
  model.extensions.retain(plugin);
  for (Model& nested : model.models) stampSource(nested, source, plugin);
}

}  // namespace

const detail::UriLookup& Loader::Impl::lookUpUri(const std::string& uri, const std::string& fromFile,
                                                 const Context& context) const {
  // Relative URIs depend on the including file's directory only: one lookup per load for each.
  const std::string key = fs::path(fromFile).parent_path().string() + "\n" + uri;
  auto [known, inserted] = context.resolvedUris.try_emplace(key);
  if (inserted) known->second = detail::lookUpUri(uri, fromFile, context.searchPath, context.options.findFile);
  return known->second;
}

std::optional<std::string> Loader::Impl::modelFileInDirectory(const std::string& directory, const std::string& uri,
                                                              const std::string& includerFormat, const SourceLocation& where,
                                                              Diagnostics& diagnostics) const {
  const PluginHandle includer = registry.findByName(includerFormat);
  const plugin::FormatApi* api = includer ? includer.descriptor().format : nullptr;
  // A format without model directories: the directory itself, which the file checks refuse
  // (FILE_READ: "... is a directory").
  if (!api || api->size < sizeof(plugin::FormatApi) || !api->modelFileInDirectory) return directory;
  std::string file = api->modelFileInDirectory(directory, uri, where, diagnostics);
  if (file.empty()) return std::nullopt;  // the plugin said why
  std::error_code ec;
  file = fs::absolute(fs::path(directory) / file).lexically_normal().string();
  if (!fs::exists(file, ec)) {
    diagnostics.error(ErrorCode::URI_LOOKUP, "model file '" + file + "' does not exist", where);
    return std::nullopt;
  }
  return file;
}

std::optional<std::string> Loader::Impl::beginInclude(const std::string& uri, const std::string& fromFile,
                                                      const std::string& includerFormat, const SourceLocation& where,
                                                      Diagnostics& diagnostics, Context& context) const {
  const int depth = static_cast<int>(context.includeStack.size()) - 1;
  if (depth >= context.options.maxIncludeDepth) {
    diagnostics.error(ErrorCode::INCLUDE_DEPTH,
                      "includes nested more than " + std::to_string(context.options.maxIncludeDepth) + " deep at '" +
                          uri + "' (runaway include?)",
                      where);
    return std::nullopt;
  }
  if (uri.empty()) {
    diagnostics.error(ErrorCode::ELEMENT_MISSING, "<include> has no <uri>", where);
    return std::nullopt;
  }
  if (context.includeLimitReported) return std::nullopt;  // reported once; the rest is not expanded
  const detail::UriLookup& lookup = lookUpUri(uri, fromFile, context);
  const bool fromHost = lookup.fromHost;
  std::string resolved = lookup.path;
  if (resolved.empty() && !context.includeStack.empty()) {
    // A file being loaded that exists only as text (Loader::loadString) can still close a cycle.
    std::error_code ec;
    const fs::path written(uri);
    const std::string candidate =
        fs::absolute(written.is_absolute() ? written : fs::path(fromFile).parent_path() / written, ec).lexically_normal().string();
    if (std::find(context.includeStack.begin(), context.includeStack.end(), candidate) != context.includeStack.end()) {
      diagnostics.error(ErrorCode::INCLUDE_CYCLE, "include cycle: back to '" + candidate + "'", where);
      return std::nullopt;
    }
  }
  if (resolved.empty()) {
    diagnostics.error(ErrorCode::URI_LOOKUP, detail::describeFailedLookup(uri, lookup), where);
    return std::nullopt;
  }
  // The path policy, before anything of the included tree is read (a directory's manifest too).
  // A file the host's findFile named is the host's choice.
  auto refusedByPolicy = [&](const std::string& path) {
    if (fromHost) return false;
    const std::string why = context.pathPolicy.refusal(path);
    if (why.empty()) return false;
    diagnostics.error(ErrorCode::PATH_OUTSIDE_ROOTS, "include '" + uri + "' not read: " + why, where);
    return true;
  };
  if (refusedByPolicy(resolved)) return std::nullopt;
  std::error_code ec;
  if (fs::is_directory(resolved, ec)) {
    auto file = modelFileInDirectory(resolved, uri, includerFormat, where, diagnostics);
    if (!file || refusedByPolicy(*file)) return std::nullopt;
    resolved = *file;
  }
  std::string canonical = canonicalOf(resolved, context);
  if (canonical.empty()) canonical = resolved;  // a name only a host parser understands
  if (std::find(context.includeStack.begin(), context.includeStack.end(), canonical) != context.includeStack.end()) {
    std::string chain;
    for (const auto& p : context.includeStack) chain += p + " -> ";
    diagnostics.error(ErrorCode::INCLUDE_CYCLE, "include cycle: " + chain + canonical, where);
    return std::nullopt;
  }
  // Files that include the next one twice pass the depth and cycle checks but grow exponentially.
  if (++context.includedModels > context.options.maxIncludedModels) {
    reportIncludeLimit("more than " + std::to_string(context.options.maxIncludedModels) +
                           " includes (included models) in one load (LoadOptions::maxIncludedModels; an include bomb?)",
                       canonical, where, diagnostics, context);
    return std::nullopt;
  }
  context.includeStack.push_back(canonical);
  return resolved;
}

const std::string* Loader::Impl::readFile(const std::string& path, const SourceLocation& requestedAt,
                                          Diagnostics& diagnostics, Context& context) const {
  auto cached = context.files.find(path);
  if (cached != context.files.end()) return &cached->second;
  auto content = readModelFile(path, requestedAt, context.options, diagnostics);
  if (!content) return nullptr;
  return &context.files.emplace(path, std::move(*content)).first->second;
}

std::optional<Document> Loader::Impl::loadDocument(const std::string& path, const SourceLocation& requestedAt,
                                                   Context& context) const {
  // Say so before reading a file nobody could parse (content decides only when sniffers exist
  // and the file is there to be sniffed).
  const bool named = !requestedAt.known() && !context.options.format.empty();
  std::error_code ec;
  if (!named && !registry.claimsExtension(path) && (!registry.hasSniffers() || !fs::exists(path, ec))) {
    reportNoParser(path, requestedAt, context);
    return std::nullopt;
  }
  const std::string* content = readFile(path, requestedAt, context.diagnostics, context);
  if (!content) return std::nullopt;
  return parseDocument(path, *content, requestedAt, context);
}

std::optional<Document> Loader::Impl::parseDocument(const std::string& path, std::string_view content,
                                                    const SourceLocation& requestedAt, Context& context) const {
  const std::string format = requestedAt.known() ? std::string() : context.options.format;
  PluginHandle plugin = format.empty() ? registry.formatFor(path, content.substr(0, kSniffBytes)) : registry.findByName(format);
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
  // What the plugin may ask of this load: URIs, the include service, the hardware catalogs.
  struct CallContext {
    const Impl* self;
    Context* context;
    std::string format;
  } call{this, &context, plugin.info().name};
  plugin::HostServices host;
  host.context = &call;
  host.resolveUri = [](const void* ctx, const std::string& uri, const std::string& fromFile) -> std::string {
    const auto* c = static_cast<const CallContext*>(ctx);
    return c->self->resolveUri(uri, fromFile, *c->context);
  };
  host.beginInclude = [](const void* ctx, const std::string& uri, const std::string& fromFile, const SourceLocation& where,
                         plugin::IncludedFile& file, Diagnostics& diagnostics) -> bool {
    const auto* c = static_cast<const CallContext*>(ctx);
    Context& load = *c->context;
    auto resolved = c->self->beginInclude(uri, fromFile, c->format, where, diagnostics, load);
    const std::string* bytes = resolved ? c->self->readFile(*resolved, where, diagnostics, load) : nullptr;
    if (resolved && !bytes) load.includeStack.pop_back();
    if (!bytes) return false;
    file.path = *resolved;
    file.content = *bytes;
    return true;
  };
  host.endInclude = [](const void* ctx) {
    auto& stack = static_cast<const CallContext*>(ctx)->context->includeStack;
    if (stack.size() > 1) stack.pop_back();
  };
  host.hardware = &context.hardware;
  host.checkPath = [](const void* ctx, const std::string& file) -> std::string {
    return static_cast<const CallContext*>(ctx)->context->pathPolicy.refusal(file);
  };
  host.meshBudget = &context.meshBudget;
  plugin::LoadRequest request;
  request.path = path;
  request.content = content;
  request.host = &host;
  host.arguments = &context.options.arguments;
  Document document;
  const std::size_t diagnosticsBefore = context.diagnostics.size();
  PluginHandle reader = plugin;  // a macro language's file is read by the plugin of its expansion
  if (plugin.expands()) {
    detail::ExpansionResult expansion = detail::expandThenLoad(registry, plugin, request, document, context.diagnostics);
    if (!expansion.reader) return std::nullopt;
    reader = expansion.reader;
    if (!requestedAt.known()) {
      context.expandedText = std::move(expansion.text);
      context.expandedExtension = expansion.extension;
    }
  } else {
    plugin.load(request, document, context.diagnostics);
  }
  if (context.options.strict) refuseTolerated(context.diagnostics, diagnosticsBefore);
  if (document.sourceFile.empty()) document.sourceFile = path;
  if (document.format.empty()) document.format = reader.info().name;
  const ModelSource source{path, reader.info().name, document.formatVersion, false};
  const std::shared_ptr<const void> keepAlive = reader.keepAlive();
  if (document.model) stampSource(*document.model, source, keepAlive);
  for (World& world : document.worlds) {
    for (Model& m : world.models) stampSource(m, source, keepAlive);
  }
  return document;
}

Model Loader::Impl::fromInterfaceModel(const InterfaceModel& im, const std::string& modelScopedName, const std::string& file,
                                       Context& context, const std::shared_ptr<const InterfaceModel>& owner,
                                       const SourceLocation& where) const {
  Model m;
  m.name = im.Name();
  m.isStatic = im.Static();
  m.canonicalLink = im.CanonicalLinkName();
  m.pose.pose = im.ModelFramePoseInParentFrame();
  m.source = ModelSource{file, "interface", "", true};
  m.where = where;
  for (const auto& link : im.Links()) {
    Link& l = m.links.emplace_back();
    std::tie(l.name, l.pose.pose, l.where) = std::make_tuple(link.Name(), link.PoseInModelFrame(), where);
  }
  for (const auto& frame : im.Frames()) {
    Frame& f = m.frames.emplace_back();
    std::tie(f.name, f.pose.pose, f.where) = std::make_tuple(frame.Name(), frame.PoseInAttachedToFrame(), where);
    if (frame.AttachedTo() != "__model__") f.attachedTo = frame.AttachedTo();
  }
  for (const auto& joint : im.Joints()) {
    Joint& j = m.joints.emplace_back();
    std::tie(j.name, j.child, j.pose.pose, j.where) =
        std::make_tuple(joint.Name(), joint.ChildName(), joint.PoseInChildFrame(), where);
  }
  // The reposture callback keeps its InterfaceModel (and whatever it captured) alive until it ran.
  if (im.Reposture()) context.repostures.push_back({modelScopedName, im.Reposture(), owner, where});
  for (const auto& nested : im.NestedModels()) {
    if (!nested) continue;
    m.models.push_back(fromInterfaceModel(*nested, interlink::scopedName(modelScopedName, nested->Name()), file, context, nested, where));
  }
  return m;
}

std::optional<Loader::Impl::IncludedContent> Loader::Impl::askHostParsers(const Include& include, const std::string& resolved,
                                                                        const std::string& parentScopedName, bool& answered,
                                                                        Context& context) const {
  answered = false;
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
    if (parserDiagnostics.hasErrors()) {  // the contract: errors end the search
      answered = true;
      return std::nullopt;
    }
    if (!model) continue;
    answered = true;
    IncludedContent content;
    content.model = fromInterfaceModel(*model, scopedName(parentScopedName, include.name.value_or(model->Name())),
                                       resolved, context, model, include.where);
    return content;
  }
  return std::nullopt;
}

std::optional<Loader::Impl::IncludedContent> Loader::Impl::loadIncludedModel(const Include& include, const std::string& resolved,
                                                                           const std::string& includerFormat,
                                                                           const std::string& parentScopedName,
                                                                           Context& context) const {
  // 1. A file of the including file's own format is read by its plugin; host parsers are asked
  //    only for other files (libsdformat asks its custom parsers for non-SDFormat files).
  const PluginHandle target = registry.formatFor(resolved);
  const bool sameFormat = target && target.info().name == includerFormat;
  // 2. Otherwise host parsers, newest first.
  if (!sameFormat && !customParsers.empty()) {
    bool answered = false;
    auto content = askHostParsers(include, resolved, parentScopedName, answered, context);
    if (answered) return content;
  }
  // 3. Format plugins by extension.
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
  if (document->worlds.size() == 1 && document->format != includerFormat) {
    // A format whose files are worlds (e.g. one robot in its environment): include the world's
    // content as one model named after the file.
    World& world = document->worlds.front();
    if (world.models.size() == 1 && world.frames.empty() && world.includes.empty()) {
      content.model = std::move(world.models.front());
      return content;
    }
    Model wrapper;
    wrapper.name = fs::path(resolved).stem().string();
    wrapper.models = std::move(world.models);
    wrapper.includes = std::move(world.includes);
    wrapper.frames = std::move(world.frames);
    wrapper.joints = std::move(world.joints);
    wrapper.source = ModelSource{resolved, document->format, document->formatVersion, false};
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

std::optional<Model> Loader::Impl::resolveInclude(const Include& include, const ModelSource& includer,
                                                  const std::string& parentScopedName, std::vector<Light>& lights,
                                                  std::vector<KeptElement>& kept, Context& context) const {
  auto resolved = beginInclude(include.uri, includer.file, includer.format, include.where, context.diagnostics, context);
  if (!resolved) return std::nullopt;
  struct Leave {
    std::vector<std::string>& stack;
    ~Leave() { stack.pop_back(); }
  } leave{context.includeStack};
  if (include.placementFrame && !include.pose) {
    context.diagnostics.error(ErrorCode::MODEL_PLACEMENT_FRAME_INVALID,
                              "<placement_frame> requires a <pose> in the same <include>", include.where);
    return std::nullopt;
  }
  auto content = loadIncludedModel(include, *resolved, includer.format, parentScopedName, context);
  if (!content) return std::nullopt;
  if (!content->model) {
    for (Light& light : content->lights) {
      if (include.name) light.name = *include.name;
      if (include.pose) light.pose = *include.pose;
      lights.push_back(std::move(light));
    }
    for (KeptElement& element : content->kept) {
      // An included actor keeps //include/name, as libsdformat applies it (two includes of one
      // actor file are two actors).
      if (include.name && element.element.name == "actor") {
        bool named = false;
        for (auto& [key, value] : element.element.attributes) {
          if (key == "name") value = *include.name, named = true;
        }
        if (!named) element.element.attributes.emplace_back("name", *include.name);
      }
      kept.push_back(std::move(element));
    }
    return std::nullopt;
  }
  Model& model = *content->model;
  if (!countElements(model, include.where, context)) return std::nullopt;
  // The framework applies //include/name, //include/static and //include/pose for every include
  // (host parsers included: the values it set are overridden only when the <include> gives them).
  if (include.name) model.name = *include.name;
  addIncludeElements(include, model);
  if (include.pose) model.pose = *include.pose;
  if (include.placementFrame) model.placementFrame = *include.placementFrame;
  model.where = include.where;
  if (!model.source.fromInterfaceModel) {
    composeModel(model, scopedName(parentScopedName, model.name), context);
  }
  applyIncludeStatic(include, model, context.diagnostics);  // after composing: it reaches the models it includes
  return std::move(model);
}

void Loader::Impl::composeScope(std::vector<Model>& models, std::vector<Include>& includes, const ModelSource& includer,
                                const std::string& scopeName, std::vector<Light>& lights, std::vector<KeptElement>& kept,
                                std::vector<Model>* merged, Context& context) const {
  // Models and includes in document order: an include's model goes where the include was.
  std::vector<Model> declared = std::move(models);
  std::vector<Include> pending = std::move(includes);
  models.clear();
  includes.clear();
  std::stable_sort(pending.begin(), pending.end(), [](const Include& a, const Include& b) { return a.position < b.position; });
  models.reserve(declared.size() + pending.size());
  std::size_t next = 0;
  auto includesUpTo = [&](std::size_t position) {
    for (; next < pending.size() && pending[next].position <= position; ++next) {
      const Include& include = pending[next];
      if (include.merge && !merged) {
        context.diagnostics.error(ErrorCode::MERGE_INCLUDE_UNSUPPORTED,
                                  "merge-include is only allowed inside a model, not directly in a world", include.where);
        continue;
      }
      const std::size_t errorsBefore = context.diagnostics.errorCount();
      auto included = resolveInclude(include, includer, scopeName, lights, kept, context);
      if (included) {
        (include.merge ? *merged : models).push_back(std::move(*included));
      } else if (context.diagnostics.errorCount() > errorsBefore) {
        ++context.failedIncludes;
      }
    }
  };
  for (std::size_t i = 0; i < declared.size(); ++i) {
    includesUpTo(i);
    composeModel(declared[i], scopedName(scopeName, declared[i].name), context);
    models.push_back(std::move(declared[i]));
  }
  includesUpTo(static_cast<std::size_t>(-1));
}

void Loader::Impl::composeModel(Model& model, const std::string& modelScopedName, Context& context) const {
  std::vector<Model> merged;
  const std::size_t failedBefore = context.failedIncludes;
  composeScope(model.models, model.includes, model.source, modelScopedName, model.lights, model.kept, &merged, context);
  if (context.failedIncludes > failedBefore) context.modelsMissingIncludes.push_back(model.where);
  for (Model& m : merged) mergeInto(model, std::move(m), context.diagnostics);
}

void Loader::Impl::composeWorld(World& world, const ModelSource& worldSource, Context& context) const {
  composeScope(world.models, world.includes, worldSource, "", world.lights, world.kept, nullptr, context);
}

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
  context.includeStack.push_back(fs::canonical(absolute, ec).string());
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
  context.includeStack.push_back(fs::canonical(base, ec).string());
  Impl::setPathPolicy(context, base);  // the including file stands for the top level
  // The include is read as the including file's format would read it (model directories, host
  // parsers for other formats): that format is the one claiming the including file's extension.
  const PluginHandle includer = impl_->registry.formatFor(base);
  const ModelSource source{base, includer ? includer.info().name : std::string(), "", false};
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
  result.document.model = std::move(*model);
  impl_->resolve(result, context);
  impl_->check(result, context);
  return result;
}

void Loader::Impl::finish(LoadResult& result, const std::string& absolute, Context& context) const {
  // The include step: every Include record becomes the model it names.
  if (result.document.model) composeModel(*result.document.model, result.document.model->name, context);
  const ModelSource worldSource{absolute, result.document.format, result.document.formatVersion, false};
  for (World& world : result.document.worlds) composeWorld(world, worldSource, context);
  detail::resolveMeshes(result.document,
                        {[&](const std::string& uri, const std::string& from) { return resolveUri(uri, from, context); },
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
