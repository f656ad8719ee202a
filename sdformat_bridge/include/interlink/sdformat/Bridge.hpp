#pragma once
// Interlink's format plugins as libsdformat 12 custom model parsers: after one call, any
// libsdformat host (Gazebo, a simulator, a checker) can <include> an HRDF, SKEL, Shift, Juice,
// URDF ... file, and sees its links, joints, frames and nested models in its own frame graph.
//
//   sdf::ParserConfig config;
//   interlink::sdformat::registerCustomParsers(config);
//   sdf::Root root;
//   sdf::Errors errors = root.Load("world.sdf", config);
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <ignition/math/Pose3.hh>
#include <sdf/ParserConfig.hh>

#include "interlink/FrameGraph.hpp"
#include "interlink/Loader.hpp"
#include "interlink/Pose.hpp"

#if defined(_WIN32)
#define INTERLINK_SDFORMAT_API __declspec(dllexport)
#else
#define INTERLINK_SDFORMAT_API __attribute__((visibility("default")))
#endif

namespace interlink::sdformat {

/// One frame of an included model as libsdformat resolved it.
struct ResolvedFrame {
  std::string name;  // scoped inside the included model: "link", "nested::frame"
  FrameKind kind = FrameKind::Frame;
  Pose pose = Pose::Identity();  // X_WF: in the world (the root model frame of a model file)
};

/// What the reposture callback of an included model receives once libsdformat has built and
/// resolved its graphs (after //include/pose and //include/placement_frame were applied).
struct RepostureEvent {
  std::string modelName;   // absolute scoped name, e.g. "cell::arm"
  std::string sourceFile;  // the file Interlink read
  Pose modelPose = Pose::Identity();  // X_WM
  std::vector<ResolvedFrame> frames;  // every link, joint, frame and nested model exposed
};

struct BridgeOptions {
  /// Resource paths and limits of the Interlink loads (model:// and package:// inside the
  /// included files; the include itself is found by libsdformat).
  LoadOptions load;
  /// Plugin names to register ("hrdf", "skel", ...). Empty: every loaded format plugin except
  /// "sdformat" (libsdformat reads SDFormat itself).
  std::vector<std::string> formats;
  /// Called once per included model with the poses libsdformat resolved.
  std::function<void(const RepostureEvent&)> onReposture;
};

/// Registers one custom model parser per Interlink format plugin found in the default plugin
/// locations (beside the Interlink library and INTERLINK_PLUGIN_PATH), plus a last parser that
/// refuses an include nobody claimed (libsdformat 12.3 would drop it silently). Interlink
/// warnings follow config.WarningsPolicy() as it is at this call. Returns the plugin names
/// registered.
INTERLINK_SDFORMAT_API std::vector<std::string> registerCustomParsers(sdf::ParserConfig& config,
                                                                      const BridgeOptions& options = {});

/// The same with the host's own Loader (its plugin directories, its own custom parsers). The
/// registered parsers share ownership of it, so it lives as long as `config` needs it.
INTERLINK_SDFORMAT_API std::vector<std::string> registerCustomParsers(sdf::ParserConfig& config,
                                                                      std::shared_ptr<const Loader> loader,
                                                                      const BridgeOptions& options = {});

/// Poses between libsdformat (ignition::math::Pose3d) and Interlink (Eigen isometries).
inline ignition::math::Pose3d toIgnition(const Pose& pose) {
  const Quaternion q(pose.linear());
  const Vector3& p = pose.translation();
  return ignition::math::Pose3d(p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z());
}

inline Pose fromIgnition(const ignition::math::Pose3d& pose) {
  Pose out = Pose::Identity();
  out.translation() = Vector3(pose.Pos().X(), pose.Pos().Y(), pose.Pos().Z());
  out.linear() = Quaternion(pose.Rot().W(), pose.Rot().X(), pose.Rot().Y(), pose.Rot().Z()).toRotationMatrix();
  return out;
}

}  // namespace interlink::sdformat
