#pragma once
// What a third party does with an installed Interlink, for the install tests: install this build
// into a temporary prefix, then configure and build a project against it with find_package.
// The including test defines CMAKE_COMMAND (the path of the cmake that configured this build) and,
// through interlink_test_builds_projects() (tests/CMakeLists.txt), INTERLINK_TEST_CXX,
// INTERLINK_TEST_SANITIZER_FLAGS and INTERLINK_TEST_SANITIZER_LINK_FLAGS.
#include <cstdlib>
#include <string>

#include "TestSupport.hpp"

namespace interlink::test {

/// Projects built by a test use this build's compiler and sanitizer flags (through the CXX,
/// CXXFLAGS and LDFLAGS that CMake reads on a first configure): code built against an
/// AddressSanitizer build of Interlink must link the sanitizer runtime too.
inline void useThisBuildsToolchainForProjects() {
  ::setenv("CXX", INTERLINK_TEST_CXX, 1);
  const std::string flags = INTERLINK_TEST_SANITIZER_FLAGS;
  if (!flags.empty()) {
    ::setenv("CXXFLAGS", flags.c_str(), 1);
    ::setenv("LDFLAGS", INTERLINK_TEST_SANITIZER_LINK_FLAGS, 1);
  }
}

struct TemporaryInstall {
  std::string work;            // a fresh scratch directory
  std::string prefix;          // work + "/prefix"
  CommandResult installation;  // `cmake --install` of this build into `prefix`

  explicit TemporaryInstall(const std::string& name)
      : work(makeTempDir(name)),
        prefix(work + "/prefix"),
        installation(run(std::string(CMAKE_COMMAND) + " --install " + test::binaryDir() + " --prefix " + prefix)) {
    useThisBuildsToolchainForProjects();
  }

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
