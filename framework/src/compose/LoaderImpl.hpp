#pragma once
// The loader's internals, shared by its parts: the include service (IncludeService.cpp: one
// policy for every format's includes, reading and parsing one file), the composition
// (Composition.cpp: Include records become models), the host parsers (HostParsers.cpp:
// CustomModelParser and InterfaceModel) and the load itself (Loader.cpp).
#include "interlink/Loader.hpp"

#include "check/InertiaCheck.hpp"
#include "check/MeshCheck.hpp"
#include "check/ResolutionCheck.hpp"
#include "check/WarningGroups.hpp"
#include "compose/Expansion.hpp"
#include "compose/ResourceLookup.hpp"
#include "compose/FileNamesAsGiven.hpp"
#include "io/FileContentCache.hpp"
#include "io/PathPolicy.hpp"
#include "util/PathText.hpp"

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
#include "interlink/model/Names.hpp"

namespace interlink {
namespace detail {

/// A reposture callback to run once the graphs are resolved.
struct PendingReposture {
  std::string scopedName;
  RepostureFunction function;
  std::shared_ptr<const InterfaceModel> owner;  // keeps the callback's captures alive
  SourceLocation where;
};

/// Elements a model brings, nested models included (counted once when an include is resolved).
std::uint64_t elementCount(const Model& model);

}  // namespace detail

// ---------------------------------------------------------------------------------------------
struct Loader::Impl {
  PluginRegistry registry;
  std::vector<CustomModelParser> customParsers;
  // The hardware registry, rebuilt when plugins were added since (hosts may discover more).
  mutable std::mutex hardwareMutex;
  mutable hardware::HardwareRegistry hardwareRegistry;
  mutable std::size_t hardwareBuiltFor = static_cast<std::size_t>(-1);
  /// Small files read by earlier loads, served again while unchanged (io/FileContentCache.hpp).
  mutable io::FileContentCache fileCache;

  struct Context {
    const LoadOptions& options;
    Diagnostics& diagnostics;
    std::vector<std::string> includeStack;  // canonical paths being loaded, outermost first
    std::vector<detail::PendingReposture> repostures;
    detail::ResourceSearchPath searchPath;
    /// Bytes of every file read in this load: its own buffers, or copies fileCache kept.
    std::map<std::string, io::FileText> files;
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
  std::optional<std::string_view> readFile(const std::string& path, const SourceLocation& requestedAt,
                                           Diagnostics& diagnostics, Context& context) const;

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
    const std::string ext = std::filesystem::path(path).extension().string();
    std::string claimants;
    for (const std::string& name : registry.claimantsOf(path)) claimants += (claimants.empty() ? "" : ", ") + name;
    // Plugins that claim the extension but declined this content are named as such, never as
    // candidates for it.
    const std::string message =
        claimants.empty() ? "no parser for '" + (ext.empty() ? std::string("(no extension)") : ext) +
                                "'; loaded plugins: " + registry.describeFormats()
                          : "no plugin recognises this file: " + claimants + " (claiming '" + ext +
                                "') declined its content and no other plugin's sniffer accepted it; name the "
                                "format (LoadOptions::format) to choose one";
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
    if (!topLevelFile.empty()) roots.push_back(std::filesystem::path(topLevelFile).parent_path().string());
    for (auto& dir : context.searchPath.allDirectories()) roots.push_back(std::move(dir));
    context.pathPolicy = detail::PathPolicy::confinedTo(roots);
  }
  /// The canonical form of `path` (symbolic links resolved; missing trailing parts kept as
  /// written), or "" when the file system cannot say; remembered for the load.
  static const std::string& canonicalOf(const std::string& path, const Context& context) {
    auto [known, inserted] = context.canonicalPaths.try_emplace(path);
    std::string& canonical = known->second;  // stays valid when the recursion below rehashes the map
    if (!inserted || path.empty()) return canonical;
    // As text (util/PathText.hpp): std::filesystem's path objects cost more than the system calls.
    const std::string absolute = detail::absolutePath(path);
    // A name that is not a link is its directory's canonical form and the name: one lstat where
    // resolving the whole path asks the file system about every component again (eight calls for
    // each file of a ROS package, for each of the many files that a xacro description or a world
    // includes from the same few directories). Directories are remembered for the load.
    const std::string_view name = detail::fileNameOf(absolute);
    if (!name.empty() && name != "." && name != ".." && absolute.front() == '/') {
      if (detail::isLinkFree(absolute)) {
        const std::string& directory = canonicalOf(std::string(detail::parentPath(absolute)), context);
        if (!directory.empty()) {
          canonical = detail::joinPath(directory, name);
          return canonical;
        }
      }
    }
    std::error_code ec;
    const std::filesystem::path resolved = std::filesystem::weakly_canonical(absolute, ec);
    if (!ec) canonical = resolved.string();
    return canonical;
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
    context.includedElements += detail::elementCount(model);
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

}  // namespace interlink
