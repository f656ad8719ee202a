// `interlink view`: the model in a browser, as one self-contained HTML file or served live. The
// work is done by libinterlink_view, opened here only when the command runs: Assimp, the HTTP
// server and the page's assets would otherwise add to the start-up of every other command.
#include <dlfcn.h>

#include <filesystem>
#include <iostream>
#include <string>

#include "Commands.hpp"

namespace interlink::cli {

const char* const kViewUsage =
    "usage: interlink view FILE [-o OUT.html] [--port N] [--open] [--world NAME] [-I DIR] [--from NAME]\n"
    "                      [--arg NAME:=VALUE]...\n"
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
    "  --open        start the desktop's browser on the URL (xdg-open)\n"
    "  --arg NAME:=VALUE  an argument of a xacro file ($(arg NAME); repeatable, docs/xacro.md)\n";

int runView(const ViewOptions& options) {
  // Beside the command as the build tree and the install lay it out (bin/ and the library
  // directory), by its full path: a run path is not searched when a sanitizer's runtime intercepts
  // dlopen (the caller is then the runtime). Else the command's run path ($ORIGIN/../lib).
  void* library = nullptr;
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    for (const char* relative : {INTERLINK_VIEW_LIBRARY_RELATIVE, "../lib/libinterlink_view.so"}) {
      const std::filesystem::path candidate = self.parent_path() / relative;
      if (std::filesystem::is_regular_file(candidate, error)) {
        library = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (library) break;
      }
    }
  }
  if (!library) library = ::dlopen("libinterlink_view.so", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::cerr << "interlink view: cannot load libinterlink_view.so: " << ::dlerror() << "\n";
    return 2;
  }
  using Run = int (*)(const ViewOptions*);
  auto run = reinterpret_cast<Run>(::dlsym(library, "interlink_view_run"));
  if (!run) {
    std::cerr << "interlink view: libinterlink_view.so has no interlink_view_run\n";
    return 2;
  }
  return run(&options);  // the library stays loaded until the process ends
}

}  // namespace interlink::cli
