// interlink: check, print frames and trees of robot models in any registered format.
// Arguments are parsed by CLI11 (so `--opt=value`, `-Ivalue` and `--` work as everywhere else);
// the usage texts are our own, kept beside each command.
#include <CLI/CLI.hpp>

#include <cstring>
#include <iostream>
#include <map>
#include <string>

#include "Commands.hpp"

namespace {

using namespace interlink::cli;

const char* const kUsage =
    "usage: interlink <command> [options]\n"
    "\n"
    "commands:\n"
    "  check FILE|DIR|-...  run every parsing phase; print diagnostics (text, json or sarif)\n"
    "  frames FILE          print every named frame with its resolved pose\n"
    "  tree FILE            draw the kinematic tree and print the DOF order\n"
    "  plugins              list plugins and refused libraries\n"
    "  hardware             list actuator families and component types\n"
    "  convert IN -o OUT    write IN as SDFormat 1.9 (.sdf), URDF (.urdf) or the JSON core model (.json)\n"
    "  graph IN -o OUT      draw the frame graph with Graphviz (.dot, .svg, .png, .pdf, ...)\n"
    "\n"
    "options:\n"
    "  --help               help for a command (interlink <command> --help)\n"
    "  --version            print the version\n"
    "\n"
    "FILE may be '-' (standard input); --from NAME chooses the format plugin. See interlink(1).\n"
    "exit status: 0 valid, 1 invalid input, 2 usage or I/O error\n";

const std::map<std::string, const char*> kCommandUsage = {
    {"check", kCheckUsage},     {"frames", kFramesUsage},   {"tree", kTreeUsage},   {"plugins", kPluginsUsage},
    {"hardware", kHardwareUsage}, {"convert", kConvertUsage}, {"graph", kGraphUsage}};

/// -I DIR, --from NAME, -v and --strict, on every command that loads a model. One value per occurrence, so
/// `-I a file.sdf` does not take the file as a second directory.
void addInputOptions(CLI::App& command, InputOptions& input) {
  command.add_option("-I,--resource-path", input.resourcePaths)->allow_extra_args(false);
  command.add_flag("--allow-paths-outside-roots", input.allowPathsOutsideRoots);
  command.add_option("--from", input.from);
  command.add_flag("-v,--verbose", input.verbose);
  command.add_flag("--strict", input.strict);
}

/// A subcommand whose --help is ours (handled before parsing).
CLI::App* subcommand(CLI::App& app, const char* name) {
  CLI::App* command = app.add_subcommand(name);
  command->set_help_flag();
  return command;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (first == "--version") {
    std::cout << "interlink " << INTERLINK_VERSION_STRING << "\n";
    return 0;
  }
  auto usage = kCommandUsage.find(first);
  if (usage == kCommandUsage.end()) {
    std::cerr << "interlink: unknown command '" << first << "'\n\n" << kUsage;
    return 2;
  }
  for (int i = 2; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::cout << usage->second;
      return 0;
    }
  }

  CLI::App app{"interlink", "interlink"};
  app.set_help_flag();
  app.require_subcommand(1);
  int status = 2;

  CheckOptions check;
  auto* checkCommand = subcommand(app, "check");
  checkCommand->add_option("inputs", check.inputs)->required();
  addInputOptions(*checkCommand, check.input);
  checkCommand->add_option("--format", check.format)->check(CLI::IsMember({"text", "json", "sarif"}));
  checkCommand->add_flag("-q,--quiet", check.quiet);
  checkCommand->add_flag("--werror", check.werror);
  checkCommand->add_option("--ignore", check.ignore)->allow_extra_args(false);
  checkCommand->add_option("--only", check.only)->allow_extra_args(false);
  checkCommand->add_option("-j,--jobs", check.jobs)->check(CLI::Range(1u, 256u));
  checkCommand->callback([&] { status = runCheck(check); });

  FramesOptions frames;
  auto* framesCommand = subcommand(app, "frames");
  framesCommand->add_option("file", frames.file)->required();
  addInputOptions(*framesCommand, frames.input);
  framesCommand->add_option("--positions", frames.positions);
  framesCommand->add_option("--relative-to", frames.relativeTo);
  framesCommand->add_flag("--json", frames.json);
  framesCommand->add_option("--world", frames.input.world);
  framesCommand->callback([&] { status = runFrames(frames); });

  TreeOptions tree;
  auto* treeCommand = subcommand(app, "tree");
  treeCommand->add_option("file", tree.file)->required();
  addInputOptions(*treeCommand, tree.input);
  treeCommand->add_option("--world", tree.input.world);
  treeCommand->callback([&] { status = runTree(tree); });

  subcommand(app, "plugins")->callback([&] { status = runPlugins(); });
  subcommand(app, "hardware")->callback([&] { status = runHardware(); });

  ConvertOptions convert;
  auto* convertCommand = subcommand(app, "convert");
  convertCommand->add_option("file", convert.file)->required();
  addInputOptions(*convertCommand, convert.input);
  convertCommand->add_option("-o,--output", convert.output)->required();
  convertCommand->add_option("--to", convert.to);
  convertCommand->callback([&] { status = runConvert(convert); });

  GraphOptions graph;
  auto* graphCommand = subcommand(app, "graph");
  graphCommand->add_option("file", graph.file)->required();
  addInputOptions(*graphCommand, graph.input);
  graphCommand->add_option("-o,--output", graph.output);
  graphCommand->add_flag("--tree", graph.treeOnly);
  graphCommand->add_flag("--no-poses", graph.withoutPoses);
  graphCommand->callback([&] { status = runGraph(graph); });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return usageError(e.what(), usage->second);
  } catch (const std::exception& e) {
    std::cerr << "interlink: internal error: " << e.what() << "\n";
    return 2;
  }
  return status;
}
