// The model's elements for Python, read-only and typed: links (inertia, visuals, collisions and
// their geometry), every joint (fixed ones too), explicit frames, models of a composed world and
// the kinematic tree by name. Each object keeps the load it comes from alive.
#include <pybind11/stl.h>

#include <functional>
#include <unordered_map>

#include "ModelState.hpp"
#include "interlink/FrameGraph.hpp"

namespace interlink::python {

namespace {

struct LinkView {
  SharedState owner;
  const Link* link;
  std::string name;   // scoped
  std::string model;  // scoped name of the model that declares it ('' for none)
};

struct GeometryView {
  SharedState owner;
  const Geometry* geometry;
};

struct ShapeView {
  SharedState owner;
  const Shape* shape;
  std::string kind;  // "visual" | "collision"
  std::string link;  // scoped
};

struct JointView {
  SharedState owner;
  const Joint* joint;
  std::string name;           // scoped
  std::size_t frame;          // the joint frame
  const TreeJoint* tree;      // nullptr: not part of the kinematic tree (an interface joint)
};

struct MimicView {
  std::string joint;
  double multiplier;
  double offset;
};

struct FrameView {
  SharedState owner;
  const Frame* frame;
  std::string name;  // scoped
  std::size_t index;
};

struct ModelView {
  SharedState owner;
  const Model* model;
  std::string name;   // scoped
  std::size_t frame;
  std::string scope;  // what its elements' names are scoped by ('' for the top model of a model file)
};

/// Every model of the load in document order (depth first), with its frame, and the world's own
/// joints and frames.
struct Elements {
  std::vector<ModelView> models;
  std::vector<const Joint*> worldJoints;
  std::vector<const Frame*> worldFrames;
};

Elements collect(const SharedState& state) {
  const LoadResult& loaded = state->loaded();
  Elements out;
  std::function<void(const Model&)> visit = [&](const Model& model) {
    if (auto frame = loaded.graph.frameOf(model)) {
      const std::string& name = loaded.graph.frames()[*frame].name;
      out.models.push_back({state, &model, name, *frame, *frame == 0 ? std::string() : name});
    } else if (loaded.document.model && &model == &*loaded.document.model) {  // a model file's top model is the root frame
      out.models.push_back({state, &model, loaded.graph.rootName(), 0, std::string()});
    }
    for (const Model& nested : model.models) visit(nested);
  };
  const Document& document = loaded.document;
  if (document.isWorld() && loaded.graph.worldIndex() < document.worlds.size()) {
    const World& world = document.worlds[loaded.graph.worldIndex()];
    for (const Model& model : world.models) visit(model);
    for (const Joint& joint : world.joints) out.worldJoints.push_back(&joint);
    for (const Frame& frame : world.frames) out.worldFrames.push_back(&frame);
  } else if (document.model) {
    visit(*document.model);
  }
  return out;
}

std::vector<LinkView> links(const SharedState& state) {
  const FrameGraph& graph = state->loaded().graph;
  std::vector<LinkView> out;
  for (const ModelView& model : collect(state).models) {
    for (const Link& link : model.model->links) {
      if (auto frame = graph.frameOf(link)) out.push_back({state, &link, graph.frames()[*frame].name, model.name});
    }
  }
  return out;
}

std::vector<JointView> joints(const SharedState& state) {
  const LoadResult& loaded = state->loaded();
  std::unordered_map<std::size_t, const TreeJoint*> treeByFrame;
  for (const TreeJoint& tree : loaded.kinematics.joints()) treeByFrame.emplace(tree.frame, &tree);
  std::vector<JointView> out;
  auto add = [&](const Joint& joint) {
    auto frame = loaded.graph.frameOf(joint);
    if (!frame) return;
    auto tree = treeByFrame.find(*frame);
    out.push_back({state, &joint, scopedName(loaded.graph.scopeOf(*frame), joint.name), *frame,
                   tree == treeByFrame.end() ? nullptr : tree->second});
  };
  const Elements elements = collect(state);
  for (const ModelView& model : elements.models) {
    for (const Joint& joint : model.model->joints) add(joint);
  }
  for (const Joint* joint : elements.worldJoints) add(*joint);
  return out;
}

std::vector<FrameView> explicitFrames(const SharedState& state) {
  const FrameGraph& graph = state->loaded().graph;
  std::vector<FrameView> out;
  auto add = [&](const Frame& frame) {
    if (auto index = graph.frameOf(frame)) out.push_back({state, &frame, graph.frames()[*index].name, *index});
  };
  const Elements elements = collect(state);
  for (const ModelView& model : elements.models) {
    for (const Frame& frame : model.model->frames) add(frame);
  }
  for (const Frame* frame : elements.worldFrames) add(*frame);
  return out;
}

/// Per-axis values of a joint's axes as a list (limits, dynamics).
std::vector<double> perAxis(const Joint& joint, double JointAxis::*field) {
  std::vector<double> out;
  for (const JointAxis& axis : joint.axes) out.push_back(axis.*field);
  return out;
}

const FrameInfo& frameInfo(const SharedState& owner, std::size_t index) { return owner->loaded().graph.frames()[index]; }

/// The kinematic tree by link name.
struct TreeView {
  SharedState owner;
};

std::string describe(const TreeView& tree) { return tree.owner->loaded().kinematics.describeTree(); }

py::object optionalString(const std::string& text) { return text.empty() ? py::object(py::none()) : py::object(py::str(text)); }

}  // namespace

void bindElements(py::module_& module, py::class_<PyModel>& model) {
  py::class_<GeometryView>(module, "Geometry", "The shape of a visual or collision, in its own frame.")
      .def_property_readonly("type", [](const GeometryView& g) { return std::string(geometryTypeName(g.geometry->type)); },
                             "'box', 'sphere', 'cylinder', 'capsule', 'ellipsoid', 'cone', 'pyramid', 'plane', 'mesh', ...")
      .def_property_readonly("size", [](const GeometryView& g) { return toArray(g.geometry->size); },
                             "Full extents x, y, z of a box or pyramid (zeros otherwise).")
      .def_property_readonly("radius", [](const GeometryView& g) { return g.geometry->radius; },
                             "Radius of a sphere, cylinder, capsule or cone.")
      .def_property_readonly("length", [](const GeometryView& g) { return g.geometry->length; },
                             "Length along z of a cylinder, cone or capsule's cylindrical part.")
      .def_property_readonly("radii", [](const GeometryView& g) { return toArray(g.geometry->radii); }, "Radii of an ellipsoid.")
      .def_property_readonly("normal", [](const GeometryView& g) { return toArray(g.geometry->normal); }, "Normal of a plane.")
      .def_property_readonly("plane_size", [](const GeometryView& g) {
            return toArray(Eigen::MatrixXd(g.geometry->planeSize.transpose()));
          }, "Extents of a plane (1 x 2).")
      .def_property_readonly("mesh_uri", [](const GeometryView& g) { return g.geometry->meshUri; },
                             "The mesh URI as written ('' for other shapes).")
      .def_property_readonly("mesh_path", [](const GeometryView& g) { return optionalString(g.geometry->meshResolvedPath); },
                             "Absolute path of the mesh file when it was found on disk, else None.")
      .def_property_readonly("scale", [](const GeometryView& g) { return toArray(g.geometry->scale); }, "Mesh scale x, y, z.")
      .def("__repr__", [](const GeometryView& g) {
        return "<interlink.Geometry " + std::string(geometryTypeName(g.geometry->type)) +
               (g.geometry->meshUri.empty() ? "" : " " + g.geometry->meshUri) + ">";
      });

  py::class_<ShapeView>(module, "Shape", "A visual or collision of a link.")
      .def_property_readonly("name", [](const ShapeView& s) { return s.shape->name; }, "Name as written ('' when unnamed).")
      .def_property_readonly("kind", [](const ShapeView& s) { return s.kind; }, "'visual' or 'collision'.")
      .def_property_readonly("link", [](const ShapeView& s) { return s.link; }, "Scoped name of its link.")
      .def_property_readonly("origin", [](const ShapeView& s) { return toArray(s.shape->pose.pose); },
                             "4x4 pose as written, relative to `relative_to` (the link when that is None).")
      .def_property_readonly("relative_to", [](const ShapeView& s) { return optionalString(s.shape->pose.relativeTo); },
                             "Frame the origin is written relative to, or None for the link.")
      .def_property_readonly("geometry", [](const ShapeView& s) { return GeometryView{s.owner, &s.shape->geometry}; },
                             "The Geometry.")
      .def_property_readonly("material", [](const ShapeView& s) { return s.shape->material; },
                             "Material name or script as written ('' when none).")
      .def_property_readonly("color", [](const ShapeView& s) -> py::object {
            if (!s.shape->color) return py::none();
            return toArray(Eigen::MatrixXd(s.shape->color->transpose())).attr("reshape")(4);
          }, "RGBA colour (4 values in 0..1) when the file gives one, else None.")
      .def("__repr__", [](const ShapeView& s) {
        return "<interlink.Shape " + s.kind + " of " + s.link + ": " + geometryTypeName(s.shape->geometry.type) + ">";
      });

  py::class_<LinkView>(module, "Link", "A rigid body: mass properties, visuals and collisions.")
      .def_property_readonly("name", [](const LinkView& l) { return l.name; }, "Scoped name ('arm::forearm').")
      .def_property_readonly("model", [](const LinkView& l) { return l.model; }, "Scoped name of the model declaring it.")
      .def_property_readonly("mass", [](const LinkView& l) { return l.link->inertial.mass; }, "Mass in kg.")
      .def_property_readonly("com", [](const LinkView& l) { return toArray(Vector3(l.link->inertial.centerOfMass.translation())); },
                             "Centre of mass in the link frame (3-vector).")
      .def_property_readonly("inertial_origin", [](const LinkView& l) { return toArray(l.link->inertial.centerOfMass); },
                             "4x4 pose X_LC of the inertia frame C (at the centre of mass) in the link frame L.")
      .def_property_readonly("inertia", [](const LinkView& l) { return toArray(Eigen::MatrixXd(l.link->inertial.inertia)); },
                             "3x3 rotational inertia about the centre of mass, in the axes of inertial_origin.")
      .def_property_readonly("has_inertial", [](const LinkView& l) { return l.link->hasInertial; },
                             "False when the file gave no inertial (mass and inertia are then the defaults).")
      .def_property_readonly("visuals", [](const LinkView& l) {
            std::vector<ShapeView> out;
            for (const Shape& s : l.link->visuals) out.push_back({l.owner, &s, "visual", l.name});
            return out;
          }, "Visual shapes (list of Shape).")
      .def_property_readonly("collisions", [](const LinkView& l) {
            std::vector<ShapeView> out;
            for (const Shape& s : l.link->collisions) out.push_back({l.owner, &s, "collision", l.name});
            return out;
          }, "Collision shapes (list of Shape).")
      .def_property_readonly("gravity", [](const LinkView& l) { return l.link->gravity; }, "Whether gravity acts on it.")
      .def("__repr__", [](const LinkView& l) { return "<interlink.Link " + l.name + ">"; });

  py::class_<MimicView>(module, "Mimic", "A joint that follows another: q = multiplier * q_joint + offset.")
      .def_readonly("joint", &MimicView::joint, "The joint followed, as written.")
      .def_readonly("multiplier", &MimicView::multiplier, "Factor on the followed joint's position.")
      .def_readonly("offset", &MimicView::offset, "Added to the product.")
      .def("__repr__", [](const MimicView& m) {
        return "<interlink.Mimic " + m.joint + " x" + std::to_string(m.multiplier) + " + " + std::to_string(m.offset) + ">";
      });

  py::class_<JointView>(module, "Joint", "A joint, with or without DOFs: type, links, axes, origin, limits, dynamics.")
      .def_property_readonly("name", [](const JointView& j) { return j.name; }, "Scoped name.")
      .def_property_readonly("frame", [](const JointView& j) { return frameInfo(j.owner, j.frame).name; },
                             "Name of its frame, as pose() takes it: its own name, or '<name>_joint' where a link "
                             "has its name (URDF and SDFormat < 1.7 give joints their own namespace).")
      .def_property_readonly("type", [](const JointView& j) { return std::string(jointTypeName(j.joint->type)); },
                             "'fixed', 'revolute', 'continuous', 'prismatic', 'ball', 'free', ...")
      .def_property_readonly("parent", [](const JointView& j) { return j.joint->parent; }, "Parent frame as written.")
      .def_property_readonly("child", [](const JointView& j) { return j.joint->child; }, "Child frame as written.")
      .def_property_readonly("parent_link", [](const JointView& j) { return j.tree ? j.tree->parentLink : std::string(); },
                             "Scoped parent link ('' for the root or the world).")
      .def_property_readonly("child_link", [](const JointView& j) { return j.tree ? j.tree->childLink : std::string(); },
                             "Scoped child link.")
      .def_property_readonly("origin", [](const JointView& j) {
            const FrameInfo& joint = frameInfo(j.owner, j.frame);
            if (!j.tree || j.tree->parentLinkFrame < 0) return toArray(joint.pose);
            return toArray(Pose(frameInfo(j.owner, static_cast<std::size_t>(j.tree->parentLinkFrame)).pose.inverse() * joint.pose));
          }, "4x4 pose X_PJ of the joint frame in the parent link frame at zero (URDF's <origin>).")
      .def_property_readonly("axes", [](const JointView& j) {
            Eigen::MatrixXd a(static_cast<Eigen::Index>(j.tree ? j.tree->axes.size() : j.joint->axes.size()), 3);
            for (Eigen::Index i = 0; i < a.rows(); ++i) {
              a.row(i) = (j.tree ? j.tree->axes[static_cast<std::size_t>(i)] : j.joint->axes[static_cast<std::size_t>(i)].xyz).transpose();
            }
            return toArray(a);
          }, "Unit axes in the joint frame, one row per axis (k x 3).")
      .def_property_readonly("axis", [](const JointView& j) -> py::object {
            if (j.tree && !j.tree->axes.empty()) return toArray(j.tree->axes.front());
            if (!j.joint->axes.empty()) return toArray(j.joint->axes.front().xyz);
            return py::none();
          }, "The first axis (3-vector in the joint frame), or None.")
      .def_property_readonly("lower", [](const JointView& j) { return perAxis(*j.joint, &JointAxis::lower); },
                             "Lower position limit per axis (-inf when unlimited).")
      .def_property_readonly("upper", [](const JointView& j) { return perAxis(*j.joint, &JointAxis::upper); },
                             "Upper position limit per axis (+inf when unlimited).")
      .def_property_readonly("effort", [](const JointView& j) { return perAxis(*j.joint, &JointAxis::effort); },
                             "Effort limit per axis.")
      .def_property_readonly("velocity", [](const JointView& j) { return perAxis(*j.joint, &JointAxis::velocity); },
                             "Velocity limit per axis.")
      .def_property_readonly("damping", [](const JointView& j) { return perAxis(*j.joint, &JointAxis::damping); },
                             "Viscous damping per axis.")
      .def_property_readonly("friction", [](const JointView& j) { return perAxis(*j.joint, &JointAxis::friction); },
                             "Friction per axis.")
      .def_property_readonly("spring_reference", [](const JointView& j) { return perAxis(*j.joint, &JointAxis::springReference); },
                             "Spring reference position per axis.")
      .def_property_readonly("spring_stiffness", [](const JointView& j) { return perAxis(*j.joint, &JointAxis::springStiffness); },
                             "Spring stiffness per axis.")
      .def_property_readonly("mimic", [](const JointView& j) -> py::object {
            if (!j.joint->mimic) return py::none();
            return py::cast(MimicView{j.joint->mimic->joint, j.joint->mimic->multiplier, j.joint->mimic->offset});
          }, "Mimic, or None.")
      .def_property_readonly("first_dof", [](const JointView& j) { return j.tree ? j.tree->firstDof : -1; },
                             "Index of its first coordinate in q (-1 without DOFs).")
      .def_property_readonly("dof_count", [](const JointView& j) { return j.tree && j.tree->firstDof >= 0 ? dofCount(j.joint->type) : 0; },
                             "Number of coordinates it adds to q (0 for a fixed joint).")
      .def_property_readonly("initial", [](const JointView& j) {
            std::vector<double> out;
            if (!j.tree || j.tree->firstDof < 0) return out;
            const auto& dofs = j.owner->loaded().kinematics.dofs();
            for (int c = 0; c < dofCount(j.joint->type); ++c) out.push_back(dofs[static_cast<std::size_t>(j.tree->firstDof + c)].initial);
            return out;
          }, "The file's initial position of each coordinate.")
      .def_property_readonly("loop_closure", [](const JointView& j) { return j.tree && j.tree->loopClosure; },
                             "True for a joint that closes a kinematic loop (a constraint, not a tree edge).")
      .def("__repr__", [](const JointView& j) {
        return "<interlink.Joint " + j.name + " (" + std::string(jointTypeName(j.joint->type)) + ")>";
      });

  py::class_<FrameView>(module, "Frame", "An explicit frame of the file (SDFormat <frame>, MJCF <site>, ...).")
      .def_property_readonly("name", [](const FrameView& f) { return f.name; }, "Scoped name.")
      .def_property_readonly("attached_to", [](const FrameView& f) { return f.frame->attachedTo; }, "Frame it is attached to, as written.")
      .def_property_readonly("attached_link", [](const FrameView& f) { return frameInfo(f.owner, f.index).attachedLink; },
                             "Scoped link it moves with ('' when fixed in the root).")
      .def_property_readonly("origin", [](const FrameView& f) { return toArray(f.frame->pose.pose); },
                             "4x4 pose as written, relative to `relative_to`.")
      .def_property_readonly("relative_to", [](const FrameView& f) { return optionalString(f.frame->pose.relativeTo); },
                             "Frame the origin is written relative to, or None for attached_to.")
      .def("__repr__", [](const FrameView& f) { return "<interlink.Frame " + f.name + ">"; });

  py::class_<ModelView>(module, "ModelElement", "A model of the load: the top model, a nested or an included one.")
      .def_property_readonly("name", [](const ModelView& m) { return m.name; }, "Scoped name.")
      .def_property_readonly("format", [](const ModelView& m) { return m.model->source.format; }, "Plugin that read it.")
      .def_property_readonly("format_version", [](const ModelView& m) { return m.model->source.formatVersion; },
                             "The file's version as written ('' when none).")
      .def_property_readonly("file", [](const ModelView& m) { return m.model->source.file; }, "Absolute path of its file.")
      .def_property_readonly("static", [](const ModelView& m) { return m.model->isStatic; }, "Whether it is static.")
      .def_property_readonly("canonical_link", [](const ModelView& m) { return m.model->canonicalLink; },
                             "Canonical link as written ('' for the default).")
      .def_property_readonly("links", [](const ModelView& m) {
            std::vector<std::string> out;
            for (const Link& link : m.model->links) out.push_back(scopedName(m.scope, link.name));
            return out;
          }, "Scoped names of its own links (nested models' not included).")
      .def_property_readonly("joints", [](const ModelView& m) {
            std::vector<std::string> out;
            for (const Joint& joint : m.model->joints) out.push_back(scopedName(m.scope, joint.name));
            return out;
          }, "Scoped names of its own joints.")
      .def_property_readonly("models", [](const ModelView& m) {
            std::vector<std::string> out;
            for (const Model& nested : m.model->models) out.push_back(scopedName(m.scope, nested.name));
            return out;
          }, "Scoped names of its nested models.")
      .def_property_readonly("pose", [](const ModelView& m) { return toArray(frameInfo(m.owner, m.frame).pose); },
                             "4x4 pose of the model frame in the root frame at zero.")
      .def_property_readonly("parameters", [](const ModelView& m) { return m.model->parameters; },
                             "Format-specific settings kept as written (dict): content.")
      .def_property_readonly("reading_notes", [](const ModelView& m) { return m.model->readingNotes; },
                             "How the file was read (dict): source version, units and conventions applied.")
      .def_property_readonly("gravity", [](const ModelView& m) -> py::object {
            if (!m.model->gravity) return py::none();
            return toArray(*m.model->gravity);
          }, "The gravity the model declares for itself in its model frame (Juice), or None.")
      .def("__repr__", [](const ModelView& m) { return "<interlink.ModelElement " + m.name + " (" + m.model->source.format + ")>"; });

  py::class_<TreeView>(module, "Tree", "The kinematic tree by name: str() draws it as `interlink tree` does.")
      .def_property_readonly("roots", [](const TreeView& t) {
            std::vector<std::string> out;
            std::unordered_map<std::string, bool> moved;
            for (const TreeJoint& j : t.owner->loaded().kinematics.joints()) {
              if (!j.loopClosure) moved[j.childLink] = true;
            }
            for (const FrameInfo& f : t.owner->loaded().graph.frames()) {
              if (f.kind == FrameKind::Link && !moved.count(f.name)) out.push_back(f.name);
            }
            return out;
          }, "Links no tree joint moves (below the root), in document order.")
      .def("parent", [](const TreeView& t, const std::string& link) -> py::object {
            for (const TreeJoint& j : t.owner->loaded().kinematics.joints()) {
              if (!j.loopClosure && j.childLink == link) return j.parentLink.empty() ? py::object(py::none()) : py::object(py::str(j.parentLink));
            }
            if (!t.owner->loaded().graph.find(link)) throw py::key_error("no link named '" + link + "'");
            return py::none();
          }, py::arg("link"), "Parent link of `link` (None for a root).")
      .def("parent_joint", [](const TreeView& t, const std::string& link) -> py::object {
            for (const TreeJoint& j : t.owner->loaded().kinematics.joints()) {
              if (!j.loopClosure && j.childLink == link) return py::str(j.name);
            }
            if (!t.owner->loaded().graph.find(link)) throw py::key_error("no link named '" + link + "'");
            return py::none();
          }, py::arg("link"), "The joint whose child is `link` (None for a root).")
      .def("children", [](const TreeView& t, const std::string& link) {
            if (!t.owner->loaded().graph.find(link)) throw py::key_error("no link named '" + link + "'");
            std::vector<std::string> out;
            for (const TreeJoint& j : t.owner->loaded().kinematics.joints()) {
              if (!j.loopClosure && j.parentLink == link) out.push_back(j.childLink);
            }
            return out;
          }, py::arg("link"), "Child links of `link`, in document order.")
      .def("child_joints", [](const TreeView& t, const std::string& link) {
            if (!t.owner->loaded().graph.find(link)) throw py::key_error("no link named '" + link + "'");
            std::vector<std::string> out;
            for (const TreeJoint& j : t.owner->loaded().kinematics.joints()) {
              if (!j.loopClosure && j.parentLink == link) out.push_back(j.name);
            }
            return out;
          }, py::arg("link"), "Joints whose parent is `link`, in document order.")
      .def("__str__", &describe)
      .def("__call__", &describe, "The tree as text (as `str(tree)`; kept for code written when `tree` was a method).");

  model
      .def_property_readonly("links", [](const PyModel& self) { return links(self.state()); },
                             "Every link (list of Link), in document order.")
      .def("link", [](const PyModel& self, const std::string& name) {
            for (LinkView& link : links(self.state())) {
              if (link.name == name) return link;
            }
            throw py::key_error("no link named '" + name + "'");
          }, py::arg("name"), "The Link of that scoped name (KeyError when there is none).")
      .def_property_readonly("joints", [](const PyModel& self) { return joints(self.state()); },
                             "Every joint (list of Joint), fixed ones included, in document order (which is DOF order\n"
                             "for the joints with DOFs).")
      .def("joint", [](const PyModel& self, const std::string& name) {
            for (JointView& joint : joints(self.state())) {
              if (joint.name == name) return joint;
            }
            throw py::key_error("no joint named '" + name + "'");
          }, py::arg("name"), "The Joint of that scoped name (KeyError when there is none).")
      .def_property_readonly("frames_list", [](const PyModel& self) { return explicitFrames(self.state()); },
                             "The explicit frames of the files (list of Frame).")
      .def_property_readonly("models", [](const PyModel& self) { return collect(self.state()).models; },
                             "Every model of the load (list of ModelElement): the top model, nested and included ones.")
      .def_property_readonly("tree", [](const PyModel& self) { return TreeView{self.state()}; },
                             "The kinematic tree (Tree): roots, parent(), children(); str() draws it.");
}

}  // namespace interlink::python
