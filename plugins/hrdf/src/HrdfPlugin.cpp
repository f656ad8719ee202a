// The HRDF format plugin: read the file into HrdfRobot records with the hardware registry of the
// host (the catalogs of every hardware plugin it loaded), then map them onto the model.
#include "HrdfMapping.hpp"
#include "HrdfRobot.hpp"
#include "interlink/PluginRegistry.hpp"
#include "interlink/hardware/HardwareRegistry.hpp"
#include "interlink/plugin/ReadThenMap.hpp"
#include "interlink/plugin/Register.hpp"

namespace {

bool readHrdf(const interlink::plugin::LoadRequest& request, interlink::hrdf::Robot& robot,
              interlink::Diagnostics& diagnostics) {
  interlink::hardware::HardwareRegistry registry;
  // The host passes its PluginRegistry; the hardware plugins among them supply every part.
  if (request.host && request.host->size >= sizeof(interlink::plugin::HostServices) &&
      request.host->hardwareRegistry) {
    registry = interlink::hardware::HardwareRegistry::fromPlugins(
        *static_cast<const interlink::PluginRegistry*>(request.host->hardwareRegistry));
  }
  return interlink::hrdf::readRobot(request.content, request.path, registry, robot, diagnostics, request.host);
}

void mapHrdf(const interlink::hrdf::Robot& robot, const interlink::plugin::LoadRequest& request,
             interlink::Document& document, interlink::Diagnostics& diagnostics) {
  interlink::hrdf::mapRobot(robot, request.path, document, diagnostics);
}

}  // namespace

INTERLINK_REGISTER_FORMAT_PLUGIN("hrdf", "1.6.0",
                                 (interlink::plugin::readThenMap<interlink::hrdf::Robot, readHrdf, mapHrdf>),
                                 nullptr, ".hrdf")
