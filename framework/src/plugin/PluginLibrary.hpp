#pragma once
// Opening one plugin library and checking its descriptor: what the host does when a file needs a
// plugin, and what the plugin scanner (framework/scanner) does for a library discovery does not
// know yet. Compiled into both, so it uses nothing else of the core.
#include <memory>
#include <string>

#include <boost/dll/shared_library.hpp>

#include "interlink/ErrorCode.hpp"
#include "interlink/PluginRegistry.hpp"

namespace interlink::detail {

struct LoadedPlugin {
  std::shared_ptr<boost::dll::shared_library> library;
  const plugin::PluginDescriptor* descriptor = nullptr;
  PluginInfo info;
};

/// An opened and accepted library, or the refusal (code and reason).
struct OpenedLibrary {
  std::shared_ptr<LoadedPlugin> plugin;
  ErrorCode code = ErrorCode::NONE;
  std::string reason;
};

/// Why a plugin directory or library may not be trusted, or "": one every user may write to lets
/// anyone place code that the next run of any user executes. `what` names it in the reason.
std::string writableByOthers(const std::string& path, const char* what);

/// Checks the file (trust, ELF headers), opens it in this process (its constructors run), calls
/// its entry point and checks the descriptor.
OpenedLibrary openPluginLibrary(const std::string& path);

}  // namespace interlink::detail
