#pragma once
// What a third party does with an installed Interlink, for the install tests: install this build
// into a temporary prefix, then configure and build a project against it with find_package.
// The including test defines CMAKE_COMMAND (the path of the cmake that configured this build).
#include <string>

#include "TestSupport.hpp"

namespace interlink::test {

struct TemporaryInstall {
  std::string work;            // a fresh scratch directory
  std::string prefix;          // work + "/prefix"
  CommandResult installation;  // `cmake --install` of this build into `prefix`

  explicit TemporaryInstall(const std::string& name)
      : work(makeTempDir(name)),
        prefix(work + "/prefix"),
        installation(run(std::string(CMAKE_COMMAND) + " --install " + INTERLINK_BINARY_DIR + " --prefix " + prefix)) {}

  /// Configures the project in `source` against the install (Release) into `build` and builds it:
  /// the result of the first step that fails, else of the build.
  CommandResult build(const std::string& source, const std::string& buildDirectory) const {
    const std::string cmake = CMAKE_COMMAND;
    CommandResult configured = run(cmake + " -S " + source + " -B " + buildDirectory +
                                   " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + prefix);
    if (configured.exitCode != 0) return configured;
    return run(cmake + " --build " + buildDirectory);
  }
};

}  // namespace interlink::test
