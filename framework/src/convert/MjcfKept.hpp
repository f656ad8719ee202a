#pragma once
// What an MJCF source keeps as MJCF text (plugins/mjcf: <default>, <actuator>, <sensor>,
// <keyframe>, <contact>, <tendon>, <equality> other than weld and connect, <option>, ...): written
// back by the MJCF writer, and the actuators' force limits read for the other targets (internal).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "interlink/convert/WriteOptions.hpp"
#include "interlink/model/Document.hpp"

namespace interlink::convert::detail {

/// True for an element kept from an MJCF source's <mujoco> (path "mujoco/...").
bool isKeptMjcfSection(const KeptElement& kept);

/// True for an element an MJCF source keeps inside a body (<light>, <plugin>; path "body/...",
/// owned by its link): written back into that body.
bool isKeptMjcfBodyElement(const KeptElement& kept);

/// True for a camera an MJCF source keeps beside its frame (path "body/camera", owners: the link
/// and the frame).
bool isKeptMjcfCamera(const KeptElement& kept);

/// The kept camera as a <camera> named `name` at `poseAttributes` (formatted pos and quat), its
/// other attributes as written.
std::string mjcfCamera(const KeptElement& kept, const std::string& name, const std::string& poseAttributes);

/// True for MuJoCo's own parameters an MJCF source keeps for a geom (path "body/geom", owners: the
/// link and the geom: friction, condim, solref, material, ...) or a joint (path "body/joint", owner:
/// the joint: armature, solver settings, ...) or a site (path "body/site", owners: the link and the
/// site's frame: type, size, rgba, ...) or a body (path "body/body", owner: its link: mocap,
/// gravcomp, user), with their <default> classes applied.
bool isKeptMjcfParameters(const KeptElement& kept);

/// Those parameters of `model` as attribute lists, by owner: geoms by (link, geom), joints and
/// sites by name.
using MjcfAttributeList = std::vector<std::pair<std::string, std::string>>;
struct MjcfParameters {
  std::map<std::pair<std::string, std::string>, MjcfAttributeList> geoms;
  std::map<std::string, MjcfAttributeList> joints;
  std::map<std::string, MjcfAttributeList> sites;
  std::map<std::string, MjcfAttributeList> bodies;
};
MjcfParameters keptMjcfParameters(const Model& model);

/// The <texture> and <material> assets an MJCF source keeps, as <asset> children; texture files
/// named from the output file as `options` asks (as mesh files are).
std::vector<std::string> keptMjcfAppearance(const Model& model, const WriteOptions& options);

/// True for the kept <default> tree: the reader has applied it, so no target loses it.
bool isKeptMjcfDefaults(const KeptElement& kept);

/// The kept MJCF sections of `model` as XML text, where MuJoCo reads them: `beforeWorld`
/// (<default> with the main class's own body-element defaults removed, since the writer gives
/// every joint and geom its values explicitly; <option>, <size>, <visual>, <statistic>) and
/// `afterWorld` (<contact>, <tendon>, <equality>, <actuator>, <sensor>, <keyframe>, <custom>,
/// <extension>).
struct MjcfSections {
  std::vector<std::string> beforeWorld;
  std::vector<std::string> afterWorld;
};
MjcfSections keptMjcfSections(const Model& model);

/// The force bound of each actuated joint (name as in the MJCF) from the kept <actuator> section
/// and the <default> classes it uses: |forcerange| when force-limited, else for a <motor> or a
/// <general> without bias |ctrlrange * gear| when control-limited. A joint driven by several
/// actuators gets the smallest bound.
std::map<std::string, double> mjcfActuatorEffortLimits(const Model& model);

}  // namespace interlink::convert::detail
