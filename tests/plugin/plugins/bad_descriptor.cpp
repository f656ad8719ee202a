// Descriptors that fail the handshake, one library per variant (selected at compile time).
#include "interlink/plugin/PluginAbi.hpp"

namespace {

void loadNothing(const interlink::plugin::LoadRequest&, interlink::Document&, interlink::Diagnostics&) {}

const char* const kExtensions[] = {".bad", nullptr};
const char* const kNoExtensions[] = {nullptr};

interlink::plugin::FormatApi makeApi() {
  interlink::plugin::FormatApi api;
#if defined(BAD_NO_EXTENSION)
  api.extensions = kNoExtensions;
  (void)kExtensions;
#else
  api.extensions = kExtensions;
  (void)kNoExtensions;
#endif
  api.load = &loadNothing;
  return api;
}
const interlink::plugin::FormatApi kApi = makeApi();

interlink::plugin::PluginDescriptor makeDescriptor() {
  interlink::plugin::PluginDescriptor d;
  d.name = "bad_" BAD_VARIANT;
  d.version = "0.0";
  d.format = &kApi;
#if defined(BAD_API_VERSION)
  d.apiVersion = interlink::plugin::kApiVersion + 7;
#elif defined(BAD_DESCRIPTOR_SIZE)
  d.descriptorSize = sizeof(interlink::plugin::PluginDescriptor) - 8;  // an older, shorter layout
#elif defined(BAD_MODEL_ABI)
  d.modelAbi ^= 0x5a5a5a5au;
#endif
  return d;
}
const interlink::plugin::PluginDescriptor kDescriptor = makeDescriptor();

}  // namespace

extern "C" __attribute__((visibility("default"))) const interlink::plugin::PluginDescriptor* interlink_plugin_descriptor() {
  return &kDescriptor;
}
