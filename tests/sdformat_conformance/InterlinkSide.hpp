#pragma once
// Interlink's side of the differential tests against libsdformat, and the frame comparison both
// suites (libsdformat's own corpus, Gazebo's public files) share.
#include <set>
#include <string>
#include <vector>

#include "ReferenceSdformat.hpp"
#include "interlink/Loader.hpp"

namespace interlink::conformance {

inline constexpr double kPoseTolerance = 1e-9;

struct OursResult {
  bool valid = false;
  std::set<std::string> codes;        // every error code
  std::set<std::string> sharedCodes;  // the codes libsdformat also has (the compared set)
  std::string diagnostics;            // every diagnostic, one a line
  std::vector<NamedPose> frames;
  std::vector<std::string> inconsistencies;  // FrameGraph::pose disagreeing with FrameInfo::pose
};

/// One Loader for the process: it discovers the build tree's plugins once.
const Loader& sharedLoader();

/// Loads `path` through the real Loader and SDFormat plugin, URIs searched in `resourcePaths`.
OursResult loadWithInterlink(const std::string& path, const std::vector<std::string>& resourcePaths);

bool nearlyEqual(const Pose& a, const Pose& b);
std::string describe(const Pose& pose);

/// How the frames of one file compare (poses in the root frame, keyed by scoped name and kind).
struct FrameComparison {
  std::size_t theirCount = 0;  // libsdformat's frames
  std::size_t equalCount = 0;  // of those, present in Interlink at the same pose
  int differenceCount = 0;     // missing, misplaced or only in Interlink
  std::string differences;     // one line (or three) per difference
  std::vector<std::string> duplicates;  // frames listed twice by either side
  bool agree() const { return differenceCount == 0 && duplicates.empty(); }
};

FrameComparison compareFrames(const std::vector<NamedPose>& ours, const std::vector<NamedPose>& theirs);

}  // namespace interlink::conformance
