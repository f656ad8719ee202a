#pragma once
// Where this build's source tree, build tree, plugins and CLI are. Defined in a source that
// tests/CMakeLists.txt generates, so that no test source carries a path of its checkout.
namespace interlink::test::paths {
extern const char* const kSourceDir;
extern const char* const kBinaryDir;
extern const char* const kPluginDir;
extern const char* const kCli;
}  // namespace interlink::test::paths
