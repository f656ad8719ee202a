// Core model → JSON: every field of the model types, then the resolved frames, tree and DOFs.
// Schema: docs/convert.md. Infinite values (unlimited joint limits) are written as null. Numbers
// are exact (shortest round-trip text, tiny values kept) and poses carry their rotation matrix
// beside the quaternion, so the core-model reader gets back the very same model.
#include <cmath>
#include <vector>

#include "WriterSupport.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::convert {
namespace {

/// A streaming JSON writer that places the commas; indentation by nesting depth.
class JsonOut {
 public:
  void beginObject() { open('{'); }
  void endObject() { close('}'); }
  void beginArray() { open('['); }
  void endArray() { close(']'); }
  void key(const char* name) {
    separate();
    out_ += detail::jsonString(name) + ": ";
    afterKey_ = true;
  }
  void string(const std::string& text) { scalar(detail::jsonString(text)); }
  void number(double value) { scalar(exact(value)); }
  void integer(long long value) { scalar(std::to_string(value)); }
  void boolean(bool value) { scalar(value ? "true" : "false"); }
  void null() { scalar("null"); }
  void vector(const Vector3& v) {
    beginInline();
    out_ += "[" + exact(v.x()) + ", " + exact(v.y()) + ", " + exact(v.z()) + "]";
  }
  void numbers(const std::vector<double>& values) {
    beginInline();
    out_ += "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
      out_ += (i ? ", " : "") + exact(values[i]);
    }
    out_ += "]";
  }
  // key + value shorthands
  void field(const char* name, const std::string& text) { key(name), string(text); }
  void field(const char* name, const char* text) { key(name), string(text); }
  void field(const char* name, double value) { key(name), number(value); }
  void field(const char* name, bool value) { key(name), boolean(value); }
  void field(const char* name, const Vector3& v) { key(name), vector(v); }
  const std::string& str() const { return out_; }

 private:
  static std::string exact(double value) { return std::isfinite(value) ? formatNumber(value) : "null"; }
  void newline() {
    out_ += "\n";
    out_.append(2 * counts_.size(), ' ');
  }
  void separate() {
    if (!counts_.empty() && counts_.back()++ > 0) out_ += ",";
    if (!counts_.empty()) newline();
  }
  void beginInline() {
    if (afterKey_) {
      afterKey_ = false;
    } else {
      separate();
    }
  }
  void scalar(const std::string& text) {
    beginInline();
    out_ += text;
  }
  void open(char bracket) {
    beginInline();
    out_ += bracket;
    counts_.push_back(0);
  }
  void close(char bracket) {
    const bool empty = counts_.back() == 0;
    counts_.pop_back();
    if (!empty) newline();
    out_ += bracket;
  }
  std::string out_;
  std::vector<int> counts_;
  bool afterKey_ = false;
};

class JsonWriter {
 public:
  explicit JsonWriter(const LoadResult& loaded) : loaded_(loaded) {}

  std::string write() {
    const Document& d = loaded_.document;
    json_.beginObject();
    json_.key("interlink_model");
    json_.integer(1);
    json_.key("document");
    json_.beginObject();
    json_.field("source_file", d.sourceFile);
    json_.field("format", d.format);
    json_.field("format_version", d.formatVersion);
    rules("rules", d.rules);
    json_.key("worlds");
    json_.beginArray();
    for (const World& w : d.worlds) world(w);
    json_.endArray();
    json_.key("model");
    if (d.model) {
      model(*d.model);
    } else {
      json_.null();
    }
    lights(d.lights);
    kept(d.kept);
    json_.endObject();
    resolved();
    json_.endObject();
    return json_.str() + "\n";
  }

 private:
  void where(const SourceLocation& w) {
    json_.key("where");
    json_.beginObject();
    json_.field("file", w.file);
    json_.key("line");
    json_.integer(w.line);
    json_.key("column");
    json_.integer(w.column);
    json_.endObject();
  }

  void transform(const char* name, const Pose& pose) {
    json_.key(name);
    json_.beginObject();
    json_.field("position", Vector3(pose.translation()));
    rotation(pose);
    json_.endObject();
  }

  /// The quaternion for readers, the matrix for an exact round trip.
  void rotation(const Pose& pose) {
    const Eigen::Vector4d q = quaternionWxyz(pose);
    json_.key("quaternion_wxyz");
    json_.numbers({q[0], q[1], q[2], q[3]});
    const Matrix3 r = pose.linear();
    json_.key("rotation");
    json_.numbers({r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1), r(2, 2)});
  }

  void semanticPose(const char* name, const SemanticPose& pose) {
    json_.key(name);
    json_.beginObject();
    json_.field("relative_to", pose.relativeTo);
    json_.field("position", Vector3(pose.pose.translation()));
    rotation(pose.pose);
    json_.endObject();
  }

  void parameters(const char* key, const std::map<std::string, std::string>& values) {
    json_.key(key);
    json_.beginObject();
    for (const auto& [k, v] : values) json_.field(k.c_str(), v);
    json_.endObject();
  }

  /// `key`: an array of one object per item of `list`, whose fields `write` writes.
  template <typename List, typename Write>
  void objects(const char* key, const List& list, Write write) {
    json_.key(key);
    json_.beginArray();
    for (const auto& item : list) {
      json_.beginObject();
      write(item);
      json_.endObject();
    }
    json_.endArray();
  }

  void kept(const std::vector<KeptElement>& elements) {
    objects("kept", elements, [&](const KeptElement& e) {
      json_.field("path", e.path);
      json_.field("text", e.text);
      where(e.where);
    });
  }

  void lights(const std::vector<Light>& list) {
    objects("lights", list, [&](const Light& l) {
      json_.field("name", l.name);
      json_.field("type", l.type == LightType::Point ? "point" : l.type == LightType::Directional ? "directional" : "spot");
      semanticPose("pose", l.pose);
      json_.field("attached_to", l.attachedTo);
      json_.field("direction", l.direction);
      json_.key("diffuse");
      json_.numbers({l.diffuse[0], l.diffuse[1], l.diffuse[2], l.diffuse[3]});
      json_.field("cast_shadows", l.castShadows);
      where(l.where);
    });
  }

  void frames(const std::vector<Frame>& list) {
    objects("frames", list, [&](const Frame& f) {
      json_.field("name", f.name);
      json_.field("attached_to", f.attachedTo);
      semanticPose("pose", f.pose);
      where(f.where);
    });
  }

  void joints(const std::vector<Joint>& list) {
    objects("joints", list, [&](const Joint& j) {
      json_.field("name", j.name);
      json_.field("type", std::string(jointTypeName(j.type)));
      json_.field("parent", j.parent);
      json_.field("child", j.child);
      semanticPose("pose", j.pose);
      json_.key("axes");
      json_.beginArray();
      for (const JointAxis& a : j.axes) {
        json_.beginObject();
        json_.field("xyz", a.xyz);
        json_.field("expressed_in", a.expressedIn);
        json_.field("lower", a.lower);
        json_.field("upper", a.upper);
        json_.field("effort", a.effort);
        json_.field("velocity", a.velocity);
        json_.field("damping", a.damping);
        json_.field("friction", a.friction);
        json_.field("spring_reference", a.springReference);
        json_.field("spring_stiffness", a.springStiffness);
        where(a.where);
        json_.endObject();
      }
      json_.endArray();
      json_.field("screw_thread_pitch", j.screwThreadPitch);
      json_.field("gearbox_ratio", j.gearboxRatio);
      json_.field("transmission_ratio", j.transmissionRatio);
      json_.key("initial_positions");
      json_.numbers(j.initialPositions);
      json_.key("initial_velocities");
      json_.numbers(j.initialVelocities);
      json_.key("mimic");
      if (j.mimic) {
        json_.beginObject();
        json_.field("joint", j.mimic->joint);
        json_.field("multiplier", j.mimic->multiplier);
        json_.field("offset", j.mimic->offset);
        json_.endObject();
      } else {
        json_.null();
      }
      json_.field("loop_closure", j.loopClosure);
      json_.field("actuator", j.actuator);
      where(j.where);
    });
  }

  void geometry(const Geometry& g) {
    json_.key("geometry");
    json_.beginObject();
    json_.field("type", geometryTypeName(g.type));
    json_.field("size", g.size);
    json_.field("radius", g.radius);
    json_.field("length", g.length);
    json_.field("radii", g.radii);
    json_.field("normal", g.normal);
    json_.key("plane_size");
    json_.numbers({g.planeSize.x(), g.planeSize.y()});
    json_.field("mesh_uri", g.meshUri);
    json_.field("mesh_resolved_path", g.meshResolvedPath);
    json_.field("scale", g.scale);
    json_.key("mesh_info");
    if (g.mesh) {
      json_.beginObject();
      json_.key("vertex_count");
      json_.integer(static_cast<long long>(g.mesh->vertexCount));
      json_.key("face_count");
      json_.integer(static_cast<long long>(g.mesh->faceCount));
      json_.field("bounds_min", g.mesh->boundsMin);
      json_.field("bounds_max", g.mesh->boundsMax);
      json_.endObject();
    } else {
      json_.null();
    }
    objects("spheres", g.spheres, [&](const Sphere& s) {
      json_.field("radius", s.radius);
      json_.field("center", s.center);
    });
    json_.endObject();
  }

  void shapes(const char* name, const std::vector<Shape>& list) {
    objects(name, list, [&](const Shape& s) {
      json_.field("name", s.name);
      semanticPose("pose", s.pose);
      geometry(s.geometry);
      json_.key("color");
      if (s.color) {
        json_.numbers({(*s.color)[0], (*s.color)[1], (*s.color)[2], (*s.color)[3]});
      } else {
        json_.null();
      }
      json_.field("material", s.material);
      where(s.where);
    });
  }

  void links(const std::vector<Link>& list) {
    objects("links", list, [&](const Link& l) {
      json_.field("name", l.name);
      semanticPose("pose", l.pose);
      json_.field("has_inertial", l.hasInertial);
      json_.key("inertial");
      json_.beginObject();
      json_.field("mass", l.inertial.mass);
      transform("center_of_mass", l.inertial.centerOfMass);
      json_.key("inertia");
      json_.beginArray();
      for (int r = 0; r < 3; ++r) json_.vector(l.inertial.inertia.row(r).transpose());
      json_.endArray();
      json_.endObject();
      json_.field("gravity", l.gravity);
      json_.field("self_collide", l.selfCollide);
      shapes("visuals", l.visuals);
      shapes("collisions", l.collisions);
      where(l.where);
    });
  }

  void model(const Model& m) {
    json_.beginObject();
    json_.field("name", m.name);
    semanticPose("pose", m.pose);
    json_.field("static", m.isStatic);
    json_.field("canonical_link", m.canonicalLink);
    json_.field("placement_frame", m.placementFrame);
    links(m.links);
    joints(m.joints);
    frames(m.frames);
    json_.key("models");
    json_.beginArray();
    for (const Model& nested : m.models) model(nested);
    json_.endArray();
    lights(m.lights);
    json_.key("gravity");
    m.gravity ? json_.vector(*m.gravity) : json_.null();
    parameters("parameters", m.parameters);
    parameters("reading_notes", m.readingNotes);
    kept(m.kept);
    json_.field("from_interface_model", m.source.fromInterfaceModel);
    json_.field("source_format", m.source.format);
    json_.field("source_format_version", m.source.formatVersion);
    rules("source_rules", m.source.rules);
    json_.field("source_file", m.source.file);
    where(m.where);
    json_.endObject();
  }

  /// The rules the plugin declared (interlink/model/FormatRules.hpp), so that a recorded model is
  /// resolved again under them.
  void rules(const char* key, const FormatRules& r) {
    json_.key(key);
    json_.beginObject();
    json_.key("version");
    json_.numbers({double(r.versionMajor), double(r.versionMinor), double(r.versionPatch)});
    std::size_t count = 0;
    const FormatRules::Flag* flags = FormatRules::flags(count);
    for (std::size_t i = 0; i < count; ++i) json_.field(flags[i].name, r.*flags[i].rule);
    const FormatRules::InertiaFlag* inertiaFlags = FormatRules::inertiaFlags(count);
    for (std::size_t i = 0; i < count; ++i) json_.field(inertiaFlags[i].name, r.inertia.*inertiaFlags[i].rule);
    json_.field("inertia_severity", severityName(r.inertia.severity));
    json_.field("inertia_tolerance", inertiaToleranceName(r.inertia.tolerance));
    json_.field("inertia_moving_body_minimum", r.inertia.movingBodyMinimum);
    json_.field("inertia_verdict", static_cast<const char*>(r.inertia.verdict));
    json_.endObject();
  }

  void world(const World& w) {
    json_.beginObject();
    json_.field("name", w.name);
    json_.field("gravity", w.gravity);
    json_.key("physics");
    json_.beginObject();
    json_.field("name", w.physics.name);
    json_.field("type", w.physics.type);
    json_.field("max_step_size", w.physics.maxStepSize);
    json_.field("real_time_factor", w.physics.realTimeFactor);
    json_.field("collision_detector", w.physics.collisionDetector);
    json_.key("values");
    json_.beginObject();
    for (const auto& [k, v] : w.physics.values) json_.field(k.c_str(), v);
    json_.endObject();
    json_.endObject();
    json_.key("models");
    json_.beginArray();
    for (const Model& m : w.models) model(m);
    json_.endArray();
    frames(w.frames);
    joints(w.joints);
    lights(w.lights);
    parameters("parameters", w.parameters);
    parameters("reading_notes", w.readingNotes);
    kept(w.kept);
    where(w.where);
    json_.endObject();
  }

  void resolved() {
    const auto& all = loaded_.graph.frames();
    json_.key("resolved");
    json_.beginObject();
    json_.field("root", loaded_.graph.rootName());
    objects("frames", all, [&](const FrameInfo& f) {
      json_.field("name", f.name);
      json_.field("kind", frameKindName(f.kind));
      json_.field("position", Vector3(f.pose.translation()));
      const Eigen::Vector4d q = quaternionWxyz(f.pose);
      json_.key("quaternion_wxyz");
      json_.numbers({q[0], q[1], q[2], q[3]});
      json_.field("attached_to_link", f.attachedLink);
      json_.key("relative_to");
      f.relativeTo >= 0 ? json_.string(all[static_cast<std::size_t>(f.relativeTo)].name) : json_.null();
      json_.key("attached_to");
      f.attachedTo >= 0 ? json_.string(all[static_cast<std::size_t>(f.attachedTo)].name) : json_.null();
    });
    objects("tree", loaded_.kinematics.joints(), [&](const TreeJoint& j) {
      json_.field("joint", j.name);
      json_.field("type", std::string(jointTypeName(j.type)));
      json_.field("parent_link", j.parentLink);
      json_.field("child_link", j.childLink);
      json_.key("first_dof");
      json_.integer(j.firstDof);
      json_.field("loop_closure", j.loopClosure);
    });
    objects("dofs", loaded_.kinematics.dofs(), [&](const Dof& dof) {
      json_.field("name", dof.name);
      json_.field("joint", dof.joint);
      json_.key("index");
      json_.integer(dof.index);
      json_.field("initial", dof.initial);
    });
    json_.endObject();
  }

  const LoadResult& loaded_;
  JsonOut json_;
};

}  // namespace

std::string writeJson(const LoadResult& loaded) { return JsonWriter(loaded).write(); }

}  // namespace interlink::convert
