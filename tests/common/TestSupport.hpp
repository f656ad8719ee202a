#pragma once
// Shared test helpers: paths to the corpus and the build tree, running the CLI.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "interlink/Diagnostics.hpp"

namespace interlink::test {

inline std::string sharedDir() { return INTERLINK_SHARED_DIR; }
inline std::string corpus(const std::string& relative) { return sharedDir() + "/corpus/" + relative; }
inline std::string sourceDir() { return INTERLINK_SOURCE_DIR; }
inline std::string pluginDir() { return INTERLINK_PLUGIN_DIR; }
inline std::string cliPath() { return INTERLINK_CLI; }

/// All diagnostics as text, one a line, for assertion messages.
inline std::string dump(const Diagnostics& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) out += d.format() + "\n";
  return out;
}

/// A fresh directory under the system temp directory, e.g. makeTempDir("interlink-graph").
inline std::string makeTempDir(const std::string& prefix) {
  std::string pattern = "/tmp/" + prefix + "-XXXXXX";
  if (const char* tmp = std::getenv("TMPDIR")) pattern = std::string(tmp) + "/" + prefix + "-XXXXXX";
  return mkdtemp(pattern.data()) ? pattern : std::string();
}

/// The whole file, as bytes ("" when it cannot be read).
inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct CommandResult {
  int exitCode = -1;
  std::string output;  // stdout and stderr together
};

/// Runs a shell command, capturing its output and exit code.
inline CommandResult run(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
  int status = pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace interlink::test
