#pragma once
// Shared test helpers: paths to the vendored test data, the external corpus and the build tree,
// running the CLI.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "TestPaths.hpp"
#include "interlink/Diagnostics.hpp"

namespace interlink::test {

inline std::string sourceDir() { return paths::kSourceDir; }
inline std::string binaryDir() { return paths::kBinaryDir; }

/// A public file vendored for the tests: tests/data/<source>/..., each source with a README that
/// names its origin and licence.
inline std::string vendored(const std::string& relative) { return sourceDir() + "/tests/data/" + relative; }

/// The variable that names the large external corpus the sweeps read (docs/dev/ci.md): a directory
/// laid out as sdformat/ (libsdformat's test/), gazebo/ (gz-sim, gazebo_models), hrdf/, shift/ and
/// juice/. A clone of the repository alone does not have it; CI sets it.
constexpr const char* kCorpusVariable = "INTERLINK_TEST_CORPUS";

/// The external corpus directory, or "" when the variable is unset or empty.
inline std::string externalCorpus() {
  const char* value = std::getenv(kCorpusVariable);
  return value && *value ? std::string(value) : std::string();
}

/// Whether the external corpus has `part` ("" for the corpus itself), e.g. hasCorpus("gazebo").
inline bool hasCorpus(const std::string& part = {}) {
  std::error_code error;
  return !externalCorpus().empty() && std::filesystem::is_directory(externalCorpus() + "/" + part, error);
}

/// Why a sweep did not run: GTEST_SKIP's message.
inline std::string corpusMissing(const std::string& part = {}) {
  return std::string("needs the external corpus") + (part.empty() ? "" : " (" + part + "/)") + ": set " +
         kCorpusVariable + " to a directory laid out as docs/dev/ci.md says";
}

/// A path under the external corpus when it is present, else under tests/data, which holds the
/// vendored files in the same layout (sdformat/, gazebo/, hrdf/, shift/, juice/): a sweep without
/// the corpus still reads the files the repository carries.
inline std::string corpus(const std::string& relative) {
  return (hasCorpus() ? externalCorpus() : sourceDir() + "/tests/data") + "/" + relative;
}
inline std::string pluginDir() { return paths::kPluginDir; }
inline std::string cliPath() { return paths::kCli; }

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

/// Skips the current test (GoogleTest shows it as skipped, CTest too) when the external corpus, or
/// its `part`, is absent.
/// Used as a statement of its own (in braces after an `if`).
#define INTERLINK_SKIP_WITHOUT_CORPUS(part) \
  if (!::interlink::test::hasCorpus(part)) GTEST_SKIP() << ::interlink::test::corpusMissing(part)
