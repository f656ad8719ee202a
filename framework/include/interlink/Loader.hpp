#pragma once
// The host's entry point: load any registered format, resolve includes across formats, run all
// frame-graph phases and return the model with its resolved frames.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Export.hpp"
#include "interlink/FrameGraph.hpp"
#include "interlink/Kinematics.hpp"
#include "interlink/PluginRegistry.hpp"
#include "interlink/compose/CustomModelParser.hpp"
#include "interlink/io/ModelFile.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/MeshBudget.hpp"

namespace interlink {

namespace hardware {
class HardwareRegistry;
}

struct LoadOptions {
  /// Directories searched for model://, file:// and relative URIs (after the including file's own
  /// directory), before INTERLINK_RESOURCE_PATH, SDF_PATH, GZ_SIM_RESOURCE_PATH and
  /// IGN_GAZEBO_RESOURCE_PATH. Also searched for package:// after the package paths.
  std::vector<std::string> resourcePaths;
  /// Directories holding ROS packages (package://PKG/... is DIR/PKG/...), before ROS_PACKAGE_PATH
  /// and AMENT_PREFIX_PATH (each entry's share/). Search directories are roots of the path policy.
  std::vector<std::string> packagePaths;
  /// Consulted when a URI is not found by the usual rules (libsdformat's find callback): returns
  /// a path, or an empty string for "not found".
  std::function<std::string(const std::string& uri)> findFile;
  int maxIncludeDepth = 64;
  /// Limits that keep every load bounded whatever the input (docs/hostile-input.md).
  /// The largest file read, top level or included.
  std::uint64_t maxFileBytes = io::kDefaultMaxFileBytes;
  /// The most models one load may include, all levels and formats together (SDFormat and HRDF).
  std::uint64_t maxIncludedModels = 10000;
  /// The most elements (links, joints, frames, nested models) included files may bring into one load.
  std::uint64_t maxIncludedElements = 1000000;
  /// Off (the default): includes and meshes are followed wherever the file names them, relative
  /// (`../meshes/x.stl`) or absolute, as every format's reference tool does. On: a file may only
  /// be read from inside the top-level file's directory or a resource or package path (a model
  /// given as text has only the latter); others are refused with one PATH_OUTSIDE_ROOTS
  /// diagnostic per load (an error for includes, a warning for meshes). Files `findFile` names are
  /// the host's choice. Turn it on for files you do not trust (docs/hostile-input.md).
  bool confineToRoots = false;
  /// Mesh files (read by plugins through framework/mesh): files opened, file size, decoded size
  /// per mesh and per load, scene-graph depth (docs/hostile-input.md).
  MeshLimits meshLimits;
  /// Build the frame graph and run every phase (off: parse and compose only).
  bool resolveFrames = true;
  /// Refuse what a format's reader accepts only because its reference tool does: XML that is not
  /// well-formed (XML_SYNTAX) and deviations from the format's document (DEVIATION_TOLERATED,
  /// e.g. URDF's incomplete <inertia>): those warnings become errors (the CLI's --strict).
  bool strict = false;
  /// Keep every warning (the CLI's --verbose); off: repeated warnings of one kind become one.
  bool listEveryWarning = false;
  /// Name of the format plugin that reads the top-level file or string ("sdformat", "hrdf", ...);
  /// empty: chosen by extension and content. Included files are always chosen by their own.
  std::string format;
  /// A file may hold several worlds; every one is checked and resolved, and LoadResult::graph and
  /// ::kinematics hold the one named here (empty: the first).
  std::string world;
  /// Arguments of formats that take them, in order (xacro's `$(arg NAME)`; the CLI's
  /// `--arg NAME:=VALUE`). A later value of one name wins.
  std::vector<std::pair<std::string, std::string>> arguments;
  /// Keep the text a macro language's top-level file expanded into (LoadResult::expandedText;
  /// `interlink convert robot.urdf.xacro -o robot.urdf` writes it). Off: the expansion goes to the
  /// reader of its format as a tree, without being written and parsed again (xacro: a fifth of a
  /// repeated load's instructions), and expandedText stays empty.
  bool keepExpandedText = false;
};

struct LoadResult {
  Document document;       // composed: every include replaced by the model it names (no Include left)
  Diagnostics diagnostics;
  FrameGraph graph;
  Kinematics kinematics;
  /// When the top-level file is in a macro language over another format (xacro over URDF): the
  /// expanded document (with LoadOptions::keepExpandedText) and the extension of its format
  /// (".urdf"); empty otherwise.
  std::string expandedText;
  std::string expandedExtension;
  bool ok() const { return !diagnostics.hasErrors(); }
};

/// Thread safety: `loadFile` and `loadString` are const and keep all state of a load in the call,
/// so several threads may load with one Loader at once (tests/hostile/ConcurrencyTest.cpp).
/// Registering plugins or custom model parsers must happen before, not during, such loads.
class INTERLINK_API Loader {
 public:
  /// Discovers plugins from the default locations unless told not to.
  explicit Loader(bool discoverPlugins = true);
  ~Loader();
  Loader(const Loader&) = delete;
  Loader& operator=(const Loader&) = delete;

  PluginRegistry& plugins();
  const PluginRegistry& plugins() const;

  /// The catalogs of every hardware plugin loaded so far (rebuilt when plugins were added), as
  /// format plugins see them through HostServices::hardware.
  const hardware::HardwareRegistry& hardware() const;

  /// Host parsers for includes of files in another format than the including file's; asked
  /// newest first, before the format plugins.
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
