// The "skel" format plugin: DART's .skel files (DART 6.12 semantics, see docs/skel.md).
#include <cstring>
#include <string_view>

#include "SkelReader.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadSkel(const interlink::plugin::LoadRequest& request, interlink::Document& document,
              interlink::Diagnostics& diagnostics) {
  interlink::skel::detail::readSkel(request.content, request.path, request.host, document, diagnostics);
}

int sniffSkel(const char* /*path*/, const char* head, std::size_t headSize) {
  const std::string_view text(head, headSize);
  // Only the extension speaks for a file without <skel>: claim it weakly, so that the reader can
  // say what is wrong with it instead of "no parser".
  return text.find("<skel") != std::string_view::npos ? 90 : 10;
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("skel", "1.0.0", loadSkel, sniffSkel, ".skel")
