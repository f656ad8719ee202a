// interlink._interlink: the C++ host API (Loader, ModelQuery, writers, plugin and hardware
// registries) for Python. The public names and LoadError live in interlink/__init__.py; this
// module does the work and hands back NumPy arrays.
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ModelState.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"

namespace interlink::python {

const Loader& sharedLoader() {
  static std::once_flag once;
  static std::unique_ptr<Loader> loader;
  std::call_once(once, [] { loader = std::make_unique<Loader>(); });
  return *loader;
}

namespace {


LoadOptions makeOptions(const std::optional<std::string>& format, const std::vector<std::string>& resourcePaths,
                        bool confine) {
  LoadOptions options;
  options.format = format.value_or("");
  options.resourcePaths = resourcePaths;
  options.confineToRoots = confine;
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

  // NumPy is not imported here: `import interlink` stays cheap, and ensureNumpy() runs before the
  // first array is made.
  py::class_<PyModel> model(m, "Model", "A loaded, composed model with resolved frames.");
  model
      .def_property_readonly("ok", [](const PyModel& self) { return self.loaded().ok(); }, "True when the load has no errors.")
      .def_property_readonly("diagnostics", [](const PyModel& self) { return self.loaded().diagnostics.items(); },
                             "Every finding of the load (warnings and notes of a valid model).")
      .def_property_readonly("dofs", [](const PyModel& self) { return self.query().dofNames(); },
                             "DOF names in configuration order.")
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
          }, "dict: scoped frame name -> 'model', 'link', 'joint' or 'frame'.");
  bindQueries(model);
  bindElements(m, model);
  bindWriters(m, model);

  m.def("_load", [](const std::string& path, const std::optional<std::string>& format, const std::vector<std::string>& resourcePaths,
                    bool confine, const std::map<std::string, std::string>& args) {
        const Loader& loader = sharedLoader();
        LoadOptions options = makeOptions(format, resourcePaths, confine);
        options.arguments.assign(args.begin(), args.end());  // xacro's $(arg NAME)
        py::gil_scoped_release release;
        return PyModel(loader.loadFile(path, options), options);
      }, py::arg("path"), py::arg("format"), py::arg("resource_paths"), py::arg("confine") = false,
      py::arg("args") = std::map<std::string, std::string>(),
      "Loads a file; never raises for bad input.");
  m.def("_loads", [](const std::string& text, const std::optional<std::string>& format, const std::string& fileName,
                     const std::vector<std::string>& resourcePaths, bool confine) {
        const Loader& loader = sharedLoader();
        const LoadOptions options = makeOptions(format, resourcePaths, confine);
        py::gil_scoped_release release;
        return PyModel(loader.loadString(text, fileName, options), options);
      }, py::arg("text"), py::arg("format"), py::arg("file_name"), py::arg("resource_paths"), py::arg("confine") = false,
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
