// The writers for Python: Model.convert(path, to=None, mesh_uris=None, urdf_floating_joint=False) and the module's _write and
// _writers, over the one writer registry that `interlink convert` uses
// (convert::WriterRegistry::builtIn()): the same formats, the same checked write (the output is
// read back before it replaces the file), the same text.
#include <pybind11/stl.h>

#include <optional>

#include "ModelState.hpp"
#include "interlink/convert/WriterRegistry.hpp"

namespace interlink::python {

namespace {

/// The writer named by `to` (a name or an extension), else by the extension of `path`.
const convert::WriterRegistry::Writer& writerFor(const std::string& path, const std::optional<std::string>& to) {
  const convert::WriterRegistry& writers = convert::WriterRegistry::builtIn();
  const convert::WriterRegistry::Writer* writer = to ? writers.find(*to) : writers.forPath(path);
  if (writer) return *writer;
  if (to) throw py::value_error("unknown output format '" + *to + "'; known: " + writers.describe());
  throw py::value_error("cannot write '" + path + "': the extension must be one of " + writers.describe() + " (or give to=)");
}

/// Writes the model to `path` as `interlink convert` does (no GIL meanwhile); returns the
/// writer's warnings, raises ValueError with every error when nothing was written.
std::vector<Diagnostic> write(const ModelState& state, const py::object& pathLike, const std::optional<std::string>& to,
                              const std::optional<std::string>& meshUris, bool urdfFloatingJoint) {
  const std::string path = py::module_::import("os").attr("fspath")(pathLike).cast<std::string>();
  const convert::WriterRegistry::Writer& writer = writerFor(path, to);
  convert::WriteOptions options;
  if (meshUris) {
    const auto style = convert::meshUriStyleNamed(*meshUris);
    if (!style) throw py::value_error("unknown mesh_uris '" + *meshUris + "'; known: portable, relative, absolute, as-written");
    options.meshUris = *style;
  }
  options.urdfFloatingJoint = urdfFloatingJoint;
  LoadOptions readBackOptions = state.options();
  readBackOptions.listEveryWarning = true;
  Diagnostics diagnostics;
  bool written = false;
  {
    py::gil_scoped_release release;
    written = convert::WriterRegistry::builtIn().writeFile(writer, state.loaded(), path, options, sharedLoader(),
                                                            readBackOptions, diagnostics);
  }
  if (!written) {
    if (!diagnostics.hasErrors()) diagnostics.error(ErrorCode::FILE_READ, "cannot write '" + path + "'");
    raise(diagnostics);
  }
  return diagnostics.items();
}

}  // namespace

void bindWriters(py::module_& module, py::class_<PyModel>& model) {
  model.def("convert", [](const PyModel& self, const py::object& path, const std::optional<std::string>& to,
                          const std::optional<std::string>& meshUris, bool urdfFloatingJoint) {
        return write(*self.state(), path, to, meshUris, urdfFloatingJoint);
      },
      py::arg("path"), py::arg("to") = py::none(), py::arg("mesh_uris") = py::none(),
      py::arg("urdf_floating_joint") = false,
      "Writes the model as `interlink convert` does: in the format named by `to` ('sdformat', 'urdf',\n"
      "'mjcf', 'json', 'dot'; interlink.writers() lists them), else by the extension of `path`; the\n"
      "output is read back before it replaces `path`. mesh_uris: 'portable' (default), 'relative',\n"
      "'absolute' or 'as-written'. urdf_floating_joint: write a floating base to URDF as a 'floating'\n"
      "joint from 'world' (the CLI's --urdf-floating-joint). Returns the writer's warnings; raises\n"
      "ValueError (every error)\n"
      "when nothing was written.");
  module.def("_write", [](const PyModel& self, const py::object& path, const std::optional<std::string>& to,
                          const std::optional<std::string>& meshUris, bool urdfFloatingJoint) {
        return write(*self.state(), path, to, meshUris, urdfFloatingJoint);
      },
      py::arg("model"), py::arg("path"), py::arg("to"), py::arg("mesh_uris"), py::arg("urdf_floating_joint") = false);
  module.def("_writers", [] {
        std::vector<std::pair<std::string, std::vector<std::string>>> out;
        for (const auto& w : convert::WriterRegistry::builtIn().writers()) out.emplace_back(w.name, w.extensions);
        return out;
      }, "(name, extensions) of every writer of the registry.");
}

}  // namespace interlink::python
