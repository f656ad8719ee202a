// Step 2 of the SKEL plugin: SkelFile records -> the core model.
//
// The core keeps links, joints and frames of a model in one namespace where DART keeps bodies,
// joints and markers apart: names are made unique here with DART's "name(k)" suffix. The
// kinematic structure is checked the way DART builds it (one parent joint per body, no cycles)
// and a parent body that is nobody's child hangs from the world by a free joint.
#include "SkelMapping.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "interlink/UniqueNames.hpp"
#include "interlink/model/Names.hpp"

namespace interlink::skel::detail {
namespace {

constexpr const char* kPluginName = "skel";

/// Unique names within one model: links, joints and frames share one namespace in the core,
/// while DART keeps bodies, joints and markers apart. Clashes get DART's "name(k)" suffix.
class NameScope : public UniqueNames {
 public:
  NameScope() : UniqueNames("(", ")", 1) {}
};

class Mapper {
 public:
  explicit Mapper(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  void map(const SkelFile& file, Document& document);

 private:
  /// A body of the skeleton being mapped: where it was written and whether a joint names it.
  struct BodyUse {
    SourceLocation where;
    bool mentioned = false;
  };

  void error(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.error(code, std::move(message), where);
  }
  void warning(ErrorCode code, std::string message, const SourceLocation& where) {
    diagnostics_.warning(code, std::move(message), where);
  }

  Model mapSkeleton(const SkeletonRecord& skeleton, NameScope& skeletonNames);
  void assemble(Model& model, std::vector<JointRecord>& joints, std::unordered_map<std::string, BodyUse>& bodies,
                NameScope& names, const SourceLocation& skeletonWhere);

  Diagnostics& diagnostics_;
};

void Mapper::map(const SkelFile& file, Document& document) {
  document.format = kPluginName;
  document.formatVersion = file.version;
  // DART requires a positive mass and loads a wrong tensor.
  document.rules.setVersion(document.formatVersion);
  document.rules.inertia.checked = true;
  document.rules.inertia.massRequired = true;
  document.rules.setInertiaVerdict("DART loads it");
  document.kept = file.kept;
  if (!file.world) return;
  const WorldRecord& record = *file.world;
  World world = record.settings;
  NameScope skeletonNames;
  world.models.reserve(record.skeletons.size());
  for (const auto& skeleton : record.skeletons) world.models.push_back(mapSkeleton(skeleton, skeletonNames));
  document.worlds.push_back(std::move(world));
}

Model Mapper::mapSkeleton(const SkeletonRecord& skeleton, NameScope& skeletonNames) {
  Model model;
  model.where = skeleton.where;
  model.pose = skeleton.pose;
  model.isStatic = skeleton.isStatic;
  model.kept = skeleton.kept;
  model.name = skeletonNames.unique(skeleton.name);
  if (model.name != skeleton.name) {
    // DART's World renames a repeated skeleton name the same way.
    warning(ErrorCode::DUPLICATE_NAME,
            "skeleton name '" + skeleton.name + "' is used before; renamed '" + model.name + "' as DART does",
            skeleton.where);
  }

  NameScope names;
  std::unordered_map<std::string, BodyUse> bodies;
  for (const auto& body : skeleton.bodies) {
    names.add(body.link.name);
    bodies.emplace(body.link.name, BodyUse{body.where, false});
    model.links.push_back(body.link);
  }
  std::vector<JointRecord> joints = skeleton.joints;
  assemble(model, joints, bodies, names, skeleton.where);

  for (const auto& marker : skeleton.markers) {
    Frame frame;
    frame.name = names.unique(marker.name);
    if (frame.name != marker.name) {
      warning(ErrorCode::DUPLICATE_NAME,
              "marker name '" + marker.name + "' is already used in skeleton '" + model.name + "'; renamed '" +
                  frame.name + "'",
              marker.where);
    }
    frame.attachedTo = marker.body;
    frame.pose.pose.translation() = marker.offset;
    frame.pose.relativeTo = marker.body;
    frame.pose.where = marker.where;
    frame.where = marker.where;
    model.frames.push_back(std::move(frame));
  }
  return model;
}

void Mapper::assemble(Model& model, std::vector<JointRecord>& joints,
                      std::unordered_map<std::string, BodyUse>& bodies, NameScope& names,
                      const SourceLocation& skeletonWhere) {
  // One parent joint per body: a second one is an error, kept as a loop closure (DART drops it).
  std::unordered_map<std::string, std::size_t> parentJointOf;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    Joint& joint = joints[i].joint;
    bodies[joint.child].mentioned = true;
    if (joint.parent != "world") bodies[joint.parent].mentioned = true;
    const auto [existing, inserted] = parentJointOf.emplace(joint.child, i);
    if (!inserted) {
      const Joint& first = joints[existing->second].joint;
      error(ErrorCode::KINEMATIC_LOOP,
            "body '" + joint.child + "' is the child of joint '" + first.name + "' (line " +
                std::to_string(first.where.line) + ") and of joint '" + joint.name +
                "'; a body has one parent joint. This joint is kept as a loop closure (DART discards it)",
            joint.where);
      joint.loopClosure = true;
    }
  }

  // Cycles among the remaining tree joints: walk up from every body.
  {
    std::unordered_map<std::string, int> state;  // 1 on the current path, 2 done
    for (std::size_t start = 0; start < joints.size(); ++start) {
      if (joints[start].joint.loopClosure) continue;
      std::vector<std::size_t> path;
      std::vector<int*> walked;  // states set to 1 by this walk, finished after it (linear in all)
      std::string body = joints[start].joint.child;
      while (true) {
        auto& s = state[body];
        if (s == 2) break;
        if (s == 1) {
          // The cycle is the part of the path from the joint whose child is `body`.
          auto begin = std::find_if(path.begin(), path.end(),
                                    [&](std::size_t j) { return joints[j].joint.child == body; });
          if (begin == path.end()) break;  // cannot happen: the body was reached through a joint
          std::string lines;
          std::size_t last = *begin;
          for (auto it = begin; it != path.end(); ++it) {
            lines += (lines.empty() ? "" : ", ") + joints[*it].joint.name + " (line " +
                     std::to_string(joints[*it].joint.where.line) + ")";
            last = std::max(last, *it);
          }
          error(ErrorCode::KINEMATIC_LOOP,
                "joints form a cycle: " + lines + ". Joint '" + joints[last].joint.name +
                    "' is kept as a loop closure (DART 6.12 does not terminate on this)",
                joints[last].joint.where);
          joints[last].joint.loopClosure = true;
          break;
        }
        s = 1;
        walked.push_back(&s);
        const auto up = parentJointOf.find(body);
        if (up == parentJointOf.end() || joints[up->second].joint.loopClosure) break;
        path.push_back(up->second);
        if (joints[up->second].joint.parent == "world") break;
        body = joints[up->second].joint.parent;
      }
      for (int* s : walked) *s = 2;
    }
  }

  // Names: joints after bodies, DART-style suffix on a clash.
  for (auto& record : joints) {
    Joint& joint = record.joint;
    std::string base = joint.name;
    if (base.empty()) {
      base = joint.child + "_joint";
      warning(ErrorCode::ATTRIBUTE_MISSING, "joint without a name; named '" + base + "'", joint.where);
    } else if (names::isReserved(base) || names::containsDelimiter(base)) {
      error(ErrorCode::NAME_INVALID, "joint name '" + base + "' is reserved or contains '::'; named '" +
                                         joint.child + "_joint' instead",
            joint.where);
      base = joint.child + "_joint";
    }
    joint.name = names.unique(base);
    if (joint.name != base) {
      warning(ErrorCode::DUPLICATE_NAME,
              "joint name '" + base + "' is already used in skeleton '" + model.name + "'; renamed '" + joint.name + "'",
              joint.where);
    }
  }

  // A parent body that is nobody's child hangs from the world by a free joint, as in DART. It is
  // placed before the first joint that hangs from it, where DART creates it.
  std::vector<Joint> ordered;
  std::unordered_set<std::string> rooted;
  for (auto& record : joints) {
    const Joint& joint = record.joint;
    if (joint.parent != "world" && parentJointOf.count(joint.parent) == 0 && rooted.insert(joint.parent).second) {
      Joint root;
      root.name = names.unique(names.taken("root") ? joint.parent + "_root" : "root");
      root.type = JointType::Free;
      root.parent = "world";
      root.child = joint.parent;
      root.where = bodies[joint.parent].where;
      root.pose.where = root.where;
      ordered.push_back(std::move(root));
    }
    ordered.push_back(std::move(record.joint));
  }
  model.joints = std::move(ordered);

  for (const auto& link : model.links) {
    const BodyUse& body = bodies[link.name];
    if (!body.mentioned) {
      warning(ErrorCode::ELEMENT_INVALID,
              "body '" + link.name + "' of skeleton '" + model.name +
                  "' is neither parent nor child of any joint: DART 6.12 drops it silently; kept here as a body "
                  "without a joint",
              body.where);
    }
  }
  if (model.links.empty()) {
    warning(ErrorCode::MODEL_WITHOUT_LINK, "skeleton '" + model.name + "' has no body", skeletonWhere);
  }
}

}  // namespace

void mapSkelFile(const SkelFile& file, const plugin::LoadRequest& /*request*/, Document& document,
                 Diagnostics& diagnostics) {
  Mapper(diagnostics).map(file, document);
}

}  // namespace interlink::skel::detail
