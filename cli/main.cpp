// interlink: check, print frames and trees of robot models in any registered format.
// Arguments are parsed by CLI11 (so `--opt=value`, `-Ivalue` and `--` work as everywhere else);
// the usage texts are our own, kept beside each command.
#include <CLI/CLI.hpp>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
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
    "  convert IN -o OUT    write IN as SDFormat 1.9 (.sdf), URDF (.urdf), MJCF (.mjcf) or the JSON core\n"
    "                       model (.json)\n"
    "  graph IN -o OUT      draw the frame graph with Graphviz (.dot, .svg, .png, .pdf, ...)\n"
    "  view FILE [-o OUT]   show the model in a web browser: served live, or one self-contained .html\n"
    "\n"
    "options:\n"
    "  --help               help for a command (interlink <command> --help)\n"
    "  --version            print the version\n"
    "\n"
    "FILE may be '-' (standard input); --from NAME chooses the format plugin. Every command that loads\n"
    "a model takes -I DIR, --from NAME, --strict, -v, --confine (read includes and meshes only from\n"
    "FILE's directory and -I DIRs: for untrusted files) and --arg NAME:=VALUE (xacro). See interlink(1).\n"
    "exit status: 0 valid, 1 invalid input, 2 usage or I/O error\n";

const std::map<std::string, const char*> kCommandUsage = {
    {"check", kCheckUsage},     {"frames", kFramesUsage},   {"tree", kTreeUsage},   {"plugins", kPluginsUsage},
    {"hardware", kHardwareUsage}, {"convert", kConvertUsage}, {"graph", kGraphUsage},
    {"view", kViewUsage}};

/// -I DIR, --from NAME, -v, --strict and --confine, on every command that loads a model. One value per occurrence, so
/// `-I a file.sdf` does not take the file as a second directory.
void addInputOptions(CLI::App& command, InputOptions& input) {
  command.add_option("-I,--resource-path", input.resourcePaths)->allow_extra_args(false);
  command.add_flag("--confine", input.confine);
  command.add_option("--from", input.from);
  command.add_flag("-v,--verbose", input.verbose);
  command.add_flag("--strict", input.strict);
  // Every loading command (the viewer's too) takes xacro arguments, as `xacro file NAME:=VALUE` does.
  command.add_option("--arg", input.arguments)
      ->allow_extra_args(false)
      ->check([](const std::string& text) {
        std::string name, value;
        return splitArgument(text, name, value) ? std::string() : "expected NAME:=VALUE, got '" + text + "'";
      });
}

/// The one FILE of a command that loads a model, and the input options.
void addFileInput(CLI::App& command, std::string& file, InputOptions& input) {
  command.add_option("file", file)->required();
  addInputOptions(command, input);
}

/// Set once a command has finished: until then, an exit or a crash ends the process without a
/// verdict (a plugin that calls exit(0), segfaults or aborts), which must never read as success.
std::atomic<bool> finished{false};

void writeToStderr(const char* text) {
  ssize_t ignored = ::write(2, text, std::strlen(text));
  (void)ignored;
}

/// exit() from plugin code runs this: the status becomes 2 with a reason, whatever it was.
void refuseExitWithoutVerdict() {
  if (finished.load()) return;
  writeToStderr("interlink: error: the process was ended before a verdict (a plugin called exit); "
                "the input was not checked\n");
  ::_exit(2);
}

/// A crash says so before the default action (the signal's exit status, never 0). Only where no
/// handler is installed: the sanitizers' own reports stay theirs.
void reportCrash(int signal) {
  writeToStderr("interlink: error: crashed (a plugin or the host received a fatal signal) before a verdict; "
                "the input was not checked\n");
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

void guardAgainstEndingWithoutVerdict() {
  std::atexit(refuseExitWithoutVerdict);
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    struct sigaction current {};
    if (::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_DFL &&
        (current.sa_flags & SA_SIGINFO) == 0) {
      std::signal(signal, reportCrash);
    }
  }
}

/// Output that could not be written (a full disk, `> /dev/full`) is an I/O error, exit status 2,
/// whatever the verdict: a caller must never take a lost report for a success. stdio reports a
/// failed write only when its buffer is flushed, so flush before deciding.
int withOutputWritten(int status) {
  std::cout.flush();
  const bool outputFailed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  std::cerr.flush();
  const bool errorsFailed = !std::cerr || std::fflush(stderr) != 0 || std::ferror(stderr);
  if (!outputFailed && !errorsFailed) return status;
  if (!errorsFailed) std::cerr << "interlink: error: cannot write standard output (device full?)\n";
  return 2;
}

int run(int argc, char** argv) {
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

  // Only the command named by argv[1] is declared: declaring every command's options cost CLI11 a
  // tenth of the start-up of `interlink check small.urdf` (bench/startup).
  CLI::App app{"interlink", "interlink"};
  app.set_help_flag();
  app.require_subcommand(1);
  CLI::App* command = app.add_subcommand(first);
  command->set_help_flag();
  int status = 2;

  CheckOptions check;
  FramesOptions frames;
  TreeOptions tree;
  ConvertOptions convert;
  GraphOptions graph;
  ViewOptions view;
  if (first == "check") {
    command->add_option("inputs", check.inputs)->required();
    addInputOptions(*command, check.input);
    command->add_option("--format", check.format)->check(CLI::IsMember({"text", "json", "sarif"}));
    command->add_flag("-q,--quiet", check.quiet);
    command->add_flag("--werror", check.werror);
    command->add_flag("--explain", check.input.explain);
    command->add_option("--ignore", check.ignore)->allow_extra_args(false);
    command->add_option("--only", check.only)->allow_extra_args(false);
    command->add_option("--exclude", check.exclude)->allow_extra_args(false);
    command->add_option("-j,--jobs", check.jobs)->check(CLI::Range(1u, 256u));
    command->callback([&] { status = runCheck(check); });
  } else if (first == "frames") {
    addFileInput(*command, frames.file, frames.input);
    command->add_option("--positions", frames.positions);
    command->add_option("--qpos", frames.qpos);
    command->add_option("--relative-to", frames.relativeTo);
    command->add_option("--frame", frames.frame);
    command->add_option("--format", frames.format)->check(CLI::IsMember({"quaternion", "rpy", "matrix"}));
    command->add_flag("--json", frames.json);
    command->add_option("--world", frames.input.world);
    command->callback([&] { status = runFrames(frames); });
  } else if (first == "tree") {
    addFileInput(*command, tree.file, tree.input);
    command->add_option("--world", tree.input.world);
    command->callback([&] { status = runTree(tree); });
  } else if (first == "plugins") {
    command->callback([&] { status = runPlugins(); });
  } else if (first == "hardware") {
    command->callback([&] { status = runHardware(); });
  } else if (first == "convert") {
    addFileInput(*command, convert.file, convert.input);
    command->add_option("-o,--output", convert.output)->required();
    command->add_option("--to", convert.to);
    command->add_option("--mesh-uris", convert.meshUris);
    command->add_flag("--urdf-floating-joint", convert.urdfFloatingJoint);
    command->callback([&] { status = runConvert(convert); });
  } else if (first == "graph") {
    addFileInput(*command, graph.file, graph.input);
    command->add_option("-o,--output", graph.output);
    command->add_flag("--tree", graph.treeOnly);
    command->add_flag("--no-poses", graph.withoutPoses);
    command->callback([&] { status = runGraph(graph); });
  } else if (first == "view") {
    addFileInput(*command, view.file, view.input);
    command->add_option("-o,--output", view.output);
    command->add_option("--port", view.port)->check(CLI::Range(1, 65535));
    command->add_flag("--open", view.open);
    command->add_option("--world", view.input.world);
    command->callback([&] { status = runView(view); });
  }

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

}  // namespace

int main(int argc, char** argv) {
  guardAgainstEndingWithoutVerdict();
  const int status = withOutputWritten(run(argc, argv));
  finished = true;
  return status;
}
