// The Shift multibody JSON plugin: read the file into ShiftFile records, then map them onto the model.
#include "ShiftMapping.hpp"
#include "ShiftReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace shift = interlink::shift::detail;
INTERLINK_REGISTER_FORMAT_PLUGIN("shift", "1.0.0",
                                 (interlink::plugin::readThenMap<shift::ShiftFile, shift::readShiftFile, shift::mapShiftFile>),
                                 shift::sniffShift, ".json")
