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
  std::string positions = "zero";  // as ModelQuery::parseConfiguration reads it
  std::string qpos;                 // MuJoCo's qpos layout (interlink::configurationFromQpos), instead of --positions
  std::string frame;                // one frame only (empty: every frame)
  std::string relativeTo;
  std::string format = "quaternion";  // quaternion | rpy | matrix
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
  std::string to;        // a writer name; empty: from the output's extension
  std::string meshUris;  // --mesh-uris: portable (empty), relative, absolute, as-written
  bool urdfFloatingJoint = false;  // --urdf-floating-joint (WriteOptions::urdfFloatingJoint)
};

struct GraphOptions {
  std::string file;
  InputOptions input;
  std::string output;
  bool treeOnly = false;        // --tree: the kinematic tree alone
  bool withoutPoses = false;    // --no-poses: no joint-pose labels on the tree edges
};

struct ViewOptions {
  std::string file;
  InputOptions input;
  std::string output;  // -o: a self-contained page; empty: serve live
  int port = 0;
  bool open = false;
};

extern const char* const kCheckUsage;
extern const char* const kFramesUsage;
extern const char* const kTreeUsage;
extern const char* const kPluginsUsage;
extern const char* const kHardwareUsage;
extern const char* const kConvertUsage;
extern const char* const kGraphUsage;
extern const char* const kViewUsage;

int runCheck(const CheckOptions& options);
int runFrames(const FramesOptions& options);
int runTree(const TreeOptions& options);
int runPlugins();
int runHardware();
int runConvert(const ConvertOptions& options);
int runGraph(const GraphOptions& options);
int runView(const ViewOptions& options);

}  // namespace interlink::cli
