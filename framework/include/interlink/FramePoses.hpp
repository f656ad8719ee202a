#pragma once
// The poses of every frame of a graph at one configuration, made as they are read.
#include <cstddef>
#include <vector>

#include "interlink/Export.hpp"
#include "interlink/Pose.hpp"

namespace interlink {

class Kinematics;

/// Poses of the frames of a graph (indexed as graph.frames()) at one configuration, relative to
/// the root or to one chosen frame. The poses of the links are computed when this is made and
/// kept, one per link; any other frame's pose is its link's times its fixed offset, computed when
/// it is read. A listing of a large model then holds one pose per link, not one per frame (a
/// 16 000-link chain has 48 000 frames: 4 MB less at the peak of `frames`). The values are bit
/// for bit those of Kinematics::framePoses and ModelQuery::framePoses, which are built on it.
///
/// Made by Kinematics::posesAt and ModelQuery::framePosesAt; reads the Kinematics that made it,
/// which must stay where it is while this is used.
class INTERLINK_API FramePoses {
 public:
  std::size_t size() const;
  /// The pose of frame `frame` (< size()).
  Pose operator[](std::size_t frame) const;
  /// Every pose, in frame order.
  std::vector<Pose> all() const;
  /// How many poses it keeps: one per link.
  std::size_t keptPoses() const { return linkPoses_.size(); }

 private:
  friend class Kinematics;
  friend class ModelQuery;
  /// X_R_L of the link frame `frame` (the identity for -1, the root).
  const Pose& linkPose(int frame) const;
  const Kinematics* kinematics_ = nullptr;
  // X_R_L of each link: the kinematics' root links, then the child link of each of its joints,
  // in their orders (where the kinematics' per-frame link steps point).
  std::vector<Pose> linkPoses_;
  bool relative_ = false;  // poses relative to a frame other than the root: X_BR_ * X_RF
  Pose X_BR_ = Pose::Identity();
};

}  // namespace interlink
