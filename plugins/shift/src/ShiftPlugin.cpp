// The Shift multibody JSON plugin: read the file into records, then map them onto the model.
#include "ShiftMapping.hpp"
#include "ShiftReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

int sniffShift(const char* /*path*/, const char* head, std::size_t size) {
  return interlink::shift::detail::sniffShift(head, size);
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("shift", "1.0.0",
                                 (interlink::plugin::readThenMap<interlink::shift::detail::ShiftFile,
                                                                 interlink::shift::detail::readShiftFile,
                                                                 interlink::shift::detail::mapShiftFile>),
                                 sniffShift, ".json")
