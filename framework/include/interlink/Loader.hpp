#pragma once
// The host's entry point: load any registered format, resolve includes across formats, run all
// frame-graph phases and return the model with its resolved frames.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/FrameGraph.hpp"
#include "interlink/Kinematics.hpp"
#include "interlink/PluginRegistry.hpp"
#include "interlink/compose/CustomModelParser.hpp"
#include "interlink/model/Document.hpp"

namespace interlink {

struct LoadOptions {
  /// Extra directories for model:// and package:// URIs, searched before INTERLINK_RESOURCE_PATH.
  std::vector<std::string> resourcePaths;
  /// Consulted when a URI is not found by the usual rules (libsdformat's find callback): returns
  /// a path, or an empty string for "not found".
  std::function<std::string(const std::string& uri)> findFile;
  int maxIncludeDepth = 64;
  /// Build the frame graph and run every phase (off: parse and compose only).
  bool resolveFrames = true;
};

struct LoadResult {
  Document document;       // composed: every include replaced by the model it names
  Diagnostics diagnostics;
  FrameGraph graph;
  Kinematics kinematics;
  bool ok() const { return !diagnostics.hasErrors(); }
};

class INTERLINK_API Loader {
 public:
  /// Discovers plugins from the default locations unless told not to.
  explicit Loader(bool discoverPlugins = true);
  ~Loader();
  Loader(const Loader&) = delete;
  Loader& operator=(const Loader&) = delete;

  PluginRegistry& plugins();
  const PluginRegistry& plugins() const;

  /// Host parsers for non-SDFormat includes; asked newest first, before the format plugins.
  void registerCustomModelParser(CustomModelParser parser);

  LoadResult loadFile(const std::string& path, const LoadOptions& options = {}) const;
  /// Loads text as if read from `fileName`: its extension picks the plugin and relative includes
  /// are resolved beside it.
  LoadResult loadString(const std::string& content, const std::string& fileName, const LoadOptions& options = {}) const;
  /// Loads what one <include> names exactly as composition does (URI lookup, model directories,
  /// a world file's content as one model, //include/name and //include/static applied, its own
  /// includes composed) and resolves its frames with that model as the root: `document.model`.
  /// Relative URIs are looked up beside `includingFile`; diagnostics point at `include.where`.
  LoadResult loadInclude(const Include& include, const std::string& includingFile, const LoadOptions& options = {}) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace interlink
