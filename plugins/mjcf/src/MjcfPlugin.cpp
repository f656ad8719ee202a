// The MJCF format plugin: registration and the sniffer that claims .xml files with a <mujoco> root.
#include <algorithm>
#include <cstddef>
#include <string_view>

#include "MjcfMapping.hpp"
#include "MjcfReader.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/plugin/Register.hpp"
#include "interlink/xml/XmlValues.hpp"

namespace {

void loadMjcf(const interlink::plugin::LoadRequest& request, interlink::Document& document,
              interlink::Diagnostics& diagnostics) {
  interlink::mjcf::MjcfModel model;
  if (!interlink::mjcf::readMjcf(request.content, request.path, request.host, model, diagnostics)) return;
  interlink::mjcf::mapModel(model, request.path, document, diagnostics);
}

/// `.xml` is claimed only for a <mujoco> root; a `.mjcf` file is ours whatever it holds, so
/// that a wrong root gets the plugin's own diagnostic.
int sniffMjcf(const char* path, const char* head, std::size_t size) {
  const int score = interlink::xml::headRootIs(head, size, "mujoco") ? 95 : 0;
  const std::string_view name(path ? path : "");
  const bool mjcfExtension = name.size() >= 5 && interlink::toLower(name.substr(name.size() - 5)) == ".mjcf";
  return mjcfExtension ? std::max(score, 50) : score;
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("mjcf", "2.2.2", loadMjcf, sniffMjcf, ".xml", ".mjcf")
