#pragma once
// The `interlink` subcommands: their options (filled by CLI11 in main.cpp), their usage text and
// their run functions. Each returns the process exit status: 0 valid, 1 invalid input,
// 2 usage or I/O error.
#include <string>
#include <vector>

#include "CommandSupport.hpp"

namespace interlink::cli {

struct CheckOptions {
  std::vector<std::string> inputs;  // files, directories (walked), `-`
  InputOptions input;
  std::string format = "text";      // text | json | sarif
  bool quiet = false;
  bool werror = false;
  std::vector<std::string> ignore;  // error codes dropped from the report
  std::vector<std::string> only;    // when set, only these codes are reported
  std::vector<std::string> exclude; // --exclude GLOB: files and directories left out of a walk
  unsigned jobs = 1;
};

struct FramesOptions {
  std::string file;
  InputOptions input;
  std::string positions = "zero";
  std::string relativeTo;
  bool json = false;
};

struct TreeOptions {
  std::string file;
  InputOptions input;
};

struct ConvertOptions {
  std::string file;
  InputOptions input;
  std::string output;
  std::string to;  // a writer name; empty: from the output's extension
};

struct GraphOptions {
  std::string file;
  InputOptions input;
  std::string output;
  bool treeOnly = false;        // --tree: the kinematic tree alone
  bool withoutPoses = false;    // --no-poses: no joint-pose labels on the tree edges
};

extern const char* const kCheckUsage;
extern const char* const kFramesUsage;
extern const char* const kTreeUsage;
extern const char* const kPluginsUsage;
extern const char* const kHardwareUsage;
extern const char* const kConvertUsage;
extern const char* const kGraphUsage;

int runCheck(const CheckOptions& options);
int runFrames(const FramesOptions& options);
int runTree(const TreeOptions& options);
int runPlugins();
int runHardware();
int runConvert(const ConvertOptions& options);
int runGraph(const GraphOptions& options);

}  // namespace interlink::cli
