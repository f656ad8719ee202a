// The MJCF format plugin: registration and the sniffer that claims .xml files with a <mujoco> root.
#include <algorithm>
#include <cstddef>
#include <string_view>

#include "MjcfMapping.hpp"
#include "MjcfReader.hpp"
#include "interlink/TextNumbers.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadMjcf(const interlink::plugin::LoadRequest& request, interlink::Document& document,
              interlink::Diagnostics& diagnostics) {
  interlink::mjcf::MjcfModel model;
  if (!interlink::mjcf::readMjcf(request.content, request.path, request.host, model, diagnostics)) return;
  interlink::mjcf::mapModel(model, request.path, document, diagnostics);
}

/// The first element of the file (after the XML declaration, comments and white space) is <mujoco>.
int sniffRoot(const char* head, std::size_t size) {
  std::string_view text(head ? head : "", head ? size : 0);
  std::size_t at = 0;
  while ((at = text.find('<', at)) != std::string_view::npos) {
    const std::string_view rest = text.substr(at);
    if (rest.rfind("<?", 0) == 0) {
      at = text.find("?>", at);
    } else if (rest.rfind("<!--", 0) == 0) {
      at = text.find("-->", at);
    } else if (rest.rfind("<!", 0) == 0) {
      at = text.find('>', at);
    } else {
      const std::string_view name = rest.substr(1, 6);
      const bool mujoco = name == "mujoco" && (rest.size() == 7 || std::string_view(" \t\r\n>/").find(rest[7]) != std::string_view::npos);
      return mujoco ? 95 : 0;
    }
    if (at == std::string_view::npos) break;
  }
  return 0;
}

/// `.xml` is claimed only for a <mujoco> root; a `.mjcf` file is ours whatever it holds, so
/// that a wrong root gets the plugin's own diagnostic.
int sniffMjcf(const char* path, const char* head, std::size_t size) {
  const int score = sniffRoot(head, size);
  const std::string_view name(path ? path : "");
  const bool mjcfExtension = name.size() >= 5 && interlink::toLower(name.substr(name.size() - 5)) == ".mjcf";
  return mjcfExtension ? std::max(score, 50) : score;
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("mjcf", "2.2.2", loadMjcf, sniffMjcf, ".xml", ".mjcf")
