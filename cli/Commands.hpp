#pragma once
// The `interlink` subcommands. Each returns the process exit code:
// 0 valid, 1 invalid input, 2 usage or I/O error.
#include <string>
#include <vector>

namespace interlink::cli {

using Arguments = std::vector<std::string>;

int runCheck(const Arguments& args);
int runFrames(const Arguments& args);
int runTree(const Arguments& args);
int runPlugins(const Arguments& args);
int runHardware(const Arguments& args);
int runConvert(const Arguments& args);
int runGraph(const Arguments& args);

}  // namespace interlink::cli
