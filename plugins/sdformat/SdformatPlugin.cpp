// The SDFormat format plugin: read the file into its located XML tree, then map it onto the model.
// Includes of a directory name the file its model.config lists (SDFormat's model directories).
#include "ModelDirectory.hpp"
#include "SdfReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace sdformat = interlink::sdformat;
INTERLINK_REGISTER_FORMAT_PLUGIN_WITH_DIRECTORIES(
    "sdformat", "1.0.0",
    (interlink::plugin::readThenMap<sdformat::SdfXml, sdformat::readSdformatXml, sdformat::mapSdformat>),
    sdformat::sniffSdformat, sdformat::modelFileInDirectory, ".sdf", ".world")
