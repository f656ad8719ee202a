// The HRDF format plugin: reads the file with the hardware registry of the host (the catalogs of
// every hardware plugin it loaded) and maps it onto the model.
#include "HrdfMapping.hpp"
#include "HrdfRobot.hpp"
#include "interlink/PluginRegistry.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

void loadHrdf(const interlink::plugin::LoadRequest& request, interlink::Document& document,
              interlink::Diagnostics& diagnostics) {
  interlink::hardware::HardwareRegistry registry;
  // The host passes its PluginRegistry; the hardware plugins among them supply every part.
  if (request.host && request.host->size >= sizeof(interlink::plugin::HostServices) &&
      request.host->hardwareRegistry) {
    registry = interlink::hardware::HardwareRegistry::fromPlugins(
        *static_cast<const interlink::PluginRegistry*>(request.host->hardwareRegistry));
  }
  interlink::hrdf::Robot robot;
  if (!interlink::hrdf::readRobot(request.content, request.path, registry, robot, diagnostics, request.host)) return;
  interlink::hrdf::mapRobot(robot, request.path, document, diagnostics);
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("hrdf", "1.6.0", loadHrdf, nullptr, ".hrdf")
