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

template <LoadFunction Load>
void guardedLoad(const LoadRequest& request, Document& document, Diagnostics& diagnostics,
                 const char* pluginName) {
  try {
    Load(request, document, diagnostics);
  } catch (const std::exception& e) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      std::string("plugin '") + pluginName + "' threw while reading the file: " + e.what(),
                      SourceLocation{request.path, 0, 0});
  } catch (...) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      std::string("plugin '") + pluginName + "' threw an unknown exception while reading the file",
                      SourceLocation{request.path, 0, 0});
  }
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
  try {
    Expand(request, expanded, diagnostics);
  } catch (const std::exception& e) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      std::string("plugin '") + pluginName + "' threw while expanding the file: " + e.what(),
                      SourceLocation{request.path, 0, 0});
  } catch (...) {
    diagnostics.error(ErrorCode::PLUGIN_EXCEPTION,
                      std::string("plugin '") + pluginName + "' threw an unknown exception while expanding the file",
                      SourceLocation{request.path, 0, 0});
  }
}

}  // namespace interlink::plugin::detail

#define INTERLINK_REGISTER_FORMAT_PLUGIN(NAME, VERSION, LOAD_FN, SNIFF_FN, ...) \
  INTERLINK_REGISTER_FORMAT_PLUGIN_WITH_DIRECTORIES(NAME, VERSION, LOAD_FN, SNIFF_FN, nullptr, __VA_ARGS__)

/// The same for a format whose includes may name a directory (FormatApi::modelFileInDirectory).
#define INTERLINK_REGISTER_FORMAT_PLUGIN_WITH_DIRECTORIES(NAME, VERSION, LOAD_FN, SNIFF_FN, DIRECTORY_FN, ...) \
  namespace {                                                                                           \
  const char* const interlinkPluginExtensions[] = {__VA_ARGS__, nullptr};                              \
  void interlinkGuardedLoad(const ::interlink::plugin::LoadRequest& r, ::interlink::Document& d,        \
                            ::interlink::Diagnostics& g) {                                              \
    ::interlink::plugin::detail::guardedLoad<LOAD_FN>(r, d, g, NAME);                                   \
  }                                                                                                     \
  ::interlink::plugin::FormatApi makeInterlinkFormatApi() {                                             \
    ::interlink::plugin::FormatApi api;                                                                 \
    api.extensions = interlinkPluginExtensions;                                                         \
    api.load = &interlinkGuardedLoad;                                                                   \
    api.sniff = ::interlink::plugin::detail::guardUnlessNull<SNIFF_FN,                                  \
                                                             &::interlink::plugin::detail::guardedSniff<SNIFF_FN>>(); \
    api.modelFileInDirectory = ::interlink::plugin::detail::guardUnlessNull<                           \
        DIRECTORY_FN, &::interlink::plugin::detail::guardedDirectory<DIRECTORY_FN>>();                 \
    return api;                                                                                         \
  }                                                                                                     \
  const ::interlink::plugin::FormatApi interlinkFormatApi = makeInterlinkFormatApi();                   \
  ::interlink::plugin::PluginDescriptor makeInterlinkDescriptor() {                                     \
    ::interlink::plugin::PluginDescriptor d;                                                            \
    d.name = NAME;                                                                                      \
    d.version = VERSION;                                                                                \
    d.kind = ::interlink::plugin::PluginKind::Format;                                                   \
    d.format = &interlinkFormatApi;                                                                     \
    return d;                                                                                           \
  }                                                                                                     \
  const ::interlink::plugin::PluginDescriptor interlinkDescriptor = makeInterlinkDescriptor();          \
  }                                                                                                     \
  extern "C" INTERLINK_PLUGIN_EXPORT const ::interlink::plugin::PluginDescriptor*                      \
  interlink_plugin_descriptor() {                                                                       \
    return &interlinkDescriptor;                                                                        \
  }

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
    ::interlink::plugin::FormatApi api;                                                                 \
    api.extensions = interlinkPluginExtensions;                                                         \
    api.expand = &interlinkGuardedExpand;                                                               \
    api.sniff = ::interlink::plugin::detail::guardUnlessNull<SNIFF_FN,                                  \
                                                             &::interlink::plugin::detail::guardedSniff<SNIFF_FN>>(); \
    return api;                                                                                         \
  }                                                                                                     \
  const ::interlink::plugin::FormatApi interlinkFormatApi = makeInterlinkFormatApi();                   \
  ::interlink::plugin::PluginDescriptor makeInterlinkDescriptor() {                                     \
    ::interlink::plugin::PluginDescriptor d;                                                            \
    d.name = NAME;                                                                                      \
    d.version = VERSION;                                                                                \
    d.kind = ::interlink::plugin::PluginKind::Format;                                                   \
    d.format = &interlinkFormatApi;                                                                     \
    return d;                                                                                           \
  }                                                                                                     \
  const ::interlink::plugin::PluginDescriptor interlinkDescriptor = makeInterlinkDescriptor();          \
  }                                                                                                     \
  extern "C" INTERLINK_PLUGIN_EXPORT const ::interlink::plugin::PluginDescriptor*                      \
  interlink_plugin_descriptor() {                                                                       \
    return &interlinkDescriptor;                                                                        \
  }
