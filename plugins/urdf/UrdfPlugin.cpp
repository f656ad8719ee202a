// The URDF format plugin: registration and the file sniffer.
#include <cstddef>
#include <string_view>

#include "UrdfReader.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadUrdf(const interlink::plugin::LoadRequest& request, interlink::Document& document,
              interlink::Diagnostics& diagnostics) {
  interlink::urdf::readUrdf(request, document, diagnostics);
}

/// A URDF file has a <robot> root element.
int sniffUrdf(const char*, const char* head, std::size_t size) {
  const std::string_view text(head ? head : "", head ? size : 0);
  return text.find("<robot") != std::string_view::npos ? 90 : 10;
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("urdf", "1.0.0", loadUrdf, sniffUrdf, ".urdf")
