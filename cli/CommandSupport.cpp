#include "CommandSupport.hpp"

#include <iostream>

#include "interlink/TextNumbers.hpp"

namespace interlink::cli {

void printDiagnostics(const Diagnostics& diagnostics, const std::string& file) {
  for (Diagnostic d : diagnostics) {
    if (d.where.file.empty()) d.where.file = file;
    std::cerr << d.format() << "\n";
  }
}

int usageError(const std::string& message, const char* usage) {
  std::cerr << "interlink: " << message << "\n" << usage;
  return 2;
}

std::string extensionOf(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  const std::size_t slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  return toLower(path.substr(dot));
}

InputOutput parseInputOutput(const Arguments& args, const std::string& command) {
  InputOutput parsed;
  for (std::size_t i = 0; i < args.size() && parsed.error.empty(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      parsed.help = true;
    } else if (a == "-o" || a == "--output" || a == "-I" || a == "--resource-path") {
      if (i + 1 >= args.size()) {
        parsed.error = "option " + a + " needs a value";
      } else if (a == "-o" || a == "--output") {
        parsed.output = args[++i];
      } else {
        parsed.load.resourcePaths.push_back(args[++i]);
      }
    } else if (a.size() > 1 && a[0] == '-') {
      parsed.error = "unknown option '" + a + "'";
    } else if (parsed.input.empty()) {
      parsed.input = a;
    } else {
      parsed.error = command + " takes one input file";
    }
  }
  if (parsed.error.empty() && !parsed.help && parsed.input.empty()) parsed.error = command + " needs an input FILE";
  return parsed;
}

}  // namespace interlink::cli
