// The URDF format plugin: read the file into its located XML tree, then map it onto the model.
#include "UrdfReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace urdf = interlink::urdf;
INTERLINK_REGISTER_XML_FORMAT_PLUGIN("urdf", "1.0.0",
                                     (interlink::plugin::readThenMap<interlink::xml::XmlElement, urdf::readUrdfXml,
                                                                     urdf::mapUrdf>),
                                     urdf::sniffUrdf, ".urdf")
