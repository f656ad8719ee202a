// The frame graph builder's scope, name, model and world phases (composition proposal 1.6.1
// and 1.6.2): vertices, scoped names and the edges of the attached-to and relative-to graphs.
#include "graph/FrameGraphBuilder.hpp"

namespace interlink::detail {

int FrameGraphBuilder::addVertex(std::string name, FrameKind kind, const SourceLocation& where, int scope) {
  FrameInfo& frame = out_.frames.emplace_back();
  frame.name = std::move(name);
  frame.kind = kind;
  frame.where = where;
  Vertex& added = vertices_.emplace_back();
  const std::string_view scoped = frame.name;
  added.localNameStart = static_cast<std::uint32_t>(names::localName(scoped).data() - scoped.data());
  added.scope = scope;
  return static_cast<int>(vertices_.size()) - 1;
}

namespace {

FrameKind kindOf(const Link&) { return FrameKind::Link; }
FrameKind kindOf(const Joint&) { return FrameKind::Joint; }
FrameKind kindOf(const Frame&) { return FrameKind::Frame; }
FrameKind kindOf(const Model&) { return FrameKind::Model; }

}  // namespace

template <class Element>
int FrameGraphBuilder::addElement(int scope, const std::string& frameName, const Element& element) {
  const int index = addVertex(scopes_[static_cast<std::size_t>(scope)].prefix + frameName, kindOf(element), element.where, scope);
  out_.frameOfElement.assign(&element, static_cast<std::size_t>(index));
  registerName(frameName, index, element.where);
  return index;
}

void FrameGraphBuilder::addNestedModel(int scope, const Model& model) {
  checkName(model.name, "model", model.where, scope);
  const std::string prefix = scopes_[static_cast<std::size_t>(scope)].prefix + names::scopePrefix(model.name);
  openModelScope(model, scope, addElement(scope, model.name, model), prefix);
}

int FrameGraphBuilder::openModelScope(const Model& model, int parentScope, int modelVertex, const std::string& prefix) {
  Scope scope;
  scope.prefix = prefix;
  scope.modelVertex = modelVertex;
  scope.parent = parentScope;
  scope.model = &model;
  scope.isStatic = model.isStatic || (parentScope != kNone && scopes_[parentScope].isStatic && !scopes_[parentScope].isWorld);
  scopes_.push_back(scope);
  canonicalLink_.push_back(kNone);
  const int index = static_cast<int>(scopes_.size()) - 1;
  childScopes_.emplace_back();
  if (parentScope != kNone) childScopes_[static_cast<std::size_t>(parentScope)].push_back(index);
  vertices_[modelVertex].ownScope = index;
  return index;
}

int FrameGraphBuilder::lookup(int scope, const std::string& reference) const {
  if (reference.empty()) return kNone;
  const Scope& s = scopes_[scope];
  // Views: comparing with a literal then checks the length first, inline (one call per query).
  const std::string_view written = reference;
  if (written == names::kModelFrame) return s.isWorld ? kNone : s.modelVertex;
  if (written == names::kWorld) return s.isWorld ? s.modelVertex : kNone;
  static const std::string kModelSuffix = names::scopePrefix(names::kModelFrame);
  std::string& key = keyBuffer_;
  key.assign(s.prefix);
  if (reference.size() > kModelSuffix.size() &&
      reference.compare(reference.size() - kModelSuffix.size(), kModelSuffix.size(), kModelSuffix) == 0) {
    key.append(reference, 0, reference.size() - kModelSuffix.size());
    const std::optional<std::size_t> frame = out_.byName.find(key, out_.frames);
    return frame && kindAt(static_cast<int>(*frame)) == FrameKind::Model ? static_cast<int>(*frame) : kNone;
  }
  // The root scope has no prefix: the reference is the key as written, no copy needed.
  const std::string_view scoped = s.prefix.empty() ? written : std::string_view(key += reference);
  const std::optional<std::size_t> frame = out_.byName.find(scoped, out_.frames);
  return frame ? static_cast<int>(*frame) : kNone;
}

void FrameGraphBuilder::checkName(const std::string& name, const char* what, const SourceLocation& where, int scope) {
  if (name.empty()) {
    error(ErrorCode::ATTRIBUTE_MISSING, std::string(what) + " has an empty name; expected a non-empty name", where);
    return;
  }
  if (names::isReserved(name)) {
    error(ErrorCode::RESERVED_NAME, std::string(what) + " name '" + name + "' is reserved (" + names::kReservedRule + ")",
          where);
  }
  if (names::containsDelimiter(name)) {
    error(rulesOf(scope).delimiterInNameIsReserved ? ErrorCode::RESERVED_NAME : ErrorCode::NAME_INVALID,
          std::string(what) + " name '" + name + "' contains '::', which is the scope delimiter", where);
  }
}

void FrameGraphBuilder::registerName(const std::string& localName, int vertex, const SourceLocation& where) {
  const auto [holder, inserted] = out_.byName.insert(static_cast<std::size_t>(vertex), out_.frames);
  if (!inserted) {
    const FrameInfo& first = frameAt(static_cast<int>(holder));
    std::string message = std::string(frameKindName(kindAt(vertex))) + " name '" + localName +
                          "' is already used by a " + frameKindName(first.kind) + " in the same scope";
    if (first.where.line > 0) message += " (line " + std::to_string(first.where.line) + ")";
    error(ErrorCode::DUPLICATE_NAME, message, where);
  }
}

// ---------------------------------------------------------------------------------------------
// Model phase 2: names are non-empty, not reserved, free of "::" and unique among siblings.
// Registers every link, joint, frame and nested model of the scope (6.1-6.4, 8.1-8.2 vertices).
void FrameGraphBuilder::checkNameAttributes(int scope) {
  const Model& model = *scopes_[scope].model;
  const std::string prefix = scopes_[scope].prefix;  // a copy: opening nested scopes grows scopes_
  const auto next = [&] { return static_cast<int>(vertices_.size()); };  // the vertex added next
  scopes_[scope].firstLink = next();
  for (const Link& link : model.links) {
    checkName(link.name, "link", link.where, scope);
    addElement(scope, link.name, link);
    // Visual and collision names are unique within their link (recursiveSiblingUniqueNames).
    for (const auto* shapes : {&link.visuals, &link.collisions}) {
      std::unordered_map<std::string, const Shape*> seen;
      for (const Shape& shape : *shapes) {
        if (!seen.emplace(shape.name, &shape).second) {
          error(ErrorCode::DUPLICATE_NAME,
                std::string(shapes == &link.visuals ? "visual" : "collision") + " name '" + shape.name +
                    "' is used twice in link '" + link.name + "'",
                shape.where);
        }
      }
    }
  }
  scopes_[scope].firstJoint = next();
  for (const Joint& joint : model.joints) {
    checkName(joint.name, "joint", joint.where, scope);
    std::string frameName = joint.name;
    if (jointsHaveOwnNamespace(scope)) {
      // Before SDFormat 1.7 (and in URDF) joints and links have separate namespaces; libsdformat
      // names the joint's frame "<name>_joint" when they collide, and so do we. The joint keeps
      // its name (DOFs, positions, writers); only the frame graph uses the frame's name.
      while (isRegisteredAs(prefix + frameName, FrameKind::Link)) {
        frameName += "_joint";
      }
    }
    const int vertex = addElement(scope, frameName, joint);
    if (frameName != joint.name) frameAt(vertex).ownName = prefix + joint.name;
  }
  scopes_[scope].firstFrame = next();
  for (const Frame& frame : model.frames) {
    checkName(frame.name, "frame", frame.where, scope);
    addElement(scope, frame.name, frame);
  }
  scopes_[scope].firstModel = next();
  for (const Model& nested : model.models) addNestedModel(scope, nested);
}

// A joint's parent or child (`end`) that names nothing, said in the words of the model's format: a
// URDF joint joins links of a robot, an SDFormat joint frames of a model.
std::string FrameGraphBuilder::unknownJointEnd(int scope, const Joint& joint, const char* end) const {
  const bool parent = std::string_view(end) == "parent";
  const std::string& name = parent ? joint.parent : joint.child;
  if (rulesOf(scope).jointEndsAreLinks) {
    return std::string(end) + " link '" + name + "' of joint '" + joint.name + "' is not a link of robot '" +
           scopes_[static_cast<std::size_t>(scope)].model->name + "'";
  }
  return std::string(end) + " frame '" + name + "' of joint '" + joint.name + "' is not " +
         (parent ? "'world' or " : "") + "a link, joint, frame or nested model of this model";
}

// Model phase 3: joint parent and child name frames of this scope; "world" only as a parent.
void FrameGraphBuilder::checkJointParentChildNames(int scope) {
  for (const Joint& joint : scopes_[scope].model->joints) {
    // The child is looked up once: the attached-to phase takes the frame found here.
    const int vertex = vertexOf(scope, joint);
    const bool lookChildUp = !joint.child.empty() && joint.child != "world";
    const int child = lookChildUp ? lookup(scope, joint.child) : kNone;
    if (lookChildUp && vertex != kNone) vertices_[static_cast<std::size_t>(vertex)].childLookup = child;
    if (joint.child == "world") {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, "joint '" + joint.name + "' has 'world' as its child; a child must be a frame of the model", joint.where);
    } else if (joint.child.empty()) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, "joint '" + joint.name + "' has no child frame", joint.where);
    } else if (joint.child == joint.name && child == vertex) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, "joint '" + joint.name + "' names itself as its child", joint.where);
      // Its frame is attached to its child and, without a relative_to, posed in it: both cycles.
      error(ErrorCode::FRAME_ATTACHED_TO_CYCLE, "joint '" + joint.name + "' is attached to itself (its child)", joint.where);
      if (joint.pose.relativeTo.empty()) {
        error(ErrorCode::POSE_RELATIVE_TO_CYCLE, "the pose of joint '" + joint.name + "' is relative to its child, itself",
              joint.where);
      }
    } else if (child == kNone) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, unknownJointEnd(scope, joint, "child"), joint.where);
    }
    if (scopes_[scope].model->source.fromInterfaceModel) continue;  // interface joints name a child only
    if (joint.parent.empty()) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID, "joint '" + joint.name + "' has no parent frame", joint.where);
    } else if (namesItself(scope, joint, joint.parent)) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID, "joint '" + joint.name + "' names itself as its parent", joint.where);
    } else if (joint.parent != "world" && lookup(scope, joint.parent) == kNone) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID, unknownJointEnd(scope, joint, "parent"), joint.where);
    }
    if (!joint.parent.empty() && joint.parent == joint.child) {
      error(ErrorCode::JOINT_PARENT_SAME_AS_CHILD, "joint '" + joint.name + "' has the same parent and child '" + joint.child + "'", joint.where);
    }
  }
}

// The canonical link of a scope: @canonical_link, else the first link, else the first nested
// model's canonical link.
int FrameGraphBuilder::canonicalLinkOf(int scope, std::vector<int>& visiting) {
  if (canonicalLink_[scope] != kNone) return canonicalLink_[scope];
  const Model& model = *scopes_[scope].model;
  int target = kNone;
  if (!model.canonicalLink.empty()) {
    target = lookup(scope, model.canonicalLink);
    if (target != kNone && kindAt(target) != FrameKind::Link) target = kNone;
  } else if (!model.links.empty()) {
    target = vertexOf(scope, model.links.front());
  } else {
    // No link of its own: the first nested model's canonical link, or a static nested model,
    // which is fixed and so a valid thing to be attached to (libsdformat's STATIC_MODEL sink).
    for (const Model& nested : model.models) {
      const int vertex = vertexOf(scope, nested);
      if (vertices_[vertex].ownScope == kNone) continue;
      const int nestedScope = vertices_[vertex].ownScope;
      if (nested.isStatic) {
        target = vertex;
        break;
      }
      if (std::find(visiting.begin(), visiting.end(), nestedScope) != visiting.end()) continue;
      visiting.push_back(nestedScope);
      target = canonicalLinkOf(nestedScope, visiting);
      if (target != kNone) break;
    }
  }
  canonicalLink_[scope] = target;
  return target;
}

// Model phase 4: the canonical link exists (non-static models). A static model is fixed to its
// parent frame, so its @canonical_link is never used and not checked (as libsdformat).
void FrameGraphBuilder::checkCanonicalLink(int scope) {
  if (scopes_[scope].isStatic) return;
  const Model& model = *scopes_[scope].model;
  std::vector<int> visiting{scope};
  const int link = canonicalLinkOf(scope, visiting);
  if (!model.canonicalLink.empty() && link == kNone) {
    error(ErrorCode::MODEL_CANONICAL_LINK_INVALID,
          "canonical_link '" + model.canonicalLink + "' of model '" + model.name + "' is not a link of this model",
          model.where);
    return;
  }
  if (link == kNone) {
    error(ErrorCode::MODEL_WITHOUT_LINK, "model '" + model.name + "' has no link; a non-static model needs at least one", model.where);
  }
}

// Model phase 5: //frame/@attached_to names a sibling frame and not the frame itself.
void FrameGraphBuilder::checkFrameAttachedToValues(int scope) {
  checkAttachedToValues(scope, scopes_[scope].model->frames, "frame", "a link, joint, frame or nested model of this model");
}

/// Phase 5 (model) and 4 (world): each attached_to names a frame of the scope, not the frame itself.
/// A frame attached to itself with no relative_to is also posed relative to itself: both cycles.
void FrameGraphBuilder::checkAttachedToValues(int scope, const std::vector<Frame>& frames, const char* what,
                                              const char* expected) {
  for (const Frame& frame : frames) {
    if (frame.attachedTo.empty()) continue;
    if (namesItself(scope, frame, frame.attachedTo)) {
      error(ErrorCode::FRAME_ATTACHED_TO_CYCLE, std::string(what) + " '" + frame.name + "' is attached to itself", frame.where);
      if (frame.pose.relativeTo.empty()) {
        error(ErrorCode::POSE_RELATIVE_TO_CYCLE,
              "the pose of " + std::string(what) + " '" + frame.name + "' is relative to its attached_to frame, itself",
              frame.where);
      }
    } else if (lookup(scope, frame.attachedTo) == kNone) {
      error(ErrorCode::FRAME_ATTACHED_TO_INVALID,
            "attached_to '" + frame.attachedTo + "' of " + what + " '" + frame.name + "' is not " + expected, frame.where);
    }
  }
}

// Model phase 6: attached-to edges. Links are sinks; the model frame goes to the canonical link
// (static models are sinks); joints go to their child; frames to attached_to or the model frame.
void FrameGraphBuilder::buildFrameAttachedToGraph(int scope) {
  const Scope& s = scopes_[scope];
  Vertex& modelVertex = vertices_[s.modelVertex];
  if (s.isStatic) {
    modelVertex.attachedSink = true;
  } else {
    modelVertex.attachedTarget = canonicalLink_[scope];
  }
  for (const Link& link : s.model->links) {
    vertices_[static_cast<std::size_t>(vertexOf(scope, link))].attachedSink = true;
  }
  addAttachedToEdges(scope, s.model->joints, s.model->frames);
}

/// Attached-to edges of a scope's joints (to their child) and explicit frames (to attached_to,
/// else the scope's own frame), for model and world scopes alike.
void FrameGraphBuilder::addAttachedToEdges(int scope, const std::vector<Joint>& joints, const std::vector<Frame>& frames) {
  for (const Joint& joint : joints) {
    const int v = vertexOf(scope, joint);
    vertices_[static_cast<std::size_t>(v)].attachedTarget = jointChildTarget(scope, v, joint);
  }
  for (const Frame& frame : frames) {
    vertices_[static_cast<std::size_t>(vertexOf(scope, frame))].attachedTarget = frameTarget(scope, frame);
  }
}

/// Phase 7 (model) and 6 (world): a pose's relative_to names a frame of the scope, not its owner.
int FrameGraphBuilder::checkRelativeTo(int scope, bool selfReference, const std::string& owner, const char* what,
                                       const SemanticPose& pose, const SourceLocation& where, const char* expected) {
  if (pose.relativeTo.empty()) return kNone;
  const SourceLocation& at = pose.where.line ? pose.where : where;
  const int target = selfReference ? kNone : lookup(scope, pose.relativeTo);
  if (selfReference) {
    error(ErrorCode::POSE_RELATIVE_TO_CYCLE, std::string(what) + " '" + owner + "' has a pose relative to itself", at);
  } else if (target == kNone) {
    error(ErrorCode::POSE_RELATIVE_TO_INVALID,
          "relative_to '" + pose.relativeTo + "' of " + what + " '" + owner + "' is not " + expected, at);
  }
  return target;
}

/// Phase 8 (model) and 7 (world): the vertex's one relative-to edge, carrying its written pose.
void FrameGraphBuilder::addRelativeToEdge(int v, const SemanticPose& pose, int fallback) {
  Vertex& vertex = vertices_[v];
  vertex.edgePose = &pose.pose;
  // A written relative_to was looked up by the check of phase 7 (kNone for the frame itself).
  vertex.relativeTarget = pose.relativeTo.empty() ? fallback : vertex.writtenRelativeTo;
}

// Model phase 7: every //pose/@relative_to names a frame of this scope.
void FrameGraphBuilder::checkPoseRelativeToValues(int scope) {
  const Model& model = *scopes_[scope].model;
  const char* expected = "a link, joint, frame or nested model of this model";
  checkPoses(scope, model.links, "link", expected);
  checkPoses(scope, model.joints, "joint", expected);
  checkPoses(scope, model.frames, "frame", expected);
  checkPoses(scope, model.models, "model", expected);
}

template <class Element>
void FrameGraphBuilder::checkPoses(int scope, const std::vector<Element>& elements, const char* what, const char* expected) {
  for (const Element& e : elements) {
    const int target = checkRelativeTo(scope, namesItself(scope, e, e.pose.relativeTo), e.name, what, e.pose, e.where, expected);
    vertices_[static_cast<std::size_t>(vertexOf(scope, e))].writtenRelativeTo = target;  // phase 8 takes it
  }
}

// Model phase 8: relative-to edges (8.3-8.5) and placement frames of nested models.
void FrameGraphBuilder::buildPoseRelativeToGraph(int scope) {
  const Scope& s = scopes_[scope];
  for (const Link& link : s.model->links) {
    addRelativeToEdge(vertexOf(scope, link), link.pose, s.modelVertex);
  }
  addPoseEdges(scope, s.model->models, s.model->joints, s.model->frames);
}

/// Relative-to edges of a scope's nested models (default: the scope's frame), joints (their
/// child) and explicit frames (their attached_to), for model and world scopes alike.
void FrameGraphBuilder::addPoseEdges(int scope, const std::vector<Model>& models, const std::vector<Joint>& joints,
                                     const std::vector<Frame>& frames) {
  const int scopeFrame = scopes_[scope].modelVertex;
  for (const Model& model : models) {
    addRelativeToEdge(vertexOf(scope, model), model.pose, scopeFrame);
  }
  for (const Joint& joint : joints) {
    // The default of a joint's and a frame's pose is the frame it is attached to, which the
    // attached-to phase has looked up already (the same function, for the same scope).
    const int v = vertexOf(scope, joint);
    addRelativeToEdge(v, joint.pose, vertices_[static_cast<std::size_t>(v)].attachedTarget);
  }
  for (const Frame& frame : frames) {
    const int v = vertexOf(scope, frame);
    addRelativeToEdge(v, frame.pose, vertices_[static_cast<std::size_t>(v)].attachedTarget);
  }
}

int FrameGraphBuilder::jointChildTarget(int scope, int vertex, const Joint& joint) const {
  // A model joint naming itself as its child was reported in phase 3; it gets no edge. (A world
  // joint keeps the edge to itself, which the cycle check reports.)
  if (!scopes_[scope].isWorld && joint.child == localNameAt(vertex)) return kNone;
  const int looked = vertices_[static_cast<std::size_t>(vertex)].childLookup;  // by phase 3
  return looked != kNotLookedUp ? looked : lookup(scope, joint.child);
}

int FrameGraphBuilder::frameTarget(int scope, const Frame& frame) const {
  if (frame.attachedTo.empty()) return scopes_[scope].modelVertex;
  return frame.attachedTo == frame.name ? kNone : lookup(scope, frame.attachedTo);
}

const std::vector<int>& FrameGraphBuilder::childScopes(int scope) {
  return childScopes_[static_cast<std::size_t>(scope)];
}

void FrameGraphBuilder::checkModel(int scope) {
  checkNameAttributes(scope);
  // Nested scopes were opened by phase 2; check them before this model's graph uses them.
  const std::vector<int> nested = childScopes(scope);  // a copy: checking may open scopes
  for (int child : nested) checkModel(child);
  checkJointParentChildNames(scope);
  checkCanonicalLink(scope);
  checkFrameAttachedToValues(scope);
  buildFrameAttachedToGraph(scope);
  checkPoseRelativeToValues(scope);
  buildPoseRelativeToGraph(scope);

  // //model/@placement_frame: the model's pose places that frame instead of the model frame.
  const Model& model = *scopes_[scope].model;
  if (!model.placementFrame.empty()) {
    const int frame = lookup(scope, model.placementFrame);
    if (frame == kNone) {
      // libsdformat reports this through its relative-to graph; so do we, with the same code.
      error(ErrorCode::POSE_RELATIVE_TO_INVALID,
            "placement_frame '" + model.placementFrame + "' of model '" + model.name + "' is not a frame of that model",
            model.where);
    } else {
      vertices_[scopes_[scope].modelVertex].placementFrame = frame;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// World phase 2: names of models, frames and joints directly in the world.
void FrameGraphBuilder::checkWorldNameAttributes(int scope) {
  const World& world = *scopes_[scope].world;
  const auto next = [&] { return static_cast<int>(vertices_.size()); };  // the vertex added next
  scopes_[scope].firstModel = next();
  for (const Model& model : world.models) addNestedModel(scope, model);
  scopes_[scope].firstFrame = next();
  for (const Frame& frame : world.frames) {
    checkName(frame.name, "frame", frame.where, scope);
    std::string frameName = frame.name;
    if (!rulesOf(scope).worldFramesShareModelNamespace) {
      // SDFormat 1.7 let world frames share a model's name; libsdformat calls such a frame
      // "<name>_frame", and so do we.
      while (isRegisteredAs(frameName, FrameKind::Model)) frameName += "_frame";
    }
    addElement(scope, frameName, frame);
  }
  scopes_[scope].firstJoint = next();
  for (const Joint& joint : world.joints) {
    checkName(joint.name, "joint", joint.where, scope);
    addElement(scope, joint.name, joint);
  }
}

// World phase 3: every model passes the eight model phases.
void FrameGraphBuilder::checkModels(int scope) {
  const std::vector<int> models = childScopes(scope);  // a copy: checking may open scopes
  for (int model : models) checkModel(model);
  // //world/joint (SDFormat 1.8): parent and child are frames of the world scope.
  for (const Joint& joint : scopes_[scope].world->joints) {
    if (joint.child.empty() || joint.child == "world" || lookup(scope, joint.child) == kNone) {
      error(ErrorCode::JOINT_CHILD_LINK_INVALID, "child '" + joint.child + "' of world joint '" + joint.name + "' is not a frame of the world", joint.where);
    }
    if (joint.parent.empty() || lookup(scope, joint.parent) == kNone) {
      error(ErrorCode::JOINT_PARENT_LINK_INVALID, "parent '" + joint.parent + "' of world joint '" + joint.name + "' is not 'world' or a frame of the world", joint.where);
    }
    if (!joint.parent.empty() && joint.parent == joint.child) {
      error(ErrorCode::JOINT_PARENT_SAME_AS_CHILD, "world joint '" + joint.name + "' has the same parent and child", joint.where);
    }
  }
}

// World phase 4: //world/frame/@attached_to names a model or frame of the world.
void FrameGraphBuilder::checkWorldFrameAttachedToValues(int scope) {
  checkAttachedToValues(scope, scopes_[scope].world->frames, "world frame", "a model or frame of the world");
}

// World phase 5: world frames go to attached_to or the world; the world is a sink.
void FrameGraphBuilder::buildWorldFrameAttachedToGraph(int scope) {
  const Scope& s = scopes_[scope];
  vertices_[s.modelVertex].attachedSink = true;
  addAttachedToEdges(scope, s.world->joints, s.world->frames);
}

// World phase 6: //model/pose and //world/frame/pose relative_to name a model or frame of the world.
void FrameGraphBuilder::checkWorldPoseRelativeToValues(int scope) {
  const World& world = *scopes_[scope].world;
  const char* expected = "a model or frame of the world";
  checkPoses(scope, world.models, "model", expected);
  checkPoses(scope, world.frames, "frame", expected);
  checkPoses(scope, world.joints, "joint", expected);
}

// World phase 7: relative-to edges of world models, frames and joints.
void FrameGraphBuilder::buildWorldPoseRelativeToGraph(int scope) {
  const Scope& s = scopes_[scope];
  addPoseEdges(scope, s.world->models, s.world->joints, s.world->frames);
}
}  // namespace interlink::detail
