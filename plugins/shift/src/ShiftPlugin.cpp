// Registration of the Shift multibody JSON reader.
#include "ShiftReader.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadShift(const interlink::plugin::LoadRequest& request, interlink::Document& document,
               interlink::Diagnostics& diagnostics) {
  interlink::shift::detail::readShift(request, document, diagnostics);
}

int sniffShift(const char* /*path*/, const char* head, std::size_t size) {
  return interlink::shift::detail::sniffShift(head, size);
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("shift", "1.0.0", loadShift, sniffShift, ".json")
