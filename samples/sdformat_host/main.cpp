// Prints every frame of a world read by libsdformat, with Interlink's formats turned on by one
// call: SDFormat models through their SemanticPose, included HRDF/SKEL/Shift/Juice/... models
// through the poses their reposture callbacks receive.
//
//   sdformat_host world.sdf [-I model_root]...     (model:// is looked up in each model_root)
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <sdf/Frame.hh>
#include <sdf/Joint.hh>
#include <sdf/Link.hh>
#include <sdf/Model.hh>
#include <sdf/Root.hh>
#include <sdf/World.hh>

#include "interlink/sdformat/Bridge.hpp"

namespace {

void print(const std::string& name, const char* kind, const interlink::Pose& X_WF) {
  const interlink::Quaternion q(X_WF.linear());
  const interlink::Vector3& p = X_WF.translation();
  std::printf("%s  %s  %.9g %.9g %.9g  %.9g %.9g %.9g %.9g\n", name.c_str(), kind, p.x(), p.y(), p.z(), q.w(), q.x(),
              q.y(), q.z());
}

using interlink::sdformat::fromIgnition;

/// An SDFormat element's pose in the world: resolved in its model, then placed by the model.
template <typename Element>
void printElement(const Element& element, const std::string& prefix, const char* kind, const interlink::Pose& X_WM) {
  ignition::math::Pose3d X_MF;
  if (element.SemanticPose().Resolve(X_MF, "__model__").empty()) print(prefix + element.Name(), kind, X_WM * fromIgnition(X_MF));
}

void printModel(const sdf::Model& model, const std::string& prefix, const interlink::Pose& X_WP, const std::string& parentFrame) {
  ignition::math::Pose3d X_PM;
  if (!model.SemanticPose().Resolve(X_PM, parentFrame).empty()) return;
  const interlink::Pose X_WM = X_WP * fromIgnition(X_PM);
  const std::string name = prefix + model.Name();
  print(name, "model", X_WM);
  for (uint64_t i = 0; i < model.LinkCount(); ++i) printElement(*model.LinkByIndex(i), name + "::", "link", X_WM);
  for (uint64_t i = 0; i < model.JointCount(); ++i) printElement(*model.JointByIndex(i), name + "::", "joint", X_WM);
  for (uint64_t i = 0; i < model.FrameCount(); ++i) printElement(*model.FrameByIndex(i), name + "::", "frame", X_WM);
  for (uint64_t i = 0; i < model.ModelCount(); ++i) printModel(*model.ModelByIndex(i), name + "::", X_WM, "__model__");
}

}  // namespace

int main(int argc, char** argv) {
  std::string world;
  sdf::ParserConfig config;
  interlink::sdformat::BridgeOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-I" && i + 1 < argc) {
      config.AddURIPath("model://", argv[++i]);
      options.load.resourcePaths.push_back(argv[i]);
    } else if (world.empty() && arg.rfind('-', 0) != 0) {
      world = arg;
    } else {
      std::cerr << "usage: sdformat_host WORLD.sdf [-I MODEL_ROOT]...\n";
      return 2;
    }
  }
  if (world.empty()) {
    std::cerr << "usage: sdformat_host WORLD.sdf [-I MODEL_ROOT]...\n";
    return 2;
  }

  // Included non-SDFormat models report their resolved frames here once libsdformat is done.
  std::vector<interlink::sdformat::RepostureEvent> included;
  options.onReposture = [&included](const interlink::sdformat::RepostureEvent& event) { included.push_back(event); };
  // The one call a host adds.
  const std::vector<std::string> formats = interlink::sdformat::registerCustomParsers(config, options);

  sdf::Root root;
  const sdf::Errors errors = root.Load(world, config);
  for (const sdf::Error& e : errors) {
    std::cerr << e.FilePath().value_or(world) << ":" << e.LineNumber().value_or(0) << ": " << e.Message() << "\n";
  }
  if (!errors.empty()) return 1;

  std::printf("# Interlink formats:");
  for (const auto& f : formats) std::printf(" %s", f.c_str());
  std::printf("\n# name  kind  x y z  qw qx qy qz (in the world)\n");
  for (uint64_t w = 0; w < root.WorldCount(); ++w) {
    const sdf::World& sdfWorld = *root.WorldByIndex(w);
    for (uint64_t i = 0; i < sdfWorld.FrameCount(); ++i) {
      ignition::math::Pose3d X_WF;
      if (sdfWorld.FrameByIndex(i)->SemanticPose().Resolve(X_WF, "world").empty()) {
        print(sdfWorld.FrameByIndex(i)->Name(), "frame", fromIgnition(X_WF));
      }
    }
    for (uint64_t i = 0; i < sdfWorld.ModelCount(); ++i) printModel(*sdfWorld.ModelByIndex(i), "", interlink::Pose::Identity(), "world");
  }
  for (const auto& event : included) {
    std::printf("# %s from %s\n", event.modelName.c_str(), event.sourceFile.c_str());
    print(event.modelName, "model", event.modelPose);
    for (const auto& frame : event.frames) print(event.modelName + "::" + frame.name, interlink::frameKindName(frame.kind), frame.pose);
  }
  return 0;
}
