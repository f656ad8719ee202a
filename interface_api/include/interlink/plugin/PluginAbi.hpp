#pragma once
// The binary contract between the Interlink core and a plugin shared library.
//
// A plugin library exports exactly one C symbol, `interlink_plugin_descriptor`, returning a
// pointer to a static PluginDescriptor. The core checks the API version, the descriptor's size and
// alignment and a fingerprint of the model types before it calls anything else, so a plugin built
// against other headers is refused with a reason instead of crashing.
//
// Plugin code must not let an exception escape through these function pointers; Register.hpp
// wraps author code so that it cannot, and the core wraps every call again.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <utility>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Document.hpp"
#include "interlink/plugin/MeshBudget.hpp"
#include "interlink/plugin/Expansion.hpp"

namespace interlink::plugin {

/// Bumped whenever anything in this header or the model types changes incompatibly.
inline constexpr std::uint32_t kApiVersion = 4;

/// The name of the one exported entry point.
inline constexpr const char* kEntryPointName = "interlink_plugin_descriptor";

enum class PluginKind : std::uint32_t { Format = 1, Hardware = 2 };

/// Sizes of the types that cross the boundary, folded into one number. A plugin compiled against
/// different headers (or a different standard library layout) gets a different value.
constexpr std::uint32_t modelAbiFingerprint() {
  std::uint64_t h = 1469598103934665603ull;
  const std::uint64_t sizes[] = {sizeof(Document),   sizeof(World),     sizeof(Model),   sizeof(Link),
                                 sizeof(Joint),      sizeof(JointAxis), sizeof(Frame),   sizeof(Shape),
                                 sizeof(Geometry),   sizeof(Inertial),  sizeof(Include), sizeof(Light),
                                 sizeof(Diagnostic), sizeof(Diagnostics), sizeof(std::string),
                                 alignof(Pose),      sizeof(Extensions), sizeof(ExtensionRecord),
                                 sizeof(ModelSource), sizeof(FormatRules)};
  for (std::uint64_t s : sizes) {
    h ^= s;
    h *= 1099511628211ull;
  }
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

struct HardwareServices;  // defined in interlink/plugin/HardwareServices.hpp

/// A file the include service read for a plugin. `content` stays valid until the plugin's load
/// call returns.
struct IncludedFile {
  std::string path;  // absolute, normalised
  std::string_view content;
};

/// Services the core offers a plugin during a call. Fields are only ever appended; check `size`
/// (hostHas below) before using a field.
struct HostServices {
  std::uint32_t size = sizeof(HostServices);
  const void* context = nullptr;
  /// Resolves a URI (relative path, file://, model://, package://) as seen from `fromFile`.
  /// Returns an empty string when nothing is found.
  std::string (*resolveUri)(const void* context, const std::string& uri, const std::string& fromFile) = nullptr;
  /// The include service, for formats that splice other files into their own records (HRDF's
  /// <include path>). Resolves `uri` from `fromFile` with the loader's rules, applies the load's
  /// depth, cycle, include-count and path policy (LoadOptions) and reads the file with the
  /// loader's checks (the bytes of a file are
  /// read once per load). On success the file is on the load's include stack until endInclude;
  /// on failure it returns false with the reason in `diagnostics` at `where`.
  /// (Formats whose includes name whole models return Include records instead; the core's
  /// include step resolves those through this same service.)
  bool (*beginInclude)(const void* context, const std::string& uri, const std::string& fromFile,
                       const SourceLocation& where, IncludedFile& file, Diagnostics& diagnostics) = nullptr;
  void (*endInclude)(const void* context) = nullptr;
  /// Hardware catalog lookups for formats that name physical components (HRDF); null when the
  /// host has no hardware registry. See interlink/plugin/HardwareServices.hpp.
  const HardwareServices* hardware = nullptr;
  /// Why the file `path` may not be read in this load (it lies outside the directory tree of the
  /// top-level file and the resource paths, see docs/hostile-input.md), or an empty string when it
  /// may. Plugins ask before reading a file a model names that is not an include (meshes, Shift
  /// include directories); the include service applies it itself.
  std::string (*checkPath)(const void* context, const std::string& path) = nullptr;
  /// The load's mesh limits and what it has spent of them (LoadOptions::meshLimits), shared by
  /// every plugin call of one load; read meshes through framework/mesh (MeshReader), which keeps it.
  MeshBudget* meshBudget = nullptr;
  /// Arguments of the load for formats that take them (xacro's `$(arg NAME)`): LoadOptions::arguments
  /// in the order given. Null when the host has none. (Appended in 0.x: check with hostHas.)
  const std::vector<std::pair<std::string, std::string>>* arguments = nullptr;
};

/// True when `host` is new enough to have the field at `offset` (use offsetof).
inline bool hostHas(const HostServices* host, std::size_t offset) {
  return host != nullptr && host->size > offset;
}

/// One file to read. The core has already read its bytes (and refused empty or binary files).
struct LoadRequest {
  std::string path;          // absolute, normalised
  std::string_view content;  // the file's bytes
  const HostServices* host = nullptr;
  /// Given only to a plugin whose table says `readsXmlTree`, for a document a macro language
  /// expanded into a tree (ExpandedDocument::tree): the document already read, `content` empty.
  /// The plugin may move from it.
  xml::XmlElement* tree = nullptr;
};

struct FormatApi {
  std::uint32_t size = sizeof(FormatApi);
  /// Null-terminated list of lower-case extensions with the dot (".sdf", ".world").
  const char* const* extensions = nullptr;
  /// Optional. How sure the plugin is that the file is its format: 0 (not mine) to 100 (certain).
  /// `head` holds the first bytes of the file. Used when two plugins claim one extension.
  int (*sniff)(const char* path, const char* head, std::size_t headSize) = nullptr;
  /// Reads a file into `document`, appending every problem to `diagnostics`.
  void (*load)(const LoadRequest& request, Document& document, Diagnostics& diagnostics) = nullptr;
  /// Optional. Which file an include of a directory means in this format (SDFormat: the newest
  /// <sdf> that model.config names). Returns the file's path, or an empty string after appending
  /// the reason at `where`. Asked of the plugin that read the including file.
  std::string (*modelFileInDirectory)(const std::string& directory, const std::string& uri, const SourceLocation& where,
                                      Diagnostics& diagnostics) = nullptr;
  /// Optional, for a macro language over another format (xacro over URDF). Expands the file into
  /// a document of that format (`expanded.extension`) with the map back to its sources; the
  /// loader passes the text to that format's plugin and maps its findings back. A plugin with
  /// `expand` may leave `load` null. (Appended: a table shorter than this field has no expand.)
  void (*expand)(const LoadRequest& request, ExpandedDocument& expanded, Diagnostics& diagnostics) = nullptr;
  /// `load` takes LoadRequest::tree when it is set (an XML format whose reader starts from the
  /// located tree: INTERLINK_REGISTER_XML_FORMAT_PLUGIN). (Appended in API version 4.)
  bool readsXmlTree = false;
};

/// The size of a format table before `expand` was appended: the smallest the core accepts.
inline constexpr std::size_t kFormatApiSizeWithoutExpand = offsetof(FormatApi, expand);

/// True when `api` takes documents as XML trees (FormatApi::readsXmlTree).
inline bool formatReadsXmlTree(const FormatApi* api) {
  return api != nullptr && api->size >= offsetof(FormatApi, readsXmlTree) + sizeof(api->readsXmlTree) &&
         api->readsXmlTree && api->load != nullptr;
}

/// True when `api` is new enough to have `expand`.
inline bool formatHasExpand(const FormatApi* api) {
  return api != nullptr && api->size >= offsetof(FormatApi, expand) + sizeof(api->expand) && api->expand != nullptr;
}

struct HardwareApi;  // defined in interlink/plugin/HardwareApi.hpp

struct PluginDescriptor {
  std::uint32_t apiVersion = kApiVersion;
  std::uint32_t descriptorSize = sizeof(PluginDescriptor);
  std::uint32_t descriptorAlign = alignof(PluginDescriptor);
  std::uint32_t modelAbi = modelAbiFingerprint();
  const char* name = nullptr;
  const char* version = nullptr;
  PluginKind kind = PluginKind::Format;
  const FormatApi* format = nullptr;      // kind == Format
  const HardwareApi* hardware = nullptr;  // kind == Hardware
};

}  // namespace interlink::plugin

extern "C" {
using interlink_plugin_descriptor_fn = const interlink::plugin::PluginDescriptor* ();
}
