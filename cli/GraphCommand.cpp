// `interlink graph IN -o OUT.dot|OUT.svg|OUT.png`: the frame graph drawn with Graphviz.
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
namespace {

const char* kGraphUsage =
    "usage: interlink graph IN [-o OUT.dot|OUT.svg|OUT.png] [-I DIR]\n"
    "  Draws the kinematic tree and the frames of IN: models as clusters, links (boxes), joints\n"
    "  (ellipses), frames (notes); solid edges parent link -> joint -> child link, dashed blue\n"
    "  attached-to, dotted grey relative-to, loop closures in red. Without -o the DOT text goes to\n"
    "  standard output; .svg and .png are rendered by Graphviz's `dot` program, found on PATH.\n"
    "  -I, --resource-path DIR   search DIR for model:// and package:// URIs (repeatable)\n"
    "  exit status: 0 written, 1 invalid input, 2 usage or I/O error (also: `dot` missing or failing)\n";

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

int runGraph(const Arguments& args) {
  InputOutput parsed = parseInputOutput(args, "graph");
  if (parsed.help) {
    std::cout << kGraphUsage;
    return 0;
  }
  if (!parsed.error.empty()) return usage(parsed.error);
  const std::string& input = parsed.input;
  std::string output = parsed.output;
  const LoadOptions& options = parsed.load;
  const std::string extension = output.empty() ? ".dot" : extensionOf(output);
  if (extension != ".dot" && extension != ".gv" && extension != ".svg" && extension != ".png") {
    return usage("cannot write '" + output + "': the output extension must be .dot, .svg or .png");
  }
  std::string dot;
  if (extension == ".svg" || extension == ".png") {
    dot = findOnPath("dot");
    if (dot.empty()) {
      std::cerr << "interlink: the Graphviz program 'dot' was not found on PATH; install Graphviz (Debian package "
                   "'graphviz') or write a .dot file\n";
      return 2;
    }
  }

  Loader loader;
  LoadResult loaded = loader.loadFile(input, options);
  printDiagnostics(loaded.diagnostics, input);
  if (!loaded.ok()) {
    std::cerr << "interlink: " << input << " has errors; nothing was drawn\n";
    return 1;
  }
  const std::string text = convert::writeDot(loaded);
  if (output.empty()) {
    std::cout << text;
    return 0;
  }
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
    std::cerr << "interlink: '" << dot << "' failed (exit status " << status << ") rendering '" << output << "'\n";
    return 2;
  }
  return 0;
}

}  // namespace interlink::cli
