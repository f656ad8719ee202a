#include "InterlinkSide.hpp"

#include <iomanip>
#include <map>
#include <sstream>

#include "SharedLoader.hpp"
#include "TestSupport.hpp"

namespace interlink::conformance {

const Loader& sharedLoader() { return test::sharedLoader(); }

bool nearlyEqual(const Pose& a, const Pose& b) {
  return (a.translation() - b.translation()).cwiseAbs().maxCoeff() <= kPoseTolerance &&
         (a.linear() - b.linear()).cwiseAbs().maxCoeff() <= kPoseTolerance;
}

std::string describe(const Pose& pose) {
  const Quaternion q(pose.linear());
  std::ostringstream out;
  out << std::setprecision(15) << "xyz=(" << pose.translation().x() << ", " << pose.translation().y() << ", "
      << pose.translation().z() << ") wxyz=(" << q.w() << ", " << q.x() << ", " << q.y() << ", " << q.z() << ")";
  return out.str();
}

OursResult loadWithInterlink(const std::string& path, const std::vector<std::string>& resourcePaths) {
  LoadOptions options;
  options.resourcePaths = resourcePaths;
  const LoadResult loaded = sharedLoader().loadFile(path, options);

  OursResult result;
  result.valid = loaded.ok();
  result.diagnostics = test::dump(loaded.diagnostics);
  for (const auto& d : loaded.diagnostics) {
    if (!d.isError()) continue;
    const std::string name(codeName(d.code));
    result.codes.insert(name);
    if (isLibsdformatCodeName(name)) result.sharedCodes.insert(name);
  }
  if (!result.valid) return result;

  const auto& frames = loaded.graph.frames();
  std::map<std::string, int> nameCount;
  for (const auto& frame : frames) ++nameCount[frame.name];
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const FrameInfo& frame = frames[i];
    // The root (the world, or the top model of a model file) is the frame everything is
    // expressed in; libsdformat has no named counterpart for it.
    if (i == 0 && frame.name == loaded.graph.rootName()) {
      if (!nearlyEqual(frame.pose, Pose::Identity())) {
        result.inconsistencies.push_back("root frame '" + frame.name + "' is not at the identity");
      }
      continue;
    }
    result.frames.push_back({frame.name, frameKindName(frame.kind), frame.pose});
    // The query API must agree with the listed pose (skipped for names a sibling of another kind
    // shares, e.g. a link and a joint of the same name in SDFormat 1.4, where a name is ambiguous).
    if (nameCount[frame.name] == 1 && nameCount[loaded.graph.rootName()] == 1) {
      const auto queried = loaded.graph.pose(frame.name, loaded.graph.rootName());
      if (!queried || !nearlyEqual(*queried, frame.pose)) {
        result.inconsistencies.push_back("FrameGraph::pose('" + frame.name + "', '" + loaded.graph.rootName() +
                                         "') disagrees with frames()");
      }
    }
  }
  return result;
}

namespace {

using FrameKey = std::pair<std::string, std::string>;  // name, kind

std::map<FrameKey, Pose> byKey(const std::vector<NamedPose>& frames, std::vector<std::string>& duplicates) {
  std::map<FrameKey, Pose> map;
  for (const auto& frame : frames) {
    if (!map.emplace(FrameKey{frame.name, frame.kind}, frame.pose).second) {
      duplicates.push_back(frame.kind + " '" + frame.name + "'");
    }
  }
  return map;
}

}  // namespace

FrameComparison compareFrames(const std::vector<NamedPose>& ours, const std::vector<NamedPose>& theirs) {
  FrameComparison comparison;
  const auto ourFrames = byKey(ours, comparison.duplicates);
  const auto theirFrames = byKey(theirs, comparison.duplicates);
  comparison.theirCount = theirFrames.size();
  std::ostringstream differences;
  for (const auto& [key, theirPose] : theirFrames) {
    const auto ourFrame = ourFrames.find(key);
    if (ourFrame == ourFrames.end()) {
      differences << "  " << key.second << " '" << key.first << "': missing in Interlink (libsdformat "
                  << describe(theirPose) << ")\n";
      ++comparison.differenceCount;
    } else if (!nearlyEqual(ourFrame->second, theirPose)) {
      differences << "  " << key.second << " '" << key.first << "':\n    Interlink:   " << describe(ourFrame->second)
                  << "\n    libsdformat: " << describe(theirPose) << "\n";
      ++comparison.differenceCount;
    } else {
      ++comparison.equalCount;
    }
  }
  for (const auto& [key, ourPose] : ourFrames) {
    if (theirFrames.count(key) == 0) {
      differences << "  " << key.second << " '" << key.first << "': only in Interlink (" << describe(ourPose) << ")\n";
      ++comparison.differenceCount;
    }
  }
  comparison.differences = differences.str();
  return comparison;
}

}  // namespace interlink::conformance
