// The "skel" format plugin, DART's .skel files (DART 6.12 semantics, see docs/skel.md): read the
// file into SkelFile records, then map them onto the model.
#include "SkelMapping.hpp"
#include "SkelReader.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace skel = interlink::skel::detail;
INTERLINK_REGISTER_FORMAT_PLUGIN("skel", "1.0.0",
                                 (interlink::plugin::readThenMap<skel::SkelFile, skel::readSkelFile, skel::mapSkelFile>),
                                 skel::sniffSkel, ".skel")
