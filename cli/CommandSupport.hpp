#pragma once
// What the subcommands share: printing diagnostics, usage errors, and the IN [-o OUT] [-I DIR]
// argument shape of convert and graph.
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/Loader.hpp"

namespace interlink::cli {

using Arguments = std::vector<std::string>;

/// Every diagnostic on stderr as file:line:col: severity[CODE]: message (`file` when it has none).
void printDiagnostics(const Diagnostics& diagnostics, const std::string& file);

/// Prints "interlink: message" and the command's usage on stderr; returns exit status 2.
int usageError(const std::string& message, const char* usage);

/// The lower-case extension of a path's file name ("" when it has none).
std::string extensionOf(const std::string& path);

struct InputOutput {
  std::string input;
  std::string output;
  LoadOptions load;
  bool help = false;
  std::string error;  // a usage error, when not empty
};

/// Parses `IN [-o|--output OUT] [-I|--resource-path DIR]...`.
InputOutput parseInputOutput(const Arguments& args, const std::string& command);

}  // namespace interlink::cli
