#pragma once
// The plugin author's side: include this, write a load function, and register it.
//
//   static void loadMyFormat(const interlink::plugin::LoadRequest& request,
//                            interlink::Document& document, interlink::Diagnostics& diagnostics);
//   INTERLINK_REGISTER_FORMAT_PLUGIN("myformat", "1.0.0", loadMyFormat, nullptr, ".my", ".myz")
//
// The macro defines the exported entry point and wraps the load and sniff functions so that an
// exception thrown by author code becomes a PLUGIN_EXCEPTION diagnostic instead of crossing into
// the host.
#include <exception>
#include <cstddef>
#include <string>
#include <type_traits>

#include "interlink/plugin/PluginAbi.hpp"

#if defined(_WIN32)
#define INTERLINK_PLUGIN_EXPORT __declspec(dllexport)
#else
#define INTERLINK_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

namespace interlink::plugin::detail {

using LoadFunction = void (*)(const LoadRequest&, Document&, Diagnostics&);
using SniffFunction = int (*)(const char*, const char*, std::size_t);

/// Runs `step` (the author's load or expand) so that whatever it throws becomes a
/// PLUGIN_EXCEPTION diagnostic saying which plugin threw while `doing` what.
template <typename Step>
void guardedStep(Step&& step, const LoadRequest& request, Diagnostics& diagnostics, const char* pluginName,
                 const char* doing) {
  try {
    step();
  } catch (const std::exception& e) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      std::string("plugin '") + pluginName + "' threw while " + doing + " the file: " + e.what(),
                      SourceLocation{request.path, 0, 0});
  } catch (...) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      std::string("plugin '") + pluginName + "' threw an unknown exception while " + doing + " the file",
                      SourceLocation{request.path, 0, 0});
  }
}

template <LoadFunction Load>
void guardedLoad(const LoadRequest& request, Document& document, Diagnostics& diagnostics, const char* pluginName) {
  guardedStep([&] { Load(request, document, diagnostics); }, request, diagnostics, pluginName, "reading");
}

template <SniffFunction Sniff>
int guardedSniff(const char* path, const char* head, std::size_t size) {
  try {
    return Sniff(path, head, size);
  } catch (...) {
    return 0;  // a sniffer that fails cannot claim the file
  }
}

/// An optional author function: `nullptr` stays null, a function gets its guard `Guarded`.
template <auto Function, auto Guarded>
decltype(Guarded) guardUnlessNull() {
  if constexpr (std::is_same_v<decltype(Function), std::nullptr_t>) {
    return nullptr;
  } else {
    return Guarded;
  }
}

using DirectoryFunction = std::string (*)(const std::string&, const std::string&, const SourceLocation&, Diagnostics&);

template <DirectoryFunction Directory>
std::string guardedDirectory(const std::string& directory, const std::string& uri, const SourceLocation& where,
                             Diagnostics& diagnostics) {
  try {
    return Directory(directory, uri, where, diagnostics);
  } catch (const std::exception& e) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION, std::string("plugin threw while reading directory '") + directory +
                                                       "': " + e.what(), where);
  } catch (...) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION, "plugin threw while reading directory '" + directory + "'", where);
  }
  return {};
}

using ExpandFunction = void (*)(const LoadRequest&, ExpandedDocument&, Diagnostics&);

template <ExpandFunction Expand>
void guardedExpand(const LoadRequest& request, ExpandedDocument& expanded, Diagnostics& diagnostics,
                   const char* pluginName) {
  guardedStep([&] { Expand(request, expanded, diagnostics); }, request, diagnostics, pluginName, "expanding");
}

/// The descriptor of a plugin of `kind` whose table is `format` or `hardware`.
inline PluginDescriptor describePlugin(const char* name, const char* version, PluginKind kind, const FormatApi* format,
                                       const HardwareApi* hardware) {
  PluginDescriptor descriptor;
  descriptor.name = name;
  descriptor.version = version;
  descriptor.kind = kind;
  descriptor.format = format;
  descriptor.hardware = hardware;
  return descriptor;
}
inline PluginDescriptor describePlugin(const char* name, const char* version, const FormatApi* format) {
  return describePlugin(name, version, PluginKind::Format, format, nullptr);
}
inline PluginDescriptor describePlugin(const char* name, const char* version, const HardwareApi* hardware) {
  return describePlugin(name, version, PluginKind::Hardware, nullptr, hardware);
}

/// What every format plugin's table starts from: its extensions and its guarded sniffer.
template <auto Sniff>
FormatApi formatApiWithSniffer(const char* const* extensions) {
  FormatApi api;
  api.extensions = extensions;
  api.sniff = guardUnlessNull<Sniff, &guardedSniff<Sniff>>();
  return api;
}

}  // namespace interlink::plugin::detail

/// The tail every registration macro shares: closes the anonymous namespace the macro opened
/// and exports the descriptor that points at API (a FormatApi or a HardwareApi).
#define INTERLINK_DETAIL_EXPORT_PLUGIN_DESCRIPTOR(NAME, VERSION, API)                                   \
  const ::interlink::plugin::PluginDescriptor interlinkDescriptor =                                     \
      ::interlink::plugin::detail::describePlugin(NAME, VERSION, &API);                                 \
  }                                                                                                     \
  extern "C" INTERLINK_PLUGIN_EXPORT const ::interlink::plugin::PluginDescriptor*                      \
  interlink_plugin_descriptor() {                                                                       \
    return &interlinkDescriptor;                                                                        \
  }

#define INTERLINK_REGISTER_FORMAT_PLUGIN(NAME, VERSION, LOAD_FN, SNIFF_FN, ...) \
  INTERLINK_DETAIL_REGISTER_FORMAT_PLUGIN(NAME, VERSION, LOAD_FN, SNIFF_FN, nullptr, false, __VA_ARGS__)

/// The same for a format whose includes may name a directory (FormatApi::modelFileInDirectory).
#define INTERLINK_REGISTER_FORMAT_PLUGIN_WITH_DIRECTORIES(NAME, VERSION, LOAD_FN, SNIFF_FN, DIRECTORY_FN, ...) \
  INTERLINK_DETAIL_REGISTER_FORMAT_PLUGIN(NAME, VERSION, LOAD_FN, SNIFF_FN, DIRECTORY_FN, false, __VA_ARGS__)

/// The same for an XML format whose LOAD_FN takes LoadRequest::tree when it is set (the document
/// already read as a located tree: a macro language's expansion, FormatApi::readsXmlTree).
#define INTERLINK_REGISTER_XML_FORMAT_PLUGIN(NAME, VERSION, LOAD_FN, SNIFF_FN, ...) \
  INTERLINK_DETAIL_REGISTER_FORMAT_PLUGIN(NAME, VERSION, LOAD_FN, SNIFF_FN, nullptr, true, __VA_ARGS__)

#define INTERLINK_DETAIL_REGISTER_FORMAT_PLUGIN(NAME, VERSION, LOAD_FN, SNIFF_FN, DIRECTORY_FN, READS_TREE, ...) \
  namespace {                                                                                           \
  const char* const interlinkPluginExtensions[] = {__VA_ARGS__, nullptr};                              \
  void interlinkGuardedLoad(const ::interlink::plugin::LoadRequest& r, ::interlink::Document& d,        \
                            ::interlink::Diagnostics& g) {                                              \
    ::interlink::plugin::detail::guardedLoad<LOAD_FN>(r, d, g, NAME);                                   \
  }                                                                                                     \
  ::interlink::plugin::FormatApi makeInterlinkFormatApi() {                                             \
    auto api = ::interlink::plugin::detail::formatApiWithSniffer<SNIFF_FN>(interlinkPluginExtensions);  \
    api.load = &interlinkGuardedLoad;                                                                   \
    api.modelFileInDirectory = ::interlink::plugin::detail::guardUnlessNull<                           \
        DIRECTORY_FN, &::interlink::plugin::detail::guardedDirectory<DIRECTORY_FN>>();                 \
    api.readsXmlTree = READS_TREE;                                                                      \
    return api;                                                                                         \
  }                                                                                                     \
  const ::interlink::plugin::FormatApi interlinkFormatApi = makeInterlinkFormatApi();                   \
  INTERLINK_DETAIL_EXPORT_PLUGIN_DESCRIPTOR(NAME, VERSION, interlinkFormatApi)

/// A macro language over another format (docs/plugin-guide.md, "Macro languages"): EXPAND_FN
/// fills an ExpandedDocument (text of another format with the map back to the sources) and the
/// loader hands the text to the plugin of that format.
///
///   static void expandMyMacros(const interlink::plugin::LoadRequest& request,
///                              interlink::plugin::ExpandedDocument& expanded, interlink::Diagnostics& diagnostics);
///   INTERLINK_REGISTER_EXPANDING_FORMAT_PLUGIN("mymacros", "1.0.0", expandMyMacros, nullptr, ".mym")
#define INTERLINK_REGISTER_EXPANDING_FORMAT_PLUGIN(NAME, VERSION, EXPAND_FN, SNIFF_FN, ...)               \
  namespace {                                                                                           \
  const char* const interlinkPluginExtensions[] = {__VA_ARGS__, nullptr};                              \
  void interlinkGuardedExpand(const ::interlink::plugin::LoadRequest& r,                                \
                              ::interlink::plugin::ExpandedDocument& e, ::interlink::Diagnostics& g) {  \
    ::interlink::plugin::detail::guardedExpand<EXPAND_FN>(r, e, g, NAME);                               \
  }                                                                                                     \
  ::interlink::plugin::FormatApi makeInterlinkFormatApi() {                                             \
    auto api = ::interlink::plugin::detail::formatApiWithSniffer<SNIFF_FN>(interlinkPluginExtensions);  \
    api.expand = &interlinkGuardedExpand;                                                               \
    return api;                                                                                         \
  }                                                                                                     \
  const ::interlink::plugin::FormatApi interlinkFormatApi = makeInterlinkFormatApi();                   \
  INTERLINK_DETAIL_EXPORT_PLUGIN_DESCRIPTOR(NAME, VERSION, interlinkFormatApi)
