// `interlink view`, the part in libinterlink_view (loaded by the command only when it runs, so that
// Assimp, the HTTP server and the page's 1 MB of assets cost the other commands nothing).
#include <filesystem>
#include <iostream>

#include "Commands.hpp"
#include "view/LiveServer.hpp"
#include "view/ViewPage.hpp"

namespace interlink::cli {

namespace {

int run(const ViewOptions& options) {
  if (options.output.empty()) {
    view::LiveOptions live;
    live.file = options.file;
    live.input = options.input;
    live.port = options.port;
    live.open = options.open;
    return view::serveLive(live);
  }
  const std::string file = displayName(options.file);
  Loader loader;
  LoadResult result = loadInput(loader, options.file, options.input);
  printDiagnostics(result.diagnostics, file);
  if (onlyIoErrors(result.diagnostics, options.file)) return 2;
  const std::string title = std::filesystem::path(file).filename().string();
  const view::ViewScene scene = view::buildViewScene(result, title);
  for (const Diagnostic& d : scene.meshes.diagnostics) std::cerr << formatDiagnostic(d, file, false) << "\n";
  if (!writeOutput(options.output, view::selfContainedPage(scene, title))) return 2;
  return result.ok() ? 0 : 1;
}

}  // namespace

}  // namespace interlink::cli

extern "C" __attribute__((visibility("default"))) int interlink_view_run(const interlink::cli::ViewOptions* options) {
  return interlink::cli::run(*options);
}
