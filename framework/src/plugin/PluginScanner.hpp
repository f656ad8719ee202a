#pragma once
// Runs the plugin scanner (framework/scanner, `interlink-plugin-scanner` beside the core
// library) on libraries discovery does not know, so that their code never runs in the host's
// process during discovery. A library during which the scanner crashes, ends or hangs is refused
// with the reason; the scanner is started again for the libraries after it.
#include <string>
#include <vector>

#include "plugin/PluginRecord.hpp"

namespace interlink::detail {

struct ScannedLibrary {
  LibraryVerdict verdict;
  /// False when the verdict may not hold next time (the scanner was missing or timed out): such
  /// a verdict is not stored in the plugin cache.
  bool lasting = true;
};

/// The scanner executable: <directory of the core library>/interlink/interlink-plugin-scanner.
std::string pluginScannerPath();

/// One verdict per path, in order. Each library may take `secondsPerLibrary` before it is
/// refused as hanging.
std::vector<ScannedLibrary> scanLibraries(const std::vector<std::string>& paths, int secondsPerLibrary = 10);

}  // namespace interlink::detail
