// Claims ".urdf" and recognises <robot> surer than the URDF plugin does, but reads text only (it
// does not say readsXmlTree): a macro language's expansion must reach it written, not as a tree.
#include <string>
#include <string_view>

#include "OneLinkModel.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadTextOnly(const interlink::plugin::LoadRequest& request, interlink::Document& document,
                  interlink::Diagnostics& diagnostics) {
  const std::string_view text = request.content;
  if (request.tree != nullptr || text.find("<robot") == std::string_view::npos) {
    diagnostics.error(interlink::ErrorCode::PLUGIN_ERROR, "text_only_urdf was not given URDF text",
                      interlink::SourceLocation{request.path, 0, 0});
    return;
  }
  // The link is named after what the text holds, so the test sees that this text was read.
  const bool hasArm = text.find("<link name=\"arm\"") != std::string_view::npos;
  document.model = interlink::test::oneLinkModel("text_only", hasArm ? "read_arm_from_text" : "no_arm");
}

int sniffTextOnly(const char*, const char* head, std::size_t size) {
  return std::string_view(head, size).find("<robot") != std::string_view::npos ? 100 : 0;
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("text_only_urdf", "1.0", loadTextOnly, sniffTextOnly, ".urdf")
