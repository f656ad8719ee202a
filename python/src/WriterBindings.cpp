// The writers for Python: Model.convert(path, to=None) and the module's _convert and _writers,
// over the same writers as `interlink convert` (and `interlink graph -o x.dot`).
#include <pybind11/stl.h>

#include <fstream>
#include <optional>

#include "ModelState.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/convert/Writers.hpp"

namespace interlink::python {

namespace {

/// One output format: its name (as `interlink convert --to` takes it), file extensions and writer.
struct Writer {
  const char* name;
  std::vector<std::string> extensions;
  std::optional<std::string> (*write)(const LoadResult&, Diagnostics&);
};

const std::vector<Writer>& writers() {
  static const std::vector<Writer> table = {
      {"sdformat", {".sdf"}, [](const LoadResult& l, Diagnostics& d) { return convert::writeSdformat(l, d); }},
      {"urdf", {".urdf"}, [](const LoadResult& l, Diagnostics& d) { return convert::writeUrdf(l, d); }},
      {"mjcf", {".mjcf", ".xml"}, [](const LoadResult& l, Diagnostics& d) { return convert::writeMjcf(l, d); }},
      {"json", {".json"}, [](const LoadResult& l, Diagnostics&) -> std::optional<std::string> { return convert::writeJson(l); }},
      {"dot", {".dot", ".gv"}, [](const LoadResult& l, Diagnostics&) -> std::optional<std::string> { return convert::writeDot(l); }},
  };
  return table;
}

std::string writerNames() {
  std::string out;
  for (const Writer& w : writers()) out += (out.empty() ? "" : ", ") + std::string(w.name) + " (" + w.extensions.front() + ")";
  return out;
}

/// The writer named by `to` (a name or an extension), else by the extension of `path`.
const Writer& writerFor(const std::string& path, const std::optional<std::string>& to) {
  const auto dot = path.find_last_of('.');
  const std::string extension = toLower(dot == std::string::npos || path.find('/', dot) != std::string::npos ? "" : path.substr(dot));
  const std::string wanted = toLower(to.value_or(""));
  for (const Writer& w : writers()) {
    for (const std::string& e : w.extensions) {
      if (wanted.empty() ? extension == e : (wanted == w.name || wanted == e || "." + wanted == e)) return w;
    }
  }
  if (to) throw py::value_error("unknown output format '" + *to + "'; known: " + writerNames());
  throw py::value_error("cannot write '" + path + "': the extension must be one of " + writerNames() + " (or give to=)");
}

/// Writes `loaded` to `path` (no GIL while writing); returns the writer's warnings.
std::vector<Diagnostic> write(const LoadResult& loaded, const std::string& path, const std::optional<std::string>& to) {
  const Writer& writer = writerFor(path, to);
  Diagnostics diagnostics;
  bool written = false;
  std::optional<std::string> text;
  {
    py::gil_scoped_release release;
    text = writer.write(loaded, diagnostics);
    if (text) {
      std::ofstream out(path, std::ios::binary);
      out << *text;
      out.close();
      written = static_cast<bool>(out);
    }
  }
  if (!text) raise(diagnostics);
  if (!written) throw py::value_error("cannot write '" + path + "'");  // an OSError would lose the path context
  return diagnostics.items();
}

}  // namespace

void bindWriters(py::module_& module, py::class_<PyModel>& model) {
  model.def("convert", [](const PyModel& self, const py::object& path, const std::optional<std::string>& to) {
        return write(self.loaded(), py::module_::import("os").attr("fspath")(path).cast<std::string>(), to);
      }, py::arg("path"), py::arg("to") = py::none(),
      "Writes the model in the format named by `to` ('sdformat', 'urdf', 'mjcf', 'json', 'dot'), else\n"
      "by the extension of `path` (.sdf, .urdf, .mjcf, .json, .dot); returns the writer's warnings.\n"
      "Raises ValueError when the model cannot be written in that format.");
  module.def("_write", [](const PyModel& self, const std::string& path, const std::optional<std::string>& to) {
        return write(self.loaded(), path, to);
      }, py::arg("model"), py::arg("path"), py::arg("to"));
  module.def("_writers", [] {
        std::vector<std::pair<std::string, std::vector<std::string>>> out;
        for (const Writer& w : writers()) out.emplace_back(w.name, w.extensions);
        return out;
      }, "(name, extensions) of every writer.");
}

}  // namespace interlink::python
