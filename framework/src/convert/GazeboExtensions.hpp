#pragma once
// URDF <gazebo> blocks (kept as text by plugins/urdf) as the SDFormat they stand for, placed as
// libsdformat 12's URDF parser places them (src/parser_urdf.cc): properties it knows become
// SDFormat elements of the referenced link, its collisions and visuals, the joint or the model;
// any other element (<plugin>, <sensor>, ...) is copied into the referenced element (internal).
// Every element to write is a tree (KeptNode), written as kept trees are.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interlink/Diagnostics.hpp"
#include "interlink/model/Model.hpp"

namespace interlink::convert::detail {

struct GazeboLink {
  std::optional<bool> gravity;          // <gravity>, <turnGravityOff> (inverted)
  std::optional<bool> selfCollide;      // <selfCollide>, <self_collide>
  std::vector<KeptNode> elements;       // into <link>: <velocity_decay>, <sensor>, <plugin>, ...
  std::vector<KeptNode> collision;      // into each <collision>: <max_contacts>, <laser_retro>, <surface>
  std::string materialScript;           // <material> of each visual: a Gazebo material name
};

struct GazeboJoint {
  std::vector<KeptNode> elements;       // into <joint>: <physics>, <sensor>, <plugin>, ...
  std::optional<double> springReference;
  std::optional<double> springStiffness;
};

struct GazeboExtensions {
  std::vector<KeptNode> model;          // into <model>: <plugin>, <static>, <self_collide>, ...
  std::optional<bool> isStatic;
  std::map<std::string, GazeboLink> links;
  std::map<std::string, GazeboJoint> joints;
  bool empty() const { return model.empty() && !isStatic && links.empty() && joints.empty(); }
};

/// True for a kept URDF <gazebo> block.
bool isGazeboBlock(const KeptElement& kept);

/// The <gazebo> blocks of `model` (a URDF source's) as SDFormat. A block whose reference names
/// neither a link nor a joint is reported in `diagnostics` and not written (libsdformat drops it
/// too).
GazeboExtensions gazeboExtensions(const Model& model, Diagnostics& diagnostics);

}  // namespace interlink::convert::detail
