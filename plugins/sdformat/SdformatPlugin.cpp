// The SDFormat format plugin: read the file into its located XML tree, then map it onto the model.
#include "SdfReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace sdformat = interlink::sdformat;
INTERLINK_REGISTER_FORMAT_PLUGIN("sdformat", "1.0.0",
                                 (interlink::plugin::readThenMap<sdformat::SdfXml, sdformat::readSdformatXml,
                                                                 sdformat::mapSdformat>),
                                 sdformat::sniffSdformat, ".sdf", ".world")
