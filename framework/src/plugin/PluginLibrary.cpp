// Opening and checking one plugin library: see PluginLibrary.hpp.
#include "plugin/PluginLibrary.hpp"

#include <sys/stat.h>

#include <cstdio>

#include "interlink/plugin/HardwareApi.hpp"
#include "plugin/ElfCheck.hpp"

namespace interlink::detail {

namespace {

std::string asciiLower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

/// Checks a descriptor; returns the reason it is not acceptable, or empty when it is.
std::string validate(const plugin::PluginDescriptor* d) {
  using namespace plugin;
  if (!d) return "its entry point returned no descriptor";
  if (d->apiVersion != kApiVersion)
    return "built for plugin API version " + std::to_string(d->apiVersion) + ", this host speaks version " +
           std::to_string(kApiVersion);
  if (d->descriptorSize != sizeof(PluginDescriptor) || d->descriptorAlign != alignof(PluginDescriptor))
    return "descriptor size/alignment " + std::to_string(d->descriptorSize) + "/" + std::to_string(d->descriptorAlign) +
           " does not match the host's " + std::to_string(sizeof(PluginDescriptor)) + "/" +
           std::to_string(alignof(PluginDescriptor)) + " (built against other headers)";
  if (d->modelAbi != modelAbiFingerprint())
    return "built against model headers with another layout (fingerprint mismatch); rebuild the plugin";
  if (!d->name || !*d->name) return "its descriptor has no name";
  if (!d->version) return "its descriptor has no version";
  if (d->kind == PluginKind::Format) {
    if (!d->format) return "a format plugin without a format table";
    // Fields are appended to the format table: a table from before `expand` is still whole.
    if (d->format->size != sizeof(FormatApi) && d->format->size != plugin::kFormatApiSizeWithoutExpand) {
      return "its format table has the wrong size";
    }
    if (!d->format->load && !plugin::formatHasExpand(d->format)) return "its format table has no load function";
    if (!d->format->extensions || !d->format->extensions[0]) return "a format plugin that claims no file extension";
    for (const char* const* e = d->format->extensions; *e; ++e) {
      if ((*e)[0] != '.' || (*e)[1] == '\0') return std::string("invalid extension '") + *e + "' (expected '.ext')";
    }
  } else if (d->kind == PluginKind::Hardware) {
    if (!d->hardware) return "a hardware plugin without a hardware table";
    // Checked at discovery so that `interlink plugins` lists such a plugin as refused.
    if (d->hardware->size != sizeof(HardwareApi)) return "its hardware table has the wrong size (built against other headers)";
    if (d->hardware->catalogAbi != hardware::catalogAbiFingerprint())
      return "built against other catalog headers (catalog fingerprint mismatch); rebuild the plugin";
    if (!d->hardware->entryCount || !d->hardware->entryAt || !d->hardware->evaluate)
      return "its hardware table lacks a required function (entryCount, entryAt, evaluate)";
  } else {
    return "unknown plugin kind " + std::to_string(static_cast<std::uint32_t>(d->kind));
  }
  return {};
}

}  // namespace

std::string writableByOthers(const std::string& path, const char* what) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0 || (status.st_mode & S_IWOTH) == 0) return {};
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
  return std::string("not trusted: the ") + what + " is writable by every user (mode " + mode +
         "), so anyone could place code in it; make it writable by its owner only (chmod o-w)";
}

OpenedLibrary openPluginLibrary(const std::string& path) {
  if (std::string why = writableByOthers(path, "library"); !why.empty()) return {nullptr, ErrorCode::PLUGIN_REFUSED, why};
  // A truncated or non-ELF file would crash or confuse dlopen: check the headers first.
  if (std::string why = checkSharedLibraryFile(path); !why.empty()) return {nullptr, ErrorCode::PLUGIN_LOAD, why};
  std::error_code ec;
  auto library = std::make_shared<boost::dll::shared_library>();
  library->load(path, boost::dll::load_mode::rtld_lazy | boost::dll::load_mode::rtld_local, ec);
  if (ec) return {nullptr, ErrorCode::PLUGIN_LOAD, "cannot open library: " + ec.message()};
  if (!library->has(plugin::kEntryPointName)) {
    return {nullptr, ErrorCode::PLUGIN_REFUSED,
            std::string("not an Interlink plugin: no exported entry point '") + plugin::kEntryPointName + "'"};
  }
  const plugin::PluginDescriptor* descriptor = nullptr;
  try {
    auto& entry = library->get<interlink_plugin_descriptor_fn>(plugin::kEntryPointName);
    descriptor = entry();
  } catch (const std::exception& e) {
    return {nullptr, ErrorCode::PLUGIN_EXCEPTION, std::string("its entry point threw: ") + e.what()};
  } catch (...) {
    return {nullptr, ErrorCode::PLUGIN_EXCEPTION, "its entry point threw an unknown exception"};
  }
  if (std::string why = validate(descriptor); !why.empty()) return {nullptr, ErrorCode::PLUGIN_REFUSED, why};
  auto loaded = std::make_shared<LoadedPlugin>();
  loaded->library = std::move(library);
  loaded->descriptor = descriptor;
  loaded->info.name = descriptor->name;
  loaded->info.version = descriptor->version;
  loaded->info.kind = descriptor->kind;
  loaded->info.path = path;
  if (descriptor->kind == plugin::PluginKind::Format) {
    for (const char* const* e = descriptor->format->extensions; *e; ++e) loaded->info.extensions.push_back(asciiLower(*e));
    loaded->info.hasSniffer = descriptor->format->sniff != nullptr;
  }
  return {loaded, ErrorCode::NONE, {}};
}

}  // namespace interlink::detail
