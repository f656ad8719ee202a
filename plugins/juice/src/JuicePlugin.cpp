// The Juice format plugin: read the file into its located XML tree, then map it onto the model.
#include "JuiceReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace juice = interlink::juice;
INTERLINK_REGISTER_FORMAT_PLUGIN("juice", "1.0.0",
                                 (interlink::plugin::readThenMap<interlink::xml::XmlElement, juice::readJuiceXml,
                                                                 juice::mapJuice>),
                                 juice::sniffJuice, ".jm", ".xml")
