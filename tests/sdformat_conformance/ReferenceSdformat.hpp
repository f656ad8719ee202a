#pragma once
// The libsdformat 12.3 side of the differential test: loads a file with sdf::Root and reports its
// verdict, the names of its error codes and the resolved pose of every frame, in the same shape as
// Interlink's side so that both can be compared field by field.
#include <set>
#include <string>
#include <vector>

#include "interlink/Pose.hpp"

namespace interlink::conformance {

/// One named frame with its pose in the root frame (the world, or the top model's frame).
struct NamedPose {
  std::string name;  // scoped with "::" from the root, e.g. "model::nested::link"
  std::string kind;  // "model", "link", "joint" or "frame"
  Pose pose = Pose::Identity();
};

struct ReferenceResult {
  bool valid = false;
  std::set<std::string> codes;          // names of the error codes, e.g. "DUPLICATE_NAME"
  std::string firstCode;                // the code of the first error: the root cause
  std::vector<std::string> messages;    // "[CODE] message", for failure output
  std::vector<NamedPose> frames;
  std::vector<std::string> resolveErrors;  // frames libsdformat could not resolve (valid files only)
};

/// Loads `path` with libsdformat. Includes are looked up in `modelDirectory` the way libsdformat's
/// own tests do (a find-file callback that prefixes the directory).
ReferenceResult loadWithLibsdformat(const std::string& path, const std::string& modelDirectory);

/// Loads `path` with libsdformat as a Gazebo user whose resource path (GZ_SIM_RESOURCE_PATH) is
/// `searchDirectories`: model://NAME through ParserConfig's URI path map, and a find callback
/// (Gazebo's does the same) that looks model://, file:// and relative names up in each directory.
ReferenceResult loadWithLibsdformat(const std::string& path, const std::vector<std::string>& searchDirectories);

/// The name of a libsdformat error code (the numeric value as given), e.g. "URI_LOOKUP".
std::string libsdformatCodeName(int code);

/// Whether `name` is one of libsdformat's error code names (the vocabulary both sides share).
bool isLibsdformatCodeName(const std::string& name);

}  // namespace interlink::conformance
