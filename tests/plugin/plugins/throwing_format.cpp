// A plugin whose load function throws: the register side must contain it.
#include <stdexcept>

#include "interlink/plugin/Register.hpp"

namespace {

void loadAndThrow(const interlink::plugin::LoadRequest&, interlink::Document&, interlink::Diagnostics&) {
  throw std::runtime_error("boom from the plugin");
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("thrower", "0.1", loadAndThrow, nullptr, ".throw")
