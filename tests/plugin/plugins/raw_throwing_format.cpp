// A plugin written without Register.hpp whose load function throws through the C ABI table:
// the host's own guard must contain it.
#include <stdexcept>

#include "interlink/plugin/PluginAbi.hpp"

namespace {

void loadAndThrow(const interlink::plugin::LoadRequest&, interlink::Document&, interlink::Diagnostics&) {
  throw 42;  // not even a std::exception
}

const char* const kExtensions[] = {".rawthrow", nullptr};

interlink::plugin::FormatApi makeApi() {
  interlink::plugin::FormatApi api;
  api.extensions = kExtensions;
  api.load = &loadAndThrow;
  return api;
}
const interlink::plugin::FormatApi kApi = makeApi();

interlink::plugin::PluginDescriptor makeDescriptor() {
  interlink::plugin::PluginDescriptor d;
  d.name = "raw_thrower";
  d.version = "0.1";
  d.format = &kApi;
  return d;
}
const interlink::plugin::PluginDescriptor kDescriptor = makeDescriptor();

}  // namespace

extern "C" __attribute__((visibility("default"))) const interlink::plugin::PluginDescriptor* interlink_plugin_descriptor() {
  return &kDescriptor;
}
