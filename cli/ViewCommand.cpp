// `interlink view`: the model in a browser, as one self-contained HTML file or served live.
#include <filesystem>
#include <iostream>

#include "Commands.hpp"
#include "view/LiveServer.hpp"
#include "view/ViewPage.hpp"

namespace interlink::cli {

const char* const kViewUsage =
    "usage: interlink view FILE [-o OUT.html] [--port N] [--open] [--world NAME] [-I DIR] [--from NAME]\n"
    "  Shows the model in a web browser: visuals and collisions with their meshes and colours, joint\n"
    "  sliders within the limits (mimic joints follow), frame axes, centres of mass and inertia boxes,\n"
    "  joint axes, the kinematic tree and the load's diagnostics on the elements they name. Poses are\n"
    "  the core's (those of `interlink frames`). See docs/view.md.\n"
    "  -o OUT.html   write one self-contained page (three.js and every mesh inside; it makes no network\n"
    "                request) and exit; a model that fails to load is written with its diagnostics\n"
    "                (exit status 1)\n"
    "  without -o    serve the page on 127.0.0.1 (the URL is printed) and reload it when a file of the\n"
    "                model changes (top-level file, includes, meshes); the page keeps its camera and\n"
    "                joint values, and keeps the last good scene while the model fails to load\n"
    "  --port N      the port to serve on (default: any free port)\n"
    "  --open        start the desktop's browser on the URL (xdg-open)\n";

int runView(const ViewOptions& options) {
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

}  // namespace interlink::cli
