// `interlink graph IN -o OUT.dot|OUT.svg|OUT.pdf|...`: the frame graph drawn with Graphviz.
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <vector>

#include "CommandSupport.hpp"
#include "Commands.hpp"
#include "interlink/Loader.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/convert/Writers.hpp"

extern char** environ;

namespace interlink::cli {

const char* const kGraphUsage =
    "usage: interlink graph IN [-o OUT.dot|OUT.svg|OUT.png|OUT.pdf|...] [--tree] [--no-poses] [-I DIR]\n"
    "                          [--from NAME]\n"
    "  Draws the kinematic tree and the frames of IN: models as clusters, links (boxes), joints\n"
    "  (ellipses), frames (notes); solid edges parent link -> joint -> child link (the first one\n"
    "  labelled with the joint pose in the parent link, as urdf_to_graphviz does), dashed blue\n"
    "  attached-to, dotted grey relative-to, loop closures in red. Without -o the DOT text goes to\n"
    "  standard output; .dot and .gv are written as DOT, any other extension is an output format of\n"
    "  Graphviz's `dot` program (svg, png, pdf, ps, jpg, ...; `dot -T?` lists them), found on PATH.\n"
    "  --tree                    the kinematic tree alone: links and joints, no other frames or edges\n"
    "  --no-poses                no pose labels on the tree edges\n"
    "  -I, --resource-path DIR   search DIR for model:// and package:// URIs (repeatable)\n"
    "  --arg NAME:=VALUE         an argument of a xacro file ($(arg NAME); repeatable, docs/xacro.md)\n"
    "  exit status: 0 written, 1 invalid input, 2 usage or I/O error (also: `dot` missing or failing)\n";

namespace {

int usage(const std::string& message) { return usageError(message, kGraphUsage); }


/// The first executable `name` on PATH, or an empty string.
std::string findOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string entries = path ? path : "";
  std::size_t start = 0;
  while (start <= entries.size()) {
    std::size_t end = entries.find(':', start);
    if (end == std::string::npos) end = entries.size();
    const std::string dir = entries.substr(start, end - start);
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = end + 1;
  }
  return {};
}

/// Runs `dot -T<format> -o output input`; returns its exit status (-1 when it could not start).
int runDot(const std::string& dot, const std::string& format, const std::string& input, const std::string& output) {
  std::vector<std::string> argv = {dot, "-T" + format, "-o", output, input};
  std::vector<char*> pointers;
  for (auto& a : argv) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, dot.c_str(), nullptr, nullptr, pointers.data(), environ) != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

int runGraph(const GraphOptions& options) {
  const std::string& input = options.file;
  const std::string& output = options.output;
  const std::string extension = output.empty() || output == "-" ? ".dot" : extensionOf(output);
  if (extension.size() < 2) return usage("cannot write '" + output + "': give an extension (.dot, .svg, .png, .pdf, ...)");
  const bool rendered = extension != ".dot" && extension != ".gv";
  std::string dot;
  if (rendered) {
    dot = findOnPath("dot");
    if (dot.empty()) {
      std::cerr << "interlink: the Graphviz program 'dot' was not found on PATH; install Graphviz (Debian package "
                   "'graphviz') or write a .dot file\n";
      return 2;
    }
  }

  Loader loader;
  LoadResult loaded = loadInput(loader, input, options.input);
  printDiagnostics(loaded.diagnostics, displayName(input));
  if (!loaded.ok()) {
    std::cerr << "interlink: " << displayName(input) << " has errors; nothing was drawn\n";
    return onlyIoErrors(loaded.diagnostics, input) ? 2 : 1;
  }
  convert::DotOptions dotOptions;
  dotOptions.kinematicTreeOnly = options.treeOnly;
  dotOptions.poseLabels = !options.withoutPoses;
  const std::string text = convert::writeDot(loaded, dotOptions);
  if (output.empty() || output == "-") return writeOutput("-", text) ? 0 : 2;
  const std::string dotFile = dot.empty() ? output : output + ".interlink-tmp.dot";
  {
    std::ofstream file(dotFile, std::ios::binary | std::ios::trunc);
    file << text;
    file.close();
    if (!file) {
      std::cerr << "interlink: cannot write '" << dotFile << "'\n";
      return 2;
    }
  }
  if (dot.empty()) return 0;
  const int status = runDot(dot, extension.substr(1), dotFile, output);
  std::remove(dotFile.c_str());
  if (status != 0) {
    std::cerr << "interlink: '" << dot << "' failed (exit status " << status << ") rendering '" << output
              << "' (is '" << extension.substr(1) << "' one of the formats `dot -T?` lists?)\n";
    return 2;
  }
  return 0;
}

}  // namespace interlink::cli
