// The core-model JSON plugin: read the file into its records (the core model types, checked
// field by field), then map them onto the loaded document.
#include "CoreModelMapping.hpp"
#include "CoreModelReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace core_model = interlink::core_model;
INTERLINK_REGISTER_FORMAT_PLUGIN(
    "interlink_model", "1.0.0",
    (interlink::plugin::readThenMap<core_model::CoreModelFile, core_model::readCoreModel, core_model::mapCoreModel>),
    core_model::sniffCoreModel, ".json")
