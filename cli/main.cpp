// interlink: check, print frames and trees of robot models in any registered format.
#include <iostream>
#include <string>
#include <vector>

#include "Commands.hpp"

namespace {

const char* kUsage =
    "usage: interlink <command> [options]\n"
    "\n"
    "commands:\n"
    "  check FILE...        run every parsing phase; print diagnostics (exit 0 valid, 1 invalid)\n"
    "  frames FILE          print every named frame with its resolved pose\n"
    "  tree FILE            print the kinematic tree and the DOF order\n"
    "  plugins              list loaded plugins and refused libraries\n"
    "  hardware             list actuator families and component types\n"
    "  convert IN -o OUT    write IN as SDFormat 1.9 (.sdf), URDF (.urdf) or the JSON core model (.json)\n"
    "  graph IN -o OUT      draw the frame graph as Graphviz .dot, .svg or .png\n"
    "\n"
    "options:\n"
    "  --help               help for a command (interlink <command> --help)\n"
    "  --version            print the version\n"
    "\n"
    "exit status: 0 valid, 1 invalid input, 2 usage or I/O error\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << "interlink " << INTERLINK_VERSION_STRING << "\n";
    return 0;
  }
  try {
    if (command == "check") return interlink::cli::runCheck(args);
    if (command == "frames") return interlink::cli::runFrames(args);
    if (command == "tree") return interlink::cli::runTree(args);
    if (command == "plugins") return interlink::cli::runPlugins(args);
    if (command == "hardware") return interlink::cli::runHardware(args);
    if (command == "convert") return interlink::cli::runConvert(args);
    if (command == "graph") return interlink::cli::runGraph(args);
  } catch (const std::exception& e) {
    std::cerr << "interlink: internal error: " << e.what() << "\n";
    return 2;
  }
  std::cerr << "interlink: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}
