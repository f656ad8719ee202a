#pragma once
// HEBI's frame lists of an HRDF robot, as a typed record on its model, in HEBI's order, so that a
// host can line the model up with HEBI's own API (getFK with its frame types):
//
//   if (const auto* lists = model.extensions.find<interlink::hrdf::FrameLists>())
//     for (const std::string& frame : lists->endEffectorFrames) graph.find(frame);
#include <string>
#include <vector>

#include "interlink/model/Extension.hpp"

namespace interlink::hrdf {

struct FrameLists {
  static constexpr ExtensionKind kExtensionKind{"hrdf.frame_lists", 1};
  /// HEBI's output frames: every output of every element with a body ("<element>/output[_k]").
  std::vector<std::string> outputFrames;
  /// Links whose centre-of-mass frames are HEBI's CoM frames, one per element with a body.
  std::vector<std::string> comLinks;
  /// HEBI's end-effector frames (the output of each end effector).
  std::vector<std::string> endEffectorFrames;
};

}  // namespace interlink::hrdf
