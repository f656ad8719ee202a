// interlink._interlink: the C++ host API (Loader, ModelQuery, writers, plugin and hardware
// registries) for Python. The public names and LoadError live in interlink/__init__.py; this
// module does the work and hands back NumPy arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "interlink/Loader.hpp"
#include "interlink/ModelQuery.hpp"
#include "interlink/PoseMath.hpp"
#include "interlink/convert/Writers.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace py = pybind11;

namespace interlink::python {
namespace {

/// One Loader per process: plugins are discovered once (beside the library and in
/// INTERLINK_PLUGIN_PATH), as the CLI does per run.
const Loader& sharedLoader() {
  static std::once_flag once;
  static std::unique_ptr<Loader> loader;
  std::call_once(once, [] { loader = std::make_unique<Loader>(); });
  return *loader;
}

/// Loads run without the GIL but one at a time: the shared registry is not promised to be safe
/// for concurrent loads.
std::mutex& loadMutex() {
  static std::mutex mutex;
  return mutex;
}

const char* severityName(Severity severity) {
  return severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
}

/// Query failures become ValueError with every diagnostic, one per line.
[[noreturn]] void raise(const Diagnostics& diagnostics) {
  std::string message;
  for (const Diagnostic& d : diagnostics) message += (message.empty() ? "" : "\n") + d.format();
  throw py::value_error(message.empty() ? std::string("query failed") : message);
}

py::array_t<double> toArray(const Pose& pose) {
  py::array_t<double> out({4, 4});
  auto view = out.mutable_unchecked<2>();
  const Eigen::Matrix4d m = pose.matrix();
  for (py::ssize_t r = 0; r < 4; ++r) {
    for (py::ssize_t c = 0; c < 4; ++c) view(r, c) = m(r, c);
  }
  return out;
}

py::array_t<double> toArray(const Vector3& v) {
  py::array_t<double> out(3);
  auto view = out.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < 3; ++i) view(i) = v[i];
  return out;
}

template <typename Matrix>
py::array_t<double> toArray2d(const Matrix& m) {
  py::array_t<double> out({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())});
  auto view = out.mutable_unchecked<2>();
  for (py::ssize_t r = 0; r < view.shape(0); ++r) {
    for (py::ssize_t c = 0; c < view.shape(1); ++c) view(r, c) = m(r, c);
  }
  return out;
}

/// A loaded model: the load result and, built on first use, its query index.
class PyModel {
 public:
  explicit PyModel(LoadResult loaded) : loaded_(std::make_unique<LoadResult>(std::move(loaded))) {}

  const LoadResult& loaded() const { return *loaded_; }
  bool ok() const { return loaded_->ok(); }

  const ModelQuery& query() const {
    if (!query_) query_ = std::make_unique<ModelQuery>(*loaded_);
    return *query_;
  }

  /// q as None (zero configuration), a sequence or array (DOF order), or {dof or joint: value}.
  std::vector<double> configuration(const py::object& q) const {
    const auto& dofs = loaded_->kinematics.dofs();
    if (q.is_none()) return std::vector<double>(dofs.size(), 0.0);
    Diagnostics diagnostics;
    if (py::isinstance<py::dict>(q)) {
      std::map<std::string, double> values;
      for (auto item : q.cast<py::dict>()) {
        if (!py::isinstance<py::str>(item.first) || !PyNumber_Check(item.second.ptr())) {
          throw py::type_error("q: a dict maps DOF names (str) to numbers; got " + std::string(py::repr(item.first)) +
                               ": " + std::string(py::repr(item.second)));
        }
        values[item.first.cast<std::string>()] = item.second.cast<double>();
      }
      auto vector = query().configuration(values, diagnostics);
      if (!vector) raise(diagnostics);
      return *vector;
    }
    if (py::isinstance<py::str>(q)) {
      const std::string which = q.cast<std::string>();
      if (which == "zero") return loaded_->kinematics.zeroConfiguration();
      if (which == "initial") return loaded_->kinematics.initialConfiguration();
      throw py::value_error("q: expected None, 'zero', 'initial', a sequence of " + std::to_string(dofs.size()) +
                            " numbers or a dict {joint: value}; got '" + which + "'");
    }
    auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(q);
    if (!array || array.ndim() != 1) {
      throw py::value_error("q: expected a one-dimensional sequence of " + std::to_string(dofs.size()) +
                            " numbers (DOF order) or a dict {joint: value}");
    }
    return std::vector<double>(array.data(), array.data() + array.size());
  }

  py::dict frames(const py::object& q, const std::optional<std::string>& relativeTo) const {
    const std::vector<double> values = configuration(q);
    Diagnostics diagnostics;
    auto poses = query().framePoses(values, relativeTo.value_or(""), diagnostics);
    if (!poses) raise(diagnostics);
    py::dict out;
    const auto& frames = loaded_->graph.frames();
    for (std::size_t i = 1; i < frames.size(); ++i) out[py::str(frames[i].name)] = toArray((*poses)[i]);  // 0: the root
    return out;
  }

  py::array_t<double> pose(const std::string& frame, const py::object& q, const std::optional<std::string>& relativeTo) const {
    const std::vector<double> values = configuration(q);
    Diagnostics diagnostics;
    auto pose = query().pose(frame, values, relativeTo.value_or(""), diagnostics);
    if (!pose) raise(diagnostics);
    return toArray(*pose);
  }

  py::tuple massProperties(const py::object& q, const std::optional<std::string>& subtree) const {
    const std::vector<double> values = configuration(q);
    Diagnostics diagnostics;
    auto mass = query().massProperties(values, subtree.value_or(""), diagnostics);
    if (!mass) raise(diagnostics);
    return py::make_tuple(mass->mass, toArray(mass->centerOfMass), toArray2d(mass->inertia));
  }

  py::array_t<double> jacobian(const std::string& frame, const py::object& q) const {
    const std::vector<double> values = configuration(q);
    Diagnostics diagnostics;
    auto J = query().jacobian(frame, values, diagnostics);
    if (!J) raise(diagnostics);
    return toArray2d(*J);
  }

  /// Writes the model in the format of the path's extension; returns the writer's warnings.
  std::vector<Diagnostic> convert(const std::string& path) const {
    const auto dot = path.find_last_of('.');
    std::string extension = dot == std::string::npos ? std::string() : path.substr(dot);
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Diagnostics diagnostics;
    std::optional<std::string> text;
    if (extension == ".sdf") {
      text = convert::writeSdformat(*loaded_, diagnostics);
    } else if (extension == ".urdf") {
      text = convert::writeUrdf(*loaded_, diagnostics);
    } else if (extension == ".json") {
      text = convert::writeJson(*loaded_);
    } else if (extension == ".dot") {
      text = convert::writeDot(*loaded_);
    } else {
      throw py::value_error("cannot write '" + path + "': the extension must be .sdf, .urdf, .json or .dot");
    }
    if (!text) raise(diagnostics);
    std::ofstream out(path, std::ios::binary);
    out << *text;
    out.close();
    if (!out) throw py::value_error("cannot write '" + path + "'");  // an OSError would lose the path context
    return diagnostics.items();
  }

 private:
  std::unique_ptr<LoadResult> loaded_;
  mutable std::unique_ptr<ModelQuery> query_;
};

LoadOptions makeOptions(const std::optional<std::string>& format, const std::vector<std::string>& resourcePaths) {
  LoadOptions options;
  options.format = format.value_or("");
  options.resourcePaths = resourcePaths;
  return options;
}

}  // namespace
}  // namespace interlink::python

PYBIND11_MODULE(_interlink, m) {
  using namespace interlink;
  using namespace interlink::python;
  m.doc() = "Native part of the interlink package; use the names exported by `interlink`.";

  py::class_<Diagnostic>(m, "Diagnostic", "One finding about an input: severity, code, message and where.")
      .def_property_readonly("severity", [](const Diagnostic& d) { return severityName(d.severity); },
                             "'error', 'warning' or 'note'.")
      .def_property_readonly("code", [](const Diagnostic& d) { return std::string(codeName(d.code)); },
                             "Error code name, e.g. 'JOINT_CHILD_LINK_INVALID'.")
      .def_readonly("message", &Diagnostic::message, "What is wrong and what was expected.")
      .def_property_readonly("file", [](const Diagnostic& d) { return d.where.file.str(); }, "File ('' when unknown).")
      .def_property_readonly("line", [](const Diagnostic& d) { return d.where.line; }, "1-based line (0: unknown).")
      .def_property_readonly("column", [](const Diagnostic& d) { return d.where.column; }, "1-based column (0: unknown).")
      .def("__str__", &Diagnostic::format, "Compiler-style text: 'file:line:col: error[CODE]: message'.")
      .def("__repr__", [](const Diagnostic& d) { return "<interlink.Diagnostic " + d.format() + ">"; });

  py::class_<JointInfo>(m, "JointInfo", "A joint with DOFs, as the configuration vector sees it.")
      .def_readonly("name", &JointInfo::name, "Scoped joint name.")
      .def_property_readonly("type", [](const JointInfo& j) { return std::string(jointTypeName(j.type)); },
                             "Joint type ('revolute', 'prismatic', 'ball', ...).")
      .def_readonly("first_dof", &JointInfo::firstDof, "Index of its first coordinate in q.")
      .def_readonly("dof_count", &JointInfo::dofCount, "Number of coordinates it adds to q.")
      .def_property_readonly("axes", [](const JointInfo& j) {
            Eigen::MatrixXd a(static_cast<Eigen::Index>(j.axes.size()), 3);
            for (std::size_t i = 0; i < j.axes.size(); ++i) a.row(static_cast<Eigen::Index>(i)) = j.axes[i].transpose();
            return toArray2d(a);
          }, "Unit axes in the joint frame, one row per axis (k x 3 array).")
      .def_property_readonly("axis", [](const JointInfo& j) -> py::object {
            if (j.axes.empty()) return py::none();
            return toArray(j.axes.front());
          }, "The first axis (3-vector in the joint frame), or None.")
      .def_readonly("lower", &JointInfo::lower, "Lower limit per axis (-inf when unlimited).")
      .def_readonly("upper", &JointInfo::upper, "Upper limit per axis (+inf when unlimited).")
      .def_readonly("effort", &JointInfo::effort, "Effort limit per axis.")
      .def_readonly("velocity", &JointInfo::velocity, "Velocity limit per axis.")
      .def_readonly("initial", &JointInfo::initial, "Initial position of each coordinate.")
      .def_readonly("parent_link", &JointInfo::parentLink, "Scoped parent link ('' for the root).")
      .def_readonly("child_link", &JointInfo::childLink, "Scoped child link.")
      .def("__repr__", [](const JointInfo& j) {
        return "<interlink.JointInfo " + j.name + " (" + std::string(jointTypeName(j.type)) + ", dof " +
               std::to_string(j.firstDof) + ")>";
      });

  py::class_<PyModel>(m, "Model", "A loaded, composed model with resolved frames.")
      .def_property_readonly("ok", &PyModel::ok, "True when the load has no errors.")
      .def_property_readonly("diagnostics", [](const PyModel& self) { return self.loaded().diagnostics.items(); },
                             "Every finding of the load (warnings and notes of a valid model).")
      .def_property_readonly("dofs", [](const PyModel& self) { return self.query().dofNames(); },
                             "DOF names in configuration order.")
      .def_property_readonly("joints", [](const PyModel& self) { return self.query().joints(); },
                             "JointInfo of every joint with DOFs, in DOF order.")
      .def_property_readonly("root", [](const PyModel& self) { return self.loaded().graph.rootName(); },
                             "Name of the root frame ('world' or the top model's name).")
      .def_property_readonly("format", [](const PyModel& self) { return self.loaded().document.format; },
                             "Name of the plugin that read the top-level file.")
      .def_property_readonly("source_file", [](const PyModel& self) { return self.loaded().document.sourceFile; },
                             "Absolute path of the file (or the name given to a string).")
      .def_property_readonly("frame_kinds", [](const PyModel& self) {
            py::dict out;
            const auto& frames = self.loaded().graph.frames();
            for (std::size_t i = 1; i < frames.size(); ++i) out[py::str(frames[i].name)] = frameKindName(frames[i].kind);
            return out;
          }, "dict: scoped frame name -> 'model', 'link', 'joint' or 'frame'.")
      .def("frames", &PyModel::frames, py::arg("q") = py::none(), py::arg("relative_to") = py::none(),
           "Poses of every frame (the root excluded) at q as a dict: scoped name -> 4x4 array X_RF.")
      .def("pose", &PyModel::pose, py::arg("frame"), py::arg("q") = py::none(), py::arg("relative_to") = py::none(),
           "4x4 pose of `frame` relative to `relative_to` (default: the root) at q.")
      .def("mass_properties", &PyModel::massProperties, py::arg("q") = py::none(), py::arg("subtree") = py::none(),
           "(mass, com[3], inertia[3,3] about the com) in the root frame at q.")
      .def("jacobian", &PyModel::jacobian, py::arg("frame"), py::arg("q") = py::none(),
           "6 x len(dofs) geometric Jacobian of `frame`: rows 0-2 origin velocity, 3-5 angular velocity.")
      .def("convert", &PyModel::convert, py::arg("path"),
           "Writes the model as .sdf, .urdf, .json or .dot; returns the writer's warnings.")
      .def("tree", [](const PyModel& self) { return self.loaded().kinematics.describeTree(); },
           "The kinematic tree as text, as `interlink tree` prints it.")
      .def("configuration", [](const PyModel& self, const py::object& q) {
            const auto values = self.configuration(q);
            return py::array_t<double>(static_cast<py::ssize_t>(values.size()), values.data());
          }, py::arg("q") = py::none(), "q (None, 'zero', 'initial', sequence or dict) as an array in DOF order.");

  m.def("_load", [](const std::string& path, const std::optional<std::string>& format, const std::vector<std::string>& resourcePaths,
                    const std::map<std::string, std::string>& args) {
        const Loader& loader = sharedLoader();
        LoadOptions options = makeOptions(format, resourcePaths);
        options.arguments.assign(args.begin(), args.end());  // xacro's $(arg NAME)
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(loadMutex());
        return PyModel(loader.loadFile(path, options));
      }, py::arg("path"), py::arg("format"), py::arg("resource_paths"), py::arg("args") = std::map<std::string, std::string>(),
      "Loads a file; never raises for bad input.");
  m.def("_loads", [](const std::string& text, const std::optional<std::string>& format, const std::string& fileName,
                     const std::vector<std::string>& resourcePaths) {
        const Loader& loader = sharedLoader();
        const LoadOptions options = makeOptions(format, resourcePaths);
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(loadMutex());
        return PyModel(loader.loadString(text, fileName, options));
      }, py::arg("text"), py::arg("format"), py::arg("file_name"), py::arg("resource_paths"),
      "Loads text as if read from file_name; never raises for bad input.");

  m.def("_plugins", [] {
        const PluginRegistry& registry = sharedLoader().plugins();
        py::list loaded, refused;
        for (const PluginHandle& handle : registry.plugins()) {
          const PluginInfo& info = handle.info();
          py::dict entry;
          entry["name"] = info.name;
          entry["version"] = info.version;
          entry["kind"] = info.kind == plugin::PluginKind::Format ? "format" : "hardware";
          entry["extensions"] = info.extensions;
          entry["path"] = info.path;
          loaded.append(entry);
        }
        for (const RefusedLibrary& library : registry.refused()) {
          py::dict entry;
          entry["path"] = library.path;
          entry["reason"] = library.reason;
          refused.append(entry);
        }
        return py::make_tuple(loaded, refused);
      }, "(loaded plugins, refused libraries) as lists of dicts.");

  m.def("_hardware_families", [] {
        const hardware::HardwareRegistry& registry = sharedLoader().hardware();
        std::map<std::string, py::dict> byPlugin;  // one entry per plugin, types in catalog order
        py::list order;
        for (const auto& item : registry.items()) {
          auto [it, added] = byPlugin.try_emplace(item.plugin);
          if (added) {
            it->second["plugin"] = item.plugin;
            it->second["family"] = item.family;
            it->second["types"] = py::list();
            order.append(it->second);
          }
          it->second["types"].cast<py::list>().append(item.entry->type);
        }
        return order;
      }, "Hardware families as dicts {plugin, family, types}.");
}
