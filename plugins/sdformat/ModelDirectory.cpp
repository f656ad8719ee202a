#include "ModelDirectory.hpp"

#include <cstdlib>
#include <filesystem>

#include "interlink/io/ModelFile.hpp"
#include "interlink/xml/XmlParser.hpp"

namespace interlink::sdformat {

std::string modelFileInDirectory(const std::string& directory, const std::string& uri, const SourceLocation& where,
                                 Diagnostics& diagnostics) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path config = fs::path(directory) / "model.config";
  if (!fs::exists(config, ec)) {
    // libsdformat 12 requires the manifest; so do we, with the file it should name.
    diagnostics.error(ErrorCode::URI_LOOKUP,
                      "unable to resolve uri[" + uri + "] to a model file: the directory '" + directory +
                          "' has no model.config (expected <model><sdf version=\"1.9\">model.sdf</sdf></model>)",
                      where);
    return {};
  }
  // The manifest gets the checks of every model file (a regular text file of bounded size); the
  // include service has applied the path policy to its directory already.
  auto text = io::readRegularFile(config.string(), io::kDefaultMaxFileBytes, where, diagnostics);
  if (!text || !io::checkModelText(*text, config.string(), diagnostics)) return {};
  Diagnostics configDiagnostics;
  // Gazebo reads model.config with TinyXML2, flaws and all.
  auto root = xml::parse(*text, config.string(), configDiagnostics, xml::toleratingLike(xml::Tolerance::LikeTinyXml2));
  if (!root) {
    diagnostics.append(configDiagnostics);
    return {};
  }
  std::string chosen;
  double best = -1;
  for (const auto* sdf : root->childrenNamed("sdf")) {
    const double version = std::strtod(sdf->attributeOr("version", "0").c_str(), nullptr);
    if (version <= 1.9 + 1e-9 && version > best) {
      best = version;
      chosen = sdf->trimmedText();
    }
  }
  if (chosen.empty()) diagnostics.error(ErrorCode::URI_LOOKUP, "'" + config.string() + "' names no <sdf> file", where);
  return chosen;
}

}  // namespace interlink::sdformat
