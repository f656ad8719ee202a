// The SDFormat format plugin: registration and the file sniffer.
#include <cstring>
#include <string_view>

#include "ModelDirectory.hpp"
#include "SdfReader.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadSdformat(const interlink::plugin::LoadRequest& request, interlink::Document& document,
                  interlink::Diagnostics& diagnostics) {
  interlink::sdformat::readSdformat(request.content, request.path, document, diagnostics);
}

/// An SDFormat file has an <sdf> root element; anything else with our extension is unlikely ours.
int sniffSdformat(const char*, const char* head, std::size_t size) {
  const std::string_view text(head, size);
  return text.find("<sdf") != std::string_view::npos ? 90 : 10;
}

}  // namespace

// Includes of a directory name the file its model.config lists (SDFormat's model directories).
INTERLINK_REGISTER_FORMAT_PLUGIN_WITH_DIRECTORIES("sdformat", "1.0.0", loadSdformat, sniffSdformat,
                                                  interlink::sdformat::modelFileInDirectory, ".sdf", ".world")
